"""The department: research groups and memberships, advising, the collaborators a profile
names, and where alumni went."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import Combinable
from django.db.models.lookups import GreaterThanOrEqual, IsNull, LessThanOrEqual
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from base.history_records import SiteHistoricalRecords
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import Illustrated, OrderedRow, PublicPage, image_has_alt_text, unique_position
from base.partial_dates import (
    PartialDateField,
    ends_after_it_starts,
    format_period,
    year_of,
)
from base.querysets import PublishableQuerySet, SiteQuerySet
from base.renditions import Shape
from base.translations import markdown_translation, text_translation
from base.validation import ValidatedModel
from people.models.cv import Education
from people.models.identities import ExternalPerson, Researcher, member_or_outsider
from people.models.profile import Person, ResearchArea

# The department: research groups and who is in them, people outside the lab as records of
# their own, advising, the collaborators a profile names, and where alumni went. A one-lab
# site may have none of these rows; every page then shows what it showed before.


class ResearchGroupQuerySet(PublishableQuerySet):
    def for_index(self) -> "ResearchGroupQuerySet":
        """With `member_count` (current, published members, each counted once),
        `current_leaders` and `published_areas`: one query for the groups, one for all their
        leaders, one for all their areas."""
        current_published = models.Q(
            memberships__end__isnull=True, memberships__person__is_published=True
        )
        groups: ResearchGroupQuerySet = self.annotate(
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
        return groups


class ResearchGroup(PublicPage, Illustrated):
    """A research group of the department: its page lists its people by role, their papers
    while they were members, its news and its alumni."""

    url_name = "groups:detail"
    # A picture atop the group's card in the list, and a wide one atop its page.
    image_shapes = {"card": Shape(336, 168), "header": Shape(960, 320)}
    image_folder = "groups"

    name = models.CharField(max_length=200, unique=True, help_text='e.g. "Networked Systems".')
    slug = models.SlugField(
        unique=True, help_text="The group's address: /groups/slug/, and its filter value."
    )
    short_description = models.CharField(
        max_length=300, blank=True, help_text="One sentence for the list of groups."
    )
    name_zh_hans = text_translation("name", max_length=200)
    short_description_zh_hans = text_translation("short description", max_length=300)
    description = MarkdownField(blank=True, help_text="The group's page. Markdown.")
    description_html = RenderedMarkdownField(source="description")
    description_zh_hans = markdown_translation("description")
    description_html_zh_hans = RenderedMarkdownField(source="description_zh_hans")
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
    history = SiteHistoricalRecords(
        m2m_fields=["areas"], excluded_fields=["description_html", "description_html_zh_hans"]
    )

    class Meta:
        ordering = ["position", "name"]
        verbose_name = "research group"
        constraints = [image_has_alt_text("researchgroup_image_has_alt_text")]

    def __str__(self) -> str:
        return self.name


def covers_year(year: Combinable, *, prefix: str = "") -> models.Q:
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
    def current(self) -> "MembershipQuerySet":
        """Under way: no end date yet."""
        return self.filter(end__isnull=True)

    def former(self) -> "MembershipQuerySet":
        return self.filter(end__isnull=False)

    def listed(self) -> "MembershipQuerySet":
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
        LEADER = "leader", gettext_lazy("Group leader")
        FACULTY = "faculty", gettext_lazy("Faculty")
        RESEARCHER = "researcher", gettext_lazy("Researcher")
        POSTDOC = "postdoc", gettext_lazy("Postdoctoral researcher")
        PHD_STUDENT = "phd-student", gettext_lazy("PhD student")
        MASTERS_STUDENT = "masters-student", gettext_lazy("Master’s student")
        UNDERGRADUATE = "undergraduate", gettext_lazy("Undergraduate student")
        STAFF = "staff", gettext_lazy("Staff")
        VISITOR = "visitor", gettext_lazy("Visitor")

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

    def __str__(self) -> str:
        return f"{self.person} in {self.group} ({self.get_role_display()})"

    @property
    def period(self) -> str:
        return format_period(self.start, self.end, self.end is None)


class Advising(OrderedRow):
    """Who advises (or advised) a member, in the order their profile names them.

    The advisor is a member or an external person. Dates are often unknown: `degree` ties
    the advising to the advisee's degree ("advised by Prof. Xin Jin" during a Ph.D.), whose
    period the profile then shows.
    """

    class Kind(models.TextChoices):
        ADVISOR = "advisor", gettext_lazy("Advisor")
        CO_ADVISOR = "co-advisor", gettext_lazy("Co-advisor")
        SUPERVISOR = "supervisor", gettext_lazy("Supervisor")
        MENTOR = "mentor", gettext_lazy("Mentor")

    parent_field = "advisee"

    advisee = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="advisors")
    # One key per human (docs/decisions/researcher-identity.md): a member's profile inherits
    # `students` from its researcher.
    advisor = models.ForeignKey(
        Researcher,
        on_delete=models.CASCADE,
        related_name="students",
        help_text="The advisor: a member, or an external person.",
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
            unique_position("advisee", name="advising_unique_position"),
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

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.advisee}: {self.advisor_record}"

    def natural_key(self) -> tuple[str, int]:
        return super().natural_key()

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "people.person",
        "people.externalperson",
        "people.education",
    ]

    @property
    def advisor_record(self) -> "Person | ExternalPerson":
        """The member or the outsider: reads `advisor.profile` (select_related both)."""
        return member_or_outsider(self.advisor)  # type: ignore[return-value]

    @property
    def period(self) -> str:
        """Its own dates, "" without them: never its degree's, which a source gives for the
        degree, not for the advising (a student may change advisors during a degree)."""
        if self.start or self.end:
            return format_period(self.start, self.end, self.is_current)
        return ""

    def clean(self) -> None:
        degree = self.degree
        if degree is not None and self.advisee_id and degree.person_id != self.advisee_id:
            raise ValidationError({"degree": "Choose one of the advisee's own degrees."})


class Collaboration(OrderedRow):
    """A close collaborator a profile names ("I also work closely with …"), a member or an
    external person. The papers they share are counted apart, from the author rows."""

    parent_field = "person"

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="collaborations")
    # Not "collaborations": that is the owner's reverse name, which a profile would inherit.
    collaborator = models.ForeignKey(
        Researcher,
        on_delete=models.CASCADE,
        related_name="collaborator_of",
        help_text="The collaborator: a member, or an external person.",
    )

    class Meta:
        ordering = ["person", "position"]
        verbose_name = "close collaborator"
        constraints = [
            unique_position("person", name="collaboration_unique_position"),
            models.CheckConstraint(
                condition=~models.Q(collaborator=models.F("person")),
                name="collaboration_not_with_oneself",
                violation_error_message="Choose someone else.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} works closely with {self.collaborator_record}"

    def natural_key(self) -> tuple[str, int]:
        return super().natural_key()

    natural_key.dependencies = ["people.person", "people.externalperson"]  # type: ignore[attr-defined]

    @property
    def collaborator_record(self) -> "Person | ExternalPerson":
        """The member or the outsider: reads `collaborator.profile` (select_related both)."""
        return member_or_outsider(self.collaborator)  # type: ignore[return-value]


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

    def __str__(self) -> str:
        return f"{self.person} left as {self.last_role}"
