"""A member says "This is me" on a paper's page and an editor accepts it in the queue; a
visitor without JavaScript sends a correction."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import STAFF_USER, VIEWPORTS, shell, signed_in_page

MEMBER = "browser-claimer"
MEMBER_PASSWORD = "a-long-claimer-password"
PAPER = "a-paper-to-claim"
MAKE_MEMBER_AND_PAPER = f"""
from django.contrib.auth.models import Group, User
from people.models import Person
from publications.models import Authorship, Publication
login = User.objects.create_user({MEMBER!r}, password={MEMBER_PASSWORD!r}, is_staff=True)
login.groups.add(Group.objects.get(name="Member logins"))
Person.objects.create(name="Claire Claimer", slug="claire-claimer", user=login)
paper = Publication.objects.create(title="A Paper to Claim", slug={PAPER!r}, year=2026)
Authorship.objects.create(publication=paper, position=1, name="C. Claimer")
Authorship.objects.create(publication=paper, position=2, name="Someone Else")
"""
# The served site is shared by the whole browser suite: what this module adds, it takes away
# (the people list's tests count the seeded members' cards).
REMOVE_MEMBER_AND_PAPER = f"""
from django.contrib.auth.models import User
from people.models import Person
from publications.models import Publication
Publication.objects.filter(slug={PAPER!r}).delete()
Person.objects.filter(slug="claire-claimer").delete()
User.objects.filter(username={MEMBER!r}).delete()
"""


@pytest.fixture(scope="module")
def paper_to_claim(site_url, server_environment) -> Iterator[str]:
    shell(server_environment, MAKE_MEMBER_AND_PAPER)
    yield f"/publications/{PAPER}/"
    shell(server_environment, REMOVE_MEMBER_AND_PAPER)


def test_a_member_claims_an_author_and_an_editor_accepts_it(browser, site_url, paper_to_claim):
    page = signed_in_page(browser, site_url, MEMBER, MEMBER_PASSWORD)
    page.goto(paper_to_claim)
    page.get_by_role("link", name="Claim or correct").click()
    page.get_by_role("button", name="This is me (C. Claimer)").click()
    expect(page.locator(".claims .notice")).to_contain_text("waits for an editor")
    expect(page.locator(".claims__mine")).to_contain_text("Waiting for an editor")
    page.context.close()

    editor = signed_in_page(browser, site_url)
    editor.goto("/admin/")
    editor.get_by_role("link", name="Claims and corrections").first.click()
    expect(editor.locator("#result_list")).to_contain_text("This is me for the author “C. Claimer”")
    editor.get_by_role("button", name="Accept").first.click()
    expect(editor.locator(".messagelist")).to_contain_text(
        f"Claimed by Claire Claimer as “C. Claimer”, accepted by {STAFF_USER}"
    )
    editor.context.close()

    member = signed_in_page(browser, site_url, MEMBER, MEMBER_PASSWORD)
    member.goto(f"{paper_to_claim}claims/")
    expect(member.locator(".claims__mine")).to_contain_text("Accepted")
    expect(member.get_by_role("button", name="Not me (C. Claimer)")).to_be_visible()
    member.context.close()


def test_a_visitor_without_javascript_sends_a_correction(browser, site_url, paper_to_claim):
    context = browser.new_context(
        viewport=VIEWPORTS["desktop"], base_url=site_url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"{paper_to_claim}claims/")
    page.get_by_label("What is wrong?").fill("The year is 2025, not 2026.")
    page.get_by_role("button", name="Send the correction").click()
    expect(page.locator(".claims .notice")).to_contain_text("Thank you")
    context.close()
