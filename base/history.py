"""Change history in the admin, through django-simple-history and base/versions.py.

Every save made in the admin is kept with who made it and when. An object's History page
lists its versions with what each changed, in words ("Visible on the site: no → yes"),
its parts included (a paper's authors, a person's CV entries). Opening a version shows it
with its parts, read-only; "Revert to this version" restores both. A deleted object stays in
its history: the changelist's "Recover deleted" page lists them, and reverting one recreates
it with its parts and with the links that pointed at it (author rows, news items, group
members). The history says so in words: "Reverted to the version of …", "Recovered".

A bad id anywhere in an admin URL is a 404, never a 500 or a redirect to the index.
"""

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, router
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils import formats, timezone
from django.utils.text import capfirst
from simple_history.admin import SimpleHistoryAdmin

from base import versions
from base.write_lock import write_transaction

# Inline rows deleted by the same cascade are recorded within moments of their parent; used
# for objects deleted before deletions had snapshots.
CASCADE_WINDOW = timedelta(minutes=1)
DELETED_LISTED = 200
RECOVERED = "Recovered"
REVERTED = "Reverted to the version of "


def when(record: Any) -> str:
    """A version's time as staff read it, in the site's time zone."""
    return formats.date_format(timezone.localtime(record.history_date), "j F Y, H:i")


def kind_in_words(record: Any) -> str:
    """What a version was, for the first column of the history page."""
    reason = record.history_change_reason or ""
    if reason == RECOVERED:
        return "Recovered"
    if reason.startswith(REVERTED):
        return "Reverted"
    return {"+": "First version", "-": "Deleted"}.get(record.history_type, "Changed")


def _without(nested: list[Any], prefixes: tuple[str, ...]) -> list[Any]:
    """Django's nested list of what a delete takes (an object, then the list of what goes with
    it) without the objects whose line begins with one of `prefixes`; what goes with one of
    those takes its place."""
    kept: list[Any] = []
    dropped = False
    for item in nested:
        if isinstance(item, list):
            children = _without(item, prefixes)
            if dropped:
                kept.extend(children)
            else:
                kept.append(children)
            dropped = False
        elif str(item).startswith(prefixes):
            dropped = True
        else:
            kept.append(item)
            dropped = False
    return kept


class HistoryAdmin(SimpleHistoryAdmin):  # type: ignore[misc]  # simple-history has no types
    change_list_template = "admin/history_change_list.html"
    object_history_template = "admin/history/object_history.html"
    object_history_list_template = "admin/history/object_history_list.html"
    object_history_form_template = "admin/history/object_history_form.html"

    def get_urls(self) -> list[URLPattern | URLResolver]:
        deleted = self.admin_site.admin_view(self.deleted_view)
        name = f"{self.opts.app_label}_{self.opts.model_name}_deleted"
        return [path("deleted/", deleted, name=name), *super().get_urls()]

    def admin_url(self, view: str, *args: Any) -> str:
        name = f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_{view}"
        return reverse(name, args=args)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """A save (POST) is one transaction whose BEGIN waits again for SQLite's lock
        (write_transaction). A form shown (GET) takes no transaction: Django 5.2's admin
        opens none for it (before, on SQLite's IMMEDIATE transactions, it took the one write
        lock for the whole page's rendering, and ten editors opening forms queued every save
        and sign-in past the busy timeout under `make load`);
        tests/base/test_admin_pages_under_write_lock.py holds that."""
        if request.method in ("GET", "HEAD", "OPTIONS", "TRACE"):
            response: HttpResponse = super().changeform_view(
                request, object_id, form_url, extra_context
            )
            return response
        with write_transaction(using=router.db_for_write(self.model)):
            saved: HttpResponse = super().changeform_view(
                request, object_id, form_url, extra_context
            )
        return saved

    def get_deleted_objects(
        self, objs: Sequence[Model], request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        """The delete confirmation's summary and list, without the rows staff never made:
        a paper's co-author pairs (a model's `derived_rows`) and the rows that link two
        objects of a many-to-many field ("NewsItem_publications object (1)"), which go with
        what is deleted and said nothing to the staff member reading the page."""
        to_delete, counts, permissions_needed, protected = super().get_deleted_objects(
            objs, request
        )
        hidden = [
            model
            for model in apps.get_models(include_auto_created=True)
            if model._meta.auto_created or getattr(model, "derived_rows", False)
        ]
        plurals = {str(model._meta.verbose_name_plural) for model in hidden}
        prefixes = tuple(f"{capfirst(model._meta.verbose_name)}: " for model in hidden)
        counts = {name: count for name, count in counts.items() if str(name) not in plurals}
        return _without(to_delete, prefixes), counts, permissions_needed, protected

    # Ids ---------------------------------------------------------------------------------

    def valid_id(self, object_id: Any, field: Any = None) -> Any:
        """The id as its field reads it; a 404 for an id the field cannot read ("abc", "1.0",
        a NUL) or the database cannot hold. django-simple-history filters by the id as typed
        before it looks for the object: "abc" was a 500 on every History page."""
        field = field or self.opts.pk
        try:
            value = field.to_python(unquote(str(object_id)))
            field.get_prep_value(value)
            return value
        except (ValidationError, ValueError, TypeError):
            raise Http404(f"No {self.opts.verbose_name} has the id “{object_id}”.") from None

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        field = self.opts.pk if from_field is None else self.opts.get_field(from_field)
        self.valid_id(object_id, field)
        found = super().get_object(request, object_id, from_field)
        if found is None:
            raise Http404(f"No {self.opts.verbose_name} has the id “{object_id}”.")
        return found

    # Sections ----------------------------------------------------------------------------

    def get_inline_formsets(
        self, request: HttpRequest, formsets: Any, inline_instances: Any, obj: Any = None
    ) -> Any:
        """A section that folds ("collapse") says how many entries it has, "Education (2)",
        and is open when it has any: filled sections must not look empty."""
        inline_admin_formsets = super().get_inline_formsets(
            request, formsets, inline_instances, obj
        )
        for inline_admin_formset in inline_admin_formsets:
            inline = inline_admin_formset.opts
            if "collapse" not in (inline.classes or []):
                continue
            count = inline_admin_formset.formset.initial_form_count()
            inline.verbose_name_plural = f"{inline.verbose_name_plural} ({count})"
            if count:
                classes = inline_admin_formset.classes.split()
                inline_admin_formset.classes = " ".join(
                    name for name in classes if name != "collapse"
                )
        return inline_admin_formsets

    # Lists and recovery ------------------------------------------------------------------

    def can_recover(self, request: HttpRequest) -> bool:
        return bool(self.has_add_permission(request) and self.has_delete_permission(request))

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Offers "Recover deleted" (templates/admin/<app>/change_list.html) to who may."""
        if self.can_recover(request):
            extra_context = {**(extra_context or {}), "recover_url": self.admin_url("deleted")}
        response: HttpResponse = super().changelist_view(request, extra_context)
        return response

    def deleted_view(self, request: HttpRequest) -> HttpResponse:
        """The last recorded state of each deleted object, newest deletion first."""
        if not self.can_recover(request):
            raise PermissionDenied
        existing = self.model._default_manager.values("pk")
        records = (
            self.model.history.filter(history_type="-")
            .exclude(**{f"{self.opts.pk.attname}__in": existing})
            .select_related("history_user")
            .order_by("-history_date")[:DELETED_LISTED]
        )
        rows = []
        for record in records:
            object_id = quote(getattr(record, self.opts.pk.attname))
            url = self.admin_url("simple_history", object_id, record.history_id)
            rows.append({"record": record, "url": url})
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Recover deleted {self.opts.verbose_name_plural}",
            "rows": rows,
        }
        return TemplateResponse(request, "admin/recover_deleted.html", context)

    # The history page --------------------------------------------------------------------

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        self.valid_id(object_id)
        response: HttpResponse = super().history_view(request, object_id, extra_context)
        return response

    def set_history_delta_changes(
        self, request: HttpRequest, historical_records: Any, foreign_keys_are_objs: bool = True
    ) -> None:
        """Each version on the page gets `changes_in_words`: its own fields, then its parts,
        compared with the version before it (fetched when it is on the next page)."""
        records = list(historical_records)
        if not records:
            return
        oldest = records[-1]
        before_oldest = (
            self.model.history.filter(
                **{self.opts.pk.attname: getattr(oldest, self.opts.pk.attname)},
                history_date__lt=oldest.history_date,
            )
            .order_by("-history_date", "-history_id")
            .first()
        )
        chain = [*records, before_oldest] if before_oldest else records
        snapshots = versions.snapshots_of(self.model, chain)
        labels = versions.Labels()
        for record in records:
            record.kind_in_words = kind_in_words(record)
        for newer, older in zip(chain, chain[1:], strict=False):
            words = versions.field_changes(newer, older)
            new, old = snapshots.get(newer.history_id), snapshots.get(older.history_id)
            if new and old:
                words += versions.part_changes(self.model, new.parts, old.parts, labels)
            newer.changes_in_words = words

    def history_view_title(self, request: HttpRequest, obj: Any) -> str:
        return f"History of {obj}"

    def history_form_view_title(self, request: HttpRequest, obj: Any) -> str:
        version = getattr(request, "history_version", None)
        return f"{obj}, as it was on {when(version)}" if version else str(obj)

    # A version, and reverting to it ------------------------------------------------------

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: Any,
        version_id: Any,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        object_id = self.valid_id(object_id)
        try:
            version_id = int(version_id)
        except ValueError:
            raise Http404(f"There is no version “{version_id}”.") from None
        record = get_object_or_404(
            self.model.history, **{self.opts.pk.attname: object_id, "history_id": version_id}
        )
        snapshot = versions.snapshot_of(record)
        setattr(request, "history_version", record)  # noqa: B010  (read by the form and title)
        setattr(request, "history_snapshot", snapshot)  # noqa: B010
        parts = (
            versions.parts_in_words(self.model, snapshot.parts, parent=record.instance)
            if snapshot
            else []
        )
        context = {
            "version_parts": parts,
            "part_names": [name.lower() for name, _ in parts],
            "is_deleted": not self.model._default_manager.filter(pk=object_id).exists(),
            **(extra_context or {}),
        }
        response: HttpResponse = super().history_form_view(request, object_id, version_id, context)
        return response

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """On a version's page its files are shown, not offered for upload (a version's file
        may be gone: `keep_existing_files` decides which is kept)."""
        fields = list(super().get_readonly_fields(request, obj))
        if getattr(request, "history_version", None) is None:
            return fields
        files = [field.name for field in self.opts.fields if isinstance(field, models.FileField)]
        return fields + [name for name in files if name not in fields]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        """On a version's page the many-to-many fields show the version's, so reverting
        brings them back too (django-simple-history shows today's)."""
        form = super().get_form(request, obj, change=change, **kwargs)
        snapshot = getattr(request, "history_snapshot", None)
        many = [field.name for field in self.opts.many_to_many if field.name in form.base_fields]
        if snapshot is None or not many:
            return form
        links = snapshot.links

        class VersionForm(form):  # type: ignore[valid-type,misc]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                for name in many:
                    if name in links:
                        self.initial[name] = links[name]
                # A version is shown as it was, not as a form to edit: a revert saves the
                # version's values whatever the browser sends.
                for field in self.fields.values():
                    field.disabled = True

        return VersionForm

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        version = getattr(request, "history_version", None)
        if version is None:
            super().save_model(request, obj, form, change)
            return
        recovering = not self.model._default_manager.filter(pk=obj.pk).exists()
        setattr(request, "history_recovered", recovering)  # noqa: B010
        obj._change_reason = RECOVERED if recovering else f"{REVERTED}{when(version)}"
        self.keep_existing_files(request, obj)
        super().save_model(request, obj, form, change)
        snapshot = getattr(request, "history_snapshot", None)
        if snapshot is not None:
            parts = snapshot.parts if recovering else self.parts_edited_here(snapshot.parts)
            versions.restore_parts(obj, parts)
            if recovering:
                versions.restore_links(obj, snapshot.links)
        elif recovering:
            self.recover_inline_rows(obj)

    def response_change(self, request: HttpRequest, obj: Model) -> HttpResponse:
        """After a revert or a recovery, say which, and open the object's page."""
        version = getattr(request, "history_version", None)
        if version is None or request.method != "POST":
            response: HttpResponse = super().response_change(request, obj)
            return response
        name = self.opts.verbose_name
        if getattr(request, "history_recovered", False):
            said = f"Recovered the {name} “{obj}”, as it was when it was deleted."
        else:
            said = f"Reverted the {name} “{obj}” to the version of {when(version)}."
        self.message_user(request, said, messages.SUCCESS)
        return HttpResponseRedirect(self.admin_url("change", quote(obj.pk)))

    def parts_edited_here(self, parts: dict[str, Any]) -> dict[str, Any]:
        """The parts of a snapshot that this page edits (its inlines): a revert restores those.
        Rows edited on pages of their own (a person's memberships, the advising rows naming
        them) stay as they are; only a recovery brings them back, since the deletion took them.
        """
        inline_models = {inline.model for inline in self.inlines}
        return {
            relation.get_accessor_name(): parts[relation.get_accessor_name()]
            for relation in versions.part_relations(self.model)
            if relation.related_model in inline_models and relation.get_accessor_name() in parts
        }

    def keep_existing_files(self, request: HttpRequest, obj: Any) -> None:
        """A version may name a photo whose file was deleted when it was replaced: the file
        saved now is kept instead (or none), never a broken image."""
        missing = versions.missing_files(obj)
        if not missing:
            return
        saved = self.model._default_manager.filter(pk=obj.pk).first()
        for field in missing:
            current = getattr(saved, field.attname, "") if saved is not None else ""
            if current and not field.storage.exists(str(current)):
                current = ""
            setattr(obj, field.attname, current)
        if any(field.editable for field in missing):
            names = ", ".join(str(field.verbose_name) for field in missing if field.editable)
            self.message_user(
                request,
                f"The file of that version's {names} no longer exists: "
                + ("the current one is kept." if saved is not None else "it is left empty."),
                messages.WARNING,
            )

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        """Called once the inlines are saved too: the version now gets its parts."""
        versions.record_snapshot(obj)
        return super().log_addition(request, obj, message)

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        versions.record_snapshot(obj)
        return super().log_change(request, obj, message)

    def recover_inline_rows(self, obj: Any) -> None:
        """For objects deleted before deletions had snapshots: recreate the rows of each
        inline that were deleted within moments of `obj`."""
        deletion = (
            self.model.history.filter(history_type="-", **{self.opts.pk.attname: obj.pk})
            .order_by("-history_date")
            .first()
        )
        if deletion is None:
            return
        for relation in versions.part_relations(self.model):
            child = relation.related_model
            parent_field = relation.field.attname
            records = child.history.filter(
                history_type="-",
                history_date__gte=deletion.history_date - CASCADE_WINDOW,
                history_date__lte=deletion.history_date + CASCADE_WINDOW,
                **{parent_field: obj.pk},
            )
            existing = set(
                child._default_manager.filter(**{parent_field: obj.pk}).values_list("pk", flat=True)
            )
            for record in records:
                if record.instance.pk not in existing:
                    record.instance.save()
                    existing.add(record.instance.pk)
