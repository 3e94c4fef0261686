"""An Atom feed of the projects, newest start first, narrowed by the same filters as /projects/
(`?status=current`, `?funder=erc`)."""

from projects.filters import ProjectFilter
from publications.feeds import FilteredFeed, published_on


class ProjectFeed(FilteredFeed):
    """A project that starts on a known day is published that day; one known to the month or
    year has no <published> (the first of the month would be invented). Every entry is updated
    when its row last changed."""

    filterset_class = ProjectFilter
    namespace = "projects"
    entries = 30

    def title(self, selection):
        return f"{selection.lab_name}: projects"

    def item_description(self, item):
        return item.summary_html

    def item_pubdate(self, item):
        return published_on(item.start)

    def item_categories(self, item):
        return [funder.name for funder in item.funders]
