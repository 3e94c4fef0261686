"""The admin's BibTeX import: upload or paste a file, review what each entry would do, leave
some out, confirm; a large file's reading and import run in the task worker, their progress on
a status page. PublicationAdmin mounts these views with `urls()` in its `get_urls`.

The views stay thin: reading, reviewing, importing and the jobs' states are the other modules'.
"""

import uuid

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, reverse

from base.admin_site import model_admin_page
from base.roles import is_editor
from publications.bibtex.forms import BibtexImportForm
from publications.bibtex.jobs import (
    WAITING,
    AlreadyConfirmed,
    ReviewPage,
    confirm_import,
    fail_stalled_jobs,
    queue_review,
    read_entries,
    reads_in_worker,
    record_review,
    run_import_keeping_review,
    runs_in_worker,
    start_again,
    with_latest_progress,
)
from publications.bibtex.reading import Bibliography, parse_bibtex
from publications.bibtex.review import review_bibliography
from publications.identifiers.stored import to_json
from publications.models import BibtexImport, Publication
from publications.tasks import review_bibtex_upload, run_bibtex_import

# The status page of an import running in the worker reloads itself this often (a meta
# refresh: no script, so the strict Content-Security-Policy holds).
STATUS_REFRESH_SECONDS = 2

PublicationModelAdmin = admin.ModelAdmin[Publication]


def urls(model_admin: PublicationModelAdmin) -> list[URLPattern]:
    """The import's pages under the publications' admin, named as they always were."""
    return [
        model_admin_page(
            model_admin,
            "import-bibtex/",
            import_bibtex_view,
            name="publications_publication_import_bibtex",
        ),
        model_admin_page(
            model_admin,
            "import-bibtex/<uuid:job_id>/",
            import_bibtex_status_view,
            name="publications_publication_import_bibtex_status",
        ),
    ]


def can_import(model_admin: PublicationModelAdmin, request: HttpRequest) -> bool:
    """Editors only: an import creates publications that may be anybody's."""
    return is_editor(request.user) and model_admin.has_add_permission(request)


def import_bibtex_view(model_admin: PublicationModelAdmin, request: HttpRequest) -> HttpResponse:
    """Upload or paste BibTeX, review what each entry would do, leave some out, confirm."""
    check_permission(model_admin, request)
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm_bibtex_import(model_admin, request)
    if request.method == "POST":
        form = BibtexImportForm(request.POST, request.FILES)
        if form.is_valid():
            return _review(model_admin, request, form.cleaned_data["bibtex"], form.bibliography())
    else:
        form = BibtexImportForm()
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Import publications from BibTeX",
        "form": form,
    }
    status = 400 if form.is_bound else 200
    return TemplateResponse(
        request, "admin/publications/import_bibtex.html", context, status=status
    )


def import_bibtex_status_view(
    model_admin: PublicationModelAdmin, request: HttpRequest, job_id: uuid.UUID
) -> HttpResponse:
    """Where a large upload's reading or a confirmed import stands; refreshes itself until
    it has finished. A large upload's review, once the worker has made it, is shown here."""
    check_permission(model_admin, request)
    job = BibtexImport.objects.filter(pk=job_id).first()
    if job is None or (job.state == BibtexImport.State.REVIEWED and not job.review):
        raise Http404("No such import.")
    if job.state == BibtexImport.State.REVIEWED:
        return _render_review(model_admin, request, ReviewPage.stored(job), job=job)
    if request.method == "POST" and "review-again" in request.POST and job.text:
        if job.source == BibtexImport.Source.IDENTIFIERS:
            return review_entries(
                model_admin, request, read_entries(text=job.text, source=job.source)
            )
        return _review(model_admin, request, job.text)
    if request.method == "POST" and "start-again" in request.POST:
        return _start_again(request, job)
    if fail_stalled_jobs():
        job.refresh_from_db()
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "BibTeX import" if job.source == BibtexImport.Source.BIBTEX else "Import",
        "job": with_latest_progress(job),
        "can_start_again": job.interrupted != "" and job.state == BibtexImport.State.FAILED,
        "waiting": job.phase == WAITING,
        "refresh_seconds": STATUS_REFRESH_SECONDS,
    }
    return TemplateResponse(request, "admin/publications/import_bibtex_status.html", context)


def check_permission(model_admin: PublicationModelAdmin, request: HttpRequest) -> None:
    if not (can_import(model_admin, request) and model_admin.has_change_permission(request)):
        raise PermissionDenied


def _confirm_bibtex_import(
    model_admin: PublicationModelAdmin, request: HttpRequest
) -> HttpResponse:
    """The form posts only the entries left out, so any number of entries fits in it."""
    skipped = request.POST.getlist("skip")
    try:
        job = confirm_import(
            job_id=_uuid(request.POST.get("import")), user=_editor(request), skipped=skipped
        )
    except AlreadyConfirmed as already:
        messages.info(request, "This import was already confirmed: here is where it stands.")
        return redirect(_status_url(already.job))
    if job is None:
        messages.error(
            request,
            "This review is out of date: it was confirmed from another page, or too long ago. "
            "Upload the file again.",
        )
        return redirect("admin:publications_publication_import_bibtex")
    if runs_in_worker(job):
        run_bibtex_import.enqueue(str(job.pk))
        return redirect(_status_url(job))
    ran, refusal = run_import_keeping_review(job.pk)
    if ran is None:  # run meanwhile by a double submit
        return redirect(_status_url(job))
    if ran.state == BibtexImport.State.DONE:
        messages.success(request, ran.message)
        return redirect("admin:publications_publication_changelist")
    if refusal is not None:
        # The review that refused it, made as the database is now, to be confirmed again.
        again = record_review(
            text=ran.text, review=refusal, user=_editor(request), source=ran.source
        )
        page = ReviewPage.of(refusal, skipped=skipped)
        return _render_review(model_admin, request, page, job=again, error=ran.message)
    return redirect(_status_url(ran))


def _start_again(request: HttpRequest, job: BibtexImport) -> HttpResponse:
    """A job its worker stopped on, queued again from where it stopped."""
    again = start_again(job_id=job.pk)
    if again is None:
        messages.info(request, "This import was started again already: here is where it stands.")
    elif again.state == BibtexImport.State.READING:
        review_bibtex_upload.enqueue(str(again.pk))
    else:
        run_bibtex_import.enqueue(str(again.pk))
    return redirect(_status_url(job))


def _review(
    model_admin: PublicationModelAdmin,
    request: HttpRequest,
    text: str,
    bibliography: Bibliography | None = None,
) -> HttpResponse:
    """A small file is reviewed in the request; a large one in the worker, its progress and
    then its review on the status page."""
    if bibliography is None and reads_in_worker(text):
        job = queue_review(text=text, user=_editor(request))
        review_bibtex_upload.enqueue(str(job.pk))
        return redirect(_status_url(job))
    review = review_bibliography(bibliography=bibliography or parse_bibtex(text))
    job = record_review(text=text, review=review, user=_editor(request))
    return _render_review(model_admin, request, ReviewPage.of(review), job=job)


def review_entries(
    model_admin: PublicationModelAdmin, request: HttpRequest, bibliography: Bibliography
) -> HttpResponse:
    """The review of entries read from identifiers or the services' exports, kept on their
    job as JSON: the same page, confirmed by the same form, as a BibTeX upload's."""
    review = review_bibliography(bibliography=bibliography)
    job = record_review(
        text=to_json(bibliography),
        review=review,
        user=_editor(request),
        source=BibtexImport.Source.IDENTIFIERS,
    )
    return _render_review(model_admin, request, ReviewPage.of(review), job=job)


def _render_review(
    model_admin: PublicationModelAdmin,
    request: HttpRequest,
    page: ReviewPage,
    *,
    job: BibtexImport,
    error: str = "",
) -> HttpResponse:
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Review the import"
        if job.source == BibtexImport.Source.IDENTIFIERS
        else "Review the BibTeX import",
        "review": page,
        "job": job,
        "error": error,
    }
    return TemplateResponse(
        request,
        "admin/publications/import_bibtex_review.html",
        context,
        status=400 if error else 200,
    )


def _editor(request: HttpRequest) -> User:
    """The signed-in editor: admin_view lets no one else in."""
    assert isinstance(request.user, User), "the admin signs users in"
    return request.user


def _uuid(value: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(value or "")
    except ValueError:
        return None


def _status_url(job: BibtexImport) -> str:
    return reverse("admin:publications_publication_import_bibtex_status", args=[job.pk])
