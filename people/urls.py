from django.urls import path, re_path

from people import views

app_name = "people"

urlpatterns = [
    path("", views.index, name="index"),
    re_path(r"^avatars/(?P<initials>[^/.]{1,2})\.png$", views.avatar, name="avatar"),
    path("<slug:slug>/", views.detail, name="detail"),
]
