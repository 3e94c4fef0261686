"""Start-up warns when the site sits behind a proxy and django-axes was not told how many."""

import secrets

import pytest

from base.checks import proxy_count_is_set_behind_a_proxy
from tests.config.test_security import run_manage

PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "lab.example.org",
}


def test_production_behind_a_proxy_without_a_proxy_count_warns_at_start_up():
    result = run_manage("check", **PRODUCTION)
    assert "directory.W001" in result.stderr + result.stdout
    assert "AXES_PROXY_COUNT" in result.stderr + result.stdout


def test_a_proxy_count_given_silences_the_warning():
    result = run_manage("check", "--fail-level", "WARNING", AXES_PROXY_COUNT="1", **PRODUCTION)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("behind_proxy", "count_set", "warns"),
    [(True, False, True), (True, True, False), (False, False, False)],
)
def test_the_warning_depends_on_the_proxy_and_the_count(settings, behind_proxy, count_set, warns):
    """AXES_PROXY_COUNT=0 set on purpose (a proxy that passes the client's address) is set."""
    settings.BEHIND_HTTPS_PROXY = behind_proxy
    settings.AXES_PROXY_COUNT_SET = count_set
    warnings = proxy_count_is_set_behind_a_proxy()
    assert [warning.id for warning in warnings] == (["directory.W001"] if warns else [])
