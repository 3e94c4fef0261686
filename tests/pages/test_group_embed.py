"""A research group's papers on another site: the snippet staff copy from the group's page (the
profile's include, with `group=`), and the fragment and API list it points at, which hold the
papers the group's page lists."""

import html as html_module
import re

from tests.cases import SeededTestCase, make_editor
from tests.department import add_groups_to_seed
from tests.publications.test_embed import titles


def snippet_of(html: str) -> str:
    found = re.search(
        r'<details class="embed-snippet">.*?<pre[^>]*><code>(.*?)</code></pre>', html, re.S
    )
    assert found, "the page shows the snippet"
    return html_module.unescape(found.group(1))


class SeededGroupEmbedTests(SeededTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        add_groups_to_seed()

    def test_staff_see_the_groups_snippet_and_visitors_do_not(self):
        visitor = self.client.get("/groups/ml-systems/").content.decode()
        assert "data-lab-publications" not in visitor and "embed-snippet" not in visitor
        self.client.force_login(make_editor())
        html = self.client.get("/groups/ml-systems/").content.decode()
        snippet = snippet_of(html)
        assert '<div data-lab-publications="group=ml-systems" data-limit="20">' in snippet
        assert (
            '<a href="http://testserver/publications/?group=ml-systems">The publications of '
            "Machine Learning Systems</a>" in snippet
        )
        assert '<script src="http://testserver/static/js/embed.js" async></script>' in snippet
        assert 'href="http://testserver/publications/embed/?group=ml-systems"' in html

    def test_the_snippets_lists_hold_the_papers_the_groups_page_lists(self):
        page = self.client.get("/groups/ml-systems/")
        listed = [publication.title for publication in page.context["page"].object_list]
        assert listed
        fragment = self.client.get("/publications/embed/?group=ml-systems").content.decode()
        assert titles(fragment.replace("&#x27;", "'")) == listed
        api = self.client.get("/api/publications/?group=ml-systems").json()
        assert [paper["title"] for paper in api["results"]] == listed
