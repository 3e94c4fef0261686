from django.contrib import admin

from directory.history import HistoryAdmin
from directory.models import Lab


@admin.register(Lab)
class LabAdmin(HistoryAdmin):
    """One row: the changelist leads straight to it, and it cannot be deleted."""

    def has_add_permission(self, request):
        return not Lab.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        obj.pk = 1
        super().save_model(request, obj, form, change)
