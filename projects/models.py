"""Projects and grants: what the lab works on, who pays for it, and which papers, datasets and
software came of it (issue 28, last third; docs/decisions/projects.md).

A grant belongs to a funder (with its Crossref Funder Registry id) and, optionally, to the
project it funds; a paper acknowledges grants directly (`Grant.publications`), so "Funded by"
shows on a paper whether or not staff filed it under a project.
"""

import datetime
import re
from collections.abc import Collection, Iterable

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Left, Length
from django.utils import timezone
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from base.history_records import SiteHistoricalRecords
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import PublicPage, page_slug, unique_position
from base.partial_dates import PartialDateField, ends_after_it_starts, format_period
from base.querysets import CreditedQuerySet, SiteQuerySet
from base.validation import ValidatedModel
from outputs.models import Output
from people.models import (
    CreditRow,
    ResearchArea,
    Researcher,
    ResearchGroup,
    credited_researcher,
)
from publications.models import Publication, listed_publications

# The Crossref Funder Registry's DOI prefix: every funder id is 10.13039/<digits>.
FUNDER_PREFIX = "10.13039/"
FUNDER_ID = re.compile(r"^10\.13039/\d{3,20}$")
FUNDER_ID_ADDRESS = re.compile(r"^(?:https?://)?(?:dx\.)?doi\.org/", re.IGNORECASE)
AWARD_NUMBER_MAX = 100


def normalised_funder_id(value: str) -> str:
    """ "https://doi.org/10.13039/501100000780" and "doi:10.13039/…" are "10.13039/…"."""
    text = FUNDER_ID_ADDRESS.sub("", value.strip())
    return re.sub(r"^doi:\s*", "", text, flags=re.IGNORECASE)


def validate_funder_id(value: str) -> None:
    if value and not FUNDER_ID.match(value):
        raise ValidationError(
            "This is not a Crossref Funder Registry id. It is a DOI that starts with "
            "“10.13039/” followed by digits, such as “10.13039/501100000780”; you can paste "
            "its address on doi.org."
        )


class FunderQuerySet(SiteQuerySet):
    def get_by_natural_key(self, slug: str) -> "Funder":
        funder: Funder = self.get(slug=slug)
        return funder


class Funder(ValidatedModel):
    """Who pays: a research council, a foundation, a company."""

    name = models.CharField(
        max_length=300,
        unique=True,
        help_text="As the funder names itself, e.g. “European Commission”.",
    )
    slug = models.SlugField(
        "short name for addresses",
        max_length=100,
        unique=True,
        help_text="Used in filter addresses: /publications/?funder=slug.",
    )
    registry_id = models.CharField(
        "Crossref Funder Registry id",
        max_length=60,
        blank=True,
        validators=[validate_funder_id],
        help_text="e.g. “10.13039/501100000780”, or its address on doi.org. Look it up at "
        "search.crossref.org/funding. Leave empty if the funder is not listed there.",
    )

    objects = FunderQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = [
            # One row per registry id: the filter and the exports name the funder by it.
            models.UniqueConstraint(
                fields=["registry_id"],
                condition=~models.Q(registry_id=""),
                name="funder_unique_registry_id",
                violation_error_message="Another funder already has this Crossref Funder "
                "Registry id.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        # Pasted as its doi.org address: stored as the bare DOI, before the validator reads it.
        if isinstance(self.registry_id, str):
            self.registry_id = normalised_funder_id(self.registry_id)
        super().clean_fields(exclude=exclude)

    @property
    def registry_url(self) -> str:
        """The funder's record, as doi.org resolves its id; "" when it has none."""
        return f"https://doi.org/{self.registry_id}" if self.registry_id else ""


class ProjectQuerySet(CreditedQuerySet):
    credits_field = "people"

    def with_person(self, researchers: Researcher | Iterable[Researcher]) -> "ProjectQuerySet":
        """The projects `researchers` (a Researcher, a member's Person, or several) take part
        in."""
        return self.credited_to(researchers)

    def funded_by(self, funders: Iterable[Funder]) -> "ProjectQuerySet":
        """The projects a grant of any of `funders` (Funder rows or a queryset) pays for."""
        return self.filter(pk__in=Grant.objects.filter(funder__in=funders).values("project"))

    def past(self, today: datetime.date | None = None) -> "ProjectQuerySet":
        """Ended before `today`, at the end's precision: a project ending "2026" is current
        all through 2026 (the ISO strings compare once today is cut to the end's length)."""
        return self.filter(past_condition(today))

    def current(self, today: datetime.date | None = None) -> "ProjectQuerySet":
        """Not ended: no end given, or an end not before `today` (started or yet to start)."""
        return self.exclude(past_condition(today))

    def for_listing(self) -> "ProjectQuerySet":
        """What every list of projects shows: the people with their profiles, and the grants
        with their funders (one query each for all projects, whatever their number)."""
        return self.prefetch_related(
            models.Prefetch(
                "people",
                queryset=ProjectPerson.objects.select_related("researcher__profile"),
            ),
            models.Prefetch("grants", queryset=Grant.objects.for_papers()),
        )

    def for_page(self) -> "ProjectQuerySet":
        """A project's own page: its people with their profiles, grants and funders, and its
        published groups, areas, papers, datasets and software as `listed_*` (one query each)."""
        return (
            self.for_listing()
            .with_filing()
            .prefetch_related(
                listed_publications("title", "slug", "year"),
                models.Prefetch(
                    "outputs",
                    queryset=Output.objects.published().only("title", "slug", "kind", "version"),
                    to_attr="listed_outputs",
                ),
            )
        )


def past_condition(today: datetime.date | None = None) -> models.Q:
    today_text = models.Value((today or timezone.localdate()).isoformat())
    return models.Q(end__isnull=False, end__lt=Left(today_text, Length("end")))


class Project(PublicPage):
    url_name = "projects:detail"

    title = models.CharField(max_length=300, help_text="As the project calls itself.")
    slug = page_slug("The page's address: /projects/slug/.")
    summary = MarkdownField(blank=True, help_text="What the project is about. Markdown.")
    summary_html = RenderedMarkdownField(source="summary")
    start = PartialDateField(
        null=True, blank=True, help_text='As precise as known: "2024", "Sep 2024" or "1 Sep 2024".'
    )
    end = PartialDateField(
        null=True,
        blank=True,
        help_text="Empty while it runs with no end date. The list shows it as past after this.",
    )
    url = models.URLField(
        "project website", max_length=500, blank=True, help_text="Its own site, if it has one."
    )
    groups = models.ManyToManyField(
        ResearchGroup,
        blank=True,
        related_name="projects",
        help_text="The research groups it belongs to: shown on their pages.",
    )
    areas = models.ManyToManyField(
        ResearchArea,
        blank=True,
        related_name="projects",
        help_text="The research areas it belongs to: shown on their pages.",
    )
    publications = models.ManyToManyField(
        Publication,
        blank=True,
        related_name="projects",
        help_text="The papers that came of it: each paper's page names the project.",
    )
    outputs = models.ManyToManyField(
        Output,
        blank=True,
        related_name="projects",
        verbose_name="datasets and software",
        help_text="The datasets and software that came of it.",
    )

    objects = ProjectQuerySet.as_manager()
    history = SiteHistoricalRecords(
        m2m_fields=["groups", "areas", "publications", "outputs"], excluded_fields=["summary_html"]
    )

    class Meta:
        # Newest start first, undated last; the slug last so pages never repeat or skip a row.
        ordering = [models.F("start").desc(nulls_last=True), "title", "slug"]
        constraints = [
            ends_after_it_starts(
                name="project_ends_after_it_starts",
                message="A project cannot end before it starts.",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        super().clean()
        if (
            self.start
            and self.end
            and self.end.isoformat() < self.start.isoformat()[: len(self.end.isoformat())]
        ):
            raise ValidationError(
                {"end": "The end is before the start: a project cannot end before it starts."}
            )

    def is_past(self, today: datetime.date | None = None) -> bool:
        if self.end is None:
            return False
        end: str = self.end.isoformat()
        return end < (today or timezone.localdate()).isoformat()[: len(end)]

    @property
    def period(self) -> str:
        """ "Sep 2024 – Present", "2021 – 2024": as a CV prints a span."""
        return format_period(
            self.start, self.end, ongoing=self.start is not None and self.end is None
        )

    @property
    def funders(self) -> list["Funder"]:
        """Its funders, once each, in the order of its grants (reads for_listing()'s)."""
        found: dict[int, Funder] = {}
        for grant in self.grants.all():
            found.setdefault(grant.funder_id, grant.funder)
        return list(found.values())


class ProjectPerson(CreditRow):
    """One person of a project, in order, with their role: a researcher, the same identity an
    author row names (a member's profile or someone outside the lab)."""

    parent_field = "project"

    class Role(models.TextChoices):
        PRINCIPAL_INVESTIGATOR = "pi", gettext_lazy("Principal investigator")
        CO_INVESTIGATOR = "co-investigator", gettext_lazy("Co-investigator")
        RESEARCHER = "researcher", gettext_lazy("Researcher")
        STUDENT = "student", gettext_lazy("Student")
        COLLABORATOR = "collaborator", gettext_lazy("Collaborator")

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="people")
    researcher = credited_researcher(related_name="project_roles")
    role = models.CharField(
        max_length=30,
        choices=Role.choices,
        default=Role.RESEARCHER,
        help_text="What they do in the project.",
    )

    class Meta:
        ordering = ["project", "position"]
        verbose_name = "person of the project"
        verbose_name_plural = "people of the project"
        constraints = [
            unique_position("project", name="projectperson_unique_position"),
            # A person is named once in a project.
            models.UniqueConstraint(
                fields=["project", "researcher"],
                name="projectperson_once_a_project",
                violation_error_message="This person is already named in the project.",
            ),
        ]
        indexes = [
            # A profile's projects and the member filter look rows up by researcher.
            models.Index(fields=["researcher", "project"], name="projectperson_researcher"),
        ]


class GrantQuerySet(SiteQuerySet):
    def for_papers(self) -> "GrantQuerySet":
        return self.select_related("funder").order_by("funder__name", "award_number")


class Grant(ValidatedModel):
    """An award from a funder: to a project, and acknowledged by papers."""

    funder = models.ForeignKey(
        Funder, on_delete=models.PROTECT, related_name="grants", help_text="Who awarded it."
    )
    award_number = models.CharField(
        max_length=AWARD_NUMBER_MAX,
        blank=True,
        help_text="The grant's number as the funder writes it, e.g. “EP/X012345/1”. Empty if it "
        "has none.",
    )
    title = models.CharField(max_length=500, blank=True, help_text="The grant's own title, if any.")
    url = models.URLField(
        "web page", max_length=500, blank=True, help_text="The award's page at the funder, if any."
    )
    project = models.ForeignKey(
        Project,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="grants",
        help_text="The project it funds, if it is filed under one.",
    )
    publications = models.ManyToManyField(
        Publication,
        blank=True,
        related_name="grants",
        help_text="The papers that acknowledge it: each shows “Funded by” this grant.",
    )

    objects = GrantQuerySet.as_manager()
    history = SiteHistoricalRecords(m2m_fields=["publications"])

    class Meta:
        ordering = ["funder__name", "award_number"]
        constraints = [
            # A funder's award number names one grant.
            models.UniqueConstraint(
                fields=["funder", "award_number"],
                condition=~models.Q(award_number=""),
                name="grant_unique_award_number",
                violation_error_message="This funder already has a grant with this award number.",
            ),
        ]

    def __str__(self) -> str:
        funder = self.funder.name if self.funder_id else ""
        return f"{funder} ({self.award_number})" if self.award_number else funder
