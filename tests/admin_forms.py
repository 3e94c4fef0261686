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


def credit_rows(prefix: str, researchers) -> dict[str, str]:
    """An ordered credit inline (base/ordered_admin.py: an output's creators, a project's
    people) naming `researchers` (ids) in order, as new rows."""
    data = inline_management(prefix, total=len(researchers))
    for number, researcher in enumerate(researchers):
        data[f"{prefix}-{number}-position"] = str(number + 1)
        data[f"{prefix}-{number}-researcher"] = str(researcher)
    return data


def existing_rows(prefix: str, parent_field: str, parent, rows, *fields: str) -> dict:
    """The form data of an inline formset showing `rows` (saved rows of `parent`), each posted
    with its `fields` as they stand; a field holding a foreign key is named without "_id"."""
    data = {
        **inline_management(prefix, total=len(rows)),
        f"{prefix}-INITIAL_FORMS": str(len(rows)),
    }
    for number, row in enumerate(rows):
        data[f"{prefix}-{number}-id"] = row.pk
        data[f"{prefix}-{number}-{parent_field}"] = parent.pk
        for field in fields:
            value = getattr(row, f"{field}_id" if hasattr(row, f"{field}_id") else field)
            data[f"{prefix}-{number}-{field}"] = "" if value is None else value
    return data


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
    return {
        "title": publication.title,
        "slug": publication.slug,
        "venue": publication.venue_id or "",
        "year": publication.year or "",
        "type": publication.type,
        "status": publication.status,
        "is_published": "on" if publication.is_published else "",
        **inline_management("awards"),
        **inline_management("links"),
        # The researcher left out, the save would unlink the row from its member.
        **existing_rows(
            "authorships", "publication", publication, authors, "position", "name", "researcher"
        ),
        **fields,
    }
