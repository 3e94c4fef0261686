"""Staff do everything through the admin: every page of it loads on the seeded rows, and
editing works on rows each test makes."""

from django.apps import apps
from django.contrib import admin
from django.test import Client, TestCase
from django.urls import reverse

from news.models import NewsItem
from people.models import Person
from publications.models import CoauthorPair, Publication
from tests.admin_forms import inline_management, post_person
from tests.cases import EditorSignedIn, SeededTestCase, parametrize
from tests.factories import make_person, make_venue

MODEL_ADMINS = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry
)


def test_project_models_are_all_in_the_admin():
    assert {
        ("people", "person"),
        ("people", "rolegroup"),
        ("publications", "publication"),
        ("publications", "venue"),
        ("news", "newsitem"),
    } <= set(MODEL_ADMINS)


class SeededAdminTests(EditorSignedIn, SeededTestCase):
    @parametrize(("app_label", "model_name"), MODEL_ADMINS)
    def test_changelist_add_and_change_pages_load_for_an_editor(self, app_label, model_name):
        # The lab settings have one row: their list opens straight to its form.
        changelist = self.client.get(
            reverse(f"admin:{app_label}_{model_name}_changelist"), follow=True
        )
        assert changelist.status_code == 200
        model = apps.get_model(app_label, model_name)
        can_add = admin.site._registry[model].has_add_permission(changelist.wsgi_request)
        add_page = self.client.get(reverse(f"admin:{app_label}_{model_name}_add"))
        assert add_page.status_code == (200 if can_add else 403)
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            change_url = reverse(f"admin:{app_label}_{model_name}_change", args=[first.pk])
            # A researcher's page is their profile's or external record's: a redirect there.
            assert self.client.get(change_url, follow=True).status_code == 200

    def test_a_delete_confirmation_lists_what_staff_made_not_the_rows_the_site_keeps(self):
        """A paper's co-author pairs and the rows linking it to a news item go with it, but
        "Co-author pair: 1 and 1 on 12" and "NewsItem_publications object (1)" told the staff
        member nothing: the summary and the list show the paper and its authors."""
        first = CoauthorPair.objects.order_by("publication").values("publication")[:1]
        paper = Publication.objects.get(pk=first)
        news = NewsItem.objects.first()
        news.publications.add(paper)
        url = reverse("admin:publications_publication_delete", args=[paper.pk])
        page = self.client.get(url)
        names = [str(name) for name, _ in page.context["model_count"]]
        assert names[:2] == ["publications", "authors"]
        assert "co-author pairs" not in names
        assert not [name for name in names if "relationship" in name]
        shown = str(page.context["deleted_objects"])
        assert "Author: " in shown
        assert "Co-author pair" not in shown
        assert "relationship" not in shown
        assert "Co-author pair" not in page.content.decode()
        # They still go with the paper.
        self.client.post(url, {"post": "yes"})
        assert not Publication.objects.filter(pk=paper.pk).exists()
        assert not CoauthorPair.objects.filter(publication=paper.pk).exists()
        assert not news.publications.filter(pk=paper.pk).exists()

    def test_publication_search_finds_by_author_name(self):
        response = self.client.get(
            reverse("admin:publications_publication_changelist"), {"q": "Kostis Kaffes"}
        )
        titles = [publication.title for publication in response.context["cl"].result_list]
        by_kaffes = Publication.objects.filter(authorships__name="Kostis Kaffes")
        assert sorted(titles) == sorted(by_kaffes.values_list("title", flat=True))
        assert any(title.startswith("RackSched") for title in titles)


class AdminEditingTests(EditorSignedIn, TestCase):
    """On rows each test makes."""

    def test_an_anonymous_visitor_is_sent_to_the_login(self):
        response = Client().get(reverse("admin:publications_publication_changelist"))
        assert response.status_code == 302
        assert reverse("admin:login") in response["Location"]

    def test_person_search_finds_by_alias(self):
        make_person(name="Hang Zhu", aliases="H. Zhu")
        make_person(name="Someone Else")
        response = self.client.get(reverse("admin:people_person_changelist"), {"q": "H. Zhu"})
        assert [person.name for person in response.context["cl"].result_list] == ["Hang Zhu"]

    def test_adding_a_publication_keeps_author_order_and_proposes_members_by_name(self):
        member = make_person(name="Hang Zhu")
        venue = make_venue(short_name="NSDI")
        data = {
            "title": "A New Paper",
            "slug": "a-new-paper",
            "venue": venue.pk,
            "year": "2026",
            "type": Publication.Type.CONFERENCE_PAPER,
            "status": Publication.Status.PUBLISHED,
            "is_published": "on",
            **inline_management("authorships", total=2),
            "authorships-0-position": "1",
            "authorships-0-name": "Zhang Zhang",
            "authorships-1-position": "2",
            "authorships-1-name": "Hang Zhu",
            **inline_management("awards"),
            **inline_management("links"),
        }
        response = self.client.post(reverse("admin:publications_publication_add"), data)
        assert response.status_code == 302, response.context["adminform"].errors
        publication = Publication.objects.get(slug="a-new-paper")
        authors = publication.authorships.order_by("position")
        # An editor's save links no member by name: the member is asked (issue 27).
        assert list(authors.values_list("name", "researcher__profile", "proposed_person")) == [
            ("Zhang Zhang", None, None),
            ("Hang Zhu", None, member.pk),
        ]

    def test_person_autocomplete_for_authorships_finds_members(self):
        make_person(name="Zerui Wang")
        response = self.client.get(
            reverse("admin:autocomplete"),
            {
                "term": "zerui",
                "app_label": "publications",
                "model_name": "authorship",
                "field_name": "researcher",
            },
        )
        assert response.status_code == 200
        assert [result["text"] for result in response.json()["results"]] == ["Zerui Wang"]

    def test_an_invalid_partial_date_is_a_form_error_not_a_crash(self):
        person = make_person()
        response = post_person(
            self.client,
            person,
            **inline_management("education", total=1),
            **{
                "education-0-position": "1",
                "education-0-institution": "JHU",
                "education-0-start": "sometime in 2017",
            },
        )
        assert response.status_code == 200
        assert "is not a date" in response.content.decode()
        assert not Person.objects.get(pk=person.pk).education.exists()

    def test_staff_save_dates_at_every_precision_in_news_and_cv_rows(self):
        response = self.client.post(
            reverse("admin:news_newsitem_add"),
            {
                "title": "Joined",
                "slug": "joined",
                "date": "May 2026",
                "kind": "news",
                "is_published": "on",
            },
        )
        assert response.status_code == 302, response.context["adminform"].errors
        assert str(NewsItem.objects.get(slug="joined").date) == "May 2026"

        person = make_person()
        response = post_person(
            self.client,
            person,
            **inline_management("education", total=1),
            **{
                "education-0-position": "1",
                "education-0-institution": "SJTU",
                "education-0-start": "2023-09",
                "education-0-is_current": "on",
            },
            **inline_management("awards", total=1),
            **{"awards-0-position": "1", "awards-0-title": "Award", "awards-0-date": "25 Jul 2026"},
        )
        assert response.status_code == 302, response.context["errors"]
        assert person.education.get().period == "Sep 2023 – Present"
        assert str(person.awards.get().date) == "25 Jul 2026"
