"""The project's URLs, plus a bare view: the cheapest answer Django itself can give."""

from importlib import import_module

from django.http import HttpResponse
from django.urls import path

from benchmarks.http import BARE_URL, PROJECT_URLCONF

_project = import_module(PROJECT_URLCONF)


def bare(request):
    return HttpResponse("OK\n", content_type="text/plain; charset=utf-8")


urlpatterns = [path(BARE_URL.lstrip("/"), bare), *_project.urlpatterns]

for _handler in ("handler400", "handler403", "handler404", "handler500"):
    if hasattr(_project, _handler):
        globals()[_handler] = getattr(_project, _handler)
