from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect, RelatedFieldWidgetWrapper
from django.core.exceptions import PermissionDenied
from django.db import models, router
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse

from base.history import HistoryAdmin
from base.illustrations import IllustratedAdmin
from base.ordered_admin import OrderedRowForm, OrderedRowFormSet, OrderedTabularInline
from base.roles import is_editor, person_of
from base.scoped_admin import WAITING_LISTED, MemberScopedAdmin
from base.versions import record_snapshot
from base.write_lock import write_transaction
from people.models import Person, Researcher
from people.names import normalize_name
from publications.bibtex import VenueIndex
from publications.bibtex import admin_views as bibtex_admin_views
from publications.derived import refreshed_once
from publications.identifiers import admin_views as identifier_admin_views
from publications.models import (
    Authorship,
    Publication,
    PublicationAward,
    PublicationLink,
    Venue,
)
from publications.services import (
    AuthorNames,
    answer_proposal,
    author_name_index,
    link_authors,
)

# The author row's picker of who the author is, with what it says while empty.
AUTHOR_PICKERS = {"researcher": "Lab member or external person (if any)"}


class VenueForm(forms.ModelForm):
    """A new venue that is an existing one under another name is refused, with the name to
    choose: two venues would split its papers (the BibTeX import's matcher decides)."""

    def clean(self):
        cleaned = super().clean() or self.cleaned_data
        if self.instance.pk is not None:
            return cleaned
        index = VenueIndex(Venue.objects.all())
        for field in ("short_name", "full_name"):
            if text := cleaned.get(field):
                found = index.candidates(text)
                if found:
                    names = " or ".join(venue.display_name for venue in found)
                    raise forms.ValidationError(
                        f"“{text}” is already here: {names}. Choose it for the paper instead; "
                        "ask an editor to add this name to its aliases if it is missing."
                    )
        return cleaned


@admin.register(Venue)
class VenueAdmin(HistoryAdmin):
    """Members may propose a venue (add one) from a paper's form; editors change them."""

    form = VenueForm
    list_display = ["short_name", "full_name", "kind"]
    list_filter = ["kind"]
    search_fields = ["short_name", "full_name", "aliases"]
    fields = ["short_name", "full_name", "kind", "colour", "aliases"]


class MemberAuthorshipFormSet(OrderedRowFormSet):
    """Who may link an author row to which profile or record.

    A member links rows to themselves, and may take a row off their own profile; it then
    stays off (`link_declined`), whatever the next save links by name. A member naming
    another member proposes the link to them (`proposed_person`): which papers a profile
    lists is its owner's decision, or an editor's. A member may name an external person only
    by the name or an alias the row is printed with. Editors link and unlink as they like; an
    unlink of theirs stays too.

    A row linked to someone else (another member, or an external person) is theirs: a member
    may move it with the others, but not rename, relink or delete it.
    """

    member = None  # set per request by AuthorshipInline for members

    def clean(self):
        super().clean()
        # Members only: two queries, once for every row.
        names = author_name_index() if self.member is not None else AuthorNames()
        self.proposals = []
        refused = self.refuse_changes_to_others_rows() if self.member is not None else []
        for form in self.forms:
            if form in self.deleted_forms or form in refused or not form.is_valid():
                continue
            if "researcher" not in form.changed_data:
                continue
            named = names.get(normalize_name(form.cleaned_data.get("name", "")))
            before = form.initial.get("researcher")
            chosen = form.cleaned_data.get("researcher")
            instance = form.instance
            if chosen is None:
                # Taken off a member's profile: not linked by its name again.
                instance.link_declined = Person.objects.filter(pk=before).exists()
                continue
            # The picker's queryset reads the profile with the researcher (formfield_for_dbfield).
            person = getattr(chosen, "profile", None)
            if person is None:
                if self.member and getattr(named, "pk", None) != chosen.pk:
                    form.add_error(
                        "researcher", f"This author is not {chosen.name}: ask an editor."
                    )
                continue
            instance.link_declined = False
            instance.proposed_person = None
            if self.member is None or person == self.member:
                continue
            if named != person:
                form.add_error(
                    "researcher",
                    f"“{form.cleaned_data.get('name')}” is not {person}'s name: leave the "
                    "member empty, or ask an editor.",
                )
                continue
            instance.researcher, instance.proposed_person = None, person
            self.proposals.append(instance)

    def refuse_changes_to_others_rows(self) -> list:
        """The member's forms that change or delete a row linked to someone else, each given
        an error saying whose row it is. A deleted row's error alone would not stop the save
        (the formset does not validate deleted rows), so a deletion also fails the formset."""
        refused: list[forms.Form] = []
        deletions: list[str] = []
        for form in self.initial_forms:
            assert self.member is not None  # called for members only
            if form.initial.get("researcher") in (None, self.member.pk):
                continue
            deleted = form in self.deleted_forms
            changed = [name for name in form.changed_data if name not in ("position", "DELETE")]
            if not (deleted or changed):
                continue
            owner = _owner_of(form.instance.pk)
            if deleted:
                message = (
                    f"“{form.initial.get('name')}” is linked to {owner}: only they, or an "
                    "editor, can remove this author. Untick “Delete” on this row."
                )
                form.add_error(None, message)
                deletions.append(message)
            else:
                form.add_error(
                    changed[0] if changed[0] in form.fields else None,
                    f"This author is linked to {owner}: only they, or an editor, can change "
                    "this row. Put it back as it was.",
                )
            refused.append(form)
        if deletions:
            raise forms.ValidationError(deletions)
        return refused


def _owner_of(authorship_id: int) -> str:
    """Whom a stored author row is linked to, as a member reads it: one query."""
    row = Authorship.objects.select_related("researcher__profile").get(pk=authorship_id)
    if row.person is not None:
        return f"another member, {row.person}"
    return f"the external person {row.external}"


class AuthorForm(OrderedRowForm):
    """Shows an author row's member or external person from the row itself (read with it),
    instead of a query per row: a page holds a hundred rows."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in AUTHOR_PICKERS:
            field = self.fields.get(name)
            chosen = getattr(self.instance, name) if getattr(self.instance, f"{name}_id") else None
            if field is not None and chosen is not None:
                widget: Any = getattr(field.widget, "widget", field.widget)
                widget.known_choices = {str(chosen.pk): str(chosen)}


class KnownChoiceAutocomplete(AutocompleteSelect):
    """An autocomplete that asks the database for its chosen option's label only when it does
    not know it (`known_choices`), and never for an empty choice."""

    known_choices: dict[str, str] = {}

    def optgroups(self, name, value, attr=None):
        chosen = [str(item) for item in value if str(item) not in ("", "None")]
        if any(item not in self.known_choices for item in chosen):
            return super().optgroups(name, value, attr)
        options = [self.create_option(name, "", "", False, 0)] if not self.is_required else []
        for item in chosen:
            label = self.known_choices[item]
            options.append(self.create_option(name, item, label, True, len(options)))
        return [(None, options, 0)]


class AuthorshipInline(OrderedTabularInline):
    model = Authorship
    formset = MemberAuthorshipFormSet
    form = AuthorForm
    verbose_name_plural = "authors (in order)"
    extra = 1
    fields = ["position", "name", "researcher", "link_status", "equal_contribution"]
    readonly_fields = ["link_status"]
    autocomplete_fields = ["researcher"]
    names: AuthorNames | None = None  # read by link_status, once per page

    @admin.display(description="link")
    def link_status(self, authorship):
        """Why a row with a member's name is not linked to them, or why a row is linked to
        nobody when several people go by its name (the names are read once per page)."""
        if authorship.proposed_person_id:
            return f"Waiting for {authorship.proposed_person} to confirm"
        if authorship.link_declined:
            return "Kept off a member's profile"
        if authorship.researcher_id or not authorship.name:
            return ""
        if self.names is None:
            self.names = author_name_index()
        return self.names.why_unlinked(authorship.name)

    def get_queryset(self, request):
        return (
            super().get_queryset(request).select_related("researcher__profile", "proposed_person")
        )

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.member = None if is_editor(request.user) else person_of(request.user)
        return formset

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        placeholder = AUTHOR_PICKERS.get(db_field.name)
        return researcher_picker(field, placeholder=placeholder) if placeholder else field


def researcher_picker(field, *, placeholder: str):
    """A researcher key's form field (in `autocomplete_fields`, served by the hidden
    ResearcherAdmin) as every admin picks a person by: the member or external person is typed
    by name and opened by its link; deleting or editing a person is never a click away from
    the row (a new external person is added in its own page). Author rows, the creators of
    datasets and software, and speakers use it."""
    wrapper = field.widget if field is not None else None
    if isinstance(wrapper, RelatedFieldWidgetWrapper):
        assert isinstance(field, forms.ModelChoiceField)
        # Whether the chosen researcher is a member is read with it (the formsets' clean).
        field.queryset = Researcher.objects.select_related("profile")
        inner = wrapper.widget
        assert isinstance(inner, AutocompleteSelect)  # autocomplete_fields makes it so
        wrapper.widget = KnownChoiceAutocomplete(
            inner.field,
            inner.admin_site,
            attrs={**inner.attrs, "data-placeholder": placeholder},
            using=inner.db,
        )
        wrapper.can_add_related = False
        wrapper.can_change_related = False
        wrapper.can_delete_related = False
        wrapper.can_view_related = True
    return field


class AwardInline(OrderedTabularInline):
    model = PublicationAward
    fields = ["position", "name"]


class LinkInline(OrderedTabularInline):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    model = PublicationLink
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
class PublicationAdmin(IllustratedAdmin, MemberScopedAdmin):
    change_list_template = "admin/publications/publication/change_list.html"
    list_display = ["title", "venue", "year", "type", "status", "is_featured", "is_published"]
    # Members' papers wait for an editor (base/scoped_admin.py), who finds them by the first
    # filter, "review".
    waiting_noun = "paper"
    waiting_nouns = "papers"
    list_filter = [
        # Only venues of the papers listed: a member's own, not every venue of the site.
        ("venue", admin.RelatedOnlyFieldListFilter),
        "year",
        "type",
        "status",
        HasAwardFilter,
        "is_featured",
        "is_published",
    ]
    list_select_related = ["venue"]
    search_fields = ["title", "authorships__name", "doi"]
    search_help_text = "Search by title, author name or DOI."
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["venue", "areas"]
    fieldsets = [
        (
            None,
            {"fields": ["title", "title_zh_hans", "slug", ("venue", "year"), ("type", "status")]},
        ),
        ("On the site", {"fields": ["is_published", "is_featured"]}),
        (
            "Details",
            {"fields": ["doi", "publisher", ("abstract", "abstract_zh_hans"), "areas"]},
        ),
        ("Teaser image", {"fields": ["image", "image_alt"]}),
    ]
    inlines = [AuthorshipInline, AwardInline, LinkInline]

    def get_urls(self):
        answer = self.admin_site.admin_view(self.answer_proposal_view)
        return [
            *bibtex_admin_views.urls(self),
            *identifier_admin_views.urls(self),
            path(
                "authors/<int:authorship_id>/answer/",
                answer,
                name="publications_publication_answer_proposal",
            ),
            *super().get_urls(),
        ]

    def member_queryset(self, queryset, person):
        return queryset.authored_by(person)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """A paper and its authors are saved row by row: its citation key, search text and
        co-author pairs are made once, as the save ends, in its transaction, not once a row
        (41 times for a paper with 40 authors; publications/derived.py). A form shown saves
        nothing and takes no transaction (base/history.py's HistoryAdmin)."""
        if request.method in ("GET", "HEAD"):
            return super().changeform_view(request, object_id, form_url, extra_context)
        with write_transaction(using=router.db_for_write(self.model)), refreshed_once():
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        if is_editor(request.user):
            return readonly
        # The home page's featured list is the lab's choice (and publishing a member's paper,
        # when the lab wants an editor to see it first: MemberScopedAdmin).
        return [*readonly, "is_featured"]

    def changelist_view(self, request, extra_context=None):
        person = person_of(request.user)
        proposals = (
            Authorship.objects.filter(proposed_person=person).select_related("publication")
            if person is not None
            else []
        )
        extra_context = {
            "can_import": bibtex_admin_views.can_import(self, request),
            "proposals": proposals,
            # A member sees their own papers, under the name the rest of the admin gives them.
            **(
                {"title": "My papers"} if person is not None and not is_editor(request.user) else {}
            ),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context)

    def answer_proposal_view(self, request, authorship_id):
        """The member another member named (or an editor) says whether the author is them."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        authorship = get_object_or_404(
            Authorship.objects.select_related("proposed_person"), pk=authorship_id
        )
        person = person_of(request.user)
        if authorship.proposed_person is None:
            self.message_user(request, "This author was answered for already.", messages.INFO)
            return redirect("admin:publications_publication_changelist")
        if not (is_editor(request.user) or authorship.proposed_person == person):
            raise PermissionDenied
        accept = request.POST.get("answer") == "yes"
        member = authorship.proposed_person
        answer_proposal(authorship=authorship, accept=accept, user=request.user)
        record_snapshot(authorship.publication)
        self.message_user(
            request,
            f"“{authorship.publication}” is now on {member}'s profile."
            if accept
            else f"“{authorship.publication}” stays off {member}'s profile.",
        )
        return redirect("admin:publications_publication_changelist")

    def waiting_for(self, request) -> list[dict]:
        """For editors: members' papers waiting to be published, and authors a member named
        as another member, waiting for that member's answer or an editor's. For a member:
        the authors other members say are them."""
        if not is_editor(request.user):
            person = person_of(request.user)
            if person is None:
                return []
            return [
                {"title": f"{proposal.name} on “{proposal.publication}”", "url": ""}
                for proposal in Authorship.objects.filter(proposed_person=person).select_related(
                    "publication"
                )
            ]
        waiting = super().waiting_for(request)
        proposals = Authorship.objects.exclude(proposed_person=None).select_related(
            "publication", "proposed_person"
        )
        waiting += [
            {
                "title": f"{proposal.name} on “{proposal.publication}”",
                "url": reverse(
                    "admin:publications_publication_change", args=[proposal.publication_id]
                ),
                "what": f"Is this {proposal.proposed_person}? Waiting for their answer",
                "by": "",
            }
            for proposal in proposals[:WAITING_LISTED]
        ]
        return waiting

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        person = person_of(request.user)
        publication = form.instance
        if change or is_editor(request.user) or person is None:
            return
        if not publication.authorships.filter(researcher=person).exists():
            # A member's new paper: without them among its authors they could not edit it.
            last = publication.authorships.aggregate(last=models.Max("position"))["last"] or 0
            Authorship.objects.create(
                publication=publication, position=last + 1, name=person.name, researcher=person
            )
            self.message_user(request, f"Added {person.name} as the last author.")

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is not Authorship:
            return
        member = None if is_editor(request.user) else person_of(request.user)
        # An editor's save links no member by name either: a row printed with a member's
        # name is proposed to them, unless the editor picked the member in the row.
        changed = link_authors(
            form.instance.authorships.filter(researcher=None), on_behalf_of=member
        )
        for authorship in [*getattr(formset, "proposals", []), *changed]:
            who = authorship.researcher
            if who is not None:
                self.message_user(request, f"Linked author “{authorship.name}” to {who}.")
            else:
                self.message_user(
                    request,
                    f"Asked {authorship.proposed_person} to confirm they are the author "
                    f"“{authorship.name}”: the paper is on their profile once they do.",
                )


# Members' suggested works and their checks (publications/suggestions/admin.py).
# The claim and correction queue (publications/claims/admin.py).
import publications.claims.admin  # noqa: E402, F401
import publications.suggestions.admin  # noqa: E402, F401
