from django.shortcuts import get_object_or_404, render

from base.pagination import paginate
from news.filters import NewsFilter
from news.models import NewsItem
from publications.entries import listed
from publications.filters import filters_query

PER_PAGE = 20


def index(request):
    news = NewsItem.objects.published().for_listing().with_publications().with_groups()
    filterset = NewsFilter(request.GET, queryset=news)
    return render(
        request,
        "news/news_list.html",
        {
            "filterset": filterset,
            "page": paginate(request, filterset.qs, per_page=PER_PAGE),
            "ignored": filterset.notices(),
            "filters_query": filters_query(filterset),
        },
    )


def detail(request, slug):
    queryset = NewsItem.objects.visible_to(request.user).for_listing().with_groups()
    item = get_object_or_404(queryset, slug=slug)
    publications = listed(item.publications.published())
    return render(request, "news/news_detail.html", {"item": item, "publications": publications})
