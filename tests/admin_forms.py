"""The form data the admin's change pages post, for tests that post them."""

from django.urls import reverse

from publications.models import Publication

PERSON_INLINES = ["links", "education", "experience", "teaching", "service", "awards"]


def inline_management(prefix: str, total: int = 0) -> dict[str, str]:
    """The management form of an inline formset with `total` new rows and none existing."""
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def post_person(client, person, **fields):
    """Post the person's change page with its name, slug and published flag, plus `fields`;
    every inline is posted empty unless `fields` holds its management form."""
    data = {"name": person.name, "slug": person.slug, "is_published": "on"}
    for prefix in PERSON_INLINES:
        data.update(inline_management(prefix))
    data.update(fields)
    return client.post(reverse("admin:people_person_change", args=[person.pk]), data)


def new_publication_form(**fields) -> dict:
    """The admin's add form for a publication with no authors, awards or links, plus `fields`."""
    return {
        "year": "2026",
        "type": Publication.Type.CONFERENCE_PAPER,
        "status": Publication.Status.PUBLISHED,
        "is_published": "on",
        **inline_management("authorships"),
        **inline_management("awards"),
        **inline_management("links"),
        **fields,
    }


def publication_form(publication: Publication, **fields) -> dict:
    """The publication's change form as the admin posts it, with its authors."""
    authors = list(publication.authorships.order_by("position"))
    data = {
        "title": publication.title,
        "slug": publication.slug,
        "venue": publication.venue_id or "",
        "year": publication.year or "",
        "type": publication.type,
        "status": publication.status,
        "is_published": "on" if publication.is_published else "",
        **inline_management("authorships", total=0),
        "authorships-INITIAL_FORMS": str(len(authors)),
        "authorships-TOTAL_FORMS": str(len(authors)),
        **inline_management("awards"),
        **inline_management("links"),
        **fields,
    }
    for number, author in enumerate(authors):
        data |= {
            f"authorships-{number}-id": author.pk,
            f"authorships-{number}-publication": publication.pk,
            f"authorships-{number}-position": author.position,
            f"authorships-{number}-name": author.name,
            # Left out, the save would unlink the row from its member.
            f"authorships-{number}-researcher": author.researcher_id or "",
        }
    return data
