"""A member's profile: the directory's sections, the research areas, the person."""

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from simple_history.models import HistoricalRecords

from base.history_records import SiteHistoricalRecords
from base.identifiers import (
    orcid_url,
)
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import PublicPage
from base.querysets import PublishableQuerySet, SiteQuerySet
from base.translations import markdown_translation, text_translation
from base.validation import ValidatedModel, validate_initials
from people.avatars import initials_of
from people.models.identities import Researcher, _lines, validate_aliases

if TYPE_CHECKING:
    # The department's rows point at a person; the profile reads them in its methods.
    from people.models.department import Advising, Departure, Membership, ResearchGroup


class RoleGroupQuerySet(SiteQuerySet):
    def get_by_natural_key(self, slug: str) -> "RoleGroup":
        group: RoleGroup = self.get(slug=slug)
        return group


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

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
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
    name_zh_hans = text_translation("name", max_length=100)
    description = MarkdownField(blank=True, help_text="Shown on the area's page. Markdown.")
    description_html = RenderedMarkdownField(source="description")
    description_zh_hans = markdown_translation("description")
    description_html_zh_hans = RenderedMarkdownField(source="description_zh_hans")

    objects = PublishableQuerySet.as_manager()
    history = HistoricalRecords(excluded_fields=["description_html", "description_html_zh_hans"])

    class Meta:
        ordering = ["name"]
        verbose_name = "research area"

    def __str__(self) -> str:
        return self.name


class PersonQuerySet(PublishableQuerySet):
    def get_by_natural_key(self, slug: str) -> Researcher:
        """The profile of the researcher with `slug`. Loading a fixture asks before the profile
        exists, for the id it will have: the researcher's, loaded just before it."""
        try:
            person: Person = self.get(slug=slug)
            return person
        except self.model.DoesNotExist:
            researcher: Researcher | None = Researcher.objects.filter(slug=slug).first()
            if researcher is None:
                raise
            return researcher

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        """Researchers first, then the profiles with their ids, in two bulk inserts: Django's
        bulk_create refuses a multi-table child. Takes `batch_size` only."""
        profiles = list(objs)
        identity = [f for f in Researcher._meta.concrete_fields if not f.primary_key]
        researchers = Researcher.objects.using(self.db).bulk_create(
            [
                Researcher(**{f.attname: getattr(profile, f.attname) for f in identity})
                for profile in profiles
            ],
            batch_size=kwargs.get("batch_size"),
        )
        for profile, researcher in zip(profiles, researchers, strict=True):
            profile.researcher = researcher
            profile.id = researcher.pk
        with transaction.atomic(using=self.db, savepoint=False):
            self._for_write = True
            # Django's own insert of a batch, as bulk_create makes it, for the profiles' table.
            self._batched_insert(  # type: ignore[attr-defined]
                profiles, self.model._meta.local_concrete_fields, kwargs.get("batch_size")
            )
        for profile in profiles:
            profile._state.adding, profile._state.db = False, self.db
        self._noted(len(profiles))
        return profiles

    bulk_create.alters_data = True  # type: ignore[attr-defined]

    def drafts_of(self, person: "Person") -> models.Q:
        return models.Q(pk=person.pk)

    def for_directory(self) -> "PersonQuerySet":
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

    def current(self) -> "PersonQuerySet":
        """Without the alumni, who are listed apart."""
        return self.exclude(role_group__is_alumni=True)

    def in_groups(self, groups: "ResearchGroup | Iterable[ResearchGroup]") -> "PersonQuerySet":
        """The current members of `groups` (a ResearchGroup or several)."""
        from people.models.department import Membership, ResearchGroup

        groups = [groups] if isinstance(groups, ResearchGroup) else groups
        return self.filter(
            pk__in=Membership.objects.current().filter(group__in=groups).values("person")
        )

    def former_members_of(self, group: "ResearchGroup") -> "PersonQuerySet":
        """A group's alumni: people whose membership ended and who are not members again."""
        from people.models.department import Membership

        memberships = Membership.objects.filter(group=group)
        return self.filter(pk__in=memberships.former().values("person")).exclude(
            pk__in=memberships.current().values("person")
        )

    def in_areas(self, areas: "ResearchArea | Iterable[ResearchArea]") -> "PersonQuerySet":
        """The people staff filed under any of `areas` (a ResearchArea or several)."""
        return self.filed_under("research_areas", areas)

    def for_profile(self) -> "PersonQuerySet":
        """Everything a profile page shows, in a fixed number of queries: one per prefetch."""
        from people.models.department import Advising, Collaboration, Membership

        return self.select_related("role_group", "departure").prefetch_related(
            "links",
            "education",
            "experience",
            "teaching",
            "service",
            "awards",
            models.Prefetch(
                "advisors",
                queryset=Advising.objects.select_related("advisor__profile", "degree"),
            ),
            models.Prefetch(
                "students",
                queryset=Advising.objects.filter(advisee__is_published=True)
                .select_related("advisee", "degree")
                .order_by("advisee__name"),
            ),
            models.Prefetch(
                "collaborations",
                queryset=Collaboration.objects.select_related("collaborator__profile"),
            ),
            models.Prefetch(
                "memberships",
                queryset=Membership.objects.filter(group__is_published=True)
                .select_related("group")
                .order_by(models.F("end").desc(nulls_first=True), "group__name"),
            ),
            models.Prefetch("research_areas", queryset=ResearchArea.objects.published()),
        )


class Person(PublicPage, Researcher):
    url_name = "people:detail"

    # The identity this profile extends: name, slug, aliases and ORCID iD are the researcher's.
    researcher = models.OneToOneField(
        Researcher,
        parent_link=True,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="profile",
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
    short_bio_zh_hans = markdown_translation("short bio")
    short_bio_html_zh_hans = RenderedMarkdownField(source="short_bio_zh_hans")
    bio_zh_hans = markdown_translation("bio")
    bio_html_zh_hans = RenderedMarkdownField(source="bio_zh_hans")
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

    # The profile's own queryset, not the researcher's it inherits.
    objects = PersonQuerySet.as_manager()  # type: ignore[assignment,misc]
    history = SiteHistoricalRecords(
        m2m_fields=["research_areas"],
        excluded_fields=[
            "short_bio_html",
            "bio_html",
            "short_bio_html_zh_hans",
            "bio_html_zh_hans",
        ],
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
        ]

    def cache_scopes(self) -> set[str]:
        """What a write of this person may change on public pages (base/caches.py): their
        profile, every list naming people, and the entries of their papers (one query)."""
        papers = self.authorships.values_list("publication_id", flat=True)
        return {
            f"person:{self.pk}",
            f"papers-of:{self.pk}",
            f"facets-of:{self.pk}",
            "people",
            "publications",
            *(f"paper:{paper}" for paper in papers),
        }

    def __str__(self) -> str:
        return self.name

    def clean_fields(self, exclude: Any = None) -> None:
        """The researcher's rules, and one of a member's own: the initials avatar draws two
        letters, so a name that makes more is refused (an outsider has no avatar)."""
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        if not (exclude and "name" in exclude) and "name" not in errors:
            try:
                validate_initials(self.name)
            except ValidationError as error:
                errors.setdefault("name", []).extend(error.error_list)
        if errors:
            raise ValidationError(errors)

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
        url: str = (self.photo_thumbnail or self.photo).url
        return url

    @property
    def large_thumbnail_url(self) -> str:
        """The photo as the profile shows it; the photo itself when it has no thumbnail yet."""
        url: str = (self.photo_thumbnail_large or self.photo).url
        return url

    @property
    def orcid_url(self) -> str:
        return orcid_url(self.orcid)

    @property
    def alumni_record(self) -> "Departure | None":
        """The alumni record, or None. Select it with the person (for_directory does)."""
        from people.models.department import Departure

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


def save_identity_of_loaded_profile(
    sender: type[Person], instance: Person, raw: bool = False, **kwargs: Any
) -> None:
    """pre_save receiver: a profile loaded from a fixture (a raw save, which writes only the
    profile's own table) writes its researcher row too, so the seed's files keep one entry
    per member with the name, slug, aliases and ORCID iD in it."""
    if not raw:
        return
    identity = {
        field.attname: getattr(instance, field.attname)
        for field in Researcher._meta.concrete_fields
        if not field.primary_key
    }
    if instance.researcher_id is None:
        researcher = Researcher.objects.using(kwargs.get("using")).create(**identity)
        instance.researcher_id = instance.id = researcher.pk
    else:
        Researcher.objects.using(kwargs.get("using")).filter(pk=instance.researcher_id).update(
            **identity
        )
