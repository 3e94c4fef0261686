"""Settings come from the environment, and a bad value stops start-up naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent.parent


def load_settings(**environment):
    """Import the settings in a fresh interpreter, as a server start would."""
    env = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "DEBUG"}}
    env.pop("DATABASE_URL", None)
    env.update(environment)
    code = (
        "import json, config.settings as s; "
        "print(json.dumps([s.DEBUG, s.ALLOWED_HOSTS, s.DATABASES['default']['ENGINE']]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("environment", "named"),
    [
        ({"SECRET_KEY": "k", "DEBUG": "maybe"}, "DEBUG='maybe'"),
        ({}, "SECRET_KEY is not set"),
        ({"SECRET_KEY": "k", "ALLOWED_HOSTS": "a.org,,b.org"}, "ALLOWED_HOSTS="),
        ({"SECRET_KEY": "k", "DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL='mysql://x@y/z'"),
        ({"SECRET_KEY": "k", "DATABASE_URL": "nonsense"}, "DATABASE_URL='nonsense'"),
        ({"SECRET_KEY": "k", "DATABASE_URL": "sqlite://"}, "DATABASE_URL='sqlite://'"),
        ({"SECRET_KEY": "k", "PHOTO_MAX_BYTES": "8MB"}, "PHOTO_MAX_BYTES='8MB'"),
    ],
)
def test_a_malformed_value_stops_start_up_naming_the_variable(environment, named):
    result = load_settings(**environment)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert named in result.stderr


def load_setting(name: str, **environment) -> str:
    env = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "DEBUG"}}
    env.update(environment)
    code = f"import config.settings as s; print(s.{name})"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_serves_fresh_pages_and_production_keeps_them():
    """Under `make run` (DEBUG) a template edit shows on the next reload: no page is kept."""
    assert load_setting("SITE_CACHE", DEBUG="1") == "False"
    assert load_setting("SITE_CACHE", SECRET_KEY="k") == "True"
    assert load_setting("SITE_CACHE", DEBUG="1", SITE_CACHE="1") == "True"


def test_debug_is_off_unless_asked_for():
    result = load_settings(SECRET_KEY="k")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[false,")


def test_debug_runs_without_a_secret_key_for_local_development():
    result = load_settings(DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[true,")


def test_postgres_url_selects_postgresql_and_hosts_are_read_as_a_list():
    result = load_settings(
        SECRET_KEY="k",
        ALLOWED_HOSTS="lab.example.org, www.lab.example.org",
        DATABASE_URL="postgres://lab:secret@127.0.0.1:5432/lab",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        '[false, ["lab.example.org", "www.lab.example.org"], "django.db.backends.postgresql"]'
    )
