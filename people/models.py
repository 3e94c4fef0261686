from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.lookups import GreaterThanOrEqual, IsNull, LessThanOrEqual
from simple_history.models import HistoricalRecords

from directory.identifiers import (
    ORCID_EXAMPLE,
    OrcidField,
    orcid_url,
    validate_orcid,  # noqa: F401  (named by migration 0010)
)
from directory.markdown import MarkdownField, RenderedMarkdownField
from directory.models import OrderedRow, PublicPage, WebLink
from directory.partial_dates import (
    PartialDateField,
    ends_after_it_starts,
    format_period,
    year_of,
)
from directory.querysets import PublishableQuerySet, SiteQuerySet
from directory.validation import ValidatedModel, validate_initials, validate_visible_name
from people.avatars import initials_of
from people.names import normalize_name


class RoleGroupQuerySet(SiteQuerySet):
    def get_by_natural_key(self, slug):
        return self.get(slug=slug)


class RoleGroup(ValidatedModel):
    """A heading of the people directory: Faculty, Research Scientists, PhD Students, Alumni."""

    name = models.CharField(
        max_length=100, unique=True, help_text='Shown as a heading, e.g. "PhD Students".'
    )
    slug = models.SlugField(
        "web address (slug)",
        unique=True,
        help_text="Used in the directory's address: /people/?role=slug.",
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
        verbose_name = "directory section"

    def __str__(self):
        return self.name

    def natural_key(self):
        return (self.slug,)


class ResearchArea(PublicPage):
    """A topic staff name ("Networked systems"), linking the people, groups and papers in it.

    Unlike a person's free-text research interests, an area is one row many rows point at, so
    it has a page of its own and filters the directory and the publication list.
    """

    url_name = "areas:detail"

    name = models.CharField(
        max_length=100, unique=True, help_text='As a heading, e.g. "Machine learning systems".'
    )
    slug = models.SlugField(
        unique=True,
        help_text="The area's address: /areas/slug/, and its filter value.",
    )
    description = MarkdownField(blank=True, help_text="Shown on the area's page. Markdown.")
    description_html = RenderedMarkdownField(source="description")

    objects = PublishableQuerySet.as_manager()
    history = HistoricalRecords(excluded_fields=["description_html"])

    class Meta:
        ordering = ["name"]
        verbose_name = "research area"

    def __str__(self):
        return self.name


class PersonQuerySet(PublishableQuerySet):
    def drafts_of(self, person):
        return models.Q(pk=person.pk)

    def for_directory(self):
        """Grouped as the directory lists them: by the staff's group order, ungrouped last;
        with the profile links each card shows, and the alumni record for "Now at …"."""
        return (
            self.select_related("role_group", "departure")
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

    def in_groups(self, groups):
        """The current members of `groups` (a ResearchGroup or several)."""
        groups = [groups] if isinstance(groups, ResearchGroup) else groups
        return self.filter(
            pk__in=Membership.objects.current().filter(group__in=groups).values("person")
        )

    def former_members_of(self, group):
        """A group's alumni: people whose membership ended and who are not members again."""
        memberships = Membership.objects.filter(group=group)
        return self.filter(pk__in=memberships.former().values("person")).exclude(
            pk__in=memberships.current().values("person")
        )

    def in_areas(self, areas):
        """The people staff filed under any of `areas` (a ResearchArea or several)."""
        areas = [areas] if isinstance(areas, ResearchArea) else areas
        through = Person.research_areas.through.objects.filter(researcharea__in=areas)
        return self.filter(pk__in=through.values("person"))

    def for_profile(self):
        """Everything a profile page shows, in a fixed number of queries: one per prefetch."""
        return self.select_related("role_group", "departure").prefetch_related(
            "links",
            "education",
            "experience",
            "teaching",
            "service",
            "awards",
            models.Prefetch(
                "advisors",
                queryset=Advising.objects.select_related("advisor", "external_advisor", "degree"),
            ),
            models.Prefetch(
                "students",
                queryset=Advising.objects.filter(advisee__is_published=True)
                .select_related("advisee", "degree")
                .order_by("advisee__name"),
            ),
            models.Prefetch(
                "collaborations",
                queryset=Collaboration.objects.select_related(
                    "collaborator", "external_collaborator"
                ),
            ),
            models.Prefetch(
                "memberships",
                queryset=Membership.objects.filter(group__is_published=True)
                .select_related("group")
                .order_by(models.F("end").desc(nulls_first=True), "group__name"),
            ),
            models.Prefetch("research_areas", queryset=ResearchArea.objects.published()),
        )


# A person has a few spellings of their name; linking asks the database for each, so a list of
# thousands (pasted by mistake, or on purpose) would make every save of the person fail.
MAX_ALIASES = 50
MAX_ALIAS_LENGTH = 200


def validate_aliases(text: str) -> None:
    aliases = _lines(text)
    if len(aliases) > MAX_ALIASES:
        raise ValidationError(
            f"At most {MAX_ALIASES} aliases, one per line; this has {len(aliases):,}. "
            "Keep the spellings author lists really print."
        )
    if too_long := [alias for alias in aliases if len(alias) > MAX_ALIAS_LENGTH]:
        raise ValidationError(
            f"An alias is a name of at most {MAX_ALIAS_LENGTH} characters; "
            f"“{too_long[0][:40]}…” has {len(too_long[0]):,}."
        )
    for number, alias in enumerate(aliases, start=1):
        try:
            validate_visible_name(alias)
        except ValidationError as refused:
            raise ValidationError(f"Alias {number}: {refused.message}") from None


class KnownByNames:
    """A member or an external person: whom an author line's printed name may stand for."""

    name: str
    aliases: str

    @property
    def alias_list(self) -> list[str]:
        return _lines(self.aliases)

    def name_keys(self) -> set[str]:
        """The normalized names an author entry must equal to be this person."""
        return {normalize_name(name) for name in [self.name, *self.alias_list]} - {""}

    @property
    def described(self) -> str:
        """Who this is, told apart from namesakes, in a sentence for staff."""
        raise NotImplementedError


class Person(KnownByNames, PublicPage):
    url_name = "people:detail"

    name = models.CharField(
        max_length=200,
        # The initials avatar draws two letters: a name that makes more is refused.
        validators=[validate_initials, validate_visible_name],
        help_text="The name as the person writes it.",
    )
    slug = models.SlugField(
        "web address (slug)",
        unique=True,
        help_text="The profile's address: /people/slug/.",
    )
    role_group = models.ForeignKey(
        RoleGroup,
        verbose_name="directory section",
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
    orcid = OrcidField(
        "ORCID iD",
        help_text=f'e.g. "{ORCID_EXAMPLE}", or its address on orcid.org. Shown on the profile '
        "and in the site's data, so other sites can tell this person from namesakes.",
    )
    research_interests = models.TextField(blank=True, help_text="One interest per line.")
    research_areas = models.ManyToManyField(
        ResearchArea,
        blank=True,
        related_name="people",
        help_text="The department's research areas this person works in, listed on both pages.",
    )
    short_bio = MarkdownField(
        blank=True, help_text="One or two sentences for the directory and link previews. Markdown."
    )
    short_bio_html = RenderedMarkdownField(source="short_bio")
    bio = MarkdownField(blank=True, help_text="The full biography on the profile. Markdown.")
    bio_html = RenderedMarkdownField(source="bio")
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
    # The portraits at 1x, 2x and 3x in AVIF, WebP and JPEG (people.photos.PORTRAIT_SIZES):
    # {"card": {"webp": [name at 1x, at 2x, at 3x], ...}, "profile": {...}}. Empty for a photo
    # stored before they existed, which shows its thumbnails instead.
    photo_renditions = models.JSONField(default=dict, blank=True, editable=False)
    photo_alt = models.CharField(
        "photo description for screen readers",
        max_length=300,
        blank=True,
        help_text="Describes the photo for people who cannot see it.",
    )
    aliases = models.TextField(
        blank=True,
        validators=[validate_aliases],
        help_text=(
            "Other spellings of the name found in author lists, one per line "
            '(e.g. "H. Zhu"). Used to link publications to this person. An alias another '
            "person goes by is refused."
        ),
    )
    pending_aliases = models.TextField(
        "aliases waiting for an editor",
        blank=True,
        validators=[validate_aliases],
        help_text=(
            "Spellings the member added, one per line: publications are linked by them once an "
            "editor accepts them. Editors delete the lines they do not accept."
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
            "The login that may edit this profile and this person's publications. Saving "
            "gives it staff status and the Member logins group, which it needs to sign in. "
            "Only editors can change this."
        ),
    )

    objects = PersonQuerySet.as_manager()
    history = HistoricalRecords(
        m2m_fields=["research_areas"], excluded_fields=["short_bio_html", "bio_html"]
    )

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
            # An ORCID iD names one person: a second profile with it is the same person twice.
            models.UniqueConstraint(
                fields=["orcid"],
                condition=~models.Q(orcid=""),
                name="person_orcid_unique",
                violation_error_message="Another profile has this ORCID iD.",
            ),
        ]

    def cache_scopes(self) -> set[str]:
        """What a write of this person may change on public pages (directory/caches.py): their
        profile, every list naming people, and the entries of their papers (one query)."""
        papers = self.authorships.values_list("publication_id", flat=True)
        return {
            f"person:{self.pk}",
            f"papers-of:{self.pk}",
            "people",
            "publications",
            *(f"paper:{paper}" for paper in papers),
        }

    def __str__(self):
        return self.name

    @property
    def described(self) -> str:
        # The profile's address tells two members of one name apart.
        draft = "" if self.is_published else " (draft)"
        return f"{self.name}, member at {self.get_absolute_url()}{draft}"

    @property
    def pending_alias_list(self) -> list[str]:
        return _lines(self.pending_aliases)

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
    def orcid_url(self) -> str:
        return orcid_url(self.orcid)

    @property
    def alumni_record(self) -> "Departure | None":
        """The alumni record, or None. Select it with the person (for_directory does)."""
        try:
            return self.departure
        except Departure.DoesNotExist:
            return None

    @property
    def current_memberships(self) -> list["Membership"]:
        """Reads the prefetched memberships (for_profile)."""
        return [membership for membership in self.memberships.all() if membership.end is None]

    @property
    def student_groups(self) -> list[tuple[str, list["Advising"]]]:
        """ "Current" and "Graduated" students, from the prefetched students (for_profile)."""
        students = self.students.all()
        return [
            ("Current", [advising for advising in students if advising.is_current]),
            ("Graduated", [advising for advising in students if not advising.is_current]),
        ]

    @property
    def affiliation_list(self) -> list[str]:
        return _lines(self.affiliations)

    @property
    def interest_list(self) -> list[str]:
        return _lines(self.research_interests)


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


# The department: research groups and who is in them, people outside the lab as records of
# their own, advising, the collaborators a profile names, and where alumni went. A one-lab
# site may have none of these rows; every page then shows what it showed before.


class ResearchGroupQuerySet(PublishableQuerySet):
    def for_index(self):
        """With `member_count` (current, published members, each counted once),
        `current_leaders` and `published_areas`: one query for the groups, one for all their
        leaders, one for all their areas."""
        current_published = models.Q(
            memberships__end__isnull=True, memberships__person__is_published=True
        )
        return self.annotate(
            member_count=models.Count(
                "memberships__person", filter=current_published, distinct=True
            )
        ).prefetch_related(
            models.Prefetch(
                "memberships",
                queryset=Membership.objects.current()
                .filter(role=Membership.Role.LEADER, person__is_published=True)
                .select_related("person")
                .order_by("person__name"),
                to_attr="current_leaders",
            ),
            models.Prefetch(
                "areas", queryset=ResearchArea.objects.published(), to_attr="published_areas"
            ),
        )


class ResearchGroup(PublicPage):
    """A research group of the department: its page lists its people by role, their papers
    while they were members, its news and its alumni."""

    url_name = "groups:detail"

    name = models.CharField(max_length=200, unique=True, help_text='e.g. "Networked Systems".')
    slug = models.SlugField(
        unique=True, help_text="The group's address: /groups/slug/, and its filter value."
    )
    short_description = models.CharField(
        max_length=300, blank=True, help_text="One sentence for the list of groups."
    )
    description = MarkdownField(blank=True, help_text="The group's page. Markdown.")
    description_html = RenderedMarkdownField(source="description")
    position = models.PositiveSmallIntegerField(
        default=0, help_text="Groups are listed from the smallest number to the largest."
    )
    areas = models.ManyToManyField(
        ResearchArea,
        blank=True,
        related_name="groups",
        help_text="The research areas the group works in.",
    )

    objects = ResearchGroupQuerySet.as_manager()
    history = HistoricalRecords(m2m_fields=["areas"], excluded_fields=["description_html"])

    class Meta:
        ordering = ["position", "name"]
        verbose_name = "research group"

    def __str__(self):
        return self.name


def covers_year(year, *, prefix: str = "") -> models.Q:
    """Memberships under way at some time in `year` (an expression, e.g. a paper's year):
    begun in or before it (or at an unknown time) and not ended before it. `prefix` is the
    path to the memberships from the filtered model ("person__memberships__"); use the Q in
    the same filter() as the path's other conditions, so they speak of one membership.

    Compared by year, the precision every paper has. A paper without a year counts for the
    memberships still under way: a preprint is the current members' work.
    """
    start, end = f"{prefix}start", f"{prefix}end"
    begun = models.Q(**{f"{start}__isnull": True}) | models.Q(LessThanOrEqual(year_of(start), year))
    not_ended = models.Q(**{f"{end}__isnull": True}) | models.Q(
        GreaterThanOrEqual(year_of(end), year)
    )
    still_under_way = models.Q(IsNull(year, True)) & models.Q(**{f"{end}__isnull": True})
    return (begun & not_ended) | still_under_way


class MembershipQuerySet(SiteQuerySet):
    def current(self):
        """Under way: no end date yet."""
        return self.filter(end__isnull=True)

    def former(self):
        return self.filter(end__isnull=False)

    def listed(self):
        """The current memberships of published people, as a group's page and the API list
        them: by role in Membership.Role's order (leaders first), then by name."""
        role_order = models.Case(
            *[
                models.When(role=role, then=models.Value(number))
                for number, role in enumerate(Membership.Role.values)
            ],
            output_field=models.IntegerField(),
        )
        return (
            self.current()
            .filter(person__is_published=True)
            .order_by(role_order, "person__name", "person__slug")
        )


class Membership(ValidatedModel):
    """A person's place in a research group: their role there and when, as precise as known.

    A person may be in several groups, and in one group again later (a new row).
    """

    class Role(models.TextChoices):
        # In the order a group's page lists them.
        LEADER = "leader", "Group leader"
        FACULTY = "faculty", "Faculty"
        RESEARCHER = "researcher", "Researcher"
        POSTDOC = "postdoc", "Postdoctoral researcher"
        PHD_STUDENT = "phd-student", "PhD student"
        MASTERS_STUDENT = "masters-student", "Master’s student"
        UNDERGRADUATE = "undergraduate", "Undergraduate student"
        STAFF = "staff", "Staff"
        VISITOR = "visitor", "Visitor"

    group = models.ForeignKey(ResearchGroup, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(
        max_length=20,
        choices=Role.choices,
        default=Role.PHD_STUDENT,
        help_text="Group leaders are named on the list of groups.",
    )
    start = PartialDateField(null=True, blank=True, help_text="When they joined, if known.")
    end = PartialDateField(
        null=True,
        blank=True,
        help_text="When they left. Empty while they are a member; once set, they are the "
        "group's alumni.",
    )

    objects = MembershipQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["group", "start"]
        constraints = [
            # A group's page and its member counts list each current member once, in one role.
            models.UniqueConstraint(
                fields=["group", "person"],
                condition=models.Q(end__isnull=True),
                name="membership_one_current_per_group_and_person",
                violation_error_message="This person is already a current member of the group: "
                "end that membership first.",
            ),
            # "Papers of its members while they were members" compares a paper's year with
            # the period: a period ending before it starts would hide every paper.
            ends_after_it_starts(
                name="membership_ends_after_it_starts",
                message="A membership cannot end before it starts.",
            ),
        ]

    def __str__(self):
        return f"{self.person} in {self.group} ({self.get_role_display()})"

    @property
    def period(self) -> str:
        return format_period(self.start, self.end, self.end is None)


class ExternalPersonQuerySet(SiteQuerySet):
    def get_by_natural_key(self, slug):
        return self.get(slug=slug)


class ExternalPerson(KnownByNames, ValidatedModel):
    """Someone outside the lab (an advisor, a co-author) as a record of their own.

    Author rows printed with their name or an alias link to the record exactly as they link
    to members: only when no other record or member has that name (publications/services.py).
    Staff create records; nothing creates one for every unknown author.
    """

    name = models.CharField(
        max_length=200,
        validators=[validate_visible_name],
        help_text="The name as author lists print it.",
    )
    slug = models.SlugField(
        max_length=200, unique=True, help_text="Names the record in the seeded data and exports."
    )
    aliases = models.TextField(
        blank=True,
        validators=[validate_aliases],
        help_text="Other spellings of the name found in author lists, one per line. Used to "
        "link author rows to this record.",
    )
    affiliation = models.CharField(
        max_length=300, blank=True, help_text="Where they work, when known."
    )
    # The same field as a member's: the same pasted forms accepted, the same check.
    orcid = OrcidField("ORCID", help_text=f'e.g. "{ORCID_EXAMPLE}", or its address on orcid.org.')
    dblp = models.CharField(
        "dblp identifier",
        max_length=100,
        blank=True,
        validators=[
            RegexValidator(
                r"^[\w-]+(/[\w.-]+)+$", 'Write the part after "dblp.org/pid/", e.g. "84/2427".'
            )
        ],
        help_text='The part of the dblp address after "dblp.org/pid/", e.g. "84/2427".',
    )
    homepage = models.URLField(blank=True)

    objects = ExternalPersonQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "slug"]
        verbose_name = "external person"
        verbose_name_plural = "external people"
        constraints = [
            # An identifier names one person: two records sharing one are one person to merge,
            # and the BibTeX import and merges look records up by them.
            models.UniqueConstraint(
                fields=["orcid"],
                condition=~models.Q(orcid=""),
                name="externalperson_orcid_unique",
                violation_error_message="Another record has this ORCID: merge the two instead.",
            ),
            models.UniqueConstraint(
                fields=["dblp"],
                condition=~models.Q(dblp=""),
                name="externalperson_dblp_unique",
                violation_error_message="Another record has this dblp identifier: merge the two "
                "instead.",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.affiliation})" if self.affiliation else self.name

    @property
    def described(self) -> str:
        return f"{self}, external person"

    def natural_key(self):
        return (self.slug,)

    @property
    def url(self) -> str:
        """Where their name links to, when the record knows: homepage, ORCID or dblp."""
        if self.homepage:
            return self.homepage
        if self.orcid:
            return f"https://orcid.org/{self.orcid}"
        if self.dblp:
            return f"https://dblp.org/pid/{self.dblp}"
        return ""


def member_or_external(*, member: str, external: str, name: str) -> models.CheckConstraint:
    """Exactly one of two foreign keys is set: the row names a member or an external person."""
    return models.CheckConstraint(
        condition=models.Q(**{f"{member}__isnull": False, f"{external}__isnull": True})
        | models.Q(**{f"{member}__isnull": True, f"{external}__isnull": False}),
        name=name,
        violation_error_message="Choose a member or an external person: one, not both.",
    )


class Advising(OrderedRow):
    """Who advises (or advised) a member, in the order their profile names them.

    The advisor is a member or an external person. Dates are often unknown: `degree` ties
    the advising to the advisee's degree ("advised by Prof. Xin Jin" during a Ph.D.), whose
    period the profile then shows.
    """

    class Kind(models.TextChoices):
        ADVISOR = "advisor", "Advisor"
        CO_ADVISOR = "co-advisor", "Co-advisor"
        SUPERVISOR = "supervisor", "Supervisor"
        MENTOR = "mentor", "Mentor"

    parent_field = "advisee"

    advisee = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="advisors")
    advisor = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="students",
        help_text="The advisor, when a member. Leave empty for someone outside the lab.",
    )
    external_advisor = models.ForeignKey(
        ExternalPerson,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="students",
        help_text="The advisor, when outside the lab.",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.ADVISOR)
    degree = models.ForeignKey(
        Education,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="advisings",
        help_text="The advisee's degree this advising was part of, if any.",
    )
    start = PartialDateField(null=True, blank=True, help_text="Only when known.")
    end = PartialDateField(null=True, blank=True, help_text="Only when known.")
    is_current = models.BooleanField(
        default=True,
        help_text="Still under way. Untick when the student graduated or the advising ended.",
    )

    class Meta:
        ordering = ["advisee", "position"]
        verbose_name = "advising link"
        constraints = [
            # The natural key of the seeded rows: the advisee and the order named.
            models.UniqueConstraint(
                fields=["advisee", "position"], name="advising_unique_position"
            ),
            # "Advised by …" and "Students" name the advisor from one of the two keys.
            member_or_external(
                member="advisor", external="external_advisor", name="advising_one_advisor"
            ),
            models.CheckConstraint(
                condition=~models.Q(advisor=models.F("advisee")),
                name="advising_advisor_is_not_the_advisee",
                violation_error_message="Nobody advises themselves.",
            ),
            ends_after_it_starts(
                name="advising_ends_after_it_starts",
                message="An advising cannot end before it starts.",
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} of {self.advisee}: {self.advisor_record}"

    def natural_key(self):
        return super().natural_key()

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "people.person",
        "people.externalperson",
        "people.education",
    ]

    @property
    def advisor_record(self) -> "Person | ExternalPerson | None":
        return self.advisor or self.external_advisor

    @property
    def period(self) -> str:
        """Its own dates, "" without them: never its degree's, which a source gives for the
        degree, not for the advising (a student may change advisors during a degree)."""
        if self.start or self.end:
            return format_period(self.start, self.end, self.is_current)
        return ""

    def clean(self):
        degree = self.degree
        if degree is not None and self.advisee_id and degree.person_id != self.advisee_id:
            raise ValidationError({"degree": "Choose one of the advisee's own degrees."})


class Collaboration(OrderedRow):
    """A close collaborator a profile names ("I also work closely with …"), a member or an
    external person. The papers they share are counted apart, from the author rows."""

    parent_field = "person"

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="collaborations")
    collaborator = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="collaborator_of",
        help_text="The collaborator, when a member.",
    )
    external_collaborator = models.ForeignKey(
        ExternalPerson,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="collaborations",
        help_text="The collaborator, when outside the lab.",
    )

    class Meta:
        ordering = ["person", "position"]
        verbose_name = "close collaborator"
        constraints = [
            models.UniqueConstraint(
                fields=["person", "position"], name="collaboration_unique_position"
            ),
            # The profile names the collaborator from one of the two keys.
            member_or_external(
                member="collaborator",
                external="external_collaborator",
                name="collaboration_one_collaborator",
            ),
            models.CheckConstraint(
                condition=~models.Q(collaborator=models.F("person")),
                name="collaboration_not_with_oneself",
                violation_error_message="Choose someone else.",
            ),
        ]

    def __str__(self):
        return f"{self.person} works closely with {self.collaborator_record}"

    def natural_key(self):
        return super().natural_key()

    natural_key.dependencies = ["people.person", "people.externalperson"]  # type: ignore[attr-defined]

    @property
    def collaborator_record(self) -> "Person | ExternalPerson | None":
        return self.collaborator or self.external_collaborator


class Departure(ValidatedModel):
    """What the site knows of an alumnus: the role they left, when, where they went next and
    their thesis. Their directory card reads "Now at …" from `next_position`."""

    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="departure")
    last_role = models.CharField(
        max_length=200, help_text='Their role when they left, e.g. "Ph.D. Student".'
    )
    left = PartialDateField(
        "date left", null=True, blank=True, help_text="As precise as known; empty if unknown."
    )
    next_position = models.CharField(
        max_length=300,
        blank=True,
        help_text='Where they went next, e.g. "NVIDIA Research (Research Scientist)": the '
        'directory shows "Now at …".',
    )
    thesis_title = models.CharField(max_length=500, blank=True)
    thesis_url = models.URLField("thesis URL", blank=True)

    objects = SiteQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = "alumni record"
        constraints = [
            # A thesis link needs its title: the profile shows the title as the link's text.
            models.CheckConstraint(
                condition=models.Q(thesis_url="") | ~models.Q(thesis_title=""),
                name="departure_thesis_link_has_a_title",
                violation_error_message="Give the thesis title with its link.",
            ),
        ]

    def __str__(self):
        return f"{self.person} left as {self.last_role}"


class IdentityChange(ValidatedModel):
    """One merge of two external people, or one split of author rows off a record: what it
    moved, so it can be undone exactly (people/services.py).

    Every row it changed is also in that row's own history, with this change as the reason.
    """

    class Kind(models.TextChoices):
        MERGE = "merge", "Merge"
        SPLIT = "split", "Split"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    summary = models.CharField(max_length=500)
    # The log outlives the records it names (a merge deletes one; its undo recreates it with
    # the same id), so these keep the id without a database constraint. Their reverse
    # relations are hidden ("+"): a merge moves every row that points at a record, but not
    # this log's.
    record = models.ForeignKey(
        ExternalPerson,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        related_name="+",
        help_text="A merge: the record kept. A split: the record the rows were taken from.",
    )
    other = models.ForeignKey(
        ExternalPerson,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        related_name="+",
        help_text="A split: the record the rows went to.",
    )
    # A merge deletes the other record; undoing it recreates the record from this.
    other_snapshot = models.JSONField(default=dict, blank=True)
    other_was_created = models.BooleanField(default=False)
    # {"publications.authorship": {"field": "external", "ids": [...]}, ...}
    moved = models.JSONField(default=dict)
    # The kept record's fields a merge filled in (aliases, identifiers), as they were before.
    record_before = models.JSONField(default=dict, blank=True)
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = SiteQuerySet.as_manager()

    class Meta:
        ordering = ["-made_at", "-pk"]
        verbose_name = "merge or split"
        verbose_name_plural = "merges and splits"

    def __str__(self):
        return self.summary

    @property
    def moved_count(self) -> int:
        return sum(len(rows["ids"]) for rows in self.moved.values())
