from django.db.models import Exists
from django.utils.functional import SimpleLazyObject

from directory.models import Lab
from people.models import ResearchGroup


def lab(request):
    """The lab's name for every page's header, read once per request when used, with
    `has_groups`: whether the header offers the Groups page (a one-lab site has none).

    One query: the lab row with an EXISTS, so the header costs no query of its own.
    """
    groups = Exists(ResearchGroup.objects.published())
    return {"lab": SimpleLazyObject(lambda: Lab.objects.annotate(has_groups=groups).current())}
