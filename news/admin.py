from django.contrib import admin

from base.illustrations import IllustratedAdmin
from news.models import NewsItem


@admin.register(NewsItem)
class NewsItemAdmin(IllustratedAdmin):
    list_display = ["title", "date", "kind", "is_published"]
    list_filter = ["kind", "is_published"]
    search_fields = ["title", "body"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["people", "publications", "groups"]
    fields = [
        ("title", "title_zh_hans"),
        "slug",
        ("date", "kind"),
        ("body", "body_zh_hans"),
        ("image", "image_alt"),
        "people",
        "publications",
        "groups",
        "is_published",
    ]
