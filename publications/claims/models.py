"""Claims and corrections (imported by publications/models.py)."""

from django.conf import settings
from django.db import models

from base.validation import ValidatedModel
from people.models import Person

# The longest correction a visitor may send: a few sentences, not a document.
CORRECTION_MAX_LENGTH = 2000


class ClaimQuerySet(models.QuerySet["Claim"]):
    def waiting(self) -> "ClaimQuerySet":
        return self.filter(state=Claim.State.WAITING)


class Claim(ValidatedModel):
    """A member's "This is me" or "Not me" on one author row, or a visitor's correction of a
    paper. Kept after the decision: the member sees how their claim was answered, and the
    queue's history says who decided what."""

    class Kind(models.TextChoices):
        THIS_IS_ME = "me", "This is me"
        NOT_ME = "not-me", "Not me"
        CORRECTION = "correction", "Correction"

    class State(models.TextChoices):
        WAITING = "waiting", "Waiting for an editor"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    state = models.CharField(max_length=20, choices=State.choices, default=State.WAITING)
    publication = models.ForeignKey(
        "publications.Publication", on_delete=models.CASCADE, related_name="claims"
    )
    authorship = models.ForeignKey(
        "publications.Authorship",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="claims",
        verbose_name="author",
        help_text="The author row a member says is them, or is not them. Empty for a correction.",
    )
    person = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="claims",
        verbose_name="member",
        help_text="The member who claims. Empty for a visitor's correction.",
    )
    message = models.TextField(
        "what is wrong",
        max_length=CORRECTION_MAX_LENGTH,
        blank=True,
        help_text="The visitor's correction, in their words.",
    )
    email = models.EmailField(
        blank=True, help_text="Where the visitor may be answered, if they gave it."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "claim or correction"
        verbose_name_plural = "claims and corrections"
        constraints = [
            # A member's second click on "This is me" waits as the first one: one row to decide.
            models.UniqueConstraint(
                fields=["authorship", "person"],
                condition=models.Q(state="waiting"),
                name="claim_one_waiting_per_member_and_author",
            ),
        ]
        indexes = [
            # The queue lists the waiting ones, newest first.
            models.Index(fields=["state", "-created_at"], name="claim_state_created"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.CORRECTION:
            return f"Correction of “{self.publication}”"
        return f"{self.get_kind_display()}: {self.person} on “{self.publication}”"
