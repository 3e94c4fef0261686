"""Every admin page an editor opens (GET) answers while another connection holds SQLite's one
write lock: an import's batch, a colleague's save. A page that only shows must not wait for
the lock; when it did (a transaction opened for the page, a row written while showing it), it
waited out the busy timeout and answered 500 "database is locked" under `make load`.

The site runs on its own SQLite file (tests/live_site.py), whatever database the tests use,
with the busy timeout cut to 1 s; the lock is held by a plain `BEGIN IMMEDIATE` beside it.
"""

import re
import sqlite3

from tests.live_site import StaffMember, prepare_site, served, site_environment


def first_link(editor: StaffMember, page: str, pattern: str) -> str:
    found = re.search(pattern, editor.get(page).body)
    assert found, f"{page} links to nothing like {pattern}"
    return found[0]


def admin_pages(editor: StaffMember) -> list[str]:
    """A change form, a delete confirmation, a history page and a version page of a paper
    and of a person, the lists and the project's own admin pages."""
    pages = ["/admin/"]
    for listing in ("/admin/publications/publication/", "/admin/people/person/"):
        change = first_link(editor, listing, rf"{listing}\d+/change/")
        item = change.removesuffix("change/")
        version = first_link(editor, f"{item}history/", rf"{item}history/\d+/")
        pages += [listing, change, f"{item}delete/", f"{item}history/", version]
    return [
        *pages,
        "/admin/publications/publication/deleted/",
        "/admin/publications/publication/add/",
        "/admin/publications/publication/import-bibtex/",
        "/admin/publications/publication/add-by-identifier/",
        "/admin/publications/claim/",
        "/admin/publications/suggestion/",
        "/admin/outputs/output/import/",
        "/admin/news/newsitem/",
        "/admin/auth/user/",
    ]


def test_every_admin_page_opens_while_another_connection_holds_the_write_lock(
    tmp_path, collected_static
):
    environment = site_environment(
        tmp_path, STATIC_ROOT=str(collected_static), SQLITE_BUSY_TIMEOUT="1"
    )
    prepare_site(environment, staff=["editor"], collect_static=False)
    with served(environment, tmp_path) as url:
        editor = StaffMember(url, "editor")
        pages = admin_pages(editor)
        assert {page: editor.get(page).status for page in pages} == dict.fromkeys(pages, 200)
        holder = sqlite3.connect(tmp_path / "site.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            answers = {page: editor.get(page).status for page in pages}
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert answers == dict.fromkeys(pages, 200)
