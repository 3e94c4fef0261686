"""An Atom feed of the projects, newest start first, narrowed by the same filters as /projects/
(`?status=current`, `?funder=erc`)."""

import datetime

from django.urls import reverse

from base.partial_dates import DatePrecision
from projects.filters import ProjectFilter
from projects.models import Project
from publications.feeds import FilteredFeed

FEED_ITEMS = 30


class ProjectFeed(FilteredFeed):
    """A project that starts on a known day is published that day; one known to the month or
    year has no <published> (the first of the month would be invented). Every entry is updated
    when its row last changed."""

    def filterset(self, request):
        return ProjectFilter(request.GET, queryset=Project.objects.published().for_listing())

    def title(self, selection):
        return f"{selection.lab_name}: projects"

    def link(self, selection):
        return reverse("projects:index") + selection.query

    def feed_url(self, selection):
        return reverse("projects:feed") + selection.query

    def items(self, selection):
        return self.with_change_time(selection.filterset.qs)[:FEED_ITEMS]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
        return item.summary_html

    def item_pubdate(self, item):
        if item.start is None or item.start.precision != DatePrecision.DAY:
            return None
        return datetime.datetime.combine(item.start.first_day(), datetime.time(), datetime.UTC)

    def item_updateddate(self, item):
        return item.changed_at

    def item_categories(self, item):
        return [funder.name for funder in item.funders]
