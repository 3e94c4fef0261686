"""The admin's "Add by DOI, arXiv id, ORCID…": paste identifiers or upload an export, then the
BibTeX upload's own review, confirm and progress pages (publications/bibtex/admin_views.py).
PublicationAdmin mounts it with `urls()` in its `get_urls`."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern

from base.admin_site import model_admin_page
from publications.bibtex.admin_views import PublicationModelAdmin, check_permission, review_entries
from publications.identifiers.fetching import default_fetch
from publications.identifiers.forms import IdentifierImportForm


def urls(model_admin: PublicationModelAdmin) -> list[URLPattern]:
    return [
        model_admin_page(
            model_admin,
            "add-by-identifier/",
            add_by_identifier_view,
            name="publications_publication_add_by_identifier",
        )
    ]


def add_by_identifier_view(
    model_admin: PublicationModelAdmin, request: HttpRequest
) -> HttpResponse:
    check_permission(model_admin, request)
    form = IdentifierImportForm(
        request.POST if request.method == "POST" else None,
        request.FILES if request.method == "POST" else None,
        fetch=default_fetch(),
    )
    if form.is_bound and form.is_valid():
        if form.late:
            messages.warning(
                request,
                " ".join(["Not fetched in time; the review shows what was.", *form.late]),
            )
        return review_entries(model_admin, request, form.bibliography())
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Add publications by DOI, arXiv id, ORCID iD, dblp or OpenAlex",
        "form": form,
    }
    return TemplateResponse(
        request,
        "admin/publications/add_by_identifier.html",
        context,
        status=400 if form.is_bound else 200,
    )
