"""A restore writes its rows beneath the models' signals, so it moves the change stamp itself:
no page cached before it is served after (base/site_cache.py)."""

from tests.base.test_backup_restore import database_urls  # noqa: F401  (the fixture)
from tests.live_site import manage, migrated, site_environment

STAMP = "from base.site_cache import current_stamp; print(current_stamp())"


def test_a_restore_moves_the_change_stamp(tmp_path, database_urls):  # noqa: F811
    cache = f"file://{tmp_path / 'cache'}"
    source, target = (
        site_environment(
            tmp_path / side, DATABASE_URL=database_urls[side], DEBUG="1", CACHE_URL=cache
        )
        for side in ("source", "target")
    )
    migrated(source)
    archive = tmp_path / "site.tar.gz"
    manage(source, "backup", "--output", str(archive))
    before = manage(target, "shell", "-c", STAMP)
    assert manage(target, "shell", "-c", STAMP) == before  # kept while nothing changes
    manage(target, "restore", str(archive))
    assert manage(target, "shell", "-c", STAMP) != before
