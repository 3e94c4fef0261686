from django.contrib import admin
from django.db import models

from base.history import HistoryAdmin
from base.ordered_admin import CreditRowFormSet, CreditRowInline
from base.roles import is_editor, person_of
from base.scoped_admin import MemberScopedAdmin
from projects.models import Funder, Grant, Project, ProjectPerson

# An address typed without its scheme ("erc.europa.eu/…") is https, as elsewhere in the admin.
URLS_AS_HTTPS: dict[type[models.Field], dict[str, str]] = {
    models.URLField: {"assume_scheme": "https"}
}


class ProjectPeopleFormSet(CreditRowFormSet):
    none_left = "Name at least one person of the project."
    member_left_out = (
        "Keep yourself among the people of the project: you can only edit projects you take "
        "part in."
    )


class ProjectPersonInline(CreditRowInline):
    model = ProjectPerson
    formset = ProjectPeopleFormSet
    verbose_name_plural = "people (in order, with their roles)"
    fields = ["position", "researcher", "role"]


class GrantInline(admin.TabularInline):
    """The project's grants; the papers acknowledging each are chosen on the grant's page."""

    model = Grant
    extra = 0
    fields = ["funder", "award_number", "title", "url"]
    autocomplete_fields = ["funder"]
    formfield_overrides = URLS_AS_HTTPS
    show_change_link = True

    def has_delete_permission(self, request, obj=None):
        """Editors only, as on the grant's own page (GrantAdmin): a grant names the papers that
        acknowledge it, papers a member may not author, and deleting it unlinks them all."""
        return is_editor(request.user) and super().has_delete_permission(request, obj)


@admin.register(Project)
class ProjectAdmin(MemberScopedAdmin):
    """Editors edit every project; a member adds projects and edits those they take part in
    (base/scoped_admin.py)."""

    list_display = ["title", "start", "end", "is_published"]
    list_filter = ["is_published", ("groups", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["title", "people__researcher__name", "grants__award_number"]
    search_help_text = "Search by title, a person's name or an award number."
    prepopulated_fields = {"slug": ["title"]}
    # Papers, datasets and software are many: picked by name.
    autocomplete_fields = ["groups", "areas", "publications", "outputs"]
    fieldsets = [
        (None, {"fields": ["title", "slug", ("start", "end"), "url"]}),
        ("On the site", {"fields": ["is_published"]}),
        ("About", {"fields": ["summary"]}),
        ("Related", {"fields": ["groups", "areas", "publications", "outputs"]}),
    ]
    inlines = [ProjectPersonInline, GrantInline]
    formfield_overrides = URLS_AS_HTTPS

    def member_queryset(self, queryset, person):
        return queryset.with_person(person)


@admin.register(Funder)
class FunderAdmin(HistoryAdmin):
    list_display = ["name", "registry_id"]
    search_fields = ["name", "registry_id"]
    search_help_text = "Search by name or Crossref Funder Registry id."
    prepopulated_fields = {"slug": ["name"]}
    fields = ["name", "slug", "registry_id"]


@admin.register(Grant)
class GrantAdmin(MemberScopedAdmin):
    """A grant's papers are chosen here: a paper acknowledges it even without a project."""

    list_display = ["__str__", "title", "project"]
    list_filter = [("funder", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["funder", "project"]
    search_fields = ["award_number", "title", "funder__name", "project__title"]
    search_help_text = "Search by award number, title, funder or project."
    autocomplete_fields = ["funder", "project", "publications"]
    fields = ["funder", "award_number", "title", "url", "project", "publications"]
    formfield_overrides = URLS_AS_HTTPS

    def member_queryset(self, queryset, person):
        """A member's grants are their projects' grants."""
        return queryset.filter(project__in=member_projects(person))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """A member picks one of their own projects, and must pick one: the autocomplete alone
        would accept any project's key (a grant in another's "Funded by"), and a grant with no
        project would drop out of the member's own list."""
        if db_field.name == "project" and not is_editor(request.user):
            kwargs["queryset"] = member_projects(person_of(request.user))
            kwargs["required"] = True
            kwargs["error_messages"] = {
                "required": "Choose the project this grant funds: one you take part in.",
                "invalid_choice": "Choose one of the projects you take part in.",
            }
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


def member_projects(person):
    """The projects a member edits, as ProjectAdmin lists them; none without a person."""
    if person is None:
        return Project.objects.none()
    return Project.objects.with_person(person)
