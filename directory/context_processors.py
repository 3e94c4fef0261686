from django.utils.functional import SimpleLazyObject

from directory.models import Lab


def lab(request):
    """The lab's name for every page's header, read once per request when used."""
    return {"lab": SimpleLazyObject(Lab.objects.current)}
