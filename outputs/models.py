"""Datasets and software: research outputs of their own, beside the papers.

One model with a kind, not two: a dataset and a piece of software have the same fields
(title, creators, version, licence, address, DOI, release date, related papers), one list
shows both with a kind facet, and the exports differ only in the type they write
(docs/decisions/outputs.md).
"""

from collections.abc import Collection, Iterable

from django.db import models
from django.db.models.functions import Substr
from django.utils.translation import gettext_lazy

from base.history_records import SiteHistoricalRecords
from base.identifiers import DoiField
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import PublicPage, page_slug, unique_position
from base.partial_dates import PartialDateField
from base.querysets import CreditedQuerySet
from outputs.licences import canonical_licence, validate_licence
from people.models import (
    CreditRow,
    ResearchArea,
    Researcher,
    ResearchGroup,
    credited_researcher,
)
from publications.models import Publication, listed_publications


class OutputQuerySet(CreditedQuerySet):
    credits_field = "creators"

    def by(self, researchers: Researcher | Iterable[Researcher]) -> "OutputQuerySet":
        """The outputs `researchers` (a Researcher, a member's Person, or several) created."""
        return self.credited_to(researchers)

    def related_to(self, publication: Publication) -> "OutputQuerySet":
        """The outputs staff linked to the paper `publication`."""
        return self.filter(publications=publication)

    def years(self) -> "models.QuerySet[Output, str]":
        """The distinct release years, newest first, in one query."""
        years: models.QuerySet[Output, str] = (
            self.exclude(released__isnull=True)
            .annotate(year=Substr("released", 1, 4, output_field=models.CharField()))
            .order_by("-year")
            .values_list("year", flat=True)
            .distinct()
        )
        return years

    def for_listing(self) -> "OutputQuerySet":
        """What every list of outputs shows: the creators in order, each with the profile a
        member has (one query for all outputs, whatever their number)."""
        return self.prefetch_related(
            models.Prefetch(
                "creators",
                queryset=OutputCreator.objects.select_related("researcher__profile").order_by(
                    "position"
                ),
            )
        )

    def for_page(self) -> "OutputQuerySet":
        """An output's own page: its creators, and its published related papers, groups and
        areas as `listed_publications`, `listed_groups`, `listed_areas` (one query each)."""
        return (
            self.for_listing()
            .with_filing()
            .prefetch_related(listed_publications("title", "slug", "year", "doi"))
        )


class Output(PublicPage):
    url_name = "outputs:detail"

    class Kind(models.TextChoices):
        DATASET = "dataset", gettext_lazy("Dataset")
        SOFTWARE = "software", gettext_lazy("Software")

    kind = models.CharField(
        max_length=20,
        choices=Kind.choices,
        default=Kind.DATASET,
        help_text="A dataset, or software (code, a library, a tool).",
    )
    title = models.CharField(max_length=500, help_text="As it is cited, e.g. “Klotski traces”.")
    slug = page_slug("The page's address: /outputs/slug/.")
    description = MarkdownField(blank=True, help_text="What it is and how to use it. Markdown.")
    description_html = RenderedMarkdownField(source="description")
    version = models.CharField(
        max_length=50, blank=True, help_text='The version this record describes, e.g. "2.1.0".'
    )
    licence = models.CharField(
        max_length=50,
        blank=True,
        validators=[validate_licence],
        help_text='Its SPDX licence identifier, e.g. "MIT", "Apache-2.0" or "CC-BY-4.0" '
        "(spdx.org/licenses).",
    )
    url = models.URLField(
        "repository or landing page",
        max_length=500,
        blank=True,
        help_text="Where to get it: the code repository, or the dataset's landing page.",
    )
    doi = DoiField(
        "DOI",
        max_length=200,
        help_text='e.g. "10.5281/zenodo.1234567", or its address on doi.org.',
    )
    released = PartialDateField(
        "release date",
        null=True,
        blank=True,
        help_text='As precise as known: "2026", "May 2026" or "25 Jul 2026".',
    )
    publications = models.ManyToManyField(
        Publication,
        blank=True,
        related_name="outputs",
        help_text="The papers it belongs to: each paper's page shows it too.",
    )
    groups = models.ManyToManyField(
        ResearchGroup,
        blank=True,
        related_name="outputs",
        help_text="The research groups it comes from: shown on their pages.",
    )
    areas = models.ManyToManyField(
        ResearchArea,
        blank=True,
        related_name="outputs",
        help_text="The research areas it belongs to: shown on their pages.",
    )

    objects = OutputQuerySet.as_manager()
    history = SiteHistoricalRecords(
        m2m_fields=["publications", "groups", "areas"], excluded_fields=["description_html"]
    )

    class Meta:
        # Newest first, undated last; the slug last so that pages never repeat or skip a row.
        ordering = [models.F("released").desc(nulls_last=True), "title", "slug"]
        verbose_name = "dataset or software"
        verbose_name_plural = "datasets and software"
        indexes = [
            # The list's kind facet counts published outputs by kind.
            models.Index(fields=["kind", "is_published"], name="output_kind_published"),
        ]

    def __str__(self) -> str:
        return self.title

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        # "mit" is MIT: stored as SPDX spells it, before the validator reads it.
        if isinstance(self.licence, str):
            self.licence = canonical_licence(self.licence)
        super().clean_fields(exclude=exclude)

    @property
    def is_software(self) -> bool:
        return self.kind == self.Kind.SOFTWARE

    @property
    def creator_names(self) -> list[str]:
        """Reads the prefetched creators (for_listing): no query."""
        return [creator.researcher.name for creator in self.creators.all()]

    @property
    def year(self) -> int | None:
        return self.released.year if self.released else None


class OutputCreator(CreditRow):
    """One creator of an output, in order: a researcher, the same identity an author row names
    (docs/decisions/researcher-identity.md): a member's profile or someone outside the lab."""

    parent_field = "output"

    output = models.ForeignKey(Output, on_delete=models.CASCADE, related_name="creators")
    position = models.PositiveSmallIntegerField(
        help_text="1 for the first creator, 2 for the next..."
    )
    researcher = credited_researcher(related_name="output_credits")

    class Meta:
        ordering = ["output", "position"]
        verbose_name = "creator"
        constraints = [
            unique_position("output", name="outputcreator_unique_position"),
            # A person is named once among an output's creators.
            models.UniqueConstraint(
                fields=["output", "researcher"], name="outputcreator_once_an_output"
            ),
        ]
        indexes = [
            # A profile's outputs and the creator filter look creator rows up by researcher.
            models.Index(fields=["researcher", "output"], name="outputcreator_researcher"),
        ]
