"""An Atom feed of the news, newest first."""

import datetime

from django.contrib.syndication.views import Feed
from django.urls import reverse_lazy

from directory.feeds import XmlSafeAtom1Feed
from directory.models import Lab
from directory.text import markdown_to_html
from news.models import NewsItem

FEED_ITEMS = 20


class NewsFeed(Feed):
    """A news item is dated the first day its date stands for: "Jul 2026" is 1 July 2026."""

    feed_type = XmlSafeAtom1Feed
    link = reverse_lazy("news:index")

    def title(self):
        return f"{Lab.objects.current().name}: news"

    def items(self):
        return NewsItem.objects.published().for_listing()[:FEED_ITEMS]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
        return markdown_to_html(item.body)

    def item_pubdate(self, item):
        return datetime.datetime.combine(item.date.first_day(), datetime.time(), datetime.UTC)

    def item_updateddate(self, item):
        return self.item_pubdate(item)

    def item_author_name(self, item):
        return ", ".join(person.name for person in item.people.all()) or None

    def item_categories(self, item):
        return [item.get_kind_display()]
