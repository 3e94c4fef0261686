from django.urls import path

from people import views

app_name = "people"

# The profile, "people:detail" (/people/<slug>/), composes this app with the publications and
# news above it: its view is config.views.profile, added to this namespace by config/urls.py.
urlpatterns = [
    path("", views.index, name="index"),
]
