"""Embedding a list of publications on another site: the HTML fragment, and the snippet staff
copy from a profile."""

import re

from tests.cases import SeededTestCase, make_editor


def titles(html: str) -> list[str]:
    return re.findall(r'<p class="publication__title"><a href="[^"]+">([^<]+)</a>', html)


class SeededEmbedTests(SeededTestCase):
    """Over the seed's papers and profiles."""

    def test_the_fragment_holds_the_papers_of_the_list_with_the_same_filter(self):
        for query in ["author=hang-zhu", "venue=NSDI&year=2024", ""]:
            fragment = self.client.get(f"/publications/embed/?{query}")
            assert fragment.status_code == 200
            page = self.client.get(f"/publications/?{query}")
            listed = [publication.title for publication in page.context["page"].object_list]
            assert titles(fragment.content.decode().replace("&#x27;", "'")) == listed

    def test_the_fragment_is_the_sites_markup_with_links_that_work_elsewhere(self):
        html = self.client.get("/publications/embed/?author=hang-zhu").content.decode()
        assert "<html" not in html and "<script" not in html
        assert '<ol class="publication-list">' in html and 'class="publication__authors"' in html
        links = re.findall(r'(?:href|src)="([^"]*)"', html)
        assert links
        assert all(link.startswith(("http://testserver/", "https://")) for link in links), links
        assert 'href="http://testserver/people/hang-zhu/"' in html

    def test_the_fragment_refuses_a_filter_the_list_would_ignore(self):
        response = self.client.get("/publications/embed/?author=nobody")
        assert response.status_code == 400
        assert "Lab member “nobody” was ignored" in response.content.decode()

    def test_staff_see_a_snippet_to_copy_on_a_profile_and_visitors_do_not(self):
        assert "data-lab-publications" not in self.client.get("/people/hang-zhu/").content.decode()
        self.client.force_login(make_editor())
        html = self.client.get("/people/hang-zhu/").content.decode()
        snippet = re.search(
            r'<details class="embed-snippet">.*?<pre[^>]*><code>(.*?)</code></pre>', html, re.S
        ).group(1)
        assert "&lt;div data-lab-publications=&quot;author=hang-zhu&quot;" in snippet
        assert (
            "&lt;script src=&quot;http://testserver/static/js/embed.js&quot; async&gt;" in snippet
        )
        assert 'href="http://testserver/publications/embed/?author=hang-zhu"' in html
