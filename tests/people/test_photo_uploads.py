"""Photo uploads, with real files crafted here: what is refused, and what is stored instead."""

import io
import re
import struct
import zlib
from functools import cache

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import ExifTags, Image, ImageFile

from people import photos
from people.models import Person
from tests.admin_forms import post_person
from tests.factories import make_person

pytestmark = pytest.mark.django_db

GENERATED_PHOTO = re.compile(r"people/[0-9a-f]{32}\.jpg")
HTML = b"<html><script>alert(1)</script></html>"


def encoded(image: Image.Image, format: str, **params) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=format, **params)
    return buffer.getvalue()


def red_left_blue_right(width=400, height=200) -> Image.Image:
    image = Image.new("RGB", (width, height), "blue")
    image.paste("red", (0, 0, width // 2, height))
    return image


def noise_jpeg() -> bytes:
    """Noise does not compress: most of the file is the picture, so cutting it loses pixels."""
    return encoded(Image.effect_noise((300, 300), 80).convert("RGB"), "JPEG", quality=95)


def phone_jpeg() -> bytes:
    """A landscape picture a phone held upright would save: orientation 6, a GPS position."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = "Spy Camera"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (31.0, 1.0, 30.0)
    return encoded(red_left_blue_right(), "JPEG", exif=exif)


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def black_and_white_png(width: int, height: int) -> bytes:
    """A valid 1-bit PNG of zeros: a few kilobytes that decode to width × height pixels."""
    row = b"\x00" * (1 + (width + 7) // 8)  # a filter byte, then 8 pixels a byte
    compressor = zlib.compressobj(9)
    rows_at_once = 1000
    data = b"".join(
        compressor.compress(row * min(rows_at_once, height - start))
        for start in range(0, height, rows_at_once)
    )
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", data + compressor.flush())
        + png_chunk(b"IEND", b"")
    )


def upload(data: bytes, name="portrait.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def refusal(data: bytes, name="portrait.jpg") -> str:
    with pytest.raises(ValidationError) as refused:
        photos.clean_photo(upload=upload(data, name))
    return refused.value.code


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.fixture
def no_decoding(monkeypatch):
    """Any attempt to decode pixels fails the test: a refusal must come from the header."""

    def load(image):
        raise AssertionError("the pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", load)


# What is kept


def test_a_phone_photo_is_turned_upright_and_loses_its_exif_and_gps_position():
    assert opened(phone_jpeg()).getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the GPS is there
    photo = photos.clean_photo(upload=upload(phone_jpeg()))
    stored = opened(photo.photo)
    assert stored.format == "JPEG"
    assert stored.size == (200, 400)
    top, bottom = stored.getpixel((100, 5)), stored.getpixel((100, 395))
    assert top[0] > 200 and top[2] < 60  # the left side, red, is now the top
    assert bottom[2] > 200 and bottom[0] < 60
    assert not stored.getexif()
    assert b"Exif" not in photo.photo and b"Spy Camera" not in photo.photo


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("portrait.png", encoded(Image.new("RGBA", (300, 200), (0, 128, 0, 0)), "PNG")),
        ("portrait.webp", encoded(red_left_blue_right(), "WEBP")),
        ("portrait.jpg", noise_jpeg()),
    ],
)
def test_jpeg_png_and_webp_are_kept_as_jpeg_with_square_thumbnails(name, data):
    photo = photos.clean_photo(upload=upload(data, name))
    assert opened(photo.photo).format == "JPEG"
    assert opened(photo.photo).mode == "RGB"
    assert opened(photo.thumbnail).size == (192, 192)
    assert opened(photo.large_thumbnail).size == (384, 384)


def test_transparent_parts_are_stored_white():
    transparent = encoded(Image.new("RGBA", (300, 200), (0, 128, 0, 0)), "PNG")
    photo = photos.clean_photo(upload=upload(transparent, "portrait.png"))
    assert min(opened(photo.photo).getpixel((150, 100))) > 245


def test_large_photos_are_scaled_down_to_1600_pixels_on_their_longest_side():
    photo = photos.clean_photo(upload=upload(encoded(red_left_blue_right(3200, 1000), "JPEG")))
    assert opened(photo.photo).size == (1600, 500)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("portrait.png", encoded(red_left_blue_right(), "PNG") + HTML),
        ("portrait.jpg", encoded(red_left_blue_right(), "JPEG", comment=HTML)),
    ],
    ids=["after the end of a png", "in a jpeg comment"],
)
def test_html_riding_along_with_an_image_is_not_stored(name, data):
    """Accepted, since the image itself is sound, and harmless: only its pixels are kept."""
    photo = photos.clean_photo(upload=upload(data, name))
    assert b"<script>" not in photo.photo
    assert b"<script>" not in photo.thumbnail + photo.large_thumbnail


# What is refused


def test_a_truncated_jpeg_is_refused_as_damaged():
    whole = noise_jpeg()
    assert opened(whole)  # the whole file decodes
    assert refusal(whole[: len(whole) // 2]) == "damaged"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        (
            "portrait.png",
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
        ("portrait.jpg", b"Not a photo at all, only some words.\n"),
        ("portrait.jpg", encoded(red_left_blue_right(), "GIF")),
        ("portrait.png", encoded(red_left_blue_right(), "BMP")),
    ],
    ids=["svg renamed .png", "text", "gif", "bmp"],
)
def test_anything_but_jpeg_png_or_webp_is_refused_whatever_its_name(name, data):
    assert refusal(data, name) == "not_an_image"


def test_a_file_over_the_byte_limit_is_refused_before_pillow_opens_it(settings, monkeypatch):
    settings.PHOTO_MAX_BYTES = 10_000
    data = noise_jpeg()
    assert len(data) > 10_000

    def open_image(*args, **kwargs):
        raise AssertionError("Pillow opened the file")

    monkeypatch.setattr(Image, "open", open_image)
    assert refusal(data) == "too_large"


@pytest.mark.usefixtures("no_decoding")
def test_an_image_over_the_pixel_limit_is_refused_from_its_header():
    bomb = black_and_white_png(8000, 8000)  # 64 million pixels, in 8 kB
    assert len(bomb) < 10_000
    assert refusal(bomb, "portrait.png") == "too_many_pixels"


@pytest.mark.usefixtures("no_decoding")
def test_a_decompression_bomb_is_refused_from_its_header():
    bomb = black_and_white_png(30_000, 30_000)  # 900 million pixels, in 110 kB
    assert len(bomb) < 200_000
    assert refusal(bomb, "portrait.png") == "too_many_pixels"


@pytest.mark.usefixtures("no_decoding")
def test_pillows_own_pixel_limit_still_refuses_when_ours_is_raised(settings):
    settings.PHOTO_MAX_PIXELS = 10**10
    assert Image.MAX_IMAGE_PIXELS < 10_000 * 10_000  # Pillow warns above its limit
    assert refusal(black_and_white_png(10_000, 10_000), "portrait.png") == "too_many_pixels"


def test_a_lower_pixel_limit_is_read_from_the_settings(settings):
    settings.PHOTO_MAX_PIXELS = 100 * 100
    assert refusal(encoded(red_left_blue_right(200, 100), "PNG"), "portrait.png") == (
        "too_many_pixels"
    )


# Storing


def stored_names(person: Person) -> list[str]:
    return [person.photo.name, person.photo_thumbnail.name, person.photo_thumbnail_large.name]


def exists(name: str) -> bool:
    return Person._meta.get_field("photo").storage.exists(name)


def test_a_photo_is_stored_under_generated_names_with_its_thumbnails():
    person = make_person(photo_alt="A portrait")
    photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    person.refresh_from_db()
    stem = person.photo.name.removeprefix("people/").removesuffix(".jpg")
    assert GENERATED_PHOTO.fullmatch(person.photo.name)
    assert stored_names(person) == [
        f"people/{stem}.jpg",
        f"people/{stem}-192.jpg",
        f"people/{stem}-384.jpg",
    ]
    assert all(exists(name) for name in stored_names(person))


def rendition_names(person: Person) -> list[str]:
    return [
        name
        for formats in person.photo_renditions.values()
        for names in formats.values()
        for name in names
    ]


def test_a_photo_is_stored_once_with_square_renditions_at_1x_2x_and_3x_in_avif_webp_and_jpeg():
    person = make_person(photo_alt="A portrait")
    photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    person.refresh_from_db()
    stem = person.photo.name.removeprefix("people/").removesuffix(".jpg")
    for use, size in (("card", 112), ("profile", 160)):
        for extension, format in (("avif", "AVIF"), ("webp", "WEBP"), ("jpg", "JPEG")):
            names = person.photo_renditions[use][extension]
            assert names == [
                f"people/{stem}-{use}-{size * density}.{extension}" for density in (1, 2, 3)
            ]
            for name, density in zip(names, (1, 2, 3), strict=True):
                with Image.open(Person._meta.get_field("photo").storage.open(name)) as image:
                    assert (image.format, image.size) == (format, (size * density,) * 2)


def test_every_portrait_offers_its_renditions_in_srcset_with_sizes(client):
    person = make_person(name="Ada Lovelace", slug="ada", photo_alt="Ada, smiling")
    photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    person.refresh_from_db()
    card = person.photo_renditions["card"]
    directory = client.get("/people/").content.decode()
    assert f'<source type="image/avif" srcset="/media/{card["avif"][0]} 112w, ' in directory
    assert f'srcset="/media/{card["jpg"][0]} 112w, /media/{card["jpg"][1]} 224w, ' in directory
    assert 'sizes="112px" alt="Ada, smiling" width="112" height="112"' in directory
    profile = client.get("/people/ada/").content.decode()
    assert 'sizes="160px" alt="Ada, smiling" width="160" height="160"' in profile


def test_replacing_a_photo_deletes_the_generated_files_it_replaces_once_committed(
    django_capture_on_commit_callbacks,
):
    person = make_person(photo_alt="A portrait")
    photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    old = stored_names(person) + rendition_names(person)
    assert len(old) == 3 + 18
    with django_capture_on_commit_callbacks() as callbacks:
        photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(noise_jpeg())))
        assert all(exists(name) for name in old)  # until the transaction commits
    for callback in callbacks:
        callback()
    assert not any(exists(name) for name in old)
    assert all(exists(name) for name in stored_names(person))


def test_a_photo_uploaded_under_its_own_name_is_not_deleted_when_replaced(
    django_capture_on_commit_callbacks,
):
    """Its name was not generated, so another row may use the same file."""
    storage = Person._meta.get_field("photo").storage
    legacy = storage.save("people/portrait.jpg", io.BytesIO(noise_jpeg()))
    person = make_person(photo=legacy, photo_alt="A portrait")
    with django_capture_on_commit_callbacks(execute=True):
        photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    assert exists(legacy)


# Through the admin, as an editor


def person_with_a_photo() -> Person:
    person = make_person(name="Ada Lovelace", slug="ada", photo_alt="Ada, smiling")
    photos.save_photo(person=person, photo=photos.clean_photo(upload=upload(phone_jpeg())))
    return person


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "is not a JPEG, PNG or WebP image"),
        (noise_jpeg()[:5000], "could not be read to the end"),
        (black_and_white_png(8000, 8000), "8,000 × 8,000 pixels"),
    ],
    ids=["svg", "truncated", "too many pixels"],
)
def test_an_editor_uploading_a_bad_file_sees_why_and_keeps_the_photo(editor_client, data, message):
    person = person_with_a_photo()
    before = stored_names(person)
    response = post_person(
        editor_client, person, photo=upload(data, "new.png"), photo_alt="Ada, smiling"
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    person.refresh_from_db()
    assert stored_names(person) == before
    assert all(exists(name) for name in before)


def test_an_editor_uploading_a_file_over_the_byte_limit_sees_the_limit(editor_client, settings):
    settings.PHOTO_MAX_BYTES = 10_000
    person = make_person()
    response = post_person(editor_client, person, photo=upload(noise_jpeg()), photo_alt="Me")
    assert response.status_code == 200
    assert "a photo can be at most 9.8\xa0KB" in response.content.decode()
    person.refresh_from_db()
    assert not person.photo


def test_an_editor_uploading_a_photo_without_alt_text_is_asked_for_it(editor_client, settings):
    person = make_person()
    response = post_person(editor_client, person, photo=upload(phone_jpeg()))
    assert response.status_code == 200
    assert "Describe the photo in its alt text." in response.content.decode()
    assert not (settings.MEDIA_ROOT / "people").exists()  # nothing was stored


def test_an_editor_uploading_a_photo_gets_a_generated_name_and_thumbnails_on_the_pages(
    editor_client, client, settings
):
    person = make_person(name="Ada Lovelace", slug="ada")
    response = post_person(
        editor_client, person, photo=upload(phone_jpeg(), "IMG_0001.jpg"), photo_alt="Ada"
    )
    assert response.status_code == 302
    person.refresh_from_db()
    assert GENERATED_PHOTO.fullmatch(person.photo.name)
    assert sorted(f"people/{path.name}" for path in (settings.MEDIA_ROOT / "people").iterdir()) == (
        sorted(stored_names(person) + rendition_names(person))  # the upload was never written
    )
    assert opened(person.photo_thumbnail.read()).size == (192, 192)
    profile = client.get("/people/ada/").content.decode()
    card, large = person.photo_renditions["card"], person.photo_renditions["profile"]
    assert f'src="/media/{large["jpg"][0]}"' in profile
    assert f'src="/media/{card["jpg"][0]}"' in client.get("/people/").content.decode()
    change_page = editor_client.get(reverse("admin:people_person_change", args=[person.pk]))
    assert f'src="{person.photo_thumbnail.url}"' in change_page.content.decode()
    assert 'accept="image/jpeg,image/png,image/webp"' in change_page.content.decode()


def test_an_editor_clearing_a_photo_removes_it_and_its_files(
    editor_client, django_capture_on_commit_callbacks
):
    person = person_with_a_photo()
    before = stored_names(person)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_person(editor_client, person, **{"photo-clear": "on"}, photo_alt="")
    assert response.status_code == 302
    person.refresh_from_db()
    assert stored_names(person) == ["", "", ""]
    assert not any(exists(name) for name in before)
    assert (
        '<svg class="avatar avatar--initials' in editor_client.get("/people/ada/").content.decode()
    )


def test_an_editor_changing_only_the_alt_text_keeps_the_photo(editor_client):
    person = person_with_a_photo()
    before = stored_names(person)
    response = post_person(editor_client, person, photo_alt="Ada at her desk")
    assert response.status_code == 302
    person.refresh_from_db()
    assert stored_names(person) == before
    assert person.photo_alt == "Ada at her desk"


def test_a_photo_stored_before_thumbnails_existed_is_shown_itself(client):
    make_person(slug="ada", photo="people/portrait.jpg", photo_alt="Ada")
    assert 'src="/media/people/portrait.jpg"' in client.get("/people/ada/").content.decode()
    assert 'src="/media/people/portrait.jpg"' in client.get("/people/").content.decode()
