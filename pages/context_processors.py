from django.db.models import Exists
from django.utils.functional import SimpleLazyObject

from base import site_cache
from base.models import Lab
from events.models import Event
from outputs.models import Output
from people.models import ResearchArea, ResearchGroup
from projects.models import Project

# What the lab's row with its annotations follows besides writes that name no scope (the lab,
# groups, areas, projects, outputs): whether an event is published (Event.cache_scopes).
LAB_ROW_SCOPES = {"events"}


def current_lab(request):
    """The lab row with `has_groups`, `has_areas`, `has_events`, `has_projects` and
    `has_outputs`, read at most once per request: the header reads it, and a view that offers
    something only to a department (the site search's groups) asks the same row rather than
    running a query of its own. Kept in each process until a change it follows
    (site_cache.kept_here): every page shows it, and a change of a paper or a person leaves it
    as it is."""
    if not hasattr(request, "_lab"):
        request._lab = SimpleLazyObject(
            lambda: site_cache.kept_here("lab-row", read_lab, scopes=LAB_ROW_SCOPES)
        )
    return request._lab


def read_lab() -> Lab:
    """The lab row with its annotations (current_lab). One query; the row is made the first
    time."""
    return Lab.objects.annotate(
        has_groups=Exists(ResearchGroup.objects.published()),
        has_areas=Exists(ResearchArea.objects.published()),
        has_events=Exists(Event.objects.published()),
        has_projects=Exists(Project.objects.published()),
        has_outputs=Exists(Output.objects.published()),
    ).current()


def lab(request):
    """The lab's name for every page's header, read once per request when used, with
    `has_groups`, `has_areas`, `has_events`, `has_projects` and `has_outputs`: whether the
    header offers the Groups, Areas, Events, Projects and Data & software pages (a one-lab site
    has no groups nor areas; a site may have no events, projects, datasets nor software).

    One query: the lab row with an EXISTS, so the header costs no query of its own.
    """
    return {"lab": current_lab(request)}


def fragments(request):
    """What `{% cache %}` keeps the parts of a page under (base/caches.py lists them):
    `fragment_timeout`, 0 (nothing kept) under DEBUG, so a template edited under runserver
    shows at once, or while the request's transaction has written (its stamp has not moved);
    and `fragment_release`, the code's version and the page's language. Each fragment adds the stamp its data was made
    under (`counted`)."""
    return {
        "fragment_timeout": site_cache.fragment_timeout(),
        "fragment_release": SimpleLazyObject(site_cache.language_release),
    }
