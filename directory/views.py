from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

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


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def robots_txt(request):
    """Crawlers may read every public page, but not the admin, and not every combination of
    filters as a download."""
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        f"Disallow: {reverse('publications:index')}export.",
        "",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
