"""A site with a past, for the backup round trip (tests/base/test_backup_restore.py): the seeded
profiles, then edits kept in the history, drafts, a publication deleted for good, another deleted
and recovered from its history as the admin's "Recover deleted" does, and real photos.

Run inside the site's own process: `manage.py shell -c "from tests.backup_scenario import build; build()"`.
"""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image

from news.models import NewsItem
from people.models import Person
from people.photos import clean_photo, save_photo
from publications.models import Authorship, Publication


def photo(colour: str) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 400), colour).save(buffer, format="JPEG")
    return SimpleUploadedFile("portrait.jpg", buffer.getvalue(), content_type="image/jpeg")


def build() -> None:
    call_command("seed", verbosity=0)
    people = list(Person.objects.order_by("pk"))
    publications = list(Publication.objects.order_by("pk"))

    # Edits, each a history row.
    for number, person in enumerate(people[:2]):
        person.short_bio = f"Edited {number}."
        person.save()
    publications[0].title += " (extended version)"
    publications[0].save()

    # Drafts.
    people[-1].is_published = False
    people[-1].save()
    publications[1].is_published = False
    publications[1].save()
    news = NewsItem.objects.order_by("pk").first()
    news.is_published = False
    news.save()
    news.publications.add(publications[2])  # an m2m change, kept in the history too

    # Deleted for good: its history rows still point at it (dumpdata --natural-foreign fails).
    publications[3].delete()

    # Deleted, then recovered from its history with its authors.
    recovered = publications[4]
    recovered_pk = recovered.pk
    authors = list(recovered.authorships.values_list("pk", flat=True))
    recovered.delete()
    Publication.history.filter(id=recovered_pk, history_type="-").latest().instance.save()
    for record in Authorship.history.filter(id__in=authors, history_type="-"):
        record.instance.save()

    # Real photos with their thumbnails.
    for person, colour in zip(people[:2], ["#336699", "#993366"], strict=True):
        person.photo_alt = f"Portrait of {person.name}"
        save_photo(person=person, photo=clean_photo(upload=photo(colour)))
