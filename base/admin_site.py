"""The lab's admin site: Django's, in the lab's name, landing each role where it works.

- Header and title are the lab's name (the Lab row, read once per page).
- A member signing in lands on their own profile ("Edit my profile"), told what waits for
  their answer; editors land on the index, which lists what waits for an editor. Each
  ModelAdmin with a `waiting_for(request)` method contributes its rows (title, url, what, by;
  `count` when one row stands for several, like a link to the rest of a long list).
- A login given from a person's page (people.services.give_login) has no password: the member
  chooses one at `set-password/…`, Django's password reset confirmation, in the admin's look.
- A refused page (403) is an admin page saying what this login may do instead.
- The index and the side bar list the models by task (`TASKS`), in words for staff who are
  not programmers: People, Publications, News, Site, and the plumbing (logins, sign-in
  attempts, background tasks) last, under System.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path, reverse

from base.models import Lab
from base.roles import is_editor, person_of


def model_admin_page(
    model_admin: admin.ModelAdmin[Any],
    route: str,
    view: Callable[..., HttpResponseBase],
    *,
    name: str,
) -> URLPattern:
    """A page of `model_admin`'s own, for its get_urls: `route` answered by `view(model_admin,
    request, **the route's values)` behind the admin's login (admin_view). The BibTeX import,
    the add-by-identifier page and the outputs' import are such pages, their views in modules
    of their own beside the ModelAdmin."""

    def page(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        return view(model_admin, request, **kwargs)

    return path(route, model_admin.admin_site.admin_view(page), name=name)


def lab_name(request: HttpRequest) -> str:
    """The lab's name, read once per request."""
    if not hasattr(request, "lab_name"):
        setattr(request, "lab_name", Lab.objects.current().name)  # noqa: B010
    name: str = getattr(request, "lab_name")  # noqa: B009
    return name


# The index's sections, in order: each app's models go to its section, in the order listed
# (models not listed follow, by name). An app not named here is plumbing, under "System".
TASKS: list[tuple[str, list[str]]] = [
    (
        "People",
        [
            "people.person",
            "people.rolegroup",
            "people.researchgroup",
            "people.researcharea",
            "people.membership",
            "people.advising",
            "people.collaboration",
            "people.departure",
        ],
    ),
    (
        "Publications",
        [
            "publications.publication",
            "publications.claim",
            "publications.suggestion",
            "publications.venue",
            "publications.workcheck",
        ],
    ),
    ("News", ["news.newsitem"]),
    ("Talks and events", ["events.event"]),
    ("Projects and grants", ["projects.project", "projects.grant", "projects.funder"]),
    ("Datasets and software", ["outputs.output"]),
    ("Site", ["directory.lab"]),
]
SYSTEM = "System"
SYSTEM_ORDER = [
    "auth.user",
    "auth.group",
    "django_tasks_database.dbtaskresult",
    "axes.accessattempt",
    "axes.accessfailurelog",
    "axes.accesslog",
    "socialaccount.socialaccount",
]
# Names that say what the plumbing is for; Django's own are for programmers.
PLAIN_NAMES = {
    "auth.user": "Logins",
    "auth.group": "Login groups (rights)",
    "socialaccount.socialaccount": "Institution sign-ins",
    "axes.accessattempt": "Refused sign-ins",
    "axes.accesslog": "Sign-ins",
    "axes.accessfailurelog": "Failed sign-ins",
    "django_tasks_database.dbtaskresult": "Background tasks",
}


def section_of(app_label: str) -> str:
    for section, models in TASKS:
        if any(model.startswith(f"{app_label}.") for model in models):
            return section
    return SYSTEM


def grouped_by_task(apps: list[dict[str, Any]], index_url: str) -> list[dict[str, Any]]:
    """Django's app list (one entry per app) regrouped into the index's task sections."""
    lists = [models for _, models in TASKS] + [SYSTEM_ORDER]
    order = {model: place for models in lists for place, model in enumerate(models)}
    sections: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in TASKS}
    sections[SYSTEM] = []
    urls: dict[str, str] = {}
    for app in apps:
        section = section_of(app["app_label"])
        for model in app["models"]:
            key = f"{app['app_label']}.{model['object_name'].lower()}"
            if key in PLAIN_NAMES:
                model = {**model, "name": PLAIN_NAMES[key]}
            sections[section].append({**model, "task_key": key})
        # A section of one app opens that app's page; a mixed one, the index.
        urls[section] = app["app_url"] if section not in urls else index_url
    grouped = []
    for name, models in sections.items():
        if not models:
            continue
        models.sort(key=lambda model: (order.get(model["task_key"], len(order)), model["name"]))
        grouped.append(
            {
                "name": name,
                "app_label": name.lower(),
                "app_url": urls[name],
                "has_module_perms": True,
                "models": models,
            }
        )
    return grouped


class LabAdminSite(admin.AdminSite):
    index_title = "What to edit"

    def each_context(self, request: HttpRequest) -> dict[str, Any]:
        context = super().each_context(request)
        name = lab_name(request)
        context.update(site_header=name, site_title=f"{name} admin")
        return context

    def get_app_list(
        self, request: HttpRequest, app_label: str | None = None
    ) -> list[dict[str, Any]]:
        apps = super().get_app_list(request, app_label)
        if app_label is not None:
            return apps  # One app's own page stays as Django makes it.
        return grouped_by_task(apps, reverse("admin:index", current_app=self.name))

    def get_urls(self) -> list[URLPattern | URLResolver]:
        return [
            path("set-password/<uidb64>/<token>/", self.set_password, name="set-password"),
            path("set-password/done/", self.password_set, name="password-set"),
            *super().get_urls(),
        ]

    def set_password(self, request: HttpRequest, uidb64: str, token: str) -> HttpResponseBase:
        """Where a member given a login chooses their password; the address works once."""
        view = auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse("admin:password-set", current_app=self.name),
            extra_context=self.signed_out_context(request, "Choose your password"),
        )
        return view(request, uidb64=uidb64, token=token)

    def password_set(self, request: HttpRequest) -> HttpResponseBase:
        view = auth_views.PasswordResetCompleteView.as_view(
            extra_context=self.signed_out_context(request, "Your password is set")
        )
        return view(request)

    def signed_out_context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        """The admin's look for a page before signing in: no side bar saying "You don't have
        permission to view or edit anything"."""
        return {**self.each_context(request), "title": title, "is_nav_sidebar_enabled": False}

    def index(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> Any:  # a TemplateResponse, or a member's redirect to their own page
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

    def admin_view(self, view: Any, cacheable: bool = False) -> Any:
        protected = super().admin_view(view, cacheable)

        @wraps(protected)
        def refused_in_the_admins_design(
            request: HttpRequest, *args: Any, **kwargs: Any
        ) -> HttpResponse:
            try:
                response: HttpResponse = protected(request, *args, **kwargs)
                return response
            except PermissionDenied:
                return self.permission_denied(request)

        return refused_in_the_admins_design

    def permission_denied(self, request: HttpRequest) -> HttpResponse:
        """What this login may do, where Django would answer a bare "403 Forbidden"."""
        context = {
            **self.each_context(request),
            "title": "You cannot open this page",
            "person": person_of(request.user),
            "is_editor": is_editor(request.user),
        }
        return TemplateResponse(request, "admin/403.html", context, status=403)
