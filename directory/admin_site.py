"""The lab's admin site: Django's, in the lab's name, landing each role where it works.

- Header and title are the lab's name (the Lab row, read once per page).
- A member signing in lands on their own profile ("Edit my profile"), told what waits for
  their answer; editors land on the index, which lists what waits for an editor. Each
  ModelAdmin with a `waiting_for(request)` method contributes its rows (title, url, what, by;
  `count` when one row stands for several, like a link to the rest of a long list).
- A refused page (403) is an admin page saying what this login may do instead.
"""

from functools import wraps

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from directory.models import Lab
from directory.roles import is_editor, person_of


def lab_name(request) -> str:
    """The lab's name, read once per request."""
    if not hasattr(request, "lab_name"):
        request.lab_name = Lab.objects.current().name
    return request.lab_name


class LabAdminSite(admin.AdminSite):
    index_title = "What to edit"

    def each_context(self, request):
        context = super().each_context(request)
        name = lab_name(request)
        context.update(site_header=name, site_title=f"{name} admin")
        return context

    def index(self, request, extra_context=None):
        waiting = [
            item
            for model_admin in self._registry.values()
            if hasattr(model_admin, "waiting_for")
            for item in model_admin.waiting_for(request)
        ]
        person = person_of(request.user)
        if person is not None and not is_editor(request.user):
            if waiting:
                messages.info(
                    request,
                    f"Other members named you as an author of {len(waiting)} "
                    f"paper{'s' if len(waiting) != 1 else ''}: answer in “My papers”.",
                )
            return redirect("admin:people_person_change", person.pk)
        context = {
            "waiting": waiting,
            "waiting_count": sum(item.get("count", 1) for item in waiting),
            **(extra_context or {}),
        }
        return super().index(request, context)

    def admin_view(self, view, cacheable=False):
        protected = super().admin_view(view, cacheable)

        @wraps(protected)
        def refused_in_the_admins_design(request, *args, **kwargs):
            try:
                return protected(request, *args, **kwargs)
            except PermissionDenied:
                return self.permission_denied(request)

        return refused_in_the_admins_design

    def permission_denied(self, request):
        """What this login may do, where Django would answer a bare "403 Forbidden"."""
        context = {
            **self.each_context(request),
            "title": "You cannot open this page",
            "person": person_of(request.user),
            "is_editor": is_editor(request.user),
        }
        return TemplateResponse(request, "admin/403.html", context, status=403)
