"""Rows a module's or class's pytest functions share, made once instead of once per test.

The rows are made in a transaction of their own around the tests that use them; each test's
own (pytest-django's, as for any `django_db` test) is a savepoint inside it, so a test sees
them as made and rolls back only its own changes; the rows go when the last of those tests
is done. For tests that only need the rows there: not for `transaction=True` tests, which
commit. Django's `TestCase.setUpTestData` does the same for test classes.
"""

import contextlib
from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.test import override_settings

from base import site_cache


@contextlib.contextmanager
def shared_rows(django_db_blocker: Any) -> Iterator[None]:
    """Inside it, make the rows: they stay until it exits. The page cache the rows' saves move
    is one of their own, as each test's is (tests/conftest.py), not the machine's."""
    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared"}
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(CACHES={"default": local}):
            yield
            site_cache._kept.clear()
        transaction.set_rollback(True)
