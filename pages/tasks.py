"""Background tasks of the public pages (django-tasks, run by `manage.py db_worker`)."""

from django.http import Http404
from django.utils import translation
from django_tasks import task

from base.pdf_renders import VisitorRequest, print_for_visitors
from pages.views.people import kept_cv_pdf
from people.models import Person


@task()
def print_cv_pdf(url: str, slug: str) -> str:
    """A visitor's CV PDF, queued by /people/<slug>/cv.pdf (`url`) when no copy was kept for
    the site as it is: printed and kept for visitors (base/pdf_renders.py)."""
    request = VisitorRequest(url)
    pk = Person.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if pk is None:
        return "no such person"
    try:
        with translation.override(request.language):
            printed = print_for_visitors(request, **kept_cv_pdf(request, slug, pk))
    except Http404:
        return "no such person"
    return "printed" if printed else "kept already"
