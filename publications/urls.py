from django.urls import path

from publications import views

app_name = "publications"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.detail, name="detail"),
]
