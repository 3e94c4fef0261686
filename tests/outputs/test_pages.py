"""The public pages of datasets and software, and where other pages show them."""

import feedparser
import pytest

from outputs.models import Output
from people.models import ResearchArea, ResearchGroup
from tests.factories import (
    assert_as_many_queries_for_many_rows,
    assert_off_every_public_page,
    make_person,
    sitemap_locations,
)
from tests.outputs.conftest import make_output, make_outsider
from tests.page_head import PageHead

# The schema.org properties of CreativeWork, Dataset and SoftwareSourceCode that the pages
# write (schema.org/Dataset, schema.org/SoftwareSourceCode): a key outside them is not
# schema.org, whatever a reader makes of it.
SCHEMA_ORG_PROPERTIES = {
    "@context",
    "@type",
    "@id",
    "url",
    "name",
    "creator",
    "description",
    "version",
    "license",
    "datePublished",
    "identifier",
    "sameAs",
    "citation",
}
SOFTWARE_PROPERTIES = SCHEMA_ORG_PROPERTIES | {"codeRepository"}


def json_ld(html: str) -> dict:
    (data,) = PageHead(html).json_ld
    return data


def test_the_list_shows_both_kinds_with_a_count_beside_each_kind(client, lab_outputs):
    page = client.get("/outputs/")
    assert page.status_code == 200
    html = page.text
    assert "Klotski simulator" in html and "Klotski traces" in html
    kinds = {option.value: option.count for option in page.context["facets"]["kind"].options}
    assert kinds == {"software": 1, "dataset": 1}


def test_the_kind_filter_keeps_one_kind_and_counts_the_other_kinds_under_the_other_filters(
    client, lab_outputs
):
    page = client.get("/outputs/?kind=software")
    assert [output.slug for output in page.context["page"].object_list] == ["klotski-simulator"]
    kinds = {option.value: option.count for option in page.context["facets"]["kind"].options}
    assert kinds == {"software": 1, "dataset": 1}


def test_the_member_filter_keeps_the_outputs_a_member_created(client, lab_outputs):
    make_output(title="Someone else's", creators=[make_person(name="Ada Lovelace")])
    page = client.get("/outputs/?creator=hang-zhu")
    slugs = {output.slug for output in page.context["page"].object_list}
    assert slugs == {"klotski-simulator", "klotski-traces"}
    members = {option.value: option.count for option in page.context["facets"]["creator"].options}
    assert members["hang-zhu"] == 2


def test_a_value_the_list_does_not_know_is_said_not_a_server_error(client, lab_outputs):
    page = client.get("/outputs/?kind=poems&year=20x4")
    assert page.status_code == 200
    assert any("Kind" in notice for notice in page.context["ignored"])
    assert client.get("/outputs/export.bib?kind=poems").status_code == 400


def test_drafts_stay_off_every_public_page(client, lab_outputs):
    draft = make_output(title="Secret data", is_published=False, creators=[lab_outputs["hang"]])
    pages = ["/outputs/", "/outputs/feed/", "/people/hang-zhu/"]
    assert_off_every_public_page(client, draft, title="Secret data", pages=pages)


def test_the_software_page_names_its_creators_papers_licence_and_citation_files(
    client, lab_outputs
):
    html = client.get("/outputs/klotski-simulator/").text
    assert '<a class="member" href="/people/hang-zhu/"><bdi>Hang Zhu</bdi></a>' in html
    assert "<bdi>Bo Zhao</bdi>" in html
    assert 'href="/publications/klotski/"' in html
    assert "https://spdx.org/licenses/MIT.html" in html
    assert 'href="/outputs/klotski-simulator/CITATION.cff"' in html
    assert 'href="/outputs/klotski-simulator/codemeta.json"' in html


def test_a_dataset_has_no_software_citation_files(client, lab_outputs):
    assert "CITATION.cff" not in client.get("/outputs/klotski-traces/").text
    assert client.get("/outputs/klotski-traces/CITATION.cff").status_code == 404
    assert client.get("/outputs/klotski-traces/codemeta.json").status_code == 404


def test_the_paper_page_shows_its_datasets_and_software(client, lab_outputs):
    html = client.get("/publications/klotski/").text
    assert "Datasets and software" in html
    assert 'href="/outputs/klotski-simulator/"' in html
    assert 'href="/outputs/klotski-traces/"' in html


def test_a_paper_without_outputs_shows_no_empty_section(client, lab_outputs):
    for output in (lab_outputs["software"], lab_outputs["dataset"]):
        output.publications.clear()
    assert "Datasets and software" not in client.get("/publications/klotski/").text


def test_a_profile_a_group_and_an_area_show_their_outputs(client, lab_outputs):
    group = ResearchGroup.objects.create(name="Networks", slug="networks")
    area = ResearchArea.objects.create(name="Optics", slug="optics")
    lab_outputs["dataset"].groups.add(group)
    lab_outputs["dataset"].areas.add(area)
    profile = client.get("/people/hang-zhu/").text
    assert 'href="/outputs/klotski-simulator/"' in profile
    assert 'href="/outputs/?creator=hang-zhu"' in profile
    for address in ("/groups/networks/", "/areas/optics/"):
        html = client.get(address).text
        assert 'href="/outputs/klotski-traces/"' in html
        assert 'href="/outputs/klotski-simulator/"' not in html


def test_an_outsider_made_output_shows_on_no_profile(client, lab_outputs):
    make_output(title="Their tool", creators=[make_outsider()])
    assert "Their tool" not in client.get("/people/hang-zhu/").text


def test_the_software_page_describes_itself_as_schema_org_software_source_code(client, lab_outputs):
    data = json_ld(client.get("/outputs/klotski-simulator/").text)
    assert data["@type"] == "SoftwareSourceCode"
    assert set(data) <= SOFTWARE_PROPERTIES
    assert data["codeRepository"] == "https://github.com/example/klotski"
    assert data["license"] == "https://spdx.org/licenses/MIT.html"
    assert data["sameAs"] == ["https://doi.org/10.5281/zenodo.1234567"]
    assert data["creator"][0]["url"] == "http://testserver/people/hang-zhu/"
    assert data["creator"][0]["identifier"]["value"] == "0000-0002-1825-0097"
    assert data["citation"] == ["http://testserver/publications/klotski/"]


def test_the_dataset_page_describes_itself_as_a_schema_org_dataset(client, lab_outputs):
    data = json_ld(client.get("/outputs/klotski-traces/").text)
    assert data["@type"] == "Dataset"
    assert set(data) <= SCHEMA_ORG_PROPERTIES
    assert data["datePublished"] == "2023-05"
    # Google's dataset search needs a description: the title stands in for a missing one.
    assert data["description"] == "Klotski traces"
    assert data["sameAs"] == ["https://zenodo.org/records/7654321"]


def test_the_feed_lists_them_newest_first_and_narrows_by_kind(client, lab_outputs):
    feed = feedparser.parse(client.get("/outputs/feed/").content)
    assert not feed.bozo
    assert [entry.title for entry in feed.entries] == ["Klotski simulator 1.2.0", "Klotski traces"]
    assert feed.entries[0].published.startswith("2023-07-25")
    assert "published" not in feed.entries[1]  # known to the month only
    software = feedparser.parse(client.get("/outputs/feed/?kind=software").content)
    assert [entry.title for entry in software.entries] == ["Klotski simulator 1.2.0"]
    assert software.feed.title.endswith(": software")


def test_the_sitemap_lists_the_outputs_and_their_list(client, lab_outputs):
    locations = sitemap_locations(client)
    assert "http://testserver/outputs/" in locations
    assert "http://testserver/outputs/klotski-traces/" in locations


def test_the_api_lists_them_with_the_lists_filters_and_is_in_the_schema(client, lab_outputs):
    answer = client.get("/api/outputs/?kind=dataset").json()
    (dataset,) = answer["results"]
    assert dataset["slug"] == "klotski-traces" and dataset["licence"] == "CC-BY-4.0"
    assert [creator["name"] for creator in dataset["creators"]] == ["Bo Zhao", "Hang Zhu"]
    assert dataset["creators"][1]["profile"] == "http://testserver/people/hang-zhu/"
    one = client.get("/api/outputs/klotski-simulator/").json()
    assert [paper["slug"] for paper in one["publications"]] == ["klotski"]
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/api/outputs/" in paths and "/api/outputs/{slug}/" in paths
    assert client.get("/api/outputs/?kind=poems").status_code == 400


@pytest.mark.parametrize("address", ["/outputs/", "/api/outputs/", "/outputs/feed/"])
def test_a_list_runs_as_many_queries_for_thirty_outputs_as_for_three(client, db, address):
    """The creators are prefetched for every row at once, and each facet is one aggregate:
    no query per output or per creator."""
    members = [make_person(name=f"Member {number}") for number in range(3)]

    def add(number: int) -> None:
        make_output(
            kind=Output.Kind.SOFTWARE if number % 2 else Output.Kind.DATASET,
            released=f"{2000 + number % 20}",
            creators=[members[number % 3], members[(number + 1) % 3], make_outsider()],
        )

    assert_as_many_queries_for_many_rows(client, address, add, few=3, many=30)


def test_the_header_offers_data_and_software_only_when_some_are_published(client, db):
    assert 'href="/outputs/"' not in client.get("/").text
    draft = make_output(title="A draft", is_published=False)
    assert 'href="/outputs/"' not in client.get("/").text
    draft.is_published = True
    draft.save()
    html = client.get("/").text
    assert '<a href="/outputs/">Data & software</a>' in html
    assert '<a href="/outputs/" aria-current="page">' in client.get("/outputs/").text


def test_the_header_link_and_the_search_section_are_in_chinese_under_zh_hans(client, db):
    make_output(title="Widget tool")
    html = client.get("/zh-hans/search/", {"q": "widget"}).text
    assert '<a href="/zh-hans/outputs/">数据和软件</a>' in html
    assert '<h2 id="results-outputs">数据集和软件' in html


def test_with_no_outputs_the_list_says_so_in_a_sentence_and_offers_no_empty_filters(client, db):
    make_output(title="A draft", is_published=False)
    html = client.get("/outputs/").text
    assert "There are no datasets or software yet." in html
    assert "Apply filters" not in html and "No dataset or software matches" not in html
    assert "暂无数据集或软件。" in client.get("/zh-hans/outputs/").text
