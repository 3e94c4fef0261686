"""An Atom feed of the news, newest first, narrowed by the same filters as /news/."""

from news.filters import NewsFilter
from publications.feeds import FilteredFeed, published_on


class NewsFeed(FilteredFeed):
    """`/news/feed/?person=hang-zhu` follows the news about one member, as the publications
    feed follows their papers, and `?group=` a research group's news (its page's News); a value
    the news page would ignore is a 400 (FilteredFeed), and a member without news an empty feed.

    A news item dated to the day is published that day; one dated "Jul 2026" or "2026" has no
    <published> (Atom's dates are full dates, and the first of the month would be invented).
    Every entry is updated when its row last changed (FilteredFeed.with_change_time).
    """

    filterset_class = NewsFilter
    namespace = "news"
    entries = 20

    def title(self, selection):
        form = selection.filterset.form
        cleaned = form.cleaned_data
        # Named as the page's controls name them (the group's choices are read when checked).
        about = [
            dict(form.fields[name].choices)[cleaned[name]]
            for name in ("person", "group")
            if cleaned.get(name)
        ]
        about += [str(cleaned["year"])] if cleaned.get("year") else []
        return f"{selection.lab_name}: news" + (f" ({', '.join(about)})" if about else "")

    def item_description(self, item):
        return item.body_html

    def item_pubdate(self, item):
        return published_on(item.date)

    def item_author_name(self, item):
        return ", ".join(person.name for person in item.people.all()) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
