"""The staff guide's walk, in the browser: an editor signs in, gives a member a login (the member
chooses a password at the one-time address, signs in, finds "My papers" and claims an author
row), adds a paper by DOI, uploads BibTeX and reviews it, sees the member's claim waiting in the
claims queue, posts news, merges two records of one co-author and undoes it from the merge's
page, opens a paper's history and the lab's identity settings, adds a funder and a project
with its people and grants; every picture docs/staff-guide.md shows is one the walk took.

Each step is photographed for docs/staff-guide.md: into test-artifacts/screenshots/staff-guide/
on a test run, into docs/staff-guide/ when STAFF_GUIDE_DIR says so (`make screenshots`)."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, VIEWPORTS, shell_rows, signed_in_page
from tests.browser.test_add_by_identifier import fetching_site  # noqa: F401  (a fixture)

GUIDE = Path(os.environ.get("STAFF_GUIDE_DIR") or SCREENSHOTS / "staff-guide")
GUIDE_TEXT = Path(__file__).resolve().parents[2] / "docs" / "staff-guide.md"
MEMBER_PASSWORD = "a-long-password-the-member-chose"
BIBTEX = """@inproceedings{zhu2026guide,
  title = {Reviewing a BibTeX Upload Before It Is Saved},
  author = {Hang Zhu and Ada Outsider},
  booktitle = {Proceedings of the 23rd USENIX Symposium on Networked Systems Design and Implementation},
  year = {2026},
  doi = {10.5555/guide.2026},
}
"""
CLAIMED_PAPER = "a-paper-the-member-claims"
ANOTHER_XIN_JIN = f"""
from people.models import ExternalPerson
from publications.models import Authorship, Publication
ExternalPerson.objects.create(name="X. Jin", slug="x-jin", affiliation="Peking University")
paper = Publication.objects.create(title="Serving Models at the Edge", slug={CLAIMED_PAPER!r}, year=2026)
Authorship.objects.create(publication=paper, position=1, name="H. Zhang")
Authorship.objects.create(publication=paper, position=2, name="Ada Outsider")
"""
PUT_BACK = f"""
from django.contrib.auth.models import User
from people.models import ExternalPerson, Person
from publications.models import Publication
Publication.objects.filter(slug={CLAIMED_PAPER!r}).delete()  # and the claim on it
ExternalPerson.objects.filter(slug="x-jin").delete()
Person.objects.filter(slug="haoran-zhang").update(user=None)
User.objects.filter(username="haoran-zhang").delete()
"""


def shoot(page, name: str) -> None:
    GUIDE.mkdir(parents=True, exist_ok=True)
    # A click that submits a form may still be loading the next page: Chromium cannot capture
    # a page mid-navigation ("Unable to capture screenshot", seen once on PostgreSQL).
    page.wait_for_load_state("load")
    page.screenshot(path=GUIDE / f"{name}.png")


def test_a_new_administrator_walks_through_the_common_tasks(
    browser,
    site_url,
    server_environment,
    fetching_site,  # noqa: F811
):
    with shell_rows(server_environment, ANOTHER_XIN_JIN, PUT_BACK):
        walk(browser, site_url, fetching_site)


def walk(browser, site_url, fetching_site) -> None:  # noqa: F811
    login = browser.new_context(viewport=VIEWPORTS["desktop"], base_url=site_url)
    shoot_login = login.new_page()
    shoot_login.goto("/admin/login/")
    shoot(shoot_login, "01-sign-in")
    login.close()

    page = signed_in_page(browser, site_url)
    expect(page.get_by_role("heading", name="What to edit")).to_be_visible()
    shoot(page, "02-index")

    # Give a member a login: two clicks on the person's page, then the address to send.
    page.goto("/admin/people/person/")
    page.get_by_role("link", name="Haoran Zhang").click()
    page.get_by_role("link", name="Give a login").click()
    shoot(page, "03-give-a-login")
    page.get_by_role("button", name="Give the login").click()
    expect(page.get_by_role("heading", name="Haoran Zhang has a login")).to_be_visible()
    address = page.get_by_label("Address for choosing a password").input_value()
    shoot(page, "04-login-given")

    member = browser.new_context(viewport=VIEWPORTS["desktop"], base_url=site_url)
    member_page = member.new_page()
    member_page.set_default_timeout(10_000)
    member_page.goto(address)
    member_page.locator("#id_new_password1").fill(MEMBER_PASSWORD)
    member_page.locator("#id_new_password2").fill(MEMBER_PASSWORD)
    shoot(member_page, "05-member-chooses-a-password")
    member_page.get_by_role("button", name="Change my password").click()
    expect(member_page.get_by_role("heading", name="Your password is set")).to_be_visible()
    member.close()
    signed_in = signed_in_page(browser, site_url, "haoran-zhang", MEMBER_PASSWORD)
    expect(signed_in.get_by_role("heading", name="Edit my profile")).to_be_visible()
    shoot(signed_in, "06-member-edits-their-profile")
    signed_in.get_by_role("link", name="My papers").click()
    expect(signed_in.get_by_role("heading", name="My papers")).to_be_visible()
    shoot(signed_in, "07-my-papers")
    # The member says "This is me" on a paper's row printed with their initial; it waits.
    signed_in.goto(f"/publications/{CLAIMED_PAPER}/claims/")
    signed_in.get_by_role("button", name="This is me (H. Zhang)").click()
    expect(signed_in.locator(".claims .notice")).to_contain_text("waits for an editor")
    signed_in.context.close()

    # Add a paper by DOI (the services played by recorded responses).
    by_doi = signed_in_page(browser, fetching_site)
    by_doi.goto("/admin/publications/publication/")
    by_doi.get_by_role("link", name="Add by DOI, arXiv id, ORCID…").click()
    by_doi.get_by_label("DOIs, arXiv ids").fill("10.1145/3603269.3604826\n")
    shoot(by_doi, "08-add-by-doi")
    by_doi.get_by_role("button", name="Review the entries").click()
    expect(by_doi.locator("#result_list")).to_contain_text("Scheduling Optical Circuits")
    shoot(by_doi, "09-add-by-doi-review")
    by_doi.context.close()

    # Upload BibTeX and review it (left unimported).
    page.goto("/admin/publications/publication/")
    page.get_by_role("link", name="Import BibTeX").click()
    page.get_by_label("Or paste BibTeX").fill(BIBTEX)
    shoot(page, "10-bibtex-upload")
    page.get_by_role("button", name="Review the entries").click()
    expect(page.locator("#result_list")).to_contain_text("Reviewing a BibTeX Upload")
    shoot(page, "11-bibtex-review")

    # The claims queue, with the member's claim waiting (section 5a).
    page.goto("/admin/")
    page.get_by_role("link", name="Claims and corrections").first.click()
    expect(page.locator("#result_list")).to_contain_text("This is me for the author “H. Zhang”")
    expect(page.get_by_role("button", name="Accept").first).to_be_visible()
    shoot(page, "11a-claims-queue")

    # Post news.
    page.goto("/admin/news/newsitem/add/")
    shoot(page, "12-post-news")

    # Merge two records of one co-author, then undo it from the merge's page.
    page.goto("/admin/people/externalperson/?q=Jin")
    for name in ("Xin Jin", "X. Jin"):
        page.locator("#result_list tr", has_text=name).locator("input.action-select").check()
    page.locator("select[name='action']").select_option("merge_selected")
    page.locator("button[name='index']").click()
    expect(page.get_by_role("button", name="Merge")).to_be_visible()
    shoot(page, "13-merge")
    page.get_by_role("button", name="Merge").click()
    expect(page.locator(".messagelist")).to_contain_text("Merged")
    page.locator(".messagelist").get_by_role("link", name="Undo it").click()
    shoot(page, "14-merge-page-with-undo")
    page.get_by_role("button", name="Undo this merge").click()
    expect(page.locator(".messagelist")).to_contain_text("Undone:")
    shoot(page, "15-merge-undone")

    # A paper's history, and a version to revert to.
    page.goto("/admin/publications/publication/?q=CausalMesh")
    page.locator("#result_list a", has_text="CausalMesh").first.click()
    page.get_by_role("link", name="History").click()
    shoot(page, "16-history")

    # The lab's name, logo and colours.
    page.goto("/admin/directory/lab/")
    shoot(page, "17-identity-settings")

    # Projects and grants: a funder (left unsaved), then a project with its people and grants.
    page.goto("/admin/")
    page.locator("#content-main").get_by_role("link", name="Funders").click()
    page.get_by_role("link", name="Add funder").click()
    page.locator("#id_name").fill("European Research Council")
    page.locator("#id_registry_id").fill("10.13039/501100000781")
    shoot(page, "18-add-a-funder")
    page.goto("/admin/")
    page.locator("#content-main").get_by_role("link", name="Projects", exact=True).click()
    page.get_by_role("link", name="Add project").click()
    page.locator("#id_title").fill("Reconfigurable networks")
    expect(page.get_by_role("heading", name="People (in order, with their roles)")).to_be_visible()
    expect(page.get_by_role("heading", name="Grants")).to_be_visible()
    shoot(page, "19-add-a-project")
    page.context.close()

    # Every picture the guide shows was taken by this walk.
    shown = set(re.findall(r"\(staff-guide/([\w-]+)\.png\)", GUIDE_TEXT.read_text()))
    assert shown == {picture.stem for picture in GUIDE.glob("*.png")}
