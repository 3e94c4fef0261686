"""An Atom feed of the datasets and software, newest first, narrowed by the same filters as
/outputs/ (`?kind=software`, `?creator=hang-zhu`)."""

import datetime

from django.urls import reverse

from base.partial_dates import DatePrecision
from outputs.filters import OutputFilter
from outputs.models import Output
from publications.feeds import FilteredFeed

FEED_ITEMS = 30


class OutputFeed(FilteredFeed):
    """As the news feed: an output released on a known day is published that day; one known to
    the month or year has no <published> (the first of the month would be invented). Every
    entry is updated when its row last changed."""

    def filterset(self, request):
        return OutputFilter(request.GET, queryset=Output.objects.published().for_listing())

    def title(self, selection):
        kinds = selection.filterset.form.cleaned_data.get("kind") or []
        about = ", ".join(str(dict(Output.Kind.choices)[kind]).lower() for kind in kinds)
        return f"{selection.lab_name}: " + (about or "datasets and software")

    def link(self, selection):
        return reverse("outputs:index") + selection.query

    def feed_url(self, selection):
        return reverse("outputs:feed") + selection.query

    def items(self, selection):
        return self.with_change_time(selection.filterset.qs)[:FEED_ITEMS]

    def item_title(self, item):
        return f"{item.title} {item.version}".strip()

    def item_description(self, item):
        return item.description_html

    def item_pubdate(self, item):
        if item.released is None or item.released.precision != DatePrecision.DAY:
            return None
        return datetime.datetime.combine(item.released.first_day(), datetime.time(), datetime.UTC)

    def item_updateddate(self, item):
        return item.changed_at

    def item_author_name(self, item):
        return ", ".join(item.creator_names) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
