"""The form data the admin's change pages post, for tests that post them."""

from django.urls import reverse

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
