"""The suggestions found in members' ORCID and dblp records, each member's last check, and the
citation counts read from OpenAlex and Crossref (imported by publications/models.py)."""

from django.conf import settings
from django.db import models

from base.querysets import SiteQuerySet
from base.validation import ValidatedModel
from people.models import Person


class WorkCheck(models.Model):
    """A member's last check for new works: when, what it found, and why it failed if it did.
    Shown to staff on the suggestions' page; public pages never read it."""

    validation_exempt = "written by the check (checking.py), never typed by staff"

    class State(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker"
        DONE = "done", "Checked"
        FAILED = "failed", "Failed"

    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="work_check")
    state = models.CharField(max_length=20, choices=State.choices, default=State.QUEUED)
    queued_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    # Works the services listed, and how many of them became new suggestions.
    works_read = models.PositiveIntegerField(default=0)
    suggested = models.PositiveIntegerField(default=0)
    # What went wrong or was left out, in sentences for staff.
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["person__name"]
        verbose_name = "check for new works"
        verbose_name_plural = "checks for new works"

    def __str__(self) -> str:
        return f"Check of {self.person} ({self.get_state_display()})"


class SuggestionQuerySet(models.QuerySet["Suggestion"]):
    def pending(self) -> "SuggestionQuerySet":
        return self.filter(state=Suggestion.State.PENDING)


class Suggestion(models.Model):
    """A work a member's ORCID or dblp record lists and the site does not have yet. Kept after
    a decision: a rejected one is how the site remembers never to suggest that work again to
    that member (by DOI, arXiv id or folded title)."""

    validation_exempt = (
        "read from the services' answers by publications/identifiers/, checked there"
    )

    class State(models.TextChoices):
        PENDING = "pending", "Waiting"
        ACCEPTED = "accepted", "Added"
        REJECTED = "rejected", "Not mine"

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="work_suggestions")
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)
    source = models.CharField(max_length=20, help_text="The service that listed it.")
    title = models.CharField(max_length=1000)
    authors = models.TextField(blank=True, help_text="The authors as the service names them.")
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    venue = models.CharField(max_length=500, blank=True)
    # What the work is remembered by: a later check skips a work with any of them.
    doi = models.CharField("DOI", max_length=300, blank=True)
    arxiv_id = models.CharField("arXiv id", max_length=50, blank=True)
    folded_title = models.CharField(max_length=1000)
    # The entry the review reads (publications/identifiers/stored.py's JSON for one entry).
    entry = models.JSONField(default=dict)
    found_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    publication = models.ForeignKey(
        "publications.Publication",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The paper accepting it added, or found on the site already.",
    )

    objects = SuggestionQuerySet.as_manager()

    class Meta:
        ordering = ["person__name", "-year", "title"]
        verbose_name = "suggested work"
        indexes = [
            # The suggestions page lists a member's waiting ones; a check reads all of theirs.
            models.Index(fields=["person", "state"], name="suggestion_person_state"),
        ]

    def __str__(self) -> str:
        return self.title


class CitationCount(ValidatedModel):
    """How often a service counted a paper cited, on one day: a snapshot, never a live figure.
    Shown only when the lab's settings say so, with its source and date."""

    class Source(models.TextChoices):
        OPENALEX = "openalex", "OpenAlex"
        CROSSREF = "crossref", "Crossref"

    publication = models.ForeignKey(
        "publications.Publication", on_delete=models.CASCADE, related_name="citation_counts"
    )
    source = models.CharField(max_length=20, choices=Source.choices)
    count = models.PositiveIntegerField()
    counted_on = models.DateField()

    objects = SiteQuerySet.as_manager()

    class Meta:
        ordering = ["publication", "source", "-counted_on"]
        constraints = [
            # One snapshot per paper, source and day: a second refresh that day replaces it.
            models.UniqueConstraint(
                fields=["publication", "source", "counted_on"], name="citationcount_one_a_day"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.count} ({self.get_source_display()}, {self.counted_on:%-d %b %Y})"

    def cache_scopes(self) -> set[str]:
        """A count shows on its paper's page and its members' profiles (one query)."""
        from publications.models import paper_scopes

        return paper_scopes(self.publication_id)
