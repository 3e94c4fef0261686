"""The rows of a profile's CV sections, each kept in the order staff give it."""

from django.db import models
from django.utils.translation import gettext_lazy

from base.models import OrderedRow, WebLink, unique_position
from base.partial_dates import (
    PartialDateField,
    format_period,
)
from people.models.profile import Person


class ProfileEntry(OrderedRow):
    """One line of a profile's CV sections, kept in the order staff give it.

    Every section prints its entries the same way (templates/includes/cv_section.html): what
    it is (`headline`), when, and `notes`; each kind says which of its fields are which.
    """

    parent_field = "person"
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="%(class)s")

    class Meta:
        abstract = True
        ordering = ["person", "position"]
        constraints = [unique_position("person", name="%(app_label)s_%(class)s_unique_position")]

    @property
    def headline(self) -> str:
        return str(self)

    @property
    def when(self) -> str:
        return ""

    @property
    def notes(self) -> list[str]:
        """The entry's `details`, for the kinds that have them."""
        details = getattr(self, "details", "")
        return [details] if details else []


class PeriodEntry(ProfileEntry):
    start = PartialDateField(null=True, blank=True)
    end = PartialDateField(null=True, blank=True)
    is_current = models.BooleanField(
        default=False, help_text='Still ongoing: shown as "… – Present".'
    )

    class Meta(ProfileEntry.Meta):
        abstract = True

    @property
    def period(self) -> str:
        return format_period(self.start, self.end, self.is_current)

    @property
    def when(self) -> str:
        return self.period


class Education(PeriodEntry):
    degree = models.CharField(max_length=200, blank=True, help_text='e.g. "Ph.D." or "B.E."')
    field = models.CharField(
        max_length=200,
        blank=True,
        help_text='e.g. "Computer Science" or "Department of Automation".',
    )
    institution = models.CharField(max_length=200)
    details = models.CharField(
        max_length=300, blank=True, help_text='e.g. "Advised by Prof. Xin Jin".'
    )

    class Meta(PeriodEntry.Meta):
        verbose_name_plural = "education"

    def __str__(self) -> str:
        return ", ".join(part for part in [self.degree, self.field, self.institution] if part)

    @property
    def headline(self) -> str:
        """ "Ph.D. in Computer Science, University of Pennsylvania"."""
        degree = f"{self.degree} in {self.field}" if self.degree and self.field else self.degree
        return ", ".join(part for part in [degree, self.institution] if part)


class Experience(PeriodEntry):
    title = models.CharField(max_length=200, help_text='The role, e.g. "Research Intern".')
    organization = models.CharField(max_length=200)
    location = models.CharField(max_length=200, blank=True)
    description = models.CharField(max_length=500, blank=True)

    class Meta(PeriodEntry.Meta):
        verbose_name_plural = "experience"

    def __str__(self) -> str:
        return f"{self.title}, {self.organization}"

    @property
    def notes(self) -> list[str]:
        return [note for note in [self.location, self.description] if note]


class Teaching(ProfileEntry):
    role = models.CharField(max_length=200, help_text='e.g. "Teaching Assistant".')
    course = models.CharField(max_length=300, help_text="Course number and title.")
    institution = models.CharField(max_length=200, blank=True)
    term = models.CharField(max_length=100, blank=True, help_text='e.g. "Fall 2019".')

    class Meta(ProfileEntry.Meta):
        verbose_name_plural = "teaching"

    def __str__(self) -> str:
        return self.course

    @property
    def when(self) -> str:
        return self.term

    @property
    def notes(self) -> list[str]:
        return [", ".join(part for part in [self.role, self.institution] if part)]


class DatedEntry(ProfileEntry):
    date = PartialDateField(null=True, blank=True)

    class Meta(ProfileEntry.Meta):
        abstract = True

    @property
    def when(self) -> str:
        return self.date.display() if self.date else ""


class Service(DatedEntry):
    role = models.CharField(max_length=200, help_text='e.g. "Technical program committee".')
    details = models.CharField(max_length=300, blank=True, help_text='e.g. "NSDI\'25".')

    class Meta(DatedEntry.Meta):
        verbose_name_plural = "service"

    def __str__(self) -> str:
        return self.role


class Award(DatedEntry):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="awards")
    title = models.CharField(max_length=300)
    details = models.CharField(max_length=500, blank=True)

    def __str__(self) -> str:
        return self.title


class PersonLink(ProfileEntry, WebLink):
    class Kind(models.TextChoices):
        HOMEPAGE = "homepage", gettext_lazy("Homepage")
        GITHUB = "github", "GitHub"
        SCHOLAR = "scholar", "Google Scholar"
        LINKEDIN = "linkedin", "LinkedIn"
        ORCID = "orcid", "ORCID"
        DBLP = "dblp", "DBLP"
        SOCIAL = "social", gettext_lazy("Social media")
        OTHER = "other", gettext_lazy("Other")

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.HOMEPAGE)

    class Meta(ProfileEntry.Meta):
        verbose_name = "link"
