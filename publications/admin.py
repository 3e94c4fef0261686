import uuid

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.forms.models import BaseInlineFormSet
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from directory.history import HistoryAdmin
from directory.roles import is_editor, person_of
from directory.scoped_admin import MemberScopedAdmin
from people.names import normalize_name
from publications.bibtex import Bibliography, parse_bibtex, review_bibliography
from publications.bibtex_jobs import (
    WAITING,
    AlreadyConfirmed,
    ReviewPage,
    confirm_import,
    queue_review,
    reads_in_worker,
    record_review,
    run_import_keeping_review,
    runs_in_worker,
)
from publications.forms import BibtexImportForm
from publications.models import (
    Authorship,
    BibtexImport,
    Publication,
    PublicationAward,
    PublicationLink,
    Venue,
)
from publications.services import (
    author_name_index,
    link_authors,
    match_member,
    member_name_index,
)
from publications.tasks import review_bibtex_upload, run_bibtex_import

# The status page of an import running in the worker reloads itself this often (a meta
# refresh: no script, so the strict Content-Security-Policy holds).
STATUS_REFRESH_SECONDS = 2


@admin.register(Venue)
class VenueAdmin(HistoryAdmin):
    list_display = ["short_name", "full_name", "kind"]
    list_filter = ["kind"]
    search_fields = ["short_name", "full_name"]


class MemberAuthorshipFormSet(BaseInlineFormSet):
    """A member may link an author to themselves, or to the member or external person whose
    name or alias the printed name is; any other link is an editor's decision."""

    member = None  # set per request by AuthorshipInline for members

    def clean(self):
        super().clean()
        if self.member is None:
            return
        index = member_name_index()
        for form in self.forms:
            person = form.cleaned_data.get("person")
            if "person" not in form.changed_data or person in (None, self.member):
                continue
            if match_member(form.cleaned_data.get("name", ""), index) != person:
                form.add_error(
                    "person",
                    f"“{form.cleaned_data.get('name')}” is not {person}'s name: leave the "
                    "member empty, or ask an editor.",
                )
        externals = author_name_index()
        for form in self.forms:
            external = form.cleaned_data.get("external")
            name = normalize_name(form.cleaned_data.get("name", ""))
            if "external" in form.changed_data and external and externals.get(name) != external:
                form.add_error("external", f"This author is not {external.name}: ask an editor.")


class AuthorshipInline(admin.TabularInline):
    model = Authorship
    formset = MemberAuthorshipFormSet
    extra = 1
    fields = ["position", "name", "person", "external", "equal_contribution"]
    autocomplete_fields = ["person", "external"]
    ordering = ["position"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.member = None if is_editor(request.user) else person_of(request.user)
        return formset


class AwardInline(admin.TabularInline):
    model = PublicationAward
    extra = 0
    fields = ["position", "name"]


class LinkInline(admin.TabularInline):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    model = PublicationLink
    extra = 0
    fields = ["position", "kind", "url", "label"]


class HasAwardFilter(admin.SimpleListFilter):
    title = "award"
    parameter_name = "has_award"

    def lookups(self, request, model_admin):
        return [("yes", "Has an award"), ("no", "No award")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(awards__isnull=False).distinct()
        if self.value() == "no":
            return queryset.filter(awards__isnull=True)
        return queryset


@admin.register(Publication)
class PublicationAdmin(MemberScopedAdmin):
    change_list_template = "admin/publications/publication/change_list.html"
    list_display = ["title", "venue", "year", "type", "status", "is_featured", "is_published"]
    list_filter = ["venue", "year", "type", "status", HasAwardFilter, "is_featured", "is_published"]
    list_select_related = ["venue"]
    search_fields = ["title", "authorships__name", "doi"]
    search_help_text = "Search by title, author name or DOI."
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["venue", "areas"]
    fieldsets = [
        (None, {"fields": ["title", "slug", ("venue", "year"), ("type", "status")]}),
        ("On the site", {"fields": ["is_published", "is_featured"]}),
        ("Details", {"fields": ["doi", "abstract", "areas"]}),
    ]
    inlines = [AuthorshipInline, AwardInline, LinkInline]

    def get_urls(self):
        import_view = self.admin_site.admin_view(self.import_bibtex_view)
        status_view = self.admin_site.admin_view(self.import_bibtex_status_view)
        return [
            path("import-bibtex/", import_view, name="publications_publication_import_bibtex"),
            path(
                "import-bibtex/<uuid:job_id>/",
                status_view,
                name="publications_publication_import_bibtex_status",
            ),
            *super().get_urls(),
        ]

    def import_bibtex_view(self, request):
        """Upload or paste BibTeX, review what each entry would do, leave some out, confirm."""
        if not (self.can_import(request) and self.has_change_permission(request)):
            raise PermissionDenied
        if request.method == "POST" and "confirm" in request.POST:
            return self._confirm_bibtex_import(request)
        if request.method == "POST":
            form = BibtexImportForm(request.POST, request.FILES)
            if form.is_valid():
                return self._review(request, form.cleaned_data["bibtex"], form.bibliography())
        else:
            form = BibtexImportForm()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Import publications from BibTeX",
            "form": form,
        }
        status = 400 if form.is_bound else 200
        return TemplateResponse(
            request, "admin/publications/import_bibtex.html", context, status=status
        )

    def _confirm_bibtex_import(self, request):
        """The form posts only the entries left out, so any number of entries fits in it."""
        skipped = request.POST.getlist("skip")
        try:
            job = confirm_import(
                job_id=_uuid(request.POST.get("import")), user=request.user, skipped=skipped
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
            again = record_review(text=ran.text, review=refusal, user=request.user)
            page = ReviewPage.of(refusal, skipped=skipped)
            return self._render_review(request, page, job=again, error=ran.message)
        return redirect(_status_url(ran))

    def import_bibtex_status_view(self, request, job_id):
        """Where a large upload's reading or a confirmed import stands; refreshes itself until
        it has finished. A large upload's review, once the worker has made it, is shown here."""
        if not (self.can_import(request) and self.has_change_permission(request)):
            raise PermissionDenied
        job = BibtexImport.objects.filter(pk=job_id).first()
        if job is None or (job.state == BibtexImport.State.REVIEWED and not job.review):
            raise Http404("No such import.")
        if job.state == BibtexImport.State.REVIEWED:
            return self._render_review(request, ReviewPage.stored(job), job=job)
        if request.method == "POST" and "review-again" in request.POST and job.text:
            return self._review(request, job.text)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "BibTeX import",
            "job": job,
            "waiting": job.phase == WAITING,
            "refresh_seconds": STATUS_REFRESH_SECONDS,
        }
        return TemplateResponse(request, "admin/publications/import_bibtex_status.html", context)

    def _review(self, request, text: str, bibliography: Bibliography | None = None):
        """A small file is reviewed in the request; a large one in the worker, its progress and
        then its review on the status page."""
        if bibliography is None and reads_in_worker(text):
            job = queue_review(text=text, user=request.user)
            review_bibtex_upload.enqueue(str(job.pk))
            return redirect(_status_url(job))
        review = review_bibliography(bibliography=bibliography or parse_bibtex(text))
        job = record_review(text=text, review=review, user=request.user)
        return self._render_review(request, ReviewPage.of(review), job=job)

    def _render_review(self, request, page: ReviewPage, *, job, error=""):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Review the BibTeX import",
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

    def member_queryset(self, queryset, person):
        return queryset.authored_by(person)

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        # The home page's featured list is the lab's choice.
        return readonly if is_editor(request.user) else [*readonly, "is_featured"]

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_import": self.can_import(request)}
        return super().changelist_view(request, extra_context)

    def can_import(self, request) -> bool:
        """Editors only: an import creates publications that may be anybody's."""
        return is_editor(request.user) and self.has_add_permission(request)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        person = person_of(request.user)
        publication = form.instance
        if is_editor(request.user) or person is None:
            return
        if not publication.authorships.filter(person=person).exists():
            # A member's own paper: without them among its authors they could not edit it.
            last = publication.authorships.aggregate(last=models.Max("position"))["last"] or 0
            Authorship.objects.create(
                publication=publication, position=last + 1, name=person.name, person=person
            )
            self.message_user(request, f"Added {person.name} as the last author.")

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Authorship:
            linked = link_authors(form.instance.authorships.filter(person=None, external=None))
            for authorship in linked:
                who = authorship.person or authorship.external
                self.message_user(request, f"Linked author “{authorship.name}” to {who}.")


def _uuid(value: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(value or "")
    except ValueError:
        return None


def _status_url(job: BibtexImport) -> str:
    return reverse("admin:publications_publication_import_bibtex_status", args=[job.pk])
