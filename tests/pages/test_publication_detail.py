"""/publications/<slug>/: the pages of seeded papers; and, on rows built here, a draft's
preview and the page's queries."""

import datetime

from django.test import TestCase

from pages.views.publications import RELATED_PUBLICATIONS
from people.models import Person
from publications.models import Publication, PublicationAward
from tests.cases import (
    SeededTestCase,
    assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors,
)
from tests.factories import count_queries, make_event, make_news, make_person, make_publication


class SeededPublicationDetailTests(SeededTestCase):
    def test_publication_page_shows_authors_venue_awards_and_related_work(self):
        response = self.client.get("/publications/causalmesh/")
        assert response.status_code == 200
        html = response.content.decode()
        assert "CausalMesh: A Causal Cache for Stateful Serverless Computing" in html
        assert "Shuai Mu, Sebastian Angel, Vincent Liu" in html
        assert "International Conference on Very Large Data Bases (VLDB)" in html
        assert "Best Paper Award Nominee" in html and "ACM SIGMOD Research Highlight Award" in html
        related = {publication.slug for publication in response.context["related"]}
        members = Person.objects.filter(authorships__publication__slug="causalmesh")
        by_its_members = set(
            Publication.objects.published()
            .filter(authorships__researcher__in=members)
            .exclude(slug="causalmesh")
            .values_list("slug", flat=True)
        )
        assert related and related <= by_its_members
        assert len(related) == min(len(by_its_members), RELATED_PUBLICATIONS)
        assert "More by <bdi>Haoran Zhang</bdi>" in html

    def test_equal_contribution_is_explained_on_the_page(self):
        html = self.client.get("/publications/mucache/").content.decode()
        assert (
            'Haoran Zhang</bdi></a><abbr class="equal" title="Equal contribution">*</abbr>' in html
        )
        assert "Equal contribution." in html

    def test_undated_preprint_without_venue_shows_no_empty_field_or_separator(self):
        html = self.client.get("/publications/oneflow/").content.decode()
        assert "Not given" not in html and "<dt>Year</dt>" not in html
        assert '<p class="eyebrow">Preprint</p>' in html

    def test_unknown_publication_is_a_404(self):
        assert self.client.get("/publications/no-such-paper/").status_code == 404


class PublicationDraftTests(TestCase):
    def test_a_draft_is_a_404_for_visitors_and_a_marked_preview_for_staff(self):
        assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors(
            self, make_publication(slug="draft", is_published=False)
        )


class PublicationDetailQueryCountTests(TestCase):
    """Few authors, related papers and news here; the subclass below runs the same test on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        members = [make_person() for _ in range(3)]
        authors = [*members, *[f"Author {number}" for number in range(cls.rows)]]
        cls.publication = make_publication(authors=authors)
        PublicationAward.objects.create(publication=cls.publication, position=1, name="Best Paper")
        for number in range(cls.rows):
            make_publication(authors=[members[number % 3]])
            make_news().publications.add(cls.publication)
            talk = make_event(starts_in=-number * datetime.timedelta(days=1), speaker=members[0])
            talk.publications.add(cls.publication)

    def test_publication_page_runs_a_fixed_number_of_queries(self):
        """Rendered anew: the paper's row with its venue, then its authors, awards and links,
        its members' other papers (their ids, then their entries' rows with the same prefetches),
        its news, its datasets and software, its talks, the grants it acknowledges with their
        funders, the projects it came of, the lab: none per author, related paper or talk. (The
        citation key is stored on the row.) Kept, only the row and the lab
        (tests/publications/test_publication_page_kept.py)."""
        assert count_queries(self.client, self.publication.get_absolute_url()) == 15


class PublicationDetailQueryCountAtManyRowsTests(PublicationDetailQueryCountTests):
    rows = 200
