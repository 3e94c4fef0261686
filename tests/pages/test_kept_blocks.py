"""A list's repeated blocks, kept per row in each process (base.site_cache.kept_block): a
person's card (the directory, the home page, a group's and an area's people) until a change of
that person, a news entry until a change of anyone's name or of a paper it names. So a list
drawn anew after an edit of a paper draws none of its cards again, and every edit of what a
block shows still shows on the next request.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off so that every request renders its page."""

import contextlib

import pytest
from django.test.signals import template_rendered

from people.models import Departure, PersonLink
from publications.models import Publication
from tests.factories import make_group, make_news, make_person, make_publication

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rendered_anew")]


@contextlib.contextmanager
def drawn(name: str):
    """The context of each rendering of the template `name` inside the block."""
    count = []

    def rendered(sender, template, context, **kwargs):
        if template.name == name:
            count.append(context)

    template_rendered.connect(rendered)
    try:
        yield count
    finally:
        template_rendered.disconnect(rendered)


@pytest.fixture
def hang():
    return make_person(name="Hang Zhu", slug="hang-zhu", role_group=make_group(name="Faculty"))


def test_a_paper_edited_draws_no_card_again_and_the_news_entry_that_names_it_anew(client, hang):
    paper = make_publication(title="Klotski", slug="klotski", authors=[hang])
    about = make_news(title="A talk", body="", link="")
    about.publications.add(paper)
    make_news(title="A grant", body="")
    for url in ["/people/", "/", "/news/"]:
        client.get(url)

    paper.title = "Klotski Revisited"
    paper.save()  # commits: the stamp moves, naming the paper
    with drawn("includes/person_card.html") as cards, drawn("includes/news_entry.html") as news:
        people, home, listed = (client.get(url).text for url in ["/people/", "/", "/news/"])

    assert cards == []
    # The entry that names the paper, once for each list (the news list loads its groups too).
    assert [context["item"] for context in news] == [about, about]
    for page in [home, listed]:
        assert "Klotski Revisited" in page and "A grant" in page
    assert people.count('<li class="person-card') == 1


def test_a_person_renamed_shows_on_their_card_and_in_the_news_that_names_them(client, hang):
    make_news(title="A grant").people.add(hang)
    for url in ["/people/", "/", "/news/"]:
        assert "Hang Zhu" in client.get(url).text

    hang.refresh_from_db()
    hang.name = "Zhu Hang"
    hang.save()

    for url in ["/people/", "/", "/news/"]:
        page = client.get(url).text
        assert "Zhu Hang" in page and "Hang Zhu" not in page, f"{url} is stale"
    assert '<option value="hang-zhu">Zhu Hang</option>' in client.get("/news/").text


def test_a_link_a_departure_and_a_role_renamed_show_on_the_card(client, hang):
    assert "hang.example" not in client.get("/people/").text

    PersonLink.objects.create(person=hang, url="https://hang.example/", kind="homepage")
    assert 'href="https://hang.example/"' in client.get("/people/").text

    alumni = make_group(name="Alumni", is_alumni=True)
    hang.refresh_from_db()
    hang.role_group = alumni
    hang.save()
    Departure.objects.create(person=hang, last_role="Ph.D. Student", next_position="NVIDIA")
    assert "Now at NVIDIA" in client.get("/people/").text

    alumni.name = "Former members"
    alumni.save()
    make_person(name="Bo Zhao", slug="bo-zhao", role_group=make_group(name="Students"))
    page = client.get("/people/").text
    assert ">Students</h2>" in page and "Now at NVIDIA" in page


def test_a_paper_named_by_news_unpublished_leaves_the_entry_and_published_joins_it(client):
    paper = make_publication(title="Klotski", slug="klotski")
    draft = make_publication(title="Sirius", slug="sirius", is_published=False)
    make_news(title="A talk", body="").publications.add(paper, draft)
    for url in ["/news/", "/"]:
        page = client.get(url).text
        assert ">Klotski</a>" in page and "Sirius" not in page

    Publication.objects.filter(pk=paper.pk).update(is_published=False)
    draft.is_published = True
    draft.save()  # the entry did not name it: it follows the papers published

    for url in ["/news/", "/"]:
        page = client.get(url).text
        assert "Klotski" not in page and ">Sirius</a>" in page, f"{url} is stale"
