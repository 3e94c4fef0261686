"""A member signs in, lands on their own profile, edits it, and adds a paper at a venue the
site does not have yet; the forms they use fit a phone and a laptop without sideways
scrolling."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, has_horizontal_scroll, shell, signed_in_page

MEMBER = "browser-member"
MEMBER_PASSWORD = "a-long-member-password"
MAKE_MEMBER = f"""
from django.contrib.auth.models import Group, User
from people.models import Person
login = User.objects.create_user({MEMBER!r}, password={MEMBER_PASSWORD!r}, is_staff=True)
login.groups.add(Group.objects.get(name="Member logins"))
Person.objects.filter(slug="zerui-wang").update(user=login)
"""


@pytest.fixture(scope="module")
def member_login(site_url, server_environment):
    """Zerui Wang's profile, linked to a member's login on the served site."""
    shell(server_environment, MAKE_MEMBER)
    return MEMBER


def test_a_member_lands_on_their_profile_edits_it_and_adds_a_paper_at_a_new_venue(
    browser, site_url, member_login
):
    page = signed_in_page(browser, site_url, member_login, MEMBER_PASSWORD)
    expect(page.get_by_role("heading", name="Edit my profile")).to_be_visible()
    expect(page.locator("#id_name")).to_have_value("Zerui Wang")

    page.get_by_label("Position title").fill("Ph.D. Candidate")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    expect(page.get_by_label("Position title")).to_have_value("Ph.D. Candidate")

    page.get_by_role("link", name="Add a paper").click()
    page.get_by_label("Title:", exact=True).fill("A Paper at a Brand New Venue")
    page.get_by_label("Year").fill("2026")
    with page.expect_popup() as opened:
        page.locator("#add_id_venue").click()
    popup = opened.value
    popup.get_by_label("Short name").fill("HotNew")
    popup.get_by_label("Full name").fill("Workshop on Brand New Things")
    popup.get_by_label("Kind").select_option("workshop")
    with popup.expect_event("close"):  # the popup closes once the venue is saved
        popup.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#id_venue option:checked")).to_have_text("HotNew")
    page.locator("input[name='authorships-0-name']").fill("Zerui Wang")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("saved as a draft")
    expect(page.locator("#result_list")).to_contain_text("A Paper at a Brand New Venue")
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_profile_and_paper_forms_fit_without_sideways_scrolling(browser, site_url, viewport):
    page = signed_in_page(browser, site_url, viewport=viewport)
    for path in [
        "/admin/people/person/?q=Hang+Zhu",
        "/admin/publications/publication/add/",
    ]:
        page.goto(path)
        if "person" in path:
            page.goto(
                page.locator("#result_list a", has_text="Hang Zhu").first.get_attribute("href")
            )
        expect(page.locator("#content h1")).to_be_visible(timeout=20_000)
        assert not has_horizontal_scroll(page), f"{path} scrolls sideways at {viewport}"
    page.context.close()


def test_a_papers_title_is_read_whole_and_no_row_label_covers_a_handle(browser, site_url):
    """Django's 20em text box cut a paper's title; its small label of each saved row sat over
    the ordered row's handle and place."""
    page = signed_in_page(browser, site_url)
    page.goto("/admin/publications/publication/?q=Jet-Long")
    page.goto(page.locator("#result_list a", has_text="Jet-Long").first.get_attribute("href"))
    title = page.locator("#id_title")
    expect(title).to_have_value(re.compile("Dynamic Bifocal RoPE$"))
    assert title.evaluate("box => box.scrollWidth <= box.clientWidth"), "the title is cut"
    first_row = page.locator("#authorships-0")
    expect(first_row.locator(".ordered-rows__handle")).to_be_visible()
    expect(first_row.locator("td.original p")).to_be_hidden()
    page.context.close()
