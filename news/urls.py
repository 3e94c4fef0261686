from django.urls import path

from news import views
from news.feeds import NewsFeed

app_name = "news"

urlpatterns = [
    path("", views.index, name="index"),
    # Before the slug pattern, which would otherwise read "feed" as a news item.
    path("feed/", NewsFeed(), name="feed"),
    path("<slug:slug>/", views.detail, name="detail"),
]
