"""Whom an author line, an advisor or a collaborator stands for: the names a person goes by,
the people outside the lab as records of their own, and the log of merges and splits."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.expressions import Combinable
from simple_history.models import HistoricalRecords

from base.identifiers import (
    ORCID_EXAMPLE,
    OrcidField,
)
from base.models import OrderedRow, page_slug
from base.querysets import SiteQuerySet
from base.validation import ValidatedModel, validate_visible_name
from people.names import normalize_name

if TYPE_CHECKING:
    from people.models.profile import Person

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


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class ResearcherQuerySet(SiteQuerySet):
    def get_by_natural_key(self, slug: str) -> "Researcher":
        researcher: Researcher = self.get(slug=slug)
        return researcher


# The part of the dblp address after "dblp.org/pid/": a researcher's and an external record's.
DBLP_VALIDATOR = RegexValidator(
    r"^[\w-]+(/[\w.-]+)+$", 'Write the part after "dblp.org/pid/", e.g. "84/2427".'
)


# Kept by name: an ExternalPerson's saves are sent to it by hand (below).
RESEARCHER_HISTORY = HistoricalRecords()


class Researcher(KnownByNames, ValidatedModel):
    """One human the site names: the names author lists print, identifiers, affiliation.

    A member's profile (Person) extends it: the profile's name, slug, aliases and ORCID iD are
    this row's, stored once (docs/decisions/researcher-identity.md).
    """

    name = models.CharField(
        max_length=200,
        # A member's name must also make initials (Person.clean_fields); an outsider has no
        # avatar, so an author list's spelling is kept as printed.
        validators=[validate_visible_name],
        help_text="The name as the person writes it.",
    )
    slug = page_slug(
        "A member's profile address: /people/slug/. Names the researcher in the seeded data "
        "and exports; members and external people share one set of addresses."
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
    orcid = OrcidField(
        "ORCID iD",
        help_text=f'e.g. "{ORCID_EXAMPLE}", or its address on orcid.org. Shown on the profile '
        "and in the site's data, so other sites can tell this person from namesakes.",
    )
    dblp = models.CharField(
        "dblp identifier",
        max_length=100,
        blank=True,
        validators=[DBLP_VALIDATOR],
        help_text='The part of the dblp address after "dblp.org/pid/", e.g. "84/2427".',
    )
    affiliation = models.CharField(
        max_length=300, blank=True, help_text="Where they work, when known."
    )
    homepage = models.URLField(blank=True)

    objects = ResearcherQuerySet.as_manager()
    history = RESEARCHER_HISTORY

    class Meta:
        ordering = ["name", "slug"]
        constraints = [
            # An identifier names one human: a second researcher with it is the same person
            # twice (member or outsider alike), and the BibTeX import and merges look people
            # up by them.
            models.UniqueConstraint(
                fields=["orcid"],
                condition=~models.Q(orcid=""),
                name="researcher_orcid_unique",
                violation_error_message="Another person has this ORCID iD: if they are one "
                "person, merge the two instead.",
            ),
            models.UniqueConstraint(
                fields=["dblp"],
                condition=~models.Q(dblp=""),
                name="researcher_dblp_unique",
                violation_error_message="Another person has this dblp identifier: if they are "
                "one person, merge the two instead.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


class ExternalPersonQuerySet(ResearcherQuerySet):
    pass


class ExternalPersonManager(models.Manager.from_queryset(ExternalPersonQuerySet)):  # type: ignore[misc]
    """Researchers without a profile: the people outside the lab."""

    def get_queryset(self) -> ExternalPersonQuerySet:
        outsiders: ExternalPersonQuerySet = super().get_queryset().filter(profile__isnull=True)
        return outsiders


class ExternalPerson(Researcher):
    """Someone outside the lab (an advisor, a co-author): a researcher without a profile, listed
    apart in the admin as they were when they had a table of their own.

    Author rows printed with their name or an alias link to the record exactly as they link
    to members: only when no other record or member has that name (publications/services.py).
    Staff create records; nothing creates one for every unknown author.

    A proxy: simple-history records nothing for a proxy's saves (django-simple-history #544),
    so `_record_outsider_history` below sends them to the researcher's history.
    """

    objects = ExternalPersonManager()  # type: ignore[misc]

    class Meta:
        proxy = True
        ordering = ["name", "slug"]
        verbose_name = "external person"
        verbose_name_plural = "external people"

    def __str__(self) -> str:
        return f"{self.name} ({self.affiliation})" if self.affiliation else self.name

    @property
    def described(self) -> str:
        return f"{self}, external person"

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


def _record_outsider_history() -> None:
    """Save and delete an ExternalPerson into Researcher's history: simple-history connects its
    receivers for the concrete model only, and Django sends a proxy's signals with the proxy as
    sender (django-simple-history issue #544)."""
    records = RESEARCHER_HISTORY
    models.signals.post_save.connect(records.post_save, sender=ExternalPerson, weak=False)
    models.signals.post_delete.connect(records.post_delete, sender=ExternalPerson, weak=False)


_record_outsider_history()


def member_or_outsider(researcher: Researcher) -> "KnownByNames":
    """The profile of a researcher who is a member, else the researcher as an ExternalPerson
    (its link, its label with the affiliation): what a page or the API names for an author,
    advisor or collaborator key. Reads `researcher.profile`: select_related it with the key."""
    profile: Person | None = getattr(researcher, "profile", None)
    if profile is not None:
        return profile
    if isinstance(researcher, ExternalPerson):
        return researcher
    names = [field.attname for field in Researcher._meta.concrete_fields]
    values = [getattr(researcher, name) for name in names]
    return ExternalPerson.from_db(researcher._state.db, names, values)


def published_profile(researcher: Researcher | None) -> "Person | None":
    """The profile of `researcher` when they are a member with a published one: what their name
    links to on a page (a draft profile's member is a name like any other). Reads
    `researcher.profile`: select_related it with the key."""
    profile: Person | None = getattr(researcher, "profile", None)
    return profile if profile is not None and profile.is_published else None


def credited_researcher(
    *, related_name: str
) -> "models.ForeignKey[Researcher | Combinable, Researcher]":
    """A CreditRow's key: the researcher credited, who cannot be deleted while credited."""
    return models.ForeignKey(
        Researcher,
        on_delete=models.PROTECT,
        related_name=related_name,
        verbose_name="person",
        help_text="A lab member or an external person.",
    )


class CreditRow(OrderedRow):
    """A researcher credited in order on a page (an output's creators, a project's people): the
    same identity an author row names, a member's profile or someone outside the lab
    (docs/decisions/researcher-identity.md). Each model declares its `researcher` key
    (`credited_researcher`), with the reverse name that suits it."""

    researcher: Researcher
    researcher_id: int | None

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.researcher.name if self.researcher_id else ""

    @property
    def member(self) -> "Person | None":
        """Their public profile, when a member with one: what their name links to. Reads the
        researcher and profile selected with the row (for_listing)."""
        return published_profile(self.researcher)


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
    # {"publications.authorship": {"field": "researcher", "ids": [...]}, ...}
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

    def __str__(self) -> str:
        return self.summary

    @property
    def moved_count(self) -> int:
        return sum(len(rows["ids"]) for rows in self.moved.values())
