"""The JSON API (/api/) over the four seeded profiles: the same rows as the pages, errors as
JSON, open to other origins for GET."""

import re

from people.models import Person
from tests.api.lists import facet_counts_of_the_api, facet_counts_of_the_page
from tests.cases import SeededTestCase, parametrize


class SeededApiTests(SeededTestCase):
    """Over the seed: four profiles, 29 papers, 15 venues, 5 news items."""

    @parametrize(
        "query",
        [
            "venue=NSDI&year=2024",
            "",
            "author=hang-zhu",
            "venue=nsdi&venue=OSDI&type=conference-paper",
            "year_min=2020&year_max=2022&q=learning",
            "award=1",
        ],
    )
    def test_the_api_lists_exactly_the_papers_and_facet_counts_of_the_html_list(self, query):
        page = self.client.get(f"/publications/?{query}")
        data = self.client.get(f"/api/publications/?{query}").json()
        assert [paper["slug"] for paper in data["results"]] == [
            publication.slug for publication in page.context["page"].object_list
        ]
        assert data["count"] == page.context["page"].paginator.count
        assert facet_counts_of_the_api(data) == facet_counts_of_the_page(page)

    def test_nsdi_2024_gives_the_three_seeded_papers_with_their_authors(self):
        data = self.client.get("/api/publications/?venue=NSDI&year=2024").json()
        assert data["count"] == 3
        paper = data["results"][0]
        assert paper["venue"] == "NSDI" and paper["year"] == 2024
        members = [author for author in paper["authors"] if author["person"]]
        assert members, "members among the authors are linked"
        assert members[0]["url"] == f"http://testserver/people/{members[0]['person']}/"
        selected = [option for option in data["facets"]["venue"] if option["selected"]]
        assert [option["value"] for option in selected] == ["NSDI"]

    def test_one_publication_by_slug_has_its_abstract_and_bibtex(self):
        data = self.client.get("/api/publications/minder/").json()
        assert data["title"].startswith("Minder")
        assert data["bibtex"].startswith("@inproceedings{")
        assert data["url"] == "http://testserver/publications/minder/"

    def test_people_come_in_the_directorys_order_with_their_groups(self):
        data = self.client.get("/api/people/").json()
        assert [person["slug"] for person in data["results"]] == [
            "hang-zhu",
            "haoran-zhang",
            "zerui-wang",
            "hao-zhang",
        ]
        assert data["results"][0]["role_group"]["slug"] == "research-scientists"
        filtered = self.client.get("/api/people/?role=phd-students").json()
        assert [person["slug"] for person in filtered["results"]] == ["zerui-wang"]

    def test_a_person_has_their_cv_sections_with_dates_at_their_precision(self):
        data = self.client.get("/api/people/zerui-wang/").json()
        whens = [
            entry["when"] for section in ("education", "experience") for entry in data[section]
        ]
        assert "Sep 2023 – Present" in whens
        current = next(
            entry for entry in data["education"] if entry["when"] == "Sep 2023 – Present"
        )
        assert current["start"] == "2023-09" and current["end"] is None and current["current"]
        assert data["publications"] == "http://testserver/api/publications/?author=zerui-wang"
        assert data["cv_pdf"] == "http://testserver/people/zerui-wang/cv.pdf"
        assert "email" not in data

    def test_a_persons_orcid_id_is_in_the_api(self):
        Person.objects.filter(slug="hang-zhu").update(orcid="0000-0002-1825-0097")
        data = self.client.get("/api/people/hang-zhu/").json()
        assert data["orcid"] == "0000-0002-1825-0097"
        assert data["orcid_url"] == "https://orcid.org/0000-0002-1825-0097"
        assert self.client.get("/api/people/zerui-wang/").json()["orcid"] is None

    def test_venues_have_their_publication_counts_and_are_found_in_any_case(self):
        venues = {
            venue["short_name"]: venue
            for venue in self.client.get("/api/venues/").json()["results"]
        }
        assert venues["NSDI"]["publication_count"] == 5
        assert self.client.get("/api/venues/nsdi/").json()["name"].endswith("(NSDI)")
        link = venues["S&P"]["publications"]
        assert link == "http://testserver/api/publications/?venue=S%26P"

    def test_news_filters_as_the_news_page_does(self):
        data = self.client.get("/api/news/?person=haoran-zhang").json()
        page = self.client.get("/news/?person=haoran-zhang")
        assert [item["slug"] for item in data["results"]] == [
            item.slug for item in page.context["page"].object_list
        ]
        item = self.client.get(f"/api/news/{data['results'][0]['slug']}/").json()
        assert item["date"] and item["date_text"] and "body_html" in item

    @parametrize(
        "url, status, words",
        [
            ("/api/publications/?year=abc", 400, "year"),
            ("/api/publications/?year=99999", 400, "year"),
            ("/api/publications/?venue=NoSuchVenue", 400, "Venue “NoSuchVenue” was ignored"),
            ("/api/publications/?page=0", 400, "page"),
            ("/api/publications/?page=99", 404, "no such page"),
            ("/api/publications/no-such-paper/", 404, "Not Found"),
            ("/api/people/nobody/", 404, "Not Found"),
            ("/api/no-such-endpoint/", 404, "Not Found"),
        ],
    )
    def test_errors_are_json_with_a_4xx_status(self, url, status, words):
        response = self.client.get(url)
        assert response.status_code == status
        assert response["Content-Type"].startswith("application/json")
        data = response.json()
        assert words in data["detail"] + " ".join(data["errors"])

    def test_writing_is_refused_in_json(self):
        response = self.client.post("/api/people/", {"name": "Intruder"})
        assert response.status_code in (403, 405)
        assert response.json()["detail"]
        assert Person.objects.filter(name="Intruder").count() == 0

    def test_other_sites_may_read_the_api_but_not_the_pages(self):
        origin = {"HTTP_ORIGIN": "https://department.example.org"}
        api = self.client.get("/api/publications/", **origin)
        assert api["Access-Control-Allow-Origin"] == "*"
        preflight = self.client.options(
            "/api/publications/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET", **origin
        )
        assert preflight.status_code == 200
        assert "GET" in preflight["Access-Control-Allow-Methods"]
        assert "POST" not in preflight["Access-Control-Allow-Methods"]
        assert "Access-Control-Allow-Credentials" not in api
        assert "Access-Control-Allow-Origin" not in self.client.get("/publications/", **origin)

    def test_the_schema_says_a_search_with_a_null_character_is_refused_as_it_is(self):
        """schemathesis found `/api/people/?q=%00` refused (400) while the schema allowed it."""
        schema = self.client.get("/api/openapi.json").json()
        for path in ("/api/people/", "/api/publications/", "/api/news/"):
            (q,) = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "q"]
            assert re.fullmatch(q["schema"]["pattern"], "caching") is not None
            assert re.fullmatch(q["schema"]["pattern"], "cach\x00ing") is None
            assert self.client.get(path, {"q": "cach\x00ing"}).status_code == 400

    def test_the_schema_is_openapi_3_with_fixed_choices_as_enums_and_rows_as_examples(self):
        schema = self.client.get("/api/openapi.json").json()
        assert schema["openapi"].startswith("3.")
        assert set(schema["paths"]) == {
            "/api/people/",
            "/api/people/{slug}/",
            "/api/publications/",
            "/api/publications/{slug}/",
            "/api/venues/",
            "/api/venues/{short_name}/",
            "/api/news/",
            "/api/news/{slug}/",
            "/api/events/",
            "/api/events/{slug}/",
            "/api/outputs/",
            "/api/outputs/{slug}/",
            "/api/projects/",
            "/api/projects/{slug}/",
            "/api/funders/",
            "/api/groups/",
            "/api/groups/{slug}/",
            "/api/areas/",
            "/api/areas/{slug}/",
        }
        parameters = {
            parameter["name"]: parameter["schema"]
            for parameter in schema["paths"]["/api/publications/"]["get"]["parameters"]
        }
        # Venues and members are the database's: examples, not an enum a new venue would break.
        assert "enum" not in parameters["venue"]["items"]
        assert "enum" not in parameters["author"]["items"]
        assert len(parameters["venue"]["items"]["examples"]) == 3
        assert "hang-zhu" in parameters["author"]["items"]["examples"]
        assert "conference-paper" in parameters["type"]["items"]["enum"]
        assert parameters["authors"]["enum"] == ["", "any", "all"]
        assert parameters["year"]["items"] == {"type": "integer", "minimum": 1000, "maximum": 9999}

    def test_the_docs_page_runs_no_inline_script_and_loads_nothing_from_elsewhere(self):
        response = self.client.get("/api/docs/")
        assert response.status_code == 200
        html = response.content.decode()
        assert '<html lang="en">' in html
        assert 'src="/static/ninja/swagger-ui-bundle.js"' in html
        assert "cdn" not in html.lower()
        assert "<script>" not in html and "onload=" not in html
        assert "script-src 'self'" in response["Content-Security-Policy"]
