"""An Atom feed of the news, newest first, narrowed by the same filters as /news/."""

import datetime

from django.urls import reverse

from news.filters import NewsFilter
from news.models import NewsItem
from publications.feeds import FilteredFeed

FEED_ITEMS = 20


class NewsFeed(FilteredFeed):
    """`/news/feed/?person=hang-zhu` follows the news about one member, as the publications
    feed follows their papers, and `?group=` a research group's news (its page's News); a value
    the news page would ignore is a 400 (FilteredFeed), and a member without news an empty feed.

    A news item is dated the first day its date stands for: "Jul 2026" is 1 July 2026.
    """

    def filterset(self, request):
        return NewsFilter(request.GET, queryset=NewsItem.objects.published().for_listing())

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

    def link(self, selection):
        return reverse("news:index") + selection.query

    def feed_url(self, selection):
        return reverse("news:feed") + selection.query

    def items(self, selection):
        return selection.filterset.qs[:FEED_ITEMS]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
        return item.body_html

    def item_pubdate(self, item):
        return datetime.datetime.combine(item.date.first_day(), datetime.time(), datetime.UTC)

    def item_updateddate(self, item):
        return self.item_pubdate(item)

    def item_author_name(self, item):
        return ", ".join(person.name for person in item.people.all()) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
