"""Every cache is listed in one module, base/caches.py, and only that module builds a cache
key or reads and writes Django's cache: a value kept anywhere else could follow no one's rule
and go stale."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from base import caches, site_cache

ROOT = Path(settings.BASE_DIR)
APPS = [
    "config", "base", "events", "news", "outputs", "pages", "people", "projects", "publications"
]  # fmt: skip
NOT_YET: set[str] = set()
CACHE_ACCESS = re.compile(
    r"\bcache\.(get|set|add|delete|incr|decr|get_or_set|get_many|set_many|delete_many|touch|clear)"
    r"\(|from django\.core\.cache import|make_template_fragment_key|\bcaches\[|\bcache_page\b"
)


def project_modules() -> list[Path]:
    return [
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and path.relative_to(ROOT).as_posix() not in NOT_YET
    ]


def test_no_module_but_the_registry_reads_the_cache_or_builds_a_key():
    readers = {
        path.relative_to(ROOT).as_posix()
        for path in project_modules()
        if CACHE_ACCESS.search(path.read_text())
    }
    assert readers == {"base/caches.py"}


def test_no_key_names_a_cache_outside_the_registry():
    """A key is a registered name followed by ":" and its parts, written in caches.py only."""
    names = "|".join(re.escape(name) for name in caches.REGISTRY)
    key = re.compile(rf"""f["']({names}):""")
    writers = {
        path.relative_to(ROOT).as_posix()
        for path in project_modules()
        if key.search(path.read_text())
    }
    assert writers <= {"base/caches.py"}


def test_each_cache_says_what_it_keeps_what_moves_it_and_its_tier():
    for entry in caches.REGISTRY.values():
        assert entry.keeps and entry.moved_by, entry.name
        assert entry.tier in (caches.PER_PROCESS, caches.SHARED, caches.HTTP), entry.name


def test_a_value_kept_under_a_name_not_in_the_registry_is_refused():
    with pytest.raises(KeyError, match="not a cache listed"):
        site_cache.cached("unlisted-thing", None, lambda: 1)
