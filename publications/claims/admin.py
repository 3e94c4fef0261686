"""The editors' queue of claims and corrections ("Claims and corrections", under Publications),
each with Accept and Reject buttons; a member sees their own claims and how each was answered.
Registered by publications/admin.py."""

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import ngettext

from base.roles import is_editor
from publications.claims.models import Claim
from publications.services import ClaimRefused, decide_claim
from publications.suggestions.admin import OwnRowsOnly, StateFilter


class ClaimStateFilter(StateFilter):
    states = Claim.State
    waiting = Claim.State.WAITING


@admin.register(Claim)
class ClaimAdmin(OwnRowsOnly):
    list_display = ["what", "paper", "sent_by", "created_at", "state", "decide"]
    list_filter = [ClaimStateFilter, "kind"]
    list_select_related = ["publication", "authorship", "person", "authorship__researcher__profile"]
    search_fields = ["publication__title", "authorship__name", "message", "email"]
    list_per_page = 50
    fields = [
        "kind",
        "state",
        "publication",
        "authorship",
        "person",
        "message",
        "email",
        "created_at",
        "decided_at",
        "decided_by",
    ]

    @admin.display(description="claim or correction", ordering="kind")
    def what(self, claim: Claim) -> str:
        if claim.kind == Claim.Kind.CORRECTION:
            return format_html("Correction: {}", claim.message)
        row = claim.authorship
        linked = f" (now linked to {row.person})" if row and row.person else ""
        return format_html(
            "{} for the author “{}”{}", claim.get_kind_display(), row.name if row else "", linked
        )

    @admin.display(description="paper", ordering="publication__title")
    def paper(self, claim: Claim) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:publications_publication_change", args=[claim.publication_id]),
            claim.publication,
        )

    @admin.display(description="sent by")
    def sent_by(self, claim: Claim) -> str:
        if claim.person_id:
            return str(claim.person)
        return f"A visitor ({claim.email})" if claim.email else "A visitor"

    @admin.display(description="decide")
    def decide(self, claim: Claim) -> str:
        if claim.state != Claim.State.WAITING:
            return f"{claim.get_state_display()} by {claim.decided_by}" if claim.decided_by else ""
        # Buttons of the list's own form (it carries the CSRF token), sent to their own URL.
        return format_html(
            '<button type="submit" class="button" formaction="{}" formmethod="post" '
            'aria-label="Accept: {}">Accept</button> '
            '<button type="submit" class="button" formaction="{}" formmethod="post" '
            'aria-label="Reject: {}">Reject</button>',
            reverse("admin:publications_claim_accept", args=[claim.pk]),
            claim,
            reverse("admin:publications_claim_reject", args=[claim.pk]),
            claim,
        )

    def get_list_display(self, request: HttpRequest) -> Any:
        """Only editors decide; a member reads each claim's state."""
        shown = super().get_list_display(request)
        return shown if is_editor(request.user) else [n for n in shown if n != "decide"]

    def waiting_for(self, request: HttpRequest) -> list[dict[str, Any]]:
        """For editors' index: how many claims and corrections wait, one line (one query)."""
        if not is_editor(request.user):
            return []
        count = Claim.objects.waiting().count()
        if not count:
            return []
        return [
            {
                "title": ngettext(
                    "%(count)d claim or correction to decide",
                    "%(count)d claims and corrections to decide",
                    count,
                )
                % {"count": count},
                "url": reverse("admin:publications_claim_changelist"),
                "what": "Members' claims of authors, visitors' corrections",
                "by": "",
                "count": count,
            }
        ]

    def get_urls(self) -> list[URLPattern]:
        def view(accept: bool) -> Callable[..., Any]:
            def decide(request: HttpRequest, pk: int) -> HttpResponseRedirect:
                return self.decide_view(request, pk, accept=accept)

            return self.admin_site.admin_view(decide)

        return [
            path("<int:pk>/accept/", view(True), name="publications_claim_accept"),
            path("<int:pk>/reject/", view(False), name="publications_claim_reject"),
            *super().get_urls(),
        ]

    def decide_view(self, request: HttpRequest, pk: int, *, accept: bool) -> HttpResponseRedirect:
        if request.method != "POST" or not is_editor(request.user):
            raise PermissionDenied
        try:
            messages.success(request, decide_claim(claim_id=pk, accept=accept, user=request.user))
        except ClaimRefused as refused:
            messages.error(request, str(refused))
        back = reverse("admin:publications_claim_changelist")
        filters = request.GET.get("_changelist_filters", "")
        return redirect(f"{back}?{filters}" if filters else back)
