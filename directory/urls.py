from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from directory import views

urlpatterns = [
    path("", views.home, name="home"),
    path("people/", include("people.urls")),
    path("publications/", include("publications.urls")),
    path("news/", include("news.urls")),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
