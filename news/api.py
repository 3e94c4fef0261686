"""/api/news/: the news list as data, with the news page's filters (news/filters.py)."""

from django.http import HttpRequest
from ninja import Field, Router, Schema

from base.api import NamedPageOut, PageOut, add_detail, add_filtered_list, page_link, titled_page
from news.filters import NewsFilter
from news.models import NewsItem

router = Router(tags=["news"])

PER_PAGE = 20


class NewsSummaryOut(Schema):
    slug: str
    title: str
    url: str
    date: str = Field(description='ISO 8601 at its precision: "2026", "2026-07", "2026-07-25".')
    date_text: str = Field(description='As the page prints it: "Jul 2026".')
    kind: str
    people: list[NamedPageOut] = Field(description="The members it is about.")


class NewsOut(NewsSummaryOut):
    body: str = Field(description="Markdown.")
    body_html: str = Field(description="The body as the page shows it, sanitized.")
    publications: list[NamedPageOut] = Field(description="The publications it mentions.")


class NewsPage(PageOut[NewsSummaryOut]):
    pass


def news_summary(item: NewsItem, request: HttpRequest) -> dict:
    """Reads the people NewsItem.objects.for_listing() prefetched: published ones only."""
    return {
        **titled_page(item, request),
        "date": item.date.isoformat(),
        "date_text": str(item.date),
        "kind": item.kind,
        "people": [page_link(person, person.name, request) for person in item.people.all()],
    }


add_filtered_list(
    router,
    "/news/",
    operation_id="list_news",
    summary="News, filtered as on /news/",
    description="In the news page's order (NewsItem.Meta.ordering), so page N is the page's "
    "page N.",
    filterset_class=NewsFilter,
    rows=lambda: NewsItem.objects.published().for_listing(),
    row=news_summary,
    page=NewsPage,
    per_page=PER_PAGE,
)


@add_detail(router, "/news/{slug}/", NewsOut, lambda: NewsItem.objects.published().for_listing())
def get_news(item: NewsItem, request: HttpRequest) -> dict:
    """One news item"""
    publications = item.publications.published().only("slug", "title")
    return {
        **news_summary(item, request),
        "body": item.body,
        "body_html": str(item.body_html),
        "publications": [page_link(paper, paper.title, request) for paper in publications],
    }
