"""What runs outside a test's own cache (a test class's setUpTestData, the migrations making
the test database) writes to a cache in memory, not to the folder of files every site on the
machine shares by default (tests/conftest.py, _session_cache)."""

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import TestCase

from tests.factories import make_publication


class CacheOfATestClassSetUp(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.backend = type(caches["default"])
        make_publication()  # its save moves the change stamp in that cache

    def test_a_test_class_set_up_writes_to_memory_not_to_the_machines_cache_folder(self):
        assert issubclass(self.backend, LocMemCache)
