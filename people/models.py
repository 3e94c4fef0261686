from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from directory.models import OrderedRow, PublicPage, WebLink
from directory.partial_dates import PartialDateField, format_period
from directory.querysets import PublishableQuerySet
from directory.validation import ValidatedModel, validate_initials
from people.avatars import initials_of
from people.names import normalize_name


class RoleGroupQuerySet(models.QuerySet):
    def get_by_natural_key(self, slug):
        return self.get(slug=slug)


class RoleGroup(ValidatedModel):
    """A heading of the people directory: Faculty, Research Scientists, PhD Students, Alumni."""

    name = models.CharField(
        max_length=100, unique=True, help_text='Shown as a heading, e.g. "PhD Students".'
    )
    slug = models.SlugField(
        unique=True, help_text="Used in the directory's address: /people/?group=slug."
    )
    position = models.PositiveSmallIntegerField(
        default=0, help_text="Groups are listed from the smallest number to the largest."
    )
    is_alumni = models.BooleanField(
        default=False, help_text="Former members: listed apart, after the current members."
    )

    objects = RoleGroupQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["is_alumni", "position", "name"]
        verbose_name = "role group"

    def __str__(self):
        return self.name

    def natural_key(self):
        return (self.slug,)


class PersonQuerySet(PublishableQuerySet):
    def drafts_of(self, person):
        return models.Q(pk=person.pk)

    def for_directory(self):
        """Grouped as the directory lists them: by the staff's group order, ungrouped last;
        with the profile links each card shows."""
        return (
            self.select_related("role_group")
            .prefetch_related("links")
            .order_by(
                models.F("role_group__is_alumni").asc(nulls_last=True),
                models.F("role_group__position").asc(nulls_last=True),
                "role_group__name",
                "name",
            )
        )

    def current(self):
        """Without the alumni, who are listed apart."""
        return self.exclude(role_group__is_alumni=True)

    def for_profile(self):
        """Everything a profile page shows, in a fixed number of queries."""
        return self.select_related("role_group").prefetch_related(
            "links", "education", "experience", "teaching", "service", "awards"
        )


class Person(PublicPage):
    url_name = "people:detail"

    name = models.CharField(
        max_length=200,
        # The initials avatar draws two letters: a name that makes more is refused.
        validators=[validate_initials],
        help_text="The name as the person writes it.",
    )
    slug = models.SlugField(unique=True, help_text="The profile's address: /people/slug/.")
    role_group = models.ForeignKey(
        RoleGroup,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="people",
        help_text="The directory heading this person is listed under.",
    )
    position_title = models.CharField(
        max_length=200, blank=True, help_text='The current position, e.g. "Research Scientist".'
    )
    affiliations = models.TextField(
        blank=True, help_text="Current affiliations, one per line, most important first."
    )
    email = models.EmailField(
        blank=True, help_text="Shown in a form people can read but address harvesters cannot."
    )
    research_interests = models.TextField(blank=True, help_text="One interest per line.")
    short_bio = models.TextField(
        blank=True, help_text="One or two sentences for the directory and link previews. Markdown."
    )
    bio = models.TextField(blank=True, help_text="The full biography on the profile. Markdown.")
    photo = models.ImageField(
        upload_to="people/",
        blank=True,
        help_text=(
            "A portrait: JPEG, PNG or WebP. It is stored re-encoded, without the file's "
            "metadata (camera, GPS position)."
        ),
    )
    # Square crops people.photos.save_photo makes with the photo: for the directory's cards
    # and the profile page. Empty for a photo stored before they existed.
    photo_thumbnail = models.ImageField(upload_to="people/", blank=True, editable=False)
    photo_thumbnail_large = models.ImageField(upload_to="people/", blank=True, editable=False)
    photo_alt = models.CharField(
        max_length=300, blank=True, help_text="Describes the photo for people who cannot see it."
    )
    aliases = models.TextField(
        blank=True,
        help_text=(
            "Other spellings of the name found in author lists, one per line "
            '(e.g. "H. Zhu"). Used to link publications to this person.'
        ),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="person",
        verbose_name="login",
        help_text=(
            "The staff login that may edit this profile and this person's publications. "
            "Put the login in the Members group. Only editors can change this."
        ),
    )

    objects = PersonQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "people"
        constraints = [
            # Every image on the site has alt text: a photo without it cannot be saved.
            models.CheckConstraint(
                condition=models.Q(photo="") | ~models.Q(photo_alt=""),
                name="person_photo_has_alt_text",
                violation_error_message="Describe the photo in its alt text.",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_alumnus(self) -> bool:
        """Reads the role group: select it with the person (for_directory does)."""
        return self.role_group is not None and self.role_group.is_alumni

    @property
    def initials(self) -> str:
        return initials_of(self.name)

    @property
    def thumbnail_url(self) -> str:
        """The photo as a card shows it; the photo itself when it has no thumbnail yet."""
        return (self.photo_thumbnail or self.photo).url

    @property
    def large_thumbnail_url(self) -> str:
        """The photo as the profile shows it; the photo itself when it has no thumbnail yet."""
        return (self.photo_thumbnail_large or self.photo).url

    @property
    def affiliation_list(self) -> list[str]:
        return _lines(self.affiliations)

    @property
    def interest_list(self) -> list[str]:
        return _lines(self.research_interests)

    @property
    def alias_list(self) -> list[str]:
        return _lines(self.aliases)

    def name_keys(self) -> set[str]:
        """The normalized names an author entry must equal to be this person."""
        return {normalize_name(name) for name in [self.name, *self.alias_list]} - {""}


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


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
        constraints = [
            models.UniqueConstraint(
                fields=["person", "position"], name="%(app_label)s_%(class)s_unique_position"
            ),
        ]

    def natural_key(self):
        return super().natural_key()

    natural_key.dependencies = ["people.person"]  # type: ignore[attr-defined]

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

    def __str__(self):
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

    def __str__(self):
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

    def __str__(self):
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
        return str(self.date or "")


class Service(DatedEntry):
    role = models.CharField(max_length=200, help_text='e.g. "Technical program committee".')
    details = models.CharField(max_length=300, blank=True, help_text='e.g. "NSDI\'25".')

    class Meta(DatedEntry.Meta):
        verbose_name_plural = "service"

    def __str__(self):
        return self.role


class Award(DatedEntry):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="awards")
    title = models.CharField(max_length=300)
    details = models.CharField(max_length=500, blank=True)

    def __str__(self):
        return self.title


class PersonLink(ProfileEntry, WebLink):
    class Kind(models.TextChoices):
        HOMEPAGE = "homepage", "Homepage"
        GITHUB = "github", "GitHub"
        SCHOLAR = "scholar", "Google Scholar"
        LINKEDIN = "linkedin", "LinkedIn"
        ORCID = "orcid", "ORCID"
        DBLP = "dblp", "DBLP"
        SOCIAL = "social", "Social media"
        OTHER = "other", "Other"

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.HOMEPAGE)

    class Meta(ProfileEntry.Meta):
        verbose_name = "link"
