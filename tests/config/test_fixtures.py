"""The seed fixtures hold exactly what the four profiles say, and load twice without duplicates."""

from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command

from base.partial_dates import DatePrecision
from config.management.commands.seed import FIXTURES
from news.models import NewsItem
from people.models import Person
from publications.models import Authorship, Publication, PublicationLink
from tests.cases import SeededTestCase, parametrize

SEEDED_APPS = ("people", "publications", "news")


def author_names(slug: str) -> list[str]:
    publication = Publication.objects.get(slug=slug)
    return list(publication.authorships.order_by("position").values_list("name", flat=True))


def equal_contributors(slug: str) -> list[str]:
    publication = Publication.objects.get(slug=slug)
    authorships = publication.authorships.filter(equal_contribution=True).order_by("position")
    return list(authorships.values_list("name", flat=True))


def row_counts() -> dict[str, int]:
    """Rows of every seeded model, and of their many-to-many tables."""
    counts = {}
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label in SEEDED_APPS:
            counts[model._meta.label] = model._default_manager.count()
    return counts


class SeededFixtureTests(SeededTestCase):
    """Facts read from the four source profiles: here the numbers are the point, whereas the
    other seeded tests compare what a page shows with the database."""

    @parametrize(
        ("slug", "expected"),
        [("hang-zhu", 12), ("haoran-zhang", 8), ("zerui-wang", 9), ("hao-zhang", 0)],
    )
    def test_each_member_is_linked_to_every_publication_their_profile_lists(self, slug, expected):
        linked = Publication.objects.filter(authorships__researcher__slug=slug).distinct()
        assert linked.count() == expected

    def test_the_fixtures_hold_twenty_nine_publications_and_no_duplicates(self):
        assert Publication.objects.count() == 29
        assert Authorship.objects.filter(researcher__profile__isnull=False).count() == 29

    @parametrize(
        ("slug", "education", "experience", "teaching", "service", "awards"),
        [
            ("hang-zhu", 2, 0, 3, 4, 0),
            ("hao-zhang", 0, 0, 0, 0, 1),
            ("haoran-zhang", 3, 7, 2, 2, 0),
            ("zerui-wang", 1, 2, 0, 0, 0),
        ],
    )
    def test_each_member_has_the_cv_entries_their_profile_lists(
        self, slug, education, experience, teaching, service, awards
    ):
        person = Person.objects.get(slug=slug)
        assert person.education.count() == education
        assert person.experience.count() == experience
        assert person.teaching.count() == teaching
        assert person.service.count() == service
        assert person.awards.count() == awards

    def test_members_are_listed_under_the_groups_their_positions_name(self):
        groups = dict(Person.objects.values_list("slug", "role_group__slug"))
        assert groups == {
            "hang-zhu": "research-scientists",
            "haoran-zhang": "research-scientists",
            "zerui-wang": "phd-students",
            "hao-zhang": None,
        }

    def test_vapo_lists_its_authors_in_order_with_the_missing_comma_mended(self):
        assert author_names("vapo") == [
            "Yufeng Yuan",
            "Qiying Yu",
            "Xiaochen Zuo",
            "Ruofei Zhu",
            "Wenyuan Xu",
            "Jiaze Chen",
            "Chengyi Wang",
            "TianTian Fan",
            "Zhengyin Du",
            "Xiangpeng Wei",
            "Gaohong Liu",
            "Juncai Liu",
            "Lingjun Liu",
            "Haibin Lin",
            "Zhiqi Lin",
            "Bole Ma",
            "Chi Zhang",
            "Mofan Zhang",
            "Wang Zhang",
            "Hang Zhu",
            "Ru Zhang",
            "Xin Liu",
            "Mingxuan Wang",
            "Yonghui Wu",
            "Lin Yan",
        ]
        assert equal_contributors("vapo") == []

    def test_dapo_keeps_its_printed_casing_and_its_own_spelling_of_tiantian_fan(self):
        dapo = Publication.objects.get(slug="dapo")
        assert dapo.title == "Dapo: An open-source llm reinforcement learning system at scale"
        names = author_names("dapo")
        assert len(names) == 35
        assert names[6] == "Tiantian Fan"
        assert names[17:19] == ["Wang Zhang", "Hang Zhu"]

    def test_klotski_marks_its_first_two_authors_as_equal_contributors(self):
        assert author_names("klotski") == [
            "Yihao Zhao",
            "Xiaoxiang Zhang",
            "Hang Zhu",
            "Ying Zhang",
            "Zhaodong Wang",
            "Yuandong Tian",
            "Alex Nikulkov",
            "Joao Ferreira",
            "Xuanzhe Liu",
            "Xin Jin",
        ]
        assert equal_contributors("klotski") == ["Yihao Zhao", "Xiaoxiang Zhang"]

    def test_mucache_marks_haoran_zhang_and_konstantinos_kallas_as_equal_contributors(self):
        assert author_names("mucache") == [
            "Haoran Zhang",
            "Konstantinos Kallas",
            "Spyros Pavlatos",
            "Rajeev Alur",
            "Sebastian Angel",
            "Vincent Liu",
        ]
        assert equal_contributors("mucache") == ["Haoran Zhang", "Konstantinos Kallas"]

    def test_executing_microservice_applications_marks_its_first_two_authors_as_equal(self):
        slug = "executing-microservice-applications-on-serverless-correctly"
        assert Publication.objects.get(slug=slug).title == (
            "Executing Microservice Applications on Serverless, Correctly"
        )
        assert author_names(slug) == [
            "Konstantinos Kallas",
            "Haoran Zhang",
            "Rajeev Alur",
            "Sebastian Angel",
            "Vincent Liu",
        ]
        assert equal_contributors(slug) == ["Konstantinos Kallas", "Haoran Zhang"]

    def test_netvrm_keeps_dan_r_k_ports_as_printed(self):
        assert author_names("netvrm") == [
            "Hang Zhu",
            "Tao Wang",
            "Yi Hong",
            "Dan R. K. Ports",
            "Anirudh Sivaraman",
            "Xin Jin",
        ]

    def test_only_klotski_mucache_and_executing_microservice_have_equal_contribution_marks(self):
        marked = Publication.objects.filter(authorships__equal_contribution=True).distinct()
        assert set(marked.values_list("slug", flat=True)) == {
            "klotski",
            "mucache",
            "executing-microservice-applications-on-serverless-correctly",
        }

    @parametrize(
        ("slug", "venue", "year", "kind"),
        [
            ("vapo", "arXiv", 2025, "preprint"),
            ("minder", "NSDI", 2025, "conference-paper"),
            ("klotski", "SIGCOMM", 2023, "conference-paper"),
            (
                "runtime-recovery-of-web-applications-under-zero-day-redos",
                "S&P",
                2021,
                "conference-paper",
            ),
            ("harmonia", "VLDB", 2020, "conference-paper"),
            (
                "multitenancy-for-fast-and-programmable-networks-in-the-cloud",
                "HotCloud",
                2020,
                "workshop-paper",
            ),
            ("bitcuts", "Computer Communications", 2017, "journal-article"),
            ("causalmesh", "VLDB", 2025, "conference-paper"),
            ("xfaas", "SOSP", 2023, "conference-paper"),
            (
                "automatic-diagnosis-of-macular-diseases-from-oct-volume",
                "JBO",
                2020,
                "journal-article",
            ),
            ("zeppelin", "EuroSys", 2026, "conference-paper"),
            ("scaling-large-vision-language-model-rl-training", "ICLR", 2026, "conference-paper"),
            ("semantic-aware-scheduling-for-gpu-clusters", "arXiv", 2025, "preprint"),
            ("efficient-training-of-large-language-models-survey", "arXiv", 2024, "preprint"),
            ("packmamba", "ECCV", 2024, "workshop-paper"),
            ("schedmate", "NSDI", 2024, "poster"),
            (
                "characterization-of-large-language-model-development",
                "NSDI",
                2024,
                "conference-paper",
            ),
        ],
    )
    def test_papers_carry_the_venue_year_and_type_their_profile_gives(
        self, slug, venue, year, kind
    ):
        publication = Publication.objects.select_related("venue").get(slug=slug)
        assert (publication.venue.short_name, publication.year, publication.type) == (
            venue,
            year,
            kind,
        )
        assert publication.status == "published"

    def test_oneflow_is_a_preprint_with_no_year_and_no_venue(self):
        oneflow = Publication.objects.get(slug="oneflow")
        assert oneflow.type == "preprint"
        assert oneflow.year is None
        assert oneflow.venue is None
        assert author_names("oneflow")[10] == "Haoran Zhang"

    def test_jet_long_is_an_accepted_neurips_2026_paper(self):
        jet_long = Publication.objects.select_related("venue").get(slug="jet-long")
        assert jet_long.status == "accepted"
        assert (jet_long.venue.short_name, jet_long.year) == ("NeurIPS", 2026)
        assert Publication.objects.exclude(status="published").count() == 1

    def test_zerui_wangs_titles_are_stored_without_their_printed_final_period(self):
        titles = Publication.objects.filter(authorships__researcher__slug="zerui-wang")
        assert not [
            title for title in titles.values_list("title", flat=True) if title.endswith(".")
        ]
        assert Publication.objects.get(slug="jet-long").title == (
            "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE"
        )

    def test_causalmesh_carries_its_two_awards_in_printed_order(self):
        causalmesh = Publication.objects.get(slug="causalmesh")
        awards = causalmesh.awards.order_by("position").values_list("name", flat=True)
        assert list(awards) == ["Best Paper Award Nominee", "ACM SIGMOD Research Highlight Award"]
        assert Publication.objects.filter(awards__isnull=False).distinct().count() == 1

    def test_hao_zhangs_best_paper_award_is_a_personal_award_for_pollux(self):
        award = Person.objects.get(slug="hao-zhang").awards.get()
        assert (award.title, award.details, str(award.date)) == (
            "Jay Lepreau Best Paper Award",
            "OSDI 2021, for Pollux",
            "2021",
        )

    def test_zerui_wangs_phd_started_in_sep_2023_and_is_current(self):
        phd = Person.objects.get(slug="zerui-wang").education.get()
        assert phd.start.precision == DatePrecision.MONTH
        assert str(phd.start) == "Sep 2023"
        assert phd.end is None
        assert phd.is_current
        assert phd.period == "Sep 2023 – Present"
        assert phd.details == "Supervised by Dahua Lin and Rong Chen"

    def test_hang_zhus_phd_spans_2017_to_2022_at_year_precision(self):
        phd = Person.objects.get(slug="hang-zhu").education.get(position=1)
        assert (phd.degree, phd.institution) == ("Ph.D.", "Johns Hopkins University")
        assert phd.start.precision == DatePrecision.YEAR
        assert phd.period == "2017 – 2022"
        assert not phd.is_current
        assert phd.details == "Advised by Prof. Xin Jin"

    def test_haoran_zhangs_high_school_has_no_degree(self):
        school = Person.objects.get(slug="haoran-zhang").education.get(position=3)
        assert (school.degree, school.institution, school.period) == (
            "",
            "Shanghai Qibao High School",
            "2011 – 2014",
        )

    def test_zerui_wangs_internships_are_current_at_nvidia_and_started_at_xiaohongshu(self):
        nvidia, xiaohongshu = Person.objects.get(slug="zerui-wang").experience.order_by("position")
        assert (nvidia.organization, nvidia.period, nvidia.is_current) == (
            "NVIDIA Research",
            "May 2026 – Present",
            True,
        )
        assert (xiaohongshu.title, xiaohongshu.period, xiaohongshu.is_current) == (
            "Redstar Intern (Top Talent)",
            "Started Oct 2025",
            False,
        )
        assert xiaohongshu.description == "Working on LLM pretraining."

    def test_haoran_zhangs_latest_experience_is_research_scientist_at_meta_in_bellevue(self):
        latest = Person.objects.get(slug="haoran-zhang").experience.get(position=1)
        assert (latest.title, latest.organization, latest.location, latest.period) == (
            "Research Scientist",
            "Meta",
            "Bellevue, WA, USA",
            "Jul 2024 – Feb 2026",
        )

    def test_teaching_terms_and_institutions_are_as_printed(self):
        hang = Person.objects.get(slug="hang-zhu").teaching.order_by("position")
        assert list(hang.values_list("term", flat=True)) == [
            "Fall 2019",
            "Spring 2019",
            "Spring 2018",
        ]
        assert set(hang.values_list("institution", flat=True)) == {"Johns Hopkins University"}
        haoran = Person.objects.get(slug="haoran-zhang").teaching.order_by("position")
        assert list(haoran.values_list("course", "term", "institution")) == [
            ("CIS 455/555: Internet and Web Systems", "Spring 2022", ""),
            ("CIS 548: Operating Systems Design and Implementation", "Spring 2021", ""),
        ]

    def test_the_blog_post_is_dated_to_the_day(self):
        post = NewsItem.objects.get(kind="blog-post")
        assert post.title == "Linear Attention, Visualized"
        assert post.date.precision == DatePrecision.DAY
        assert str(post.date) == "25 Jul 2026"
        assert list(post.people.values_list("slug", flat=True)) == ["haoran-zhang"]

    def test_zerui_wangs_news_keeps_the_precision_of_its_dates(self):
        items = NewsItem.objects.filter(people__slug="zerui-wang", kind="news")
        dates = {item.title: (str(item.date), item.date.precision) for item in items}
        assert dates == {
            "Jet-Long has been accepted to NeurIPS 2026.": ("2026", DatePrecision.YEAR),
            "Our Jet-Long preprint and code are available.": ("Jul 2026", DatePrecision.MONTH),
            "I joined NVIDIA Research as a research intern.": ("May 2026", DatePrecision.MONTH),
            "FlexRL appeared at ICLR 2026, and Zeppelin appeared at EuroSys 2026.": (
                "2026",
                DatePrecision.YEAR,
            ),
        }

    def test_news_items_are_related_to_the_papers_they_name(self):
        related = {
            item.title: set(item.publications.values_list("slug", flat=True))
            for item in NewsItem.objects.all()
        }
        assert related == {
            "Linear Attention, Visualized": set(),
            "Jet-Long has been accepted to NeurIPS 2026.": {"jet-long"},
            "Our Jet-Long preprint and code are available.": {"jet-long"},
            "I joined NVIDIA Research as a research intern.": set(),
            # The text does not say which paper FlexRL is, so only Zeppelin is linked.
            "FlexRL appeared at ICLR 2026, and Zeppelin appeared at EuroSys 2026.": {"zeppelin"},
        }

    def test_no_fixture_object_has_a_url_a_doi_or_a_photo(self):
        assert Person.objects.get(slug="hang-zhu").links.count() == 0
        assert apps.get_model("people", "PersonLink").objects.count() == 0
        assert PublicationLink.objects.count() == 0
        assert not Publication.objects.exclude(doi="").exists()
        assert not Person.objects.exclude(photo="").exists()
        for name in FIXTURES:
            text = (Path(settings.BASE_DIR) / "fixtures" / f"{name}.json").read_text(
                encoding="utf-8"
            )
            assert "://" not in text
            assert "www." not in text

    def test_contact_details_are_only_those_the_profiles_spell_out(self):
        emails = dict(Person.objects.values_list("slug", "email"))
        assert emails == {
            "hang-zhu": "hangzhu16@gmail.com",
            "haoran-zhang": "haoranz@nvidia.com",
            "hao-zhang": "",
            "zerui-wang": "",
        }

    def test_haoran_zhangs_bio_keeps_its_non_ascii_characters(self):
        bio = Person.objects.get(slug="haoran-zhang").bio
        assert "瓜皮 (➔) is my favorite." in bio
        assert bio.startswith("I am a Byzantine general now chasing gradients")

    def test_zhang_zhang_and_wang_zhang_are_linked_to_no_member(self):
        authorships = Authorship.objects.filter(name__in=["Zhang Zhang", "Wang Zhang"])
        assert authorships.count() == 3
        assert not authorships.filter(researcher__profile__isnull=False).exists()

    def test_every_author_named_as_a_member_is_linked_to_that_member_and_no_other_author_is(self):
        members = {person.name: person.pk for person in Person.objects.all()}
        for name, person_id in Authorship.objects.values_list("name", "researcher__profile"):
            assert person_id == members.get(name), name

    def test_authorship_positions_run_from_one_without_gaps(self):
        for publication in Publication.objects.prefetch_related("authorships"):
            positions = sorted(authorship.position for authorship in publication.authorships.all())
            assert positions == list(range(1, len(positions) + 1)), publication.slug

    def test_loading_the_fixtures_twice_changes_no_row_count(self):
        before = row_counts()
        call_command("loaddata", *FIXTURES, verbosity=0)
        assert row_counts() == before
        assert before["publications.Authorship"] == 271
