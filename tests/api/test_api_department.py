"""The department in the JSON API: /api/groups/ and /api/areas/ as their pages show them, drafts
never; ORCID iDs of the authors, advisors and collaborators outside the lab; and a fixed number
of queries whatever the department's size."""

import pytest

from people.models import Advising, ExternalPerson, Person
from publications.models import Publication
from tests.cases import SeededTestCase, parametrize
from tests.department import add_groups_to_seed, build_department
from tests.factories import count_queries
from tests.shared_rows import shared_rows


def slugs(rows) -> list[str]:
    return [row["slug"] for row in rows]


class SeededDepartmentApiTests(SeededTestCase):
    """Over the seed with two published research groups, one draft, and areas
    (tests/department.py, add_groups_to_seed)."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        add_groups_to_seed()

    def test_the_groups_list_holds_the_published_groups_in_their_order(self):
        data = self.client.get("/api/groups/").json()
        assert (data["count"], data["pages"], data["next"]) == (2, 1, None)
        assert slugs(data["results"]) == ["ml-systems", "networked-systems"]
        group = data["results"][0]
        assert group == {
            "slug": "ml-systems",
            "name": "Machine Learning Systems",
            "url": "http://testserver/groups/ml-systems/",
            "short_description": "Systems for training and serving large models.",
            "areas": [
                {
                    "slug": "ml-systems-area",
                    "name": "Machine learning systems",
                    "url": "http://testserver/areas/ml-systems-area/",
                }
            ],
            "leaders": [
                {
                    "slug": "hao-zhang",
                    "name": "Hao Zhang",
                    "url": "http://testserver/people/hao-zhang/",
                }
            ],
            # Hao Zhang and Zerui Wang: not the alumnus, not the draft profile.
            "member_count": 2,
        }

    def test_a_group_lists_its_members_as_its_page_does(self):
        data = self.client.get("/api/groups/ml-systems/").json()
        page = self.client.get("/groups/ml-systems/")
        by_role = [
            (role, [person.slug for person in people])
            for role, people in page.context["people_by_role"]
        ]
        listed: list[tuple[str, list[str]]] = []
        for member in data["members"]:
            if not listed or listed[-1][0] != member["role_label"]:
                listed.append((member["role_label"], []))
            listed[-1][1].append(member["slug"])
        assert (
            listed == by_role == [("Group leader", ["hao-zhang"]), ("PhD student", ["zerui-wang"])]
        )
        assert [(member["role"], member["start"]) for member in data["members"]] == [
            ("leader", "2015"),
            ("phd-student", "2023-09"),
        ]
        assert slugs(data["alumni"]) == [person.slug for person in page.context["alumni"]]
        assert slugs(data["alumni"]) == ["haoran-zhang"]
        assert data["description"] == "We build *systems* for machine learning."

    def test_a_groups_links_give_its_papers_and_news(self):
        data = self.client.get("/api/groups/ml-systems/").json()
        assert data["publications"] == "http://testserver/api/publications/?group=ml-systems"
        assert data["news"] == "http://testserver/api/news/?group=ml-systems"
        assert data["news_feed"] == "http://testserver/news/feed/?group=ml-systems"
        papers = self.client.get(data["publications"]).json()
        page = self.client.get("/groups/ml-systems/")
        assert papers["count"] == page.context["page"].paginator.count > 0
        news = self.client.get(data["news"]).json()
        assert slugs(news["results"]) == [item.slug for item in page.context["news_items"]]
        assert news["count"] > 0

    def test_an_area_shows_its_published_groups_and_people(self):
        listed = self.client.get("/api/areas/").json()
        assert slugs(listed["results"]) == ["ml-systems-area", "networks"]
        data = self.client.get("/api/areas/ml-systems-area/").json()
        page = self.client.get("/areas/ml-systems-area/")
        assert slugs(data["groups"]) == ["ml-systems"]  # not the draft group
        assert slugs(data["people"]) == [person.slug for person in page.context["people"]]
        assert sorted(slugs(data["people"])) == ["hao-zhang", "zerui-wang"]
        assert data["publications"] == "http://testserver/api/publications/?area=ml-systems-area"

    @parametrize(
        "url",
        [
            "/api/groups/hidden-group/",
            "/api/groups/no-such-group/",
            "/api/areas/hidden-area/",
            "/api/areas/no-such-area/",
        ],
    )
    def test_a_draft_or_unknown_group_or_area_is_a_json_404(self, url):
        response = self.client.get(url)
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        assert response.json() == {"detail": "Not Found", "errors": []}

    def test_drafts_appear_nowhere_in_the_department(self):
        everything = "".join(
            self.client.get(url).content.decode()
            for url in [
                "/api/groups/",
                "/api/groups/ml-systems/",
                "/api/groups/networked-systems/",
                "/api/areas/",
                "/api/areas/ml-systems-area/",
                "/api/areas/networks/",
                "/api/people/zerui-wang/",
            ]
        )
        for draft in [
            "hidden-group",
            "Hidden Group",
            "hidden-area",
            "Hidden Area",
            "hidden-member",
        ]:
            assert draft not in everything

    def test_the_news_and_people_filters_show_the_groups_as_examples_in_the_schema(self):
        schema = self.client.get("/api/openapi.json").json()
        for path in ["/api/news/", "/api/people/"]:
            parameters = {
                parameter["name"]: parameter["schema"]
                for parameter in schema["paths"][path]["get"]["parameters"]
            }
            assert "enum" not in parameters["group"]
            assert parameters["group"]["examples"] == ["ml-systems", "networked-systems"]
        response = self.client.get("/api/news/?group=hidden-group")
        assert response.status_code == 400
        assert "Research group “hidden-group” was ignored" in response.json()["detail"]

    def test_an_author_linked_to_an_external_person_carries_their_orcid(self):
        data = self.client.get("/api/publications/?author=hang-zhu").json()
        authors = [author for paper in data["results"] for author in paper["authors"]]
        linked = set(
            Publication.objects.filter(authorships__researcher__slug="xin-jin").values_list(
                "authorships__name", flat=True
            )
        )
        xin_jin = [author for author in authors if author["name"] in linked]
        assert xin_jin and {author["orcid"] for author in xin_jin} == {"0000-0001-5109-3700"}
        assert all(author["person"] is None for author in xin_jin)
        hang_zhu = [author for author in authors if author["person"] == "hang-zhu"]
        assert hang_zhu and {author["orcid"] for author in hang_zhu} == {"0000-0002-1825-0097"}
        others = [author for author in authors if author not in xin_jin + hang_zhu]
        assert others and {author["orcid"] for author in others} == {None}
        paper = self.client.get(f"/api/publications/{data['results'][0]['slug']}/").json()
        assert paper["authors"] == data["results"][0]["authors"]

    def test_a_draft_members_orcid_stays_out_of_the_author_rows(self):
        Person.objects.filter(slug="hang-zhu").update(is_published=False)
        paper = Publication.objects.published().filter(authorships__researcher__slug="hang-zhu")[0]
        authors = self.client.get(f"/api/publications/{paper.slug}/").json()["authors"]
        row = next(author for author in authors if author["name"] == "Hang Zhu")
        assert (row["person"], row["orcid"]) == (None, None)

    def test_a_person_has_their_advisors_students_collaborators_and_groups(self):
        hao_zhang = Person.objects.get(slug="hao-zhang")
        Advising.objects.create(
            advisee=Person.objects.get(slug="zerui-wang"), position=3, advisor=hao_zhang
        )
        ExternalPerson.objects.filter(slug="peng-sun").update(
            orcid="0000-0002-1694-233X", affiliation="Shanghai AI Lab"
        )
        hang_zhu = self.client.get("/api/people/hang-zhu/").json()
        assert hang_zhu["advisors"] == [
            {
                "kind": "advisor",
                "kind_label": "Advisor",
                "period": hang_zhu["advisors"][0]["period"],
                "current": False,
                "degree": hang_zhu["advisors"][0]["degree"],
                "advisor": {
                    "name": "Xin Jin",
                    "person": None,
                    "url": "https://orcid.org/0000-0001-5109-3700",
                    "orcid": "0000-0001-5109-3700",
                    "affiliation": None,
                },
            }
        ]
        assert hang_zhu["advisors"][0]["degree"].startswith("Ph.D.")

        zerui = self.client.get("/api/people/zerui-wang/").json()
        advisors = [(row["advisor"]["name"], row["advisor"]["person"]) for row in zerui["advisors"]]
        assert advisors == [("Dahua Lin", None), ("Rong Chen", None), ("Hao Zhang", "hao-zhang")]
        assert [row["name"] for row in zerui["collaborators"]] == ["Peng Sun", "Qinghao Hu"]
        peng_sun = zerui["collaborators"][0]
        assert (peng_sun["orcid"], peng_sun["affiliation"]) == (
            "0000-0002-1694-233X",
            "Shanghai AI Lab",
        )
        assert [(row["group"]["slug"], row["role"], row["current"]) for row in zerui["groups"]] == [
            ("ml-systems", "phd-student", True)
        ]
        assert slugs(zerui["research_areas"]) == ["ml-systems-area"]

        students = self.client.get("/api/people/hao-zhang/").json()["students"]
        assert [(row["student"]["person"], row["current"]) for row in students] == [
            ("zerui-wang", True)
        ]
        haoran = self.client.get("/api/people/haoran-zhang/").json()["groups"]
        assert [(row["group"]["slug"], row["period"], row["current"]) for row in haoran] == [
            ("networked-systems", "2025 – Present", True),
            ("ml-systems", "2019 – 2024", False),
        ]


SIZES = {
    "few": {"groups": 2, "people": 6, "papers": 20},
    "many": {"groups": 5, "people": 60, "papers": 400},
}


@pytest.fixture(scope="module", params=list(SIZES))
def department(request, django_db_setup, django_db_blocker):
    """Built once per size for the whole module, rolled back after its last test."""
    with shared_rows(django_db_blocker):
        rows = build_department(**SIZES[request.param])
        ExternalPerson.objects.filter(slug="outside-0").update(orcid="0000-0002-1825-0097")
        yield rows


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "queries"),
    [
        # the groups with their member counts, their leaders, their areas; the count.
        ("/api/groups/", 4),
        # the group with its count, leaders, areas; its members; its alumni.
        ("/api/groups/group-1/", 5),
        # the count, the areas.
        ("/api/areas/", 2),
        # the area, its groups, its people.
        ("/api/areas/area-0/", 3),
        # year and person choices, group choices (to check the value), count, rows, people.
        ("/api/news/?group=group-1", 6),
        # venue, member, group and area choices, count, rows, authors with their members and
        # external people, awards, links, one aggregate per facet (venue, type, member, group,
        # area, funder), the years, the award count.
        ("/api/publications/?group=group-1", 17),
        # the profile's own query: the person with their role group and alumni record, six CV
        # sections, advisors, students, collaborators, groups, areas. A leader advises every
        # other member of the group; a student has an advisor and a group.
        ("/api/people/member-000/", 12),
        ("/api/people/member-004/", 12),
        # Not the API, the same rows: the news page and feed by group. Lab, year, person and
        # group choices, count, page, its people, its papers, its groups.
        ("/news/?group=group-1", 9),
        # the lab's name, year, person and group choices, the items, their people.
        ("/news/feed/?group=group-1", 6),
    ],
)
def test_the_department_runs_a_fixed_number_of_queries(client, department, url, queries):
    """The same count for 2 groups, 6 people and 20 papers as for 5, 60 and 400: no query per
    group, member, area, advisor, student, author or news item."""
    assert count_queries(client, url) == queries
