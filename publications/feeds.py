"""An Atom feed of the publication list, narrowed by the same filters as /publications/."""

import datetime
from dataclasses import dataclass

from django.contrib.syndication.views import Feed
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce, Now
from django.http import HttpResponse
from django.urls import reverse

from base.feeds import XmlSafeAtom1Feed
from base.filters import FilterSet
from base.models import Lab
from base.partial_dates import DatePrecision, PartialDate
from publications.filters import PublicationFilter, active_filters, filters_query
from publications.models import Publication


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
    """A feed narrowed by the filters of its list's page: its entries are the first
    `entries` of the rows the page lists (the model's published rows, `for_listing()`),
    narrowed by `filterset_class`; it links to the page, "<namespace>:index", and to itself,
    "<namespace>:feed"."""

    feed_type = XmlSafeAtom1Feed
    filterset_class: type[FilterSet]
    namespace: str
    entries: int

    def filterset(self, request) -> FilterSet:
        rows = self.filterset_class._meta.model.objects.published().for_listing()
        return self.filterset_class(request.GET, queryset=rows)

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

    def link(self, selection):
        return reverse(f"{self.namespace}:index") + selection.query

    def feed_url(self, selection):
        return reverse(f"{self.namespace}:feed") + selection.query

    def items(self, selection):
        return self.with_change_time(selection.filterset.qs)[: self.entries]

    def item_title(self, item):
        """The row's title as plain text (the outputs' adds the version): Django's default is
        str(item) escaped as HTML, which a feed reader would show as entities."""
        return item.title

    def item_updateddate(self, item):
        return item.changed_at


def published_on(date: PartialDate | None) -> datetime.datetime | None:
    """An entry's <published>: the day of `date` when the day is known. A date known to the
    month or the year gives none: Atom's dates are full dates, and the first of the month
    would be invented."""
    if date is None or date.precision != DatePrecision.DAY:
        return None
    return datetime.datetime.combine(date.first_day(), datetime.time(), datetime.UTC)


class PublicationFeed(FilteredFeed):
    """`/publications/feed/?author=hang-zhu` follows one member's papers, `?venue=NSDI` a venue's.

    Publications only have a year, and Atom's dates are full dates and times: an entry has no
    <published> rather than an invented first of January, and is updated when its row last
    changed (FilteredFeed.with_change_time). Its year is in its summary.
    """

    filterset_class = PublicationFilter
    namespace = "publications"
    entries = 50

    def title(self, selection):
        chips = ", ".join(chip.label for chip in active_filters(selection.filterset))
        return f"{selection.lab_name}: publications" + (f" ({chips})" if chips else "")

    def subtitle(self, selection):
        return f"The newest publications of {selection.lab_name}."

    def item_description(self, publication):
        venue = publication.venue.short_name if publication.venue else ""
        where = " ".join(part for part in [venue, str(publication.year or "")] if part)
        return f"{authors(publication)}. {where}".strip(" .") + "."

    def item_author_name(self, publication):
        return authors(publication) or None

    def item_categories(self, publication):
        categories = [publication.get_type_display()]
        if publication.venue:
            categories.insert(0, publication.venue.short_name)
        return categories


def authors(publication: Publication) -> str:
    """Reads the prefetched authorships."""
    return ", ".join(authorship.name for authorship in publication.authorships.all())
