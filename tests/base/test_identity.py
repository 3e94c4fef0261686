"""The lab's identity: an accent colour refused with its measured contrast, logos kept only when
safe, icons made from the logo, and the accent reaching every page through a stylesheet (never
an inline style), the admin and the API documentation included."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from base import identity
from base.models import Lab

pytestmark = pytest.mark.django_db

CLEAN_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    b'<defs><linearGradient id="g"><stop offset="0" stop-color="#123"/></linearGradient></defs>'
    b'<rect width="10" height="10" fill="url(#g)"/><use href="#g"/></svg>'
)


def lab_form(**fields) -> dict:
    lab = Lab.objects.current()
    return {
        "name": lab.name,
        "tagline": "",
        "institution": "",
        "about": "",
        "type_scale": "standard",
        "accent_colour": "",
        "accent_colour_dark": "",
        "banner_alt": "",
        **fields,
    }


def post_lab(client, **fields):
    return client.post(reverse("admin:directory_lab_change", args=[1]), lab_form(**fields))


def png(width: int = 300, height: int = 100, colour: str = "#2a7") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return SimpleUploadedFile("logo.png", buffer.getvalue(), content_type="image/png")


# The accent colour ------------------------------------------------------------------------------


def test_a_pale_accent_is_refused_at_save_with_its_measured_contrast(admin_client):
    response = post_lab(admin_client, accent_colour="#f5a300")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["accent_colour"]
    assert errors == [
        "This colour has 1.9:1 contrast on the light background; links need 4.5:1. "
        "Choose a darker shade."
    ]
    assert Lab.objects.current().accent_colour == ""


def test_a_dark_scheme_accent_too_dark_for_near_black_is_refused():
    with pytest.raises(ValidationError, match=r"2\.3:1 contrast on the dark background"):
        identity.validate_dark_accent("#1a56a8")


def test_a_colour_not_written_as_six_hexadecimal_digits_is_refused():
    with pytest.raises(ValidationError, match="six hexadecimal digits"):
        identity.validate_light_accent("red")


def test_a_readable_accent_is_saved_and_reaches_every_page_through_the_identity_stylesheet(
    admin_client, client
):
    response = post_lab(admin_client, accent_colour="#7a1f5c")
    assert response.status_code == 302
    lab = Lab.objects.current()
    page = client.get(reverse("home")).content.decode()
    address = f"{reverse('identity-css')}?v={lab.identity_stamp}"
    assert f'<link rel="stylesheet" href="{address}">' in page
    assert " style=" not in page
    css = client.get(address)
    assert css["Content-Type"] == "text/css; charset=utf-8"
    assert "immutable" in css["Cache-Control"]
    text = css.content.decode()
    assert "--color-accent: #7a1f5c;" in text
    # The dark scheme gets a lighter shade that reads on near-black.
    dark = text.split("prefers-color-scheme: dark", 1)[1].split("--color-accent: ", 1)[1][:7]
    assert identity.worst_contrast(dark, identity.DARK_BACKGROUNDS) >= 4.5


def test_the_admin_and_its_sign_in_page_take_the_labs_colours(admin_client, client):
    post_lab(admin_client, accent_colour="#7a1f5c")
    lab = Lab.objects.current()
    for page in (admin_client.get(reverse("admin:index")), client.get(reverse("admin:login"))):
        assert f"{reverse('identity-css')}?v={lab.identity_stamp}" in page.content.decode()
    css = client.get(reverse("identity-css")).content.decode()
    assert "html[data-theme] { --primary: #7a1f5c;" in css


def test_the_api_documentation_has_the_sites_header_and_a_way_back(client):
    page = client.get("/api/docs").content.decode() or client.get("/api/docs/").content.decode()
    assert 'class="api-header"' in page
    assert f'href="{reverse("home")}"' in page
    assert reverse("identity-css") in page


# Logos ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("svg", "found"),
    [
        (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "<script>"),
        (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', '"onload"'),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>',
            "<foreignObject>",
        ),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
            "a link",
        ),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/x.png"/></svg>',
            "a link or a reference to another file",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
            "DOCTYPE",
        ),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://x.example/a.css);</style></svg>',
            "style sheet",
        ),
    ],
)
def test_an_svg_logo_holding_a_script_or_foreign_content_is_refused_saying_what(svg, found):
    with pytest.raises(ValidationError) as refusal:
        identity.clean_svg(svg)
    assert found in refusal.value.messages[0]


def test_an_svg_logo_of_plain_shapes_is_kept_as_uploaded():
    assert identity.clean_svg(CLEAN_SVG) == CLEAN_SVG


def test_an_unsafe_svg_logo_is_refused_on_the_form_and_nothing_is_stored(admin_client):
    upload = SimpleUploadedFile(
        "logo.svg",
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        content_type="image/svg+xml",
    )
    response = post_lab(admin_client, logo=upload)
    assert response.status_code == 200
    assert "holds a <script> element" in response.context["adminform"].form.errors["logo"][0]
    assert not Lab.objects.current().logo


def test_a_raster_logo_is_stored_as_png_with_icons_of_32_180_and_512_pixels(admin_client):
    response = post_lab(admin_client, logo=png(), accent_colour="#7a1f5c")
    assert response.status_code == 302
    lab = Lab.objects.current()
    assert lab.logo.name.endswith(".png") and "logo" not in lab.logo.name
    for size in identity.FAVICON_SIZES:
        with Image.open(getattr(lab, f"favicon_{size}")) as icon:
            assert (icon.format, icon.size) == ("PNG", (size, size))
    page = admin_client.get(reverse("home")).content.decode()
    assert f'<link rel="icon" href="{lab.favicon_32.url}" sizes="32x32"' in page
    assert f'<link rel="apple-touch-icon" href="{lab.favicon_180.url}">' in page
    assert f'src="{lab.logo.url}" alt=""' in page


def test_an_svg_logo_gets_png_icons_of_the_labs_initials(admin_client):
    upload = SimpleUploadedFile("logo.svg", CLEAN_SVG, content_type="image/svg+xml")
    assert post_lab(admin_client, name="Zhu Systems Lab", logo=upload).status_code == 302
    lab = Lab.objects.current()
    assert lab.logo.name.endswith(".svg")
    with Image.open(lab.favicon_512) as icon:
        assert icon.size == (512, 512)
    page = admin_client.get(reverse("home")).content.decode()
    assert f'<link rel="icon" href="{lab.logo.url}" type="image/svg+xml">' in page


def test_a_banner_needs_its_description_and_becomes_the_preview_image(admin_client):
    wide = png(1200, 400)
    wide.name = "banner.png"
    refused = post_lab(admin_client, banner=wide)
    assert refused.status_code == 200
    wide.seek(0)
    assert post_lab(admin_client, banner=wide, banner_alt="The lab in 2026").status_code == 302
    lab = Lab.objects.current()
    page = admin_client.get(reverse("home")).content.decode()
    assert f'src="{lab.banner.url}" alt="The lab in 2026"' in page
    assert f'<meta property="og:image" content="http://testserver{lab.banner.url}">' in page


def test_the_type_scale_changes_the_body_size_in_the_identity_stylesheet():
    css = identity.stylesheet(accent="", dark_accent="", type_scale="large")
    assert "--font-size-body: 1.125rem;" in css


@pytest.mark.needs("weasyprint")  # base.documents imports WeasyPrint, which needs Pango
def test_the_cv_pdf_reads_the_labs_accent_through_its_local_fetcher():
    from base.documents import LocalFilesFetcher

    Lab.objects.filter(pk=Lab.objects.current().pk).update(accent_colour="#7a1f5c")
    fetcher = LocalFilesFetcher(site_url="http://testserver/")
    answer = fetcher.fetch(f"http://testserver{reverse('identity-css')}?v=1")
    assert b"--cv-link: #7a1f5c;" in answer.read()


def test_the_printable_cv_names_the_lab_and_links_the_identity_stylesheet(client):
    from tests.factories import make_person

    make_person(name="Ada Lovelace", slug="ada")
    page = client.get(reverse("people:cv", args=["ada"])).content.decode()
    assert reverse("identity-css") in page
    assert '<p class="cv-header__lab">' in page
