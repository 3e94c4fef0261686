"""An Atom feed of the publication list, narrowed by the same filters as /publications/."""

from dataclasses import dataclass

from django.contrib.syndication.views import Feed
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce, Now
from django.http import HttpResponse
from django.urls import reverse

from base.feeds import XmlSafeAtom1Feed
from base.filters import FilterSet
from base.models import Lab
from publications.filters import PublicationFilter, active_filters, filters_query
from publications.models import Publication

FEED_ITEMS = 50


@dataclass(frozen=True)
class Selection:
    """A list's filters as a feed reads them (the news feed too)."""

    filterset: FilterSet
    query: str
    lab_name: str


def plain_text(message: str, *, status: int) -> HttpResponse:
    """A refusal as one line of text: what a feed reader or a download shows as it is (the
    exports answer with it too)."""
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")


class FilteredFeed(Feed):
    """A feed narrowed by the filters of its list's page (`filterset`)."""

    feed_type = XmlSafeAtom1Feed

    def filterset(self, request) -> FilterSet:
        raise NotImplementedError

    def __call__(self, request, *args, **kwargs):
        """A filter value the list would ignore is a 400 that says so in the list's words, as
        plain text a feed reader can show: a feed cannot show a notice, and would hold the wrong
        entries. A plain answer, not an exception, so the log gets one line and no traceback.
        A value the list knows that matches nothing is an empty feed."""
        filterset = self.filterset(request)
        if ignored := filterset.ignored_values():
            return plain_text("\n".join(ignored), status=400)
        request.feed_filters = filterset
        return super().__call__(request, *args, **kwargs)

    def get_object(self, request):
        filterset = request.feed_filters
        return Selection(filterset, filters_query(filterset), Lab.objects.current().name)

    @staticmethod
    def with_change_time(queryset):
        """The rows, each with `changed_at`: when it last changed (its history), else now. An
        entry's <updated> is that time, the one date every record has to its second: RFC 4287
        wants a full date and time, and a date known to the year or month has none."""
        history = queryset.model.history.filter(id=OuterRef("pk")).order_by("-history_date")
        return queryset.annotate(
            changed_at=Coalesce(Subquery(history.values("history_date")[:1]), Now())
        )

    def author_name(self, selection):
        """The lab: RFC 4287 requires an author of every entry, and an entry without one of its
        own (a paper without authors, news about nobody in particular) takes the feed's."""
        return selection.lab_name


class PublicationFeed(FilteredFeed):
    """`/publications/feed/?author=hang-zhu` follows one member's papers, `?venue=NSDI` a venue's.

    Publications only have a year, and Atom's dates are full dates and times: an entry has no
    <published> rather than an invented first of January, and is updated when its row last
    changed (FilteredFeed.with_change_time). Its year is in its summary.
    """

    def filterset(self, request):
        return PublicationFilter(
            request.GET, queryset=Publication.objects.published().for_listing()
        )

    def title(self, selection):
        chips = ", ".join(chip.label for chip in active_filters(selection.filterset))
        return f"{selection.lab_name}: publications" + (f" ({chips})" if chips else "")

    def subtitle(self, selection):
        return f"The newest publications of {selection.lab_name}."

    def link(self, selection):
        return reverse("publications:index") + selection.query

    def feed_url(self, selection):
        return reverse("publications:feed") + selection.query

    def items(self, selection):
        return self.with_change_time(selection.filterset.qs)[:FEED_ITEMS]

    def item_title(self, publication):
        return publication.title

    def item_description(self, publication):
        venue = publication.venue.short_name if publication.venue else ""
        where = " ".join(part for part in [venue, str(publication.year or "")] if part)
        return f"{authors(publication)}. {where}".strip(" .") + "."

    def item_author_name(self, publication):
        return authors(publication) or None

    def item_updateddate(self, publication):
        return publication.changed_at

    def item_categories(self, publication):
        categories = [publication.get_type_display()]
        if publication.venue:
            categories.insert(0, publication.venue.short_name)
        return categories


def authors(publication: Publication) -> str:
    """Reads the prefetched authorships."""
    return ", ".join(authorship.name for authorship in publication.authorships.all())
