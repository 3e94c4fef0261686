"""Change history in the admin, through django-simple-history.

Every save made in the admin is kept with who made it and when. An object's History page
lists its versions with the fields each one changed (old → new); opening a version and
pressing "Revert" restores it. A deleted object stays in its history: the changelist's
"Recover deleted" page lists them, and reverting one recreates it together with the inline
rows (CV entries, authors, awards, links) that were deleted with it.
"""

from datetime import timedelta

from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.dispatch import Signal
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from simple_history.admin import SimpleHistoryAdmin

# Inline rows deleted by the same cascade are recorded within moments of their parent.
CASCADE_WINDOW = timedelta(minutes=1)
DELETED_LISTED = 200

# Sent with `instance` after a deleted object is recreated from its history, with its inline
# rows. Apps above the object's app restore what of theirs pointed at it (publications/receivers.py).
object_recovered = Signal()


class HistoryAdmin(SimpleHistoryAdmin):
    change_list_template = "admin/history_change_list.html"

    def get_urls(self):
        deleted = self.admin_site.admin_view(self.deleted_view)
        name = f"{self.opts.app_label}_{self.opts.model_name}_deleted"
        return [path("deleted/", deleted, name=name), *super().get_urls()]

    def history_view(self, request, object_id, extra_context=None):
        # django-simple-history filters by the id as typed before it looks for the object, so
        # "abc" raised ValueError (a 500) where Django's own views answer "not found".
        readable_id(self.opts.pk, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        readable_id(self.opts.pk, object_id)
        readable_id(self.model.history.model._meta.pk, version_id)
        return super().history_form_view(request, object_id, version_id, extra_context)

    def admin_url(self, view: str, *args) -> str:
        name = f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_{view}"
        return reverse(name, args=args)

    def can_recover(self, request) -> bool:
        return self.has_add_permission(request) and self.has_delete_permission(request)

    def changelist_view(self, request, extra_context=None):
        """Offers "Recover deleted" (templates/admin/<app>/change_list.html) to who may."""
        if self.can_recover(request):
            extra_context = {**(extra_context or {}), "recover_url": self.admin_url("deleted")}
        return super().changelist_view(request, extra_context)

    def deleted_view(self, request):
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

    def save_model(self, request, obj, form, change):
        recovering = change and not self.model._default_manager.filter(pk=obj.pk).exists()
        super().save_model(request, obj, form, change)
        if recovering:
            self.recover_inline_rows(obj)
            object_recovered.send(sender=self.model, instance=obj)

    def recover_inline_rows(self, obj) -> None:
        """Recreate the rows of each inline that were deleted together with `obj`."""
        deletion = (
            self.model.history.filter(history_type="-", **{self.opts.pk.attname: obj.pk})
            .order_by("-history_date")
            .first()
        )
        if deletion is None:
            return
        for inline in self.inlines:
            child = inline.model
            if not hasattr(child, "history"):
                continue
            parent_field = next(
                field.attname
                for field in child._meta.fields
                if field.is_relation and field.related_model is self.model
            )
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


def readable_id(field: models.Field, value: str) -> None:
    """Http404 unless `value`, as the admin quotes it in addresses, can be a value of `field`."""
    try:
        field.get_prep_value(field.to_python(unquote(value)))
    except (ValidationError, ValueError, TypeError):
        raise Http404("No such object.") from None
