"""The kept values outputs show through (base/caches.py: "section-outputs" on profiles,
groups and areas; the paper page's kept parts): a write of an output, of its creators or of a
creator's name reaches the next request.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off so that every request renders its page, and
only the kept values are reused."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from outputs.models import Output, OutputCreator
from tests.outputs.conftest import make_output

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rendered_anew")]

PROFILE = "/people/hang-zhu/"


def test_a_profile_keeps_its_outputs_until_one_changes(client, lab_outputs):
    assert "Klotski simulator" in client.get(PROFILE).text
    with CaptureQueriesContext(connection) as again:
        client.get(PROFILE)
    # Kept: no query for them (the header's lab row asks only whether any is published).
    assert not [
        q for q in again if "outputs_output" in q["sql"] and "directory_lab" not in q["sql"]
    ]

    software = lab_outputs["software"]
    software.title = "Klotski emulator"
    software.save()
    assert "Klotski emulator" in client.get(PROFILE).text

    newer = make_output(title="Ring traces", released="2025")
    OutputCreator.objects.create(output=newer, position=1, researcher=lab_outputs["hang"])
    assert "Ring traces" in client.get(PROFILE).text

    Output.objects.filter(pk=newer.pk).update(is_published=False)  # a bulk write too
    assert "Ring traces" not in client.get(PROFILE).text


def test_a_creators_new_name_reaches_the_kept_sections_and_the_paper_page(client, lab_outputs):
    paper_page = lab_outputs["paper"].get_absolute_url()
    client.get(PROFILE)
    client.get(paper_page)
    hang = lab_outputs["hang"]
    hang.name = "Hang Zhu-Li"
    hang.save()
    assert "<bdi>Hang Zhu-Li</bdi></a>, <span><bdi>Bo Zhao" in client.get(PROFILE).text
    assert "Klotski simulator" in client.get(paper_page).text
    lab_outputs["software"].publications.remove(lab_outputs["paper"])
    assert 'href="/outputs/klotski-simulator/"' not in client.get(paper_page).text
