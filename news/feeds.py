"""An Atom feed of the news, newest first, narrowed by the same filters as /news/."""

import datetime

from django.urls import reverse

from base.partial_dates import DatePrecision
from news.filters import NewsFilter
from news.models import NewsItem
from publications.feeds import FilteredFeed

FEED_ITEMS = 20


class NewsFeed(FilteredFeed):
    """`/news/feed/?person=hang-zhu` follows the news about one member, as the publications
    feed follows their papers, and `?group=` a research group's news (its page's News); a value
    the news page would ignore is a 400 (FilteredFeed), and a member without news an empty feed.

    A news item dated to the day is published that day; one dated "Jul 2026" or "2026" has no
    <published> (Atom's dates are full dates, and the first of the month would be invented).
    Every entry is updated when its row last changed (FilteredFeed.with_change_time).
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
        return self.with_change_time(selection.filterset.qs)[:FEED_ITEMS]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
        return item.body_html

    def item_pubdate(self, item):
        if item.date.precision != DatePrecision.DAY:
            return None
        return datetime.datetime.combine(item.date.first_day(), datetime.time(), datetime.UTC)

    def item_updateddate(self, item):
        return item.changed_at

    def item_author_name(self, item):
        return ", ".join(person.name for person in item.people.all()) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
