"""The department's seeded facts (fixtures/department.json): the advisors and close
collaborators the profiles' sentences name, as external people linked to their author rows, and
nothing the texts do not say (fixtures/NOTES.md)."""

from people.models import (
    Advising,
    Collaboration,
    Departure,
    ExternalPerson,
    Membership,
    ResearchArea,
    ResearchGroup,
)
from publications.models import Authorship
from publications.services import link_authors
from tests.cases import SeededTestCase, parametrize

EXTERNAL_PEOPLE = {
    "xin-jin": "Xin Jin",
    "vincent-liu": "Vincent Liu",
    "sebastian-angel": "Sebastian Angel",
    "dahua-lin": "Dahua Lin",
    "rong-chen": "Rong Chen",
    "peng-sun": "Peng Sun",
    "qinghao-hu": "Qinghao Hu",
}


class SeededDepartmentFixtureTests(SeededTestCase):
    def test_the_external_people_are_the_seven_the_sentences_name_with_nothing_else_known(self):
        records = ExternalPerson.objects.all()
        assert dict(records.values_list("slug", "name")) == EXTERNAL_PEOPLE
        for field in ["aliases", "affiliation", "orcid", "dblp", "homepage"]:
            assert set(records.values_list(field, flat=True)) == {""}, field

    @parametrize(
        ("advisee", "advisors", "degree", "is_current"),
        [
            (
                "hang-zhu",
                [("Xin Jin", "advisor")],
                "Ph.D. in Department of Computer Science",
                False,
            ),
            (
                "haoran-zhang",
                [("Vincent Liu", "co-advisor"), ("Sebastian Angel", "co-advisor")],
                "Ph.D. in Computer Science",
                False,
            ),
            (
                "zerui-wang",
                [("Dahua Lin", "supervisor"), ("Rong Chen", "supervisor")],
                "Ph.D. in Computer Science",
                True,
            ),
        ],
    )
    def test_advisors_are_those_named_in_printed_order_with_the_verbs_kind(
        self, advisee, advisors, degree, is_current
    ):
        rows = Advising.objects.filter(advisee__slug=advisee).order_by("position")
        assert [(row.advisor.name, row.kind) for row in rows] == advisors
        for row in rows:
            assert isinstance(row.advisor_record, ExternalPerson)
            assert row.degree.person.slug == advisee
            assert row.degree.headline.startswith(degree)
            assert row.is_current is is_current

    def test_advising_rows_carry_no_dates_and_show_no_period_not_even_their_degrees(self):
        """The texts date the degrees, not the advising: no period is shown for it."""
        assert not Advising.objects.exclude(start=None).exists()
        assert not Advising.objects.exclude(end=None).exists()
        periods = {row.advisee.slug: row.period for row in Advising.objects.all()}
        assert periods == {"hang-zhu": "", "haoran-zhang": "", "zerui-wang": ""}
        html = self.client.get("/people/hang-zhu/").content.decode()
        # Said once, under the name (templates/people/profile_department.html).
        advisors = html[html.index('<p class="profile__advisors">') :].split("</p>")[0]
        assert "Xin Jin" in advisors and "2017" not in advisors and "2022" not in advisors
        assert self.client.get("/api/people/hang-zhu/").json()["advisors"][0]["period"] == ""

    def test_hao_zhang_has_no_advisor_and_nobody_has_a_member_advisor(self):
        assert not Advising.objects.filter(advisee__slug="hao-zhang").exists()
        assert not Advising.objects.filter(advisor__profile__isnull=False).exists()

    def test_zerui_wangs_close_collaborators_are_peng_sun_then_qinghao_hu(self):
        rows = Collaboration.objects.order_by("person", "position")
        assert [(row.person.slug, row.collaborator.name) for row in rows] == [
            ("zerui-wang", "Peng Sun"),
            ("zerui-wang", "Qinghao Hu"),
        ]

    @parametrize(
        ("slug", "rows"),
        [
            ("xin-jin", 8),
            ("vincent-liu", 5),
            ("sebastian-angel", 4),
            ("dahua-lin", 4),
            ("peng-sun", 7),
            ("qinghao-hu", 7),
            ("rong-chen", 0),
        ],
    )
    def test_external_people_are_linked_to_their_author_rows(self, slug, rows):
        assert Authorship.objects.filter(researcher__slug=slug).count() == rows

    def test_every_author_named_as_an_external_person_is_linked_to_them_but_the_surveys_xin_jin(
        self,
    ):
        records = {name: slug for slug, name in EXTERNAL_PEOPLE.items()}
        rows = Authorship.objects.exclude(
            publication__slug="efficient-training-of-large-language-models-survey", name="Xin Jin"
        )
        outsiders = rows.filter(researcher__profile=None)
        for name, slug in outsiders.values_list("name", "researcher__slug"):
            assert slug == records.get(name), name

    def test_the_surveys_xin_jin_is_linked_to_nobody_since_no_source_says_he_is_the_advisor(self):
        survey = Authorship.objects.get(
            publication__slug="efficient-training-of-large-language-models-survey", name="Xin Jin"
        )
        assert (survey.person, survey.external, survey.link_declined) == (None, None, True)
        link_authors([survey])  # the name rule, as the next save runs it
        survey.refresh_from_db()
        assert survey.external is None
        ExternalPerson.objects.filter(slug="xin-jin").update(orcid="0000-0001-5109-3700")

        def xin_jins_orcid(slug: str) -> str | None:
            authors = self.client.get(f"/api/publications/{slug}/").json()["authors"]
            return next(author["orcid"] for author in authors if author["name"] == "Xin Jin")

        assert xin_jins_orcid("klotski") == "0000-0001-5109-3700"  # Hang's paper: his advisor
        assert xin_jins_orcid(survey.publication.slug) is None

    def test_the_seeded_site_has_no_research_group_area_membership_or_alumni_record(self):
        assert not ResearchGroup.objects.exists()
        assert not ResearchArea.objects.exists()
        assert not Membership.objects.exists()
        assert not Departure.objects.exists()
