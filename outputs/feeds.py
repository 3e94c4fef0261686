"""An Atom feed of the datasets and software, newest first, narrowed by the same filters as
/outputs/ (`?kind=software`, `?creator=hang-zhu`)."""

from outputs.filters import OutputFilter
from outputs.models import Output
from publications.feeds import FilteredFeed, published_on


class OutputFeed(FilteredFeed):
    """As the news feed: an output released on a known day is published that day; one known to
    the month or year has no <published> (the first of the month would be invented). Every
    entry is updated when its row last changed."""

    filterset_class = OutputFilter
    namespace = "outputs"
    entries = 30

    def title(self, selection):
        kinds = selection.filterset.form.cleaned_data.get("kind") or []
        about = ", ".join(str(dict(Output.Kind.choices)[kind]).lower() for kind in kinds)
        return f"{selection.lab_name}: " + (about or "datasets and software")

    def item_title(self, item):
        return f"{item.title} {item.version}".strip()

    def item_description(self, item):
        return item.description_html

    def item_pubdate(self, item):
        return published_on(item.released)

    def item_author_name(self, item):
        return ", ".join(item.creator_names) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
