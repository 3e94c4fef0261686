from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.shortcuts import redirect

from directory.history import HistoryAdmin
from directory.models import Lab


@admin.register(Lab)
class LabAdmin(HistoryAdmin):
    """One row: the list opens straight to its form, and it cannot be deleted."""

    def has_add_permission(self, request):
        return not Lab.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_or_change_permission(request):
            return super().changelist_view(request, extra_context)
        return redirect("admin:directory_lab_change", Lab.objects.current().pk)

    def save_model(self, request, obj, form, change):
        obj.pk = 1
        super().save_model(request, obj, form, change)


class SuperusersOnly(admin.ModelAdmin):
    """Who failed to sign in, from where: for the site's administrators, not for editors."""

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser and super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser and super().has_delete_permission(request, obj)


for model in (AccessAttempt, AccessLog, AccessFailureLog):
    if admin.site.is_registered(model):
        axes_admin = type(admin.site.get_model_admin(model))
        admin.site.unregister(model)
        admin.site.register(model, type(axes_admin.__name__, (SuperusersOnly, axes_admin), {}))
