from django import forms
from django.apps import apps
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import ngettext

from base.history import HistoryAdmin
from base.illustrations import IllustratedAdmin
from base.ordered_admin import OrderedStackedInline, OrderedTabularInline
from base.roles import is_editor, person_of
from base.scoped_admin import MemberScopedAdmin, ReadOnlyAdmin
from people import photos
from people.forms import ExternalPersonForm, PersonForm
from people.models import (
    Advising,
    Award,
    Collaboration,
    Departure,
    Education,
    Experience,
    ExternalPerson,
    IdentityChange,
    Membership,
    Person,
    PersonLink,
    ResearchArea,
    Researcher,
    ResearchGroup,
    RoleGroup,
    Service,
    Teaching,
)
from people.names import normalize_name
from people.services import (
    IdentityChangeRefused,
    LoginRefused,
    give_login,
    let_login_edit_profile,
    member_aliases,
    merge_external_people,
    split_author_rows,
    undo_identity_change,
)
from people.signals import names_changed, names_of


@admin.register(RoleGroup)
class RoleGroupAdmin(HistoryAdmin):
    list_display = ["name", "position", "is_alumni", "member_count"]
    list_editable = ["position", "is_alumni"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("people"))

    @admin.display(description="members", ordering="member_count")
    def member_count(self, group):
        return group.member_count


class EntryInline(OrderedStackedInline):
    classes = ["collapse"]


class PeriodInline(EntryInline):
    fields = [("position", "start", "end", "is_current")]


class EducationInline(PeriodInline):
    model = Education
    fields = [*PeriodInline.fields, ("degree", "field"), "institution", "details"]


class ExperienceInline(PeriodInline):
    model = Experience
    fields = [*PeriodInline.fields, ("title", "organization"), "location", "description"]


class TeachingInline(OrderedTabularInline):
    model = Teaching
    classes = ["collapse"]
    fields = ["position", "role", "course", "institution", "term"]


class ServiceInline(OrderedTabularInline):
    model = Service
    classes = ["collapse"]
    fields = ["position", "role", "details", "date"]


class AwardInline(OrderedTabularInline):
    model = Award
    classes = ["collapse"]
    fields = ["position", "title", "details", "date"]


class PersonLinkInline(OrderedTabularInline):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    model = PersonLink
    classes = ["collapse"]
    fields = ["position", "kind", "url", "label"]


# The form's fields only editors see and act on.
EDITORS_ONLY = ["accept_pending_aliases"]


@admin.register(Person)
class PersonAdmin(MemberScopedAdmin):
    form = PersonForm
    list_display = ["thumbnail", "name", "position_title", "role_group", "is_published"]
    list_display_links = ["thumbnail", "name"]
    list_filter = ["role_group", "is_published"]
    list_select_related = ["role_group"]
    search_fields = ["name", "aliases", "research_interests"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["thumbnail"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "role_group", "position_title", "is_published"]}),
        ("Login", {"fields": ["user"]}),
        ("Contact and affiliation", {"fields": ["affiliations", "email", "orcid"]}),
        (
            "About",
            {
                "fields": [
                    ("short_bio", "short_bio_zh_hans"),
                    ("bio", "bio_zh_hans"),
                    "research_interests",
                    "research_areas",
                ]
            },
        ),
        ("Photo", {"fields": ["thumbnail", "photo", "photo_alt"]}),
        (
            "Recognising the person in author lists",
            {"fields": ["aliases", "pending_aliases", "accept_pending_aliases"]},
        ),
    ]
    inlines = [
        PersonLinkInline,
        EducationInline,
        ExperienceInline,
        TeachingInline,
        ServiceInline,
        AwardInline,
    ]

    autocomplete_fields = ["user", "research_areas"]

    def member_queryset(self, queryset, person):
        return queryset.filter(pk=person.pk)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A member's own profile is "Edit my profile", with their papers a click away. An
        editor sees "Give a login" on a person without one."""
        person = person_of(request.user)
        if person is not None and str(person.pk) == str(object_id):
            extra_context = {
                "title": "Edit my profile",
                "own_profile": True,
                **(extra_context or {}),
            }
        elif is_editor(request.user):
            extra_context = {
                "give_login_url": reverse("admin:people_person_give_login", args=[object_id]),
                **(extra_context or {}),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        give = self.admin_site.admin_view(self.give_login_view)
        name = f"{self.opts.app_label}_{self.opts.model_name}_give_login"
        return [path("<path:object_id>/give-login/", give, name=name), *super().get_urls()]

    def give_login_view(self, request, object_id):
        """ "Give a login": one button makes the person's login, with a member's rights, and
        shows the one-time address where they choose their password (people.services)."""
        person = self.get_object(request, object_id)
        if person is None:
            raise Http404("No such person.")
        # Editors, without the right to add logins at large: this one has a member's rights
        # only, for the person the editor already manages.
        if not is_editor(request.user):
            raise PermissionDenied
        change_url = reverse("admin:people_person_change", args=[person.pk])
        if person.user_id is not None:
            self.message_user(
                request,
                f"{person.name} has a login already (“{person.user}”): they sign in with it.",
                messages.ERROR,
            )
            return redirect(change_url)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": person,
            "change_url": change_url,
            "title": f"Give {person.name} a login",
            "timeout_days": settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60),
        }
        if request.method == "POST":
            try:
                given = give_login(person=person, by=request.user)
            except LoginRefused as refused:
                self.message_user(request, str(refused), messages.ERROR)
                return redirect(change_url)
            set_password = reverse("admin:set-password", args=[given.uidb64, given.token])
            context.update(
                title=f"{person.name} has a login",
                given=given,
                set_password_url=request.build_absolute_uri(set_password),
            )
        return TemplateResponse(request, "admin/people/person/give_login.html", context)

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        if is_editor(request.user):
            return readonly
        # Who is linked to which login, and where a person is listed, are editors' decisions;
        # so is which names link publications to a profile.
        return [*readonly, "user", "role_group", "slug", "pending_aliases", *EDITORS_ONLY]

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if is_editor(request.user):
            return fieldsets
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f not in EDITORS_ONLY]})
            for name, options in fieldsets
        ]

    def waiting_for(self, request) -> list[dict]:
        """For editors: the aliases members added, which link nothing until accepted."""
        if not is_editor(request.user):
            return []
        return [
            {
                "title": f"{person.name}: {', '.join(person.pending_alias_list)}",
                "url": reverse("admin:people_person_change", args=[person.pk]),
                "what": "Aliases to accept",
                "by": person.name,
            }
            for person in Person.objects.exclude(pending_aliases="").only("name", "pending_aliases")
        ]

    def get_prepopulated_fields(self, request, obj=None):
        return super().get_prepopulated_fields(request, obj) if is_editor(request.user) else {}

    def has_add_permission(self, request):
        return is_editor(request.user) and super().has_add_permission(request)

    def save_model(self, request, person, form, change):
        # None for a new profile, and for one recovered from its history (deleted).
        saved = Person.objects.filter(pk=person.pk).first() if change else None
        if saved is not None and not is_editor(request.user):
            # Whatever form posted this, only editors set these.
            person.user_id, person.role_group_id, person.slug = (
                saved.user_id,
                saved.role_group_id,
                saved.slug,
            )
            aliases = member_aliases(posted=person.aliases, saved=saved)
            person.aliases, person.pending_aliases = aliases.aliases, aliases.pending
            if aliases.added:
                self.message_user(
                    request,
                    f"Your new alias{'es' if len(aliases.added) > 1 else ''} "
                    f"{', '.join(f'“{alias}”' for alias in aliases.added)} "
                    f"wait{'' if len(aliases.added) > 1 else 's'} for an editor: "
                    "publications are linked by them once an editor accepts them.",
                )
        if is_editor(request.user) and form.cleaned_data.get("accept_pending_aliases"):
            accepted = person.pending_alias_list
            person.aliases = "\n".join([*person.alias_list, *accepted])
            person.pending_aliases = ""
            if accepted:
                self.message_user(request, f"Accepted the aliases {', '.join(accepted)}.")
        if "photo" in form.changed_data:
            photos.save_photo(person=person, photo=form.new_photo)
        else:
            super().save_model(request, person, form, change)
        self.report_names_changed(request, person, before=saved)
        if is_editor(request.user) and "user" in form.changed_data and person.user is not None:
            given = let_login_edit_profile(user=person.user)
            if given:
                self.message_user(
                    request,
                    f"The login “{person.user}” now has {' and '.join(given)}: without them "
                    f"{person.name} could not sign in to edit their profile and papers.",
                )

    def report_names_changed(self, request, person: Person, *, before: Person | None) -> None:
        """A name or alias added or removed: the apps above re-link what it names
        (people.signals.names_changed), and the editor reads what moved and what stayed."""
        old, new = names_of(before), names_of(person)
        old_keys, new_keys = {normalize_name(n) for n in old}, {normalize_name(n) for n in new}
        added = [name for name in new if name and normalize_name(name) not in old_keys]
        removed = [name for name in old if name and normalize_name(name) not in new_keys]
        if not (added or removed):
            return
        answers = names_changed.send(
            sender=Person, person=person, added=added, removed=removed, user=request.user
        )
        for _, sentences in answers:
            for sentence in sentences or []:
                self.message_user(request, sentence)

    @admin.display(description="photo")
    def thumbnail(self, person):
        if not person.photo:
            return "—"
        return format_html(
            '<img src="{}" alt="{}" width="64">',
            person.thumbnail_url,
            person.photo_alt,
        )


# The department's models (people/models/department.py and identities.py): editors manage them;
# members may view areas and external people, to choose them for their profile and papers.


@admin.register(ResearchArea)
class ResearchAreaAdmin(HistoryAdmin):
    list_display = ["name", "slug", "is_published"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    fields = [
        ("name", "name_zh_hans"),
        "slug",
        ("description", "description_zh_hans"),
        "is_published",
    ]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    fields = ["person", "role", "start", "end"]
    autocomplete_fields = ["person"]


@admin.register(ResearchGroup)
class ResearchGroupAdmin(IllustratedAdmin):
    list_display = ["name", "position", "member_count", "is_published"]
    list_editable = ["position"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["areas"]
    fields = [
        ("name", "name_zh_hans"),
        "slug",
        ("short_description", "short_description_zh_hans"),
        ("description", "description_zh_hans"),
        ("image", "image_alt"),
        "areas",
        "position",
        "is_published",
    ]
    inlines = [MembershipInline]

    def get_queryset(self, request):
        current = Count("memberships", filter=Q(memberships__end__isnull=True))
        return super().get_queryset(request).annotate(member_count=current)

    @admin.display(description="current members", ordering="member_count")
    def member_count(self, group):
        return group.member_count


class CurrentFilter(admin.SimpleListFilter):
    title = "under way"
    parameter_name = "current"

    def lookups(self, request, model_admin):
        return [("yes", "Current"), ("no", "Ended")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(end__isnull=self.value() == "yes")
        return queryset


@admin.register(Membership)
class MembershipAdmin(HistoryAdmin):
    list_display = ["person", "group", "role", "start", "end"]
    list_filter = ["group", "role", CurrentFilter]
    list_select_related = ["person", "group"]
    search_fields = ["person__name", "group__name"]
    autocomplete_fields = ["person", "group"]


class DegreeChoiceField(forms.ModelChoiceField):
    """Each degree with its holder's name: the list holds everyone's."""

    def label_from_instance(self, obj):
        return f"{obj.person.name}: {obj.headline} ({obj.period})"


class AdvisingForm(forms.ModelForm):
    degree = DegreeChoiceField(
        queryset=Education.objects.select_related("person").order_by("person__name", "position"),
        required=False,
        help_text=Advising._meta.get_field("degree").help_text,
    )

    class Meta:
        model = Advising
        # The admin adds the fields of its `fields` to this one, which the form labels.
        fields = ["degree"]


@admin.register(Advising)
class AdvisingAdmin(HistoryAdmin):
    form = AdvisingForm
    list_display = ["advisee", "kind", "advisor_record", "is_current"]
    list_filter = ["kind", "is_current"]
    list_select_related = ["advisee", "advisor__profile"]
    search_fields = ["advisee__name", "advisor__name"]
    autocomplete_fields = ["advisee", "advisor"]
    fields = [
        ("advisee", "position"),
        "kind",
        "advisor",
        "degree",
        ("start", "end", "is_current"),
    ]

    @admin.display(description="advisor")
    def advisor_record(self, advising):
        return advising.advisor_record


@admin.register(Collaboration)
class CollaborationAdmin(HistoryAdmin):
    list_display = ["person", "collaborator_record", "position"]
    list_select_related = ["person", "collaborator__profile"]
    search_fields = ["person__name", "collaborator__name"]
    autocomplete_fields = ["person", "collaborator"]
    fields = [("person", "position"), "collaborator"]

    @admin.display(description="collaborator")
    def collaborator_record(self, collaboration):
        return collaboration.collaborator_record


# Addresses typed without a scheme are https ones (Django 6's default).
HTTPS_URLS = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Departure)
class DepartureAdmin(HistoryAdmin):
    formfield_overrides = HTTPS_URLS
    list_display = ["person", "last_role", "left", "next_position"]
    list_select_related = ["person"]
    search_fields = ["person__name", "next_position", "thesis_title"]
    autocomplete_fields = ["person"]


class SplitForm(forms.Form):
    authorships = forms.MultipleChoiceField(
        label="Author rows to take off this record", widget=forms.CheckboxSelectMultiple
    )
    into = forms.ModelChoiceField(
        queryset=ExternalPerson.objects.none(),
        required=False,
        label="Move them to",
        empty_label="A new record, named as the first row is printed",
    )

    def __init__(self, *args, record: ExternalPerson, **kwargs):
        super().__init__(*args, **kwargs)
        rows = record.authorships.select_related("publication").order_by(
            "-publication__year", "publication__title"
        )
        authorships = self.fields["authorships"]
        into = self.fields["into"]
        assert isinstance(authorships, forms.MultipleChoiceField)
        assert isinstance(into, forms.ModelChoiceField)
        authorships.choices = [
            (row.pk, f"“{row.name}”, author {row.position} of {row.publication}") for row in rows
        ]
        into.queryset = ExternalPerson.objects.exclude(pk=record.pk)


@admin.register(ExternalPerson)
class ExternalPersonAdmin(HistoryAdmin):
    """Merging two records and splitting author rows off one are editors' (change permission
    on external people): both are logged as merges and splits, where they can be undone."""

    form = ExternalPersonForm
    formfield_overrides = HTTPS_URLS
    list_display = ["name", "affiliation", "orcid", "author_rows"]
    search_fields = ["name", "aliases", "affiliation", "orcid", "dblp"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["author_row_list"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "aliases", "affiliation"]}),
        ("Identifiers", {"fields": ["orcid", "dblp", "homepage"]}),
        ("Papers", {"fields": ["author_row_list"]}),
    ]
    actions = ["merge_selected"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(author_rows=Count("authorships"))

    @admin.display(description="author rows", ordering="author_rows")
    def author_rows(self, record):
        return record.author_rows

    @admin.display(description="author rows linked to this record")
    def author_row_list(self, record):
        if record.pk is None:
            return "—"
        rows = record.authorships.select_related("publication").order_by("-publication__year")
        items = format_html_join(
            "",
            "<li>“{}”, author {} of {}</li>",
            ((r.name, r.position, r.publication) for r in rows),
        )
        split = self.admin_url("split", record.pk)
        return format_html(
            '<ul>{}</ul><p><a href="{}">Split wrongly linked rows off…</a></p>', items, split
        )

    def get_urls(self):
        split = self.admin_site.admin_view(self.split_view)
        name = f"{self.opts.app_label}_{self.opts.model_name}_split"
        return [path("<path:object_id>/split/", split, name=name), *super().get_urls()]

    @admin.action(description="Merge the two selected records", permissions=["change"])
    def merge_selected(self, request, queryset):
        records = list(queryset.annotate(rows=Count("authorships")).order_by("-rows", "pk"))
        if len(records) != 2:
            self.message_user(request, "Select exactly two records to merge.", messages.ERROR)
            return None
        keep_id = request.POST.get("keep")
        if keep_id:
            keep = next((record for record in records if str(record.pk) == keep_id), None)
            if keep is None:
                self.message_user(request, "Choose one of the two records.", messages.ERROR)
                return None
            absorb = next(record for record in records if record != keep)
            try:
                change = merge_external_people(keep=keep, absorb=absorb, user=request.user)
            except IdentityChangeRefused as refused:
                self.message_user(request, str(refused), messages.ERROR)
                return None
            self.message_user(request, done_message(change))
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Merge two records of one person",
            "records": records,
            "action": "merge_selected",
        }
        return TemplateResponse(request, "admin/people/externalperson/merge.html", context)

    def split_view(self, request, object_id):
        record = self.get_object(request, object_id)
        if record is None:
            raise Http404("No such record.")
        if not self.has_change_permission(request, record):
            raise PermissionDenied
        form = SplitForm(request.POST if request.method == "POST" else None, record=record)
        if request.method == "POST" and form.is_valid():
            try:
                change = split_author_rows(
                    record=record,
                    authorship_ids=form.cleaned_data["authorships"],
                    into=form.cleaned_data["into"],
                    user=request.user,
                )
            except IdentityChangeRefused as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(request, done_message(change))
                return redirect(self.admin_url("change", record.pk))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Split author rows off “{record.name}”",
            "original": record,
            "form": form,
        }
        return TemplateResponse(
            request,
            "admin/people/externalperson/split.html",
            context,
            status=400 if form.is_bound else 200,
        )


def done_message(change: IdentityChange) -> str:
    """A merge's or split's summary, with a link to its page, where "Undo" puts it back."""
    url = reverse("admin:people_identitychange_change", args=[change.pk])
    return format_html('{} <a href="{}">Undo it</a> from its page.', change.summary, url)


@admin.register(Researcher)
class ResearcherAdmin(ReadOnlyAdmin):
    """Only what an author row's one picker needs (publications/admin.py): members and external
    people found by name, for whoever may view either. Not in the index; a researcher's page
    is their profile's or their external record's, where staff edit them."""

    search_fields = ["name", "aliases", "orcid", "dblp"]
    ordering = ["name"]

    def get_model_perms(self, request):
        return {}

    def has_view_permission(self, request, obj=None):
        user = request.user
        return user.has_perm("people.view_person") or user.has_perm("people.view_externalperson")

    def has_delete_permission(self, request, obj=None):
        """Deleting a profile or an external record deletes its researcher row: whoever may
        delete either may delete that row (the admin's delete page asks)."""
        user = request.user
        return user.has_perm("people.delete_person") or user.has_perm(
            "people.delete_externalperson"
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The profile's or the external record's own page."""
        researcher = Researcher.objects.filter(pk=object_id).select_related("profile").first()
        if researcher is None:
            raise Http404("No such person.")
        kind = "person" if getattr(researcher, "profile", None) else "externalperson"
        return redirect(reverse(f"admin:people_{kind}_change", args=[researcher.pk]))


@admin.register(IdentityChange)
class IdentityChangeAdmin(admin.ModelAdmin):
    """The log of merges and splits: read-only; "Undo" is a button on each one's page, and an
    action for several."""

    list_display = ["summary", "kind", "made_at", "made_by", "undone_at"]
    list_filter = ["kind"]
    list_select_related = ["made_by"]
    actions = ["undo_selected"]
    readonly_fields = [
        "kind",
        "summary",
        "record",
        "other",
        "moved_rows",
        "made_at",
        "made_by",
        "undone_at",
        "undone_by",
    ]
    fields = tuple(readonly_fields)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="rows moved")
    def moved_rows(self, change):
        """What moved, in words ("2 author rows, 1 advising link"), not the log's JSON."""
        parts = []
        for label, moved in change.moved.items():
            opts = apps.get_model(label)._meta
            if count := len(moved["ids"]):
                parts.append(
                    f"{count} {opts.verbose_name if count == 1 else opts.verbose_name_plural}"
                )
        return ", ".join(parts) or "None"

    def has_delete_permission(self, request, obj=None):
        return False

    def has_undo_permission(self, request):
        return request.user.has_perm("people.change_externalperson")

    @admin.action(description="Undo the selected merges and splits", permissions=["undo"])
    def undo_selected(self, request, queryset):
        # Newest first: a later change may depend on an earlier one.
        for change in queryset.order_by("-made_at", "-pk"):
            self.undo(request, change)

    def undo(self, request, change: IdentityChange) -> None:
        """Undo `change`, telling the editor what was put back, in a sentence."""
        try:
            result = undo_identity_change(change=change, user=request.user)
        except IdentityChangeRefused as refused:
            self.message_user(request, f"{change}: {refused}", messages.ERROR)
            return
        self.message_user(request, undone_message(change, result))

    def get_urls(self):
        undo = self.admin_site.admin_view(self.undo_view)
        name = f"{self.opts.app_label}_{self.opts.model_name}_undo"
        return [path("<path:object_id>/undo/", undo, name=name), *super().get_urls()]

    def undo_view(self, request, object_id):
        """The "Undo" button on a merge's or split's own page (a POST; the page reloads)."""
        change = self.get_object(request, object_id)
        if change is None:
            raise Http404("No such merge or split.")
        if request.method != "POST" or not self.has_undo_permission(request):
            raise PermissionDenied
        self.undo(request, change)
        return redirect("admin:people_identitychange_change", change.pk)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {
            "undo_url": reverse("admin:people_identitychange_undo", args=[object_id])
            if self.has_undo_permission(request)
            else None,
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, extra_context)


def undone_message(change: IdentityChange, result) -> str:
    restored = ngettext(
        "%(count)d row was put back.", "%(count)d rows were put back.", result.restored
    ) % {"count": result.restored}
    skipped = (
        " "
        + ngettext(
            "%(count)d row changed since, and was left as it is.",
            "%(count)d rows changed since, and were left as they are.",
            result.skipped,
        )
        % {"count": result.skipped}
        if result.skipped
        else ""
    )
    return f"Undone: {change} {restored}{skipped}"


class LoginForm(UserChangeForm):
    """A login linked to a person keeps what its member needs to sign in: without staff status
    the sign-in page would tell them their password is wrong."""

    def clean_is_staff(self):
        is_staff = self.cleaned_data["is_staff"]
        person = getattr(self.instance, "person", None) if self.instance.pk else None
        if person is not None and not is_staff:
            raise forms.ValidationError(
                f"This login belongs to {person.name}’s profile: without staff status "
                f"{person.name} cannot sign in to edit it. To stop them signing in, untick "
                "“Active” instead."
            )
        return is_staff


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class LoginAdmin(UserAdmin):
    """Django's logins, saying which person each belongs to."""

    form = LoginForm
    list_display = ["username", "profile", "email", "is_staff", "is_active"]
    list_select_related = ["person"]
    readonly_fields = ["profile"]
    fieldsets = [
        (None, {"fields": ["username", "password", "profile"]}),
        *(UserAdmin.fieldsets or ())[1:],
    ]

    @admin.display(description="person")
    def profile(self, login):
        person = getattr(login, "person", None)
        if person is None:
            return "— (no person: link one from their page under People)"
        url = reverse("admin:people_person_change", args=[person.pk])
        return format_html('<a href="{}">{}</a>', url, person.name)
