from django.shortcuts import render

from news.models import NewsItem
from people.models import Person
from publications.models import Publication

HOME_NEWS = 5
HOME_PUBLICATIONS = 6


def home(request):
    publications = Publication.objects.published().for_listing()
    return render(
        request,
        "home.html",
        {
            "news_items": NewsItem.objects.published().for_listing()[:HOME_NEWS],
            "featured": publications.filter(is_featured=True)[:HOME_PUBLICATIONS],
            "recent": publications.filter(is_featured=False)[:HOME_PUBLICATIONS],
            "people": Person.objects.published()
            .for_directory()
            .exclude(role_group__is_alumni=True),
        },
    )
