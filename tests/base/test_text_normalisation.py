"""Text that cannot spoof or break an output (issue 22): one normalisation for every text field,
at every way in (the admin's forms, the BibTeX import, any save), and outputs that carry
whatever older rows still hold.

- bidirectional controls, noncharacters and surrogates are refused with the character named;
- one-line text is stored in NFC; a person's name needs a letter one can see;
- ORCID iDs and DOIs are read from their pasted forms (fullwidth digits, addresses, "doi:")
  before they are checked, on members and external people alike;
- author names are each in a <bdi>, so one name cannot reorder the next;
- Atom feeds stay well-formed XML whatever a row stored earlier holds;
- a slug another address under the same prefix uses ("feed") is refused;
- a date of day 0 is not a date.
"""

import importlib
import xml.etree.ElementTree as ElementTree

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from base.addresses import hidden_address
from base.models import Lab
from base.partial_dates import PartialDate
from base.validation import check_text, validate_row, without_control_characters
from news.models import NewsItem
from people.models import ExternalPerson, Person
from publications.bibtex import import_bibtex, parse_bibtex
from publications.models import Authorship, Publication
from tests.admin_forms import new_publication_form, post_person, publication_form
from tests.factories import make_news, make_person, make_publication

ORCID = "0000-0002-1825-0097"
FULLWIDTH_ORCID = "０000-0002-1825-0097"  # noqa: RUF001  (the fullwidth digit is the point)
OTHER_ORCID = "0000-0001-5109-3700"
FULLWIDTH_OTHER_ORCID = "０000-0001-5109-3700"  # noqa: RUF001
BIDI_CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2069"]
NONCHARACTERS = ["\ufffe", "\uffff", "\ufdd0", "\ufdef", "\U0001fffe", "\U0010ffff"]
# Names that draw nothing: zero-width space and joiner, direction marks, a soft hyphen, a
# combining mark, the blank braille pattern, a Hangul filler.
INVISIBLE_NAMES = [
    "\u200b",
    "\u200b\u200d\u200b",
    "\u200e\u200f",
    "\u00ad",
    "\u0301\u0301",
    "\u2800 \u2800",
    "\u3164",
]


# The rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("character", BIDI_CONTROLS)
@pytest.mark.parametrize("multi_line", [False, True])
def test_a_bidi_control_is_refused_by_name_and_place_in_any_text(character, multi_line):
    with pytest.raises(ValidationError) as refused:
        check_text(f"Hang Zhu{character}, Ada", multi_line=multi_line)
    [message] = refused.value.messages
    assert f"U+{ord(character):04X}" in message and "after “Hang Zhu”" in message
    assert "direction" in message


@pytest.mark.parametrize("character", NONCHARACTERS)
@pytest.mark.parametrize("multi_line", [False, True])
def test_a_noncharacter_is_refused_by_name_in_any_text(character, multi_line):
    with pytest.raises(ValidationError) as refused:
        check_text(f"Bells{character}", multi_line=multi_line)
    assert f"U+{ord(character):04X}" in refused.value.messages[0]


def test_a_lone_surrogate_is_refused_while_scripts_joiners_and_marks_are_text():
    with pytest.raises(ValidationError, match="U\\+D800"):
        check_text("Bells\ud800", multi_line=True)
    for text in ["שלום عربي", "e\u0301te\u0300", "漢字 😀", "👩\u200d🔬 Zoë"]:
        check_text(text, multi_line=False)


def test_xml_outputs_drop_noncharacters_surrogates_and_bidi_controls_of_older_rows():
    value = {"title": ["Bells\ufffe\uffff\ud800 and \u202eWhistles\x01"]}
    assert without_control_characters(value) == {"title": ["Bells and Whistles"]}


# Names --------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_of_only_invisible_characters_is_refused_for_members_externals_and_authors(name):
    publication = make_publication()
    rows = [
        Person(name=name, slug="blank"),
        ExternalPerson(name=name, slug="blank"),
        Authorship(publication=publication, position=1, name=name),
    ]
    for row in rows:
        with pytest.raises(ValidationError) as refused:
            validate_row(row)
        assert "name" in refused.value.message_dict, row


@pytest.mark.django_db
def test_a_direction_mark_in_a_name_is_refused_naming_it():
    with pytest.raises(ValidationError) as refused:
        make_person(name="Ada\u200f Lovelace")
    assert "U+200F" in refused.value.message_dict["name"][0]


@pytest.mark.django_db
def test_the_admin_refuses_a_blank_looking_name_with_a_message_on_the_field(editor_client):
    person = make_person(name="Ada Lovelace")
    response = post_person(editor_client, person, name="\u200b\u2800")
    assert response.status_code == 200
    assert "letters" in response.context["adminform"].form.errors["name"][0]
    assert Person.objects.get(pk=person.pk).name == "Ada Lovelace"


@pytest.mark.django_db
def test_the_admin_refuses_an_author_name_that_would_reverse_the_others(editor_client):
    publication = make_publication(authors=["Ada Lovelace", "Hang Zhu"])
    data = publication_form(publication) | {"authorships-0-name": "Ada \u202eLovelace"}
    url = reverse("admin:publications_publication_change", args=[publication.pk])
    response = editor_client.post(url, data)
    assert response.status_code == 200
    assert "U+202E" in response.content.decode()
    assert publication.authorships.get(position=1).name == "Ada Lovelace"


@pytest.mark.django_db
def test_one_line_text_is_stored_in_nfc_whichever_way_it_was_typed():
    person = make_person(name="Jose\u0301 Nu\u0301n\u0303ez")
    publication = make_publication(title="Cafe\u0301 caches")
    assert Person.objects.get(pk=person.pk).name == "José Núñez"
    assert Publication.objects.get(pk=publication.pk).title == "Café caches"


# Identifiers --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_fullwidth_orcid_is_stored_as_ascii_and_caught_by_the_uniqueness_check(editor_client):
    make_person(orcid=ORCID)
    other = make_person()
    response = post_person(editor_client, other, orcid=FULLWIDTH_ORCID)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors  # another profile has this iD
    other.refresh_from_db()
    assert other.orcid == ""
    assert Person.objects.filter(orcid=ORCID).count() == 1


@pytest.mark.django_db
def test_a_fullwidth_orcid_saved_without_a_form_is_stored_as_ascii():
    person = make_person(orcid=f"https://orcid.org/{FULLWIDTH_ORCID}")
    assert Person.objects.get(pk=person.pk).orcid == ORCID


@pytest.mark.django_db
def test_an_external_person_takes_the_same_orcid_forms_as_a_member(editor_client):
    response = editor_client.post(
        reverse("admin:people_externalperson_add"),
        {"name": "Matei Zaharia", "slug": "matei-zaharia", "orcid": f"orcid.org/{FULLWIDTH_ORCID}"},
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert ExternalPerson.objects.get(slug="matei-zaharia").orcid == ORCID


@pytest.mark.django_db
@pytest.mark.parametrize(
    "pasted",
    [
        "https://doi.org/10.1145/3544216.3544265",
        "http://dx.doi.org/10.1145/3544216.3544265",
        "doi:10.1145/3544216.3544265",
        "DOI: 10.1145/3544216.3544265",
        "１0.1145/3544216.3544265",  # noqa: RUF001  (a fullwidth digit)
    ],
)
def test_a_doi_pasted_in_its_usual_forms_is_stored_bare(editor_client, pasted):
    publication = make_publication()
    url = reverse("admin:publications_publication_change", args=[publication.pk])
    response = editor_client.post(url, publication_form(publication, doi=pasted))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Publication.objects.get(pk=publication.pk).doi == "10.1145/3544216.3544265"


@pytest.mark.django_db
@pytest.mark.parametrize("doi", ["not a doi", "javascript:alert(1)", "10.12/x", "10.1145/"])
def test_what_is_not_a_doi_is_refused_with_a_message_on_the_field(editor_client, doi):
    publication = make_publication()
    url = reverse("admin:publications_publication_change", args=[publication.pk])
    response = editor_client.post(url, publication_form(publication, doi=doi))
    assert response.status_code == 200
    [message] = response.context["adminform"].form.errors["doi"]
    assert "is not a DOI" in message
    assert Publication.objects.get(pk=publication.pk).doi == ""


@pytest.mark.django_db
def test_a_doi_that_is_not_one_is_refused_without_a_form_too():
    with pytest.raises(ValidationError) as refused:
        make_publication(doi="javascript:alert(1)")
    assert "doi" in refused.value.message_dict


# The BibTeX import --------------------------------------------------------------------------


def bibtex(fields: str) -> str:
    return "@inproceedings{bells2024,\n  " + fields + ",\n  year = {2024}\n}\n"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ("title = {Bells}, author = {Ada \u202eLovelace and Hang Zhu}", "U+202E"),
        ("title = {Bells\ufffe and Whistles}", "U+FFFE"),
        ("title = {Bells}, author = {\u200b\u200d}", "letters"),
        ("title = {Bells}, doi = {not a doi}", "is not a DOI"),
        ("title = {Bells}, doi = {javascript:alert(1)}", "is not a DOI"),
    ],
)
def test_the_bibtex_import_refuses_unsafe_text_and_non_dois_naming_the_entry(fields, words):
    [entry] = parse_bibtex(bibtex(fields)).entries
    assert any(words in problem for problem in entry.problems), entry.problems
    with pytest.raises(Exception, match="Nothing was imported"):
        import_bibtex(text=bibtex(fields))
    assert not Publication.objects.exists()


@pytest.mark.django_db
def test_the_bibtex_import_stores_dois_bare_and_titles_in_nfc():
    text = bibtex("title = {Cafe\u0301 Caches}, doi = {https://doi.org/10.1145/3544216.3544265}")
    import_bibtex(text=text)
    publication = Publication.objects.get()
    assert publication.doi == "10.1145/3544216.3544265"
    assert publication.title == "Café Caches"


# Author names in <bdi> ----------------------------------------------------------------------


@pytest.mark.django_db
def test_each_author_name_is_isolated_so_one_cannot_reorder_the_next(client):
    member = make_person(name="Hang Zhu")
    publication = make_publication(authors=["محمد علي", member, "Ada Lovelace"])
    html = client.get(reverse("publications:detail", args=[publication.slug])).content.decode()
    assert "<bdi>محمد علي</bdi>" in html
    assert "<bdi>Hang Zhu</bdi></a>" in html
    assert "<bdi>Ada Lovelace</bdi>" in html
    listing = client.get(reverse("publications:index")).content.decode()
    assert "<bdi>محمد علي</bdi>" in listing


@pytest.mark.django_db
def test_a_person_card_isolates_the_name(client):
    make_person(name="محمد علي")
    html = client.get(reverse("people:index")).content.decode()
    assert "<bdi>محمد علي</bdi>" in html


# Feeds --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_title_with_u_fffe_can_no_longer_be_stored():
    with pytest.raises(ValidationError) as refused:
        make_news(title="Bells\ufffe")
    assert "U+FFFE" in refused.value.message_dict["title"][0]
    with pytest.raises(ValidationError):
        Lab.objects.create(pk=1, name="Systems Lab\uffff")


@pytest.mark.django_db
def test_feeds_stay_well_formed_xml_over_rows_stored_before_the_rule(client):
    """Rows stored by QuerySet.update(), as rows stored before the rule are: U+FFFE and U+FFFF
    in a title, an author and the lab's name made both feeds ill-formed XML, served 200."""
    Lab.objects.current()
    Lab.objects.update(name="Systems\uffff Lab")
    publication = make_publication(title="Bells", authors=["Ada Lovelace"])
    Publication.objects.filter(pk=publication.pk).update(title="Bells\ufffe and \ufdd0Whistles")
    Authorship.objects.filter(publication=publication).update(name="Ada\uffff Lovelace")
    news = make_news(title="News")
    NewsItem.objects.filter(pk=news.pk).update(title="Big\ufffe news", body="Body\uffff")
    for url in [reverse("publications:feed"), reverse("news:feed")]:
        response = client.get(url)
        assert response.status_code == 200
        root = ElementTree.fromstring(response.content)  # raises on ill-formed XML
        assert root.tag.endswith("feed")
        text = response.content.decode()
        assert "\ufffe" not in text and "\uffff" not in text
    assert "Bells and Whistles" in client.get(reverse("publications:feed")).content.decode()


# Reserved slugs -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["feed", "embed", "export"])
def test_a_publication_slug_another_address_uses_is_refused_in_the_admin(editor_client, slug):
    data = new_publication_form(title="Feed", slug=slug)
    response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 200
    [message] = response.context["adminform"].form.errors["slug"]
    assert f"“{slug}” cannot be used" in message and "/publications/" in message
    assert not Publication.objects.exists()


@pytest.mark.django_db
def test_a_news_slug_feed_is_refused_and_any_other_word_is_free():
    with pytest.raises(ValidationError) as refused:
        make_news(slug="feed")
    assert "/news/feed/" in refused.value.message_dict["slug"][0]
    assert hidden_address("news:detail", "feeds") is None
    assert hidden_address("people:detail", "feed") is None  # /people/ has no feed of its own


@pytest.mark.django_db
def test_the_bibtex_import_gives_a_paper_titled_like_an_address_another_slug():
    import_bibtex(text=bibtex("title = {Embed}"))
    publication = Publication.objects.get()
    assert publication.slug == "embed-2"
    assert hidden_address("publications:detail", publication.slug) is None


# Dates --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["0 Jan 2026", "Jan 0, 2026", "2026-01-00", "2026-00", "0 Feb 2025"]
)
def test_a_day_or_month_that_does_not_exist_is_not_a_date(text):
    with pytest.raises(ValueError, match="is not a date"):
        PartialDate.parse(text)


@pytest.mark.django_db
def test_the_admin_refuses_day_0_with_a_message_on_the_field(editor_client):
    data = {"title": "Joined", "slug": "joined", "date": "0 Jan 2026", "kind": "news"}
    response = editor_client.post(reverse("admin:news_newsitem_add"), data)
    assert response.status_code == 200
    assert "is not a date" in response.context["adminform"].form.errors["date"][0]
    assert not NewsItem.objects.exists()


# Rows stored before the rules ---------------------------------------------------------------


def store_raw(model, pk, **values) -> None:
    """Each value into the table of the model that declares its field: a profile's name and
    ORCID iD are its researcher's columns (people 0018), with the same id."""
    tables: dict = {}
    for name, value in values.items():
        field = model._meta.get_field(name)
        tables.setdefault(field.model._meta, {})[field.column] = value
    for meta, columns in tables.items():
        table = connection.ops.quote_name(meta.db_table)
        assigned = ", ".join(f"{connection.ops.quote_name(column)} = %s" for column in columns)
        key = connection.ops.quote_name(meta.pk.column)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {assigned} WHERE {key} = %s", [*columns.values(), pk]
            )


@pytest.mark.django_db
def test_the_data_migration_mends_older_rows_and_says_what_it_changed(capsys):
    person = make_person(name="Ada Lovelace")
    external = ExternalPerson.objects.create(name="Matei Zaharia", slug="matei")
    publication = make_publication(title="Bells", authors=["Hang Zhu"])
    # Stored as rows were before the rules: raw SQL, past the fields' own normalisation.
    store_raw(Person, person.pk, name="Ada\u200f Love\u202elace", orcid=FULLWIDTH_ORCID)
    # Its column holds 19 characters (PostgreSQL refuses more): the address form cannot have
    # been stored, the fullwidth one can.
    # Another iD: a member and an outsider are one table now, and one iD names one human.
    store_raw(ExternalPerson, external.pk, orcid=FULLWIDTH_OTHER_ORCID)
    store_raw(
        Publication,
        publication.pk,
        title="Cafe\u0301\ufffe",
        doi="https://doi.org/10.1145/3544216.3544265",
    )
    authorship = Authorship.objects.get(publication=publication)
    store_raw(Authorship, authorship.pk, name="Hang\u202e Zhu")
    bad_doi = make_publication()
    store_raw(Publication, bad_doi.pk, doi="javascript:alert(1)")

    for name in [
        "people.migrations.0016_text_visible_names_and_bare_identifiers",
        "publications.migrations.0021_text_visible_names_and_bare_identifiers",
    ]:
        importlib.import_module(name).mend(apps, connection.schema_editor())
    report = capsys.readouterr().out

    person.refresh_from_db()
    publication.refresh_from_db()
    assert (person.name, person.orcid) == ("Ada Lovelace", ORCID)
    assert ExternalPerson.objects.get(pk=external.pk).orcid == OTHER_ORCID
    assert (publication.title, publication.doi) == ("Café", "10.1145/3544216.3544265")
    assert Authorship.objects.get(publication=publication).name == "Hang Zhu"
    assert Publication.objects.get(pk=bad_doi.pk).doi == ""
    assert "'javascript:alert(1)'" in report and "is not a DOI" in report
    assert "is stored in its bare form" in report and "had direction marks" in report
    assert "had bidi controls or noncharacters" in report and "is stored in NFC" in report


@pytest.mark.django_db
def test_the_data_migration_reports_an_orcid_that_becomes_another_profiles_and_goes_on(capsys):
    make_person(orcid=ORCID)
    twin = make_person()
    store_raw(Person, twin.pk, orcid=FULLWIDTH_ORCID)
    importlib.import_module("people.migrations.0016_text_visible_names_and_bare_identifiers").mend(
        apps, connection.schema_editor()
    )
    report = capsys.readouterr().out
    assert f"people.Person {twin.pk}: left as it is, fix it by hand" in report
    assert Person.objects.get(pk=twin.pk).orcid == FULLWIDTH_ORCID


def test_marked_wraps_each_word_start_found_and_escapes_the_rest():
    from base.text import marked, search_terms

    terms = search_terms("nunez ZH")
    # As the search reads words: after a space, "-", "(" or "/" (so not in "Azhar", nor after "<").
    assert marked("Núñez & <Zhang> Zhu, not Azhar", terms) == (
        "<mark>Núñez</mark> &amp; &lt;Zhang&gt; <mark>Zh</mark>u, not Azhar"
    )


def test_an_address_like_affiliation_may_wrap_after_its_at_sign_and_stays_escaped():
    from base.templatetags.site import breakable

    assert breakable("ByteDance@Seattle <b>") == "ByteDance@<wbr>Seattle &lt;b&gt;"
