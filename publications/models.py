import itertools
import uuid
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Self

from django.conf import settings
from django.contrib.postgres.search import SearchVector
from django.db import models, transaction
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from base.colours import validate_badge_colour
from base.history_records import SiteHistoricalRecords
from base.identifiers import DoiField
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import (
    Illustrated,
    OrderedRow,
    OrderedRowQuerySet,
    PublicPage,
    WebLink,
    image_has_alt_text,
    page_slug,
    unique_position,
)
from base.partial_dates import YEAR_VALIDATORS
from base.querysets import FiledQuerySet, SiteQuerySet
from base.renditions import Shape
from base.site_cache import wrote_any_of
from base.translations import markdown_translation, text_translation
from base.validation import ValidatedModel, validate_visible_name
from people.models import (
    ExternalPerson,
    Membership,
    Person,
    ResearchArea,
    Researcher,
    ResearchGroup,
    covers_year,
)

if TYPE_CHECKING:
    from django.db.backends.base.schema import BaseDatabaseSchemaEditor
    from django.db.migrations.state import StateApps


def aliases_from_text(text: str) -> tuple[str, ...]:
    """A venue's aliases as typed in its text field, one a line: blank lines and stray
    spaces don't count, repeats count once. Here, not in publications/bibtex/, so that the model
    needs nothing from the import package, which imports the models."""
    seen: dict[str, str] = {}
    for line in text.splitlines():
        alias = " ".join(line.split())
        if alias and alias.casefold() not in seen:
            seen[alias.casefold()] = alias
    return tuple(seen.values())


# What PostgreSQL's full-text search of titles matches against; the same expression is indexed
# (migration 0002), so the index serves the search.
TITLE_SEARCH_VECTOR = SearchVector("title", config="english")
CITATION_KEY_MAX_LENGTH = 100
# The order every list shows (Meta.ordering: year newest first, undated last, then title) as an
# index, so that a page of 50 reads 50 index entries instead of sorting the table. Written per
# database, outside the model's state: SQLite has no NULLS LAST in an index (and puts NULL last
# when descending anyway), PostgreSQL puts NULL first unless told. SQLite drops it whenever a
# migration rebuilds the table, so the latest migration that does re-creates it, and
# tests/publications/test_list_order_index.py checks it is there.
LIST_ORDER_INDEX = "publication_newest_first"
LIST_ORDER_INDEX_COLUMNS = {
    "sqlite": '"year" DESC, "title", "slug"',
    "postgresql": '"year" DESC NULLS LAST, "title", "slug"',
}


def create_list_order_index(apps: "StateApps", schema_editor: "BaseDatabaseSchemaEditor") -> None:
    """For migrations: creates the list-order index if it is missing."""
    if columns := LIST_ORDER_INDEX_COLUMNS.get(schema_editor.connection.vendor):
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{LIST_ORDER_INDEX}" '
            f'ON "publications_publication" ({columns})'
        )


def drop_list_order_index(apps: "StateApps", schema_editor: "BaseDatabaseSchemaEditor") -> None:
    if schema_editor.connection.vendor in LIST_ORDER_INDEX_COLUMNS:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{LIST_ORDER_INDEX}"')


class VenueQuerySet(SiteQuerySet):
    def get_by_natural_key(self, short_name: str) -> "Venue":
        venue: Venue = self.get(short_name=short_name)
        return venue


class Venue(ValidatedModel):
    class Kind(models.TextChoices):
        CONFERENCE = "conference", gettext_lazy("Conference")
        JOURNAL = "journal", gettext_lazy("Journal")
        WORKSHOP = "workshop", gettext_lazy("Workshop")
        PREPRINT_SERVER = "preprint-server", gettext_lazy("Preprint server")
        OTHER = "other", gettext_lazy("Other")

    short_name = models.CharField(
        max_length=50, unique=True, help_text='As people say it, e.g. "NSDI". Used in filters.'
    )
    full_name = models.CharField(
        max_length=300,
        blank=True,
        help_text='e.g. "USENIX Symposium on Networked Systems Design and Implementation".',
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CONFERENCE)
    aliases = models.TextField(
        blank=True,
        help_text=(
            'Other names BibTeX files give this venue, one a line (e.g. "NIPS" for NeurIPS, '
            '"CoRR" for arXiv). The BibTeX import recognises the venue by them.'
        ),
    )
    colour = models.CharField(
        max_length=7,
        blank=True,
        validators=[validate_badge_colour],
        help_text=(
            'The colour of this venue\'s badge in lists, as "#rrggbb" (e.g. "#7a1f5c"). White '
            "text must stand out on it (a contrast of at least 4.5:1). Empty: the colour of the "
            "venue's kind."
        ),
    )

    objects = VenueQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["short_name"]
        constraints = [
            # The venue filter matches short names case-insensitively, so two venues must not
            # differ by case alone.
            models.UniqueConstraint(
                models.functions.Lower("short_name"), name="venue_short_name_unique_ignoring_case"
            ),
        ]

    def __str__(self) -> str:
        return self.short_name

    def natural_key(self) -> tuple[str]:
        return (self.short_name,)

    @property
    def alias_list(self) -> tuple[str, ...]:
        return aliases_from_text(self.aliases)

    @property
    def display_name(self) -> str:
        """ "International Conference on Very Large Data Bases (VLDB)", or "arXiv" alone when the
        full name is missing or says the same. The BibTeX import reads both names back."""
        if self.full_name and self.full_name != self.short_name:
            return f"{self.full_name} ({self.short_name})"
        return self.short_name


AUTHOR_LINE_FIELDS = [
    "publication",
    "position",
    "name",
    "equal_contribution",
    "researcher",
    "researcher__name",
    "researcher__slug",
    # The API names each author's ORCID iD, a member's or an external person's.
    "researcher__orcid",
    "researcher__profile",
    "researcher__profile__is_published",
]


class DerivedFollowWrites:
    """A QuerySet (Publication's, Authorship's) whose bulk writes of the fields a paper's
    citation key, search text and co-author pairs are made from (`derived_from`) make the
    written papers' again, as their saves do through receivers (publications/derived.py):
    undoing a split re-points author rows by `update()`, an import adds them by
    `bulk_create()`, the admin moves them by `update()`."""

    derived_from: frozenset[str]
    # The field naming the paper a row belongs to.
    derived_paper: str

    def update(self, **kwargs: Any) -> int:
        if self.derived_from.isdisjoint(kwargs):
            updated: int = super().update(**kwargs)  # type: ignore[misc]
            return updated
        papers = list(self.values_list(self.derived_paper, flat=True))  # type: ignore[attr-defined]
        written: int = super().update(**kwargs)  # type: ignore[misc]
        _refresh_derived(papers)
        return written

    update.alters_data = True  # type: ignore[attr-defined]

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        objs = list(objs)
        written: int = super().bulk_update(objs, fields, batch_size=batch_size)  # type: ignore[misc]
        if not self.derived_from.isdisjoint(fields):
            _refresh_derived(
                row.pk if self.derived_paper == "pk" else row.publication_id for row in objs
            )
        return written

    bulk_update.alters_data = True  # type: ignore[attr-defined]

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        created: list[Any] = super().bulk_create(objs, *args, **kwargs)  # type: ignore[misc]
        # A new paper's key and text are made by its creator: a bulk-created paper has no
        # authors yet, which come next (an import) and make them then.
        if self.derived_paper != "pk":
            _refresh_derived(row.publication_id for row in created)
        return created

    bulk_create.alters_data = True  # type: ignore[attr-defined]


def _refresh_derived(publication_ids: Iterable[int | None]) -> None:
    # publications/derived.py builds on this module's models.
    from publications.derived import refresh_derived

    refresh_derived(publication_ids)


def external_coauthors_of(papers: models.QuerySet[Any]) -> models.QuerySet[ExternalPerson]:
    """The external people among the authors of `papers` (a subquery of paper ids: a member's
    from their co-author pair rows, `CoauthorPair.objects.papers_of`), with the number of them
    each wrote (`shared`), most shared first. One query when evaluated."""
    coauthors: models.QuerySet[ExternalPerson] = (
        ExternalPerson.objects.filter(authorships__publication__in=papers)
        .annotate(shared=models.Count("authorships__publication", distinct=True))
        .order_by("-shared", "name")
    )
    return coauthors


class PublicationQuerySet(DerivedFollowWrites, FiledQuerySet):
    derived_from = frozenset({"title", "title_zh_hans", "year", "is_published"})
    derived_paper = "pk"

    def first_of_member(self, person: int, count: int) -> "PublicationQuerySet":
        """Those of these papers that can be among the member `person`'s first `count`
        published papers in a profile's order, featured first, then newest: their featured
        ones, and those of the year of their `count`-th newest paper or later (any other has
        `count` papers before it). Read from the co-author pair rows (a member with
        themself per published paper) by their index on (person, partner, year) and from the
        featured papers' index: two small queries, where ordering all of a prolific member's
        papers scanned every paper (150 ms at 200,000 papers on PostgreSQL)."""
        mine = CoauthorPair.objects.filter(person=person, partner=person)
        dated = mine.filter(year__isnull=False).order_by("-year").values_list("year", flat=True)
        bound = next(iter(dated[count - 1 : count]), None)
        candidates = mine
        if bound is not None:  # else fewer than `count` papers with a year: all of them
            # Unordered: in the list's order SQLite would walk every paper by that index.
            featured = Publication.objects.filter(is_featured=True).order_by().values("pk")
            candidates = mine.filter(models.Q(year__gte=bound) | models.Q(publication__in=featured))
        return self.filter(pk__in=list(candidates.values_list("publication", flat=True)))

    def drafts_of(self, person: Person) -> models.Q:
        return models.Q(pk__in=Authorship.objects.by(person).values("publication"))

    def authored_by(
        self, people: Researcher | Iterable[Researcher] | Iterable[int]
    ) -> "PublicationQuerySet":
        """The publications that `people` (a Person, or several, or their ids) are among the
        authors of.

        A subquery on the authorships' person index, never a join that would repeat a paper.
        """
        return self.filter(pk__in=Authorship.objects.by(people).values("publication"))

    def of_groups(self, groups: ResearchGroup | Iterable[ResearchGroup]) -> "PublicationQuerySet":
        """The papers of the groups' members written while they were members: a paper counts
        for a group when one of its authors was in the group during the paper's year
        (people.models.covers_year). `groups` is a ResearchGroup or several.

        One subquery, the same for every paper: the groups' members' author rows in the years
        of their memberships, so the database finds them once instead of once per paper.
        """
        groups = [groups] if isinstance(groups, ResearchGroup) else groups
        during_membership = models.Q(
            researcher__profile__memberships__group__in=groups
        ) & covers_year(models.F("publication__year"), prefix="researcher__profile__memberships__")
        rows = Authorship.objects.filter(during_membership).values("publication")
        return self.filter(pk__in=rows)

    def count_by_group(self) -> dict[str, int]:
        """How many of these papers are each published group's (as of_groups counts them), by
        group slug. One aggregate query: memberships joined to their members' papers."""
        year = models.F("person__authorships__publication__year")
        rows = (
            Membership.objects.filter(
                models.Q(
                    group__is_published=True,
                    person__authorships__publication__in=self.values("pk"),
                )
                # In the same filter() as the join above, so the paper's year is that paper's.
                & covers_year(year)
            )
            .order_by()
            .values("group__slug")
            .annotate(count=models.Count("person__authorships__publication", distinct=True))
        )
        return {row["group__slug"]: row["count"] for row in rows}

    def count_per_year(self) -> dict[int | None, int]:
        """How many of these papers each year has, undated ones under None: what a page's
        year chart draws and its total sums. One aggregate query, COUNT(*) so that PostgreSQL
        reads the years from an index (Publication.Meta.indexes) instead of every paper."""
        rows = self.order_by().values_list("year").annotate(count=models.Count("*"))
        return dict(rows.values_list("year", "count"))

    def external_coauthors(self) -> models.QuerySet[ExternalPerson]:
        """The external people among the authors of these publications, with the number of
        them each wrote (`shared`), most shared first. One query when evaluated."""
        return external_coauthors_of(self.values("pk"))

    def for_export(self) -> "PublicationQuerySet":
        """What an export writes of the row itself; authors, links and awards are read apart as
        plain strings (publications/exports.py): a year's export names thousands of authors."""
        return self.select_related("venue")

    def reusing(self, loaded: dict[int, "Publication"], ids: list[int]) -> list["Publication"]:
        """The papers of `ids`: those in `loaded` as they are, the others read through this
        queryset in one query (none if all are loaded); a paper deleted meanwhile is absent."""
        papers = [loaded[pk] for pk in ids if pk in loaded]
        if to_load := [pk for pk in ids if pk not in loaded]:
            papers += self.filter(pk__in=to_load)
        return papers

    def for_listing(self) -> "PublicationQuerySet":
        """What every list of publications shows: venue, authors in order, awards and links."""
        return self.select_related("venue").prefetch_related(*listing_prefetches())


def listing_prefetches() -> "list[models.Prefetch[str] | str]":
    """The rows besides its own that every list of publications shows of a paper (for_listing):
    its authors in order, awards and links. For `prefetch_related_objects` on a paper read
    already with its venue (a paper's page reads its row first, and these only when it draws
    the page anew)."""
    return [
        models.Prefetch(
            "authorships",
            # Only what an author line needs of a member: a list shows hundreds of authors.
            queryset=Authorship.objects.select_related("researcher__profile")
            .only(*AUTHOR_LINE_FIELDS)
            .order_by("position"),
        ),
        # In their order on the paper, without the join that their Meta.ordering's
        # "publication" brings (the paper's own ordering): the prefetch groups them by paper.
        models.Prefetch("awards", queryset=PublicationAward.objects.order_by("position")),
        models.Prefetch("links", queryset=PublicationLink.objects.order_by("position")),
    ]


class Publication(PublicPage, Illustrated):
    url_name = "publications:detail"
    # A teaser: small beside the entry in lists, larger on the paper's page.
    image_shapes = {"thumbnail": Shape(144, 90), "page": Shape(480, 300)}
    image_folder = "publications"

    class Type(models.TextChoices):
        CONFERENCE_PAPER = "conference-paper", gettext_lazy("Conference paper")
        JOURNAL_ARTICLE = "journal-article", gettext_lazy("Journal article")
        WORKSHOP_PAPER = "workshop-paper", gettext_lazy("Workshop paper")
        POSTER = "poster", gettext_lazy("Poster")
        PREPRINT = "preprint", gettext_lazy("Preprint")
        BOOK_CHAPTER = "book-chapter", gettext_lazy("Book chapter")
        THESIS = "thesis", gettext_lazy("Thesis")
        OTHER = "other", gettext_lazy("Other")

    class Status(models.TextChoices):
        PUBLISHED = "published", gettext_lazy("Published")
        ACCEPTED = "accepted", gettext_lazy("Accepted, to appear")

    title = models.CharField(max_length=500)
    title_zh_hans = text_translation("title", max_length=500)
    slug = page_slug("The page's address: /publications/slug/.")
    year = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=YEAR_VALIDATORS,
        help_text="Leave empty when the year is not known.",
    )
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, null=True, blank=True, related_name="publications"
    )
    type = models.CharField(max_length=20, choices=Type.choices, default=Type.CONFERENCE_PAPER)
    publisher = models.CharField(
        max_length=300,
        blank=True,
        help_text='Who published the book a chapter is in, e.g. "Springer". A thesis names its '
        "university as its venue.",
    )
    status = models.CharField(
        "publication stage",
        max_length=20,
        choices=Status.choices,
        default=Status.PUBLISHED,
        help_text="Published, or accepted and still to appear. Whether the site shows it is "
        '"Visible on the site".',
    )
    is_featured = models.BooleanField(
        "featured", default=False, help_text="Shown on the home page."
    )
    abstract = MarkdownField(blank=True, help_text="Markdown.")
    abstract_html = RenderedMarkdownField(source="abstract")
    abstract_zh_hans = markdown_translation("abstract")
    abstract_html_zh_hans = RenderedMarkdownField(source="abstract_zh_hans")
    doi = DoiField(
        "DOI",
        max_length=200,
        help_text='e.g. "10.1145/3544216.3544265", or its address on doi.org.',
    )
    areas = models.ManyToManyField(
        ResearchArea,
        blank=True,
        related_name="publications",
        help_text="The department's research areas this paper belongs to.",
    )

    citation_key = models.CharField(
        max_length=CITATION_KEY_MAX_LENGTH,
        unique=True,
        null=True,
        blank=True,
        editable=False,
        help_text='What citations call it, e.g. "zhu2023klotski"; set from the first author, '
        "year and title (publications/citation_keys.py).",
    )

    search_text = models.TextField(
        editable=False,
        default="",
        help_text="The title, then each author's name, one per line: what the search reads "
        "(publications/search.py).",
    )

    objects = PublicationQuerySet.as_manager()
    # The search text repeats the title and the authors, which the history keeps already.
    history = SiteHistoricalRecords(
        m2m_fields=["areas"],
        excluded_fields=["search_text", "abstract_html", "abstract_html_zh_hans"],
    )

    # What the counts of a list or a profile are made from (base/caches.py's `facets`), beside
    # the author rows, areas and awards: a save that changes none of them (a title, an
    # abstract, a link) leaves every count, facet and year chart kept.
    COUNTED_FIELDS = ("year", "venue_id", "type", "is_published")
    # What a list's page of rows holds besides (its order and names, base/caches.py's
    # `listing`): a save that changes none of these (an abstract, a DOI, a link, a
    # translation, which each paper's entry shows from its own kept rendering) leaves every
    # list's rows kept.
    LISTED_FIELDS = (*COUNTED_FIELDS, "title", "slug")

    # The listed fields as stored before the save being made (read by save()); None when not
    # known (no save under way, a new row).
    stored_listed: tuple[Any, ...] | None = None

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Reads the listed fields as stored first (one query by key), so that the save's
        scopes say whether a count or a list's rows may have changed, whatever this object
        was read with."""
        stored = None
        if not self._state.adding and self.pk is not None:
            stored = Publication.objects.filter(pk=self.pk).values_list(*self.LISTED_FIELDS).first()
        self.stored_listed = stored
        try:
            super().save(*args, **kwargs)
        finally:
            self.stored_listed = None

    save.alters_data = True  # type: ignore[attr-defined]

    def changed_any_of(self, fields: tuple[str, ...]) -> bool:
        """Whether the write being noted may have changed any of `fields` (listed fields): a
        bulk update naming one, a row added or deleted (site_cache.written_fields), or a save
        of a row whose value differs from the one stored before it."""
        if (said := wrote_any_of(self, fields)) is not None:
            return said
        if self.stored_listed is None:
            return True
        stored = dict(zip(self.LISTED_FIELDS, self.stored_listed, strict=True))
        return any(stored[name] != getattr(self, name) for name in fields)

    def cache_scopes(self) -> set[str]:
        """What a write of this paper may change on public pages (base/caches.py): its own
        rows, the papers of each member among its authors, the lists; the lists' rows when a
        listed field changed, and their counts when a counted one did. One query."""
        counted = self.changed_any_of(self.COUNTED_FIELDS)
        scopes = paper_scopes(self.pk, counted=counted)
        if not counted and self.changed_any_of(self.LISTED_FIELDS):
            scopes.add("listing")
        return scopes

    class Meta:
        # The slug last: papers of one year and title keep one order, so a page of the list,
        # of the API and of an export never repeats or skips one of them.
        ordering = [models.F("year").desc(nulls_last=True), "title", "slug"]
        constraints = [image_has_alt_text("publication_image_has_alt_text")]
        indexes = [
            # The facets count published papers by year, venue and type: with is_published in
            # the index they read the index alone, not every row (20 ms instead of 480 at
            # 200,000 papers on SQLite). The list's order has its own index (migration 0009).
            models.Index(fields=["year", "is_published"], name="publication_year_published"),
            models.Index(fields=["venue", "is_published"], name="publication_venue_published"),
            models.Index(fields=["type", "is_published"], name="publication_type_published"),
            # The published papers' ids with the columns the facets count: PostgreSQL reads
            # the ids for the member facet from it, and the facets of a filter that narrows by
            # id (a member's papers: ?author=) look each paper up in it, both without reading
            # the table (25 ms instead of a 90 ms scan, and 35-50 ms instead of 50-160 per
            # facet, at 200,000 papers). SQLite would do without it: its indexes above end
            # with the id.
            models.Index(
                fields=["is_published", "id", "year", "venue", "type"],
                name="publication_published_facets",
            ),
            # The few featured papers, which a profile's selection puts first
            # (PublicationQuerySet.first_of_member): without it, a scan of every paper.
            models.Index(
                fields=["id"], condition=models.Q(is_featured=True), name="publication_featured"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def has_equal_contribution(self) -> bool:
        """Reads the prefetched authorships: no query when listed with for_listing()."""
        return any(authorship.equal_contribution for authorship in self.authorships.all())

    @property
    def published_members(self) -> list[Person]:
        """The authors who are members with a public profile, in author order. Reads the
        prefetched authorships."""
        return [
            authorship.person
            for authorship in self.authorships.all()
            if authorship.person is not None and authorship.person.is_published
        ]

    @property
    def pdf_url(self) -> str:
        """The first PDF link, read from the prefetched links; "" when there is none."""
        link: PublicationLink
        for link in self.links.all():
            if link.kind == PublicationLink.Kind.PDF:
                return link.url
        return ""


def listed_publications(*fields: str) -> "models.Prefetch[str, PublicationQuerySet]":
    """The published papers a row links to (its many-to-many `publications`: a dataset's, a
    project's, a news item's), with only `fields` of each, as `listed_publications`: what the
    row's page names. One query for all rows."""
    return models.Prefetch(
        "publications",
        queryset=Publication.objects.published().only(*fields),
        to_attr="listed_publications",
    )


class PublicationPart(OrderedRow):
    """A row that belongs to one publication, in an order staff set."""

    # Each subclass declares `publication` with its own related_name.
    parent_field = "publication"

    class Meta:
        abstract = True
        ordering = ["publication", "position"]
        constraints = [
            unique_position("publication", name="%(app_label)s_%(class)s_unique_position")
        ]

    # Whether the rows of this kind are counted (author rows, awards): a write of one moves
    # the counts' scopes too (base/caches.py's `facets`); a link's does not.
    counted = True

    def counted_write(self) -> bool:
        """Whether the write being noted may change what a count is made from."""
        return self.counted

    def cache_scopes(self) -> set[str]:
        """A part shows on its paper's page and entry: the paper's scopes (one query)."""
        return paper_scopes(self.publication_id, counted=self.counted_write())  # type: ignore[attr-defined]


# What a write of a paper names besides the paper itself (`paper:<pk>`), by whether it may
# change what is counted: the lists, and per member among its authors (by kind) their papers;
# with counts, the lists' rows and counts and those members' counts too. paper_scopes builds a
# write's scopes from it, only_paper_written recognises them.
PAPER_WRITE_SCOPES = {
    False: (frozenset({"publications"}), ("papers-of:",)),
    True: (frozenset({"publications", "facets", "listing"}), ("papers-of:", "facets-of:")),
}


def paper_scopes(pk: int, *, counted: bool = True) -> set[str]:
    """The scopes a write of the paper `pk` or of one of its parts moves (base/caches.py):
    the paper, the papers of each member among its authors, and the lists; when the write
    may change what is counted (`counted`), the counts of the lists and of those members
    too. One query."""
    people = list(
        Authorship.objects.filter(publication_id=pk, researcher__profile__isnull=False).values_list(
            "researcher_id", flat=True
        )
    )
    lists, kinds = PAPER_WRITE_SCOPES[counted]
    return {f"paper:{pk}", *lists, *(f"{kind}{person}" for kind in kinds for person in people)}


def only_paper_written(pk: int, scopes: frozenset[str]) -> bool:
    """Whether a change that named `scopes` wrote the paper `pk` and nothing else: it names the
    paper, and nothing but what a write of a paper names besides (paper_scopes). A change that
    also names anything else (a person renamed whose only paper it is names `person:<pk>` and
    `paper:<pk>`; a talk saved in the same transaction names `events`) moved that too. What a
    paper's page keeps of other rows is kept through this paper's own writes
    (site_cache.first_change_of's `apart_from`)."""
    paper = f"paper:{pk}"
    lists, kinds = PAPER_WRITE_SCOPES[True]
    return paper in scopes and all(
        scope == paper or scope in lists or scope.startswith(kinds) for scope in scopes
    )


class AuthorshipQuerySet(DerivedFollowWrites, OrderedRowQuerySet):
    derived_from = frozenset(
        {"name", "position", "researcher", "researcher_id", "publication", "publication_id"}
    )
    derived_paper = "publication"

    def by(self, people: Researcher | Iterable[Researcher] | Iterable[int]) -> "AuthorshipQuerySet":
        """The author rows of `people`: a Person or an ExternalPerson (any Researcher), or an
        iterable or QuerySet of them or of their ids (a member's id is their researcher's)."""
        if isinstance(people, Researcher):
            return self.filter(researcher=people.pk)
        if isinstance(people, models.QuerySet):
            return self.filter(researcher__in=people.values("pk"))
        return self.filter(researcher__in=people)

    def of_members(self) -> "AuthorshipQuerySet":
        """The rows that name a member (a researcher with a profile): one join."""
        return self.filter(researcher__profile__isnull=False)

    def unlinked(self) -> "AuthorshipQuerySet":
        """The rows that name nobody yet."""
        return self.filter(researcher=None)


class Authorship(PublicationPart):
    publication = models.ForeignKey(
        Publication, on_delete=models.CASCADE, related_name="authorships"
    )
    position = models.PositiveSmallIntegerField(
        help_text="1 for the first author, 2 for the next..."
    )
    name = models.CharField(
        max_length=200,
        validators=[validate_visible_name],
        help_text="The name as printed in the paper.",
    )
    # One key per human (docs/decisions/researcher-identity.md): a member's researcher has a
    # profile, an outsider's has none. A member's profile inherits `authorships`.
    researcher = models.ForeignKey(
        Researcher,
        verbose_name="person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="authorships",
        help_text="The lab member or external person this author is, if any. Filled in from "
        "the name when left empty.",
    )
    equal_contribution = models.BooleanField(
        default=False, help_text="Marked * in the paper: contributed equally."
    )
    proposed_person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="proposed_authorships",
        verbose_name="proposed lab member",
        help_text="A member another member named as this author: linked once they, or an "
        "editor, confirm it.",
    )
    link_declined = models.BooleanField(
        "kept unlinked",
        default=False,
        help_text="Someone took this author off a member's profile, or no source says this "
        "author is the person of that name: it is not linked to anyone by its name again.",
    )

    objects = AuthorshipQuerySet.as_manager()  # type: ignore[misc]

    # The researcher and the paper the row named when read (from_db): re-pointed to another,
    # both profiles, or both papers, change (an outsider's `papers-of` scope is one no page
    # follows: harmless).
    loaded_researcher_id: int | None = None
    loaded_publication_id: int | None = None

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[object]
    ) -> Self:
        row = super().from_db(db, field_names, values)
        row.loaded_researcher_id = row.__dict__.get("researcher_id")
        row.loaded_publication_id = row.__dict__.get("publication_id")
        return row

    def counted_write(self) -> bool:
        """An author row is counted by whom it names (the member facet, a profile's papers and
        co-authors): a row added or deleted, or re-pointed to another researcher or paper, by
        a save (compared with what it was read with, as its `papers-of` scope is) or a bulk
        write. Its name or position edited counts nothing (a search follows `publications`)."""
        if (said := wrote_any_of(self, ["researcher", "publication"])) is not None:
            return said
        return (
            self.loaded_researcher_id != self.researcher_id
            or self.loaded_publication_id != self.publication_id
        )

    def cache_scopes(self) -> set[str]:
        loaded = self.loaded_researcher_id
        moved = {f"papers-of:{loaded}", f"facets-of:{loaded}"} if loaded else set()
        if (paper := self.loaded_publication_id) and paper != self.publication_id:
            moved |= paper_scopes(paper)  # the paper it left, and that paper's members
        return super().cache_scopes() | moved

    # The member or the outsider the row names, read from its one key: templates, the API and
    # the admin's messages read them as before. Reads `researcher.profile`: list with
    # select_related("researcher__profile") (AuthorshipQuerySet's callers do).
    @property
    def person(self) -> Person | None:
        """The member this author is, if any."""
        if self.researcher_id is None:
            return None
        if isinstance(self.researcher, Person):  # linked in this process to a profile
            return self.researcher
        return getattr(self.researcher, "profile", None)

    @person.setter
    def person(self, member: Person | None) -> None:
        if member is not None:
            self.researcher = member
        elif self.person is not None:
            self.researcher = None

    @property
    def external(self) -> Researcher | None:
        """The outsider this author is, if staff keep a record of them."""
        if self.researcher_id is None or self.person is not None:
            return None
        return self.researcher

    @external.setter
    def external(self, outsider: Researcher | None) -> None:
        if outsider is not None:
            self.researcher = outsider
        elif self.external is not None:
            self.researcher = None

    class Meta(PublicationPart.Meta):
        verbose_name = "author"
        indexes = [
            # A member's publication list, the author filter, a profile's collaborators outside
            # the lab and merges look author rows up by researcher.
            models.Index(fields=["researcher", "publication"], name="authorship_researcher_paper"),
        ]
        constraints = PublicationPart.Meta.constraints

    def __str__(self) -> str:
        return self.name


class CoauthorPairQuerySet(models.QuerySet["CoauthorPair"]):
    """Kept by the writes of papers and authors (`refresh`), never edited. A plain QuerySet:
    the writes that feed it note their own change scopes (settings.SITE_CACHE_IGNORED_MODELS)."""

    def of_papers(self, publications: "models.QuerySet[Publication]") -> "CoauthorPairQuerySet":
        """The pairs of `publications` (a group's, an area's)."""
        return self.filter(publication__in=publications.values("pk"))

    def of_member(self, person: int) -> "CoauthorPairQuerySet":
        """The pairs of a member's papers: those they are on with themself."""
        return self.filter(publication__in=self.papers_of(person))

    def papers_of(self, person: int) -> "models.QuerySet[CoauthorPair, Mapping[str, object]]":
        """A member's published papers (as a subquery of their ids): their rows with
        themself, read from the index on (person, partner, year, paper) alone."""
        return self.filter(person=person, partner=person).values("publication")

    def in_years(self, first: int | None, last: int | None) -> "CoauthorPairQuerySet":
        narrowed = self if first is None else self.filter(year__gte=first)
        return narrowed if last is None else narrowed.filter(year__lte=last)

    def refresh(self, publication_ids: Iterable[int | None]) -> None:
        """Make the rows of these papers again from their author rows, in the caller's
        transaction (or one of its own): four queries a batch of papers (a save: one paper).
        The papers' rows are locked first, so that two transactions writing one paper's
        authors at once make its pairs one after the other (on PostgreSQL the second would
        otherwise insert the rows the first has just inserted, and fail)."""
        ids = sorted({pk for pk in publication_ids if pk is not None})
        with transaction.atomic(using=self.db):
            for start in range(0, len(ids), PAIR_BATCH):
                batch = ids[start : start + PAIR_BATCH]
                locked = Publication.objects.select_for_update().filter(pk__in=batch)
                list(locked.values_list("pk", flat=True))
                self.filter(publication__in=batch).delete()
                self.bulk_create(self._made_from(Authorship.objects.filter(publication__in=batch)))

    def rebuild(self) -> int:
        """Every row made again from every author row (a bulk import, the benchmark's data
        set, the migration that adds the table). Returns the rows made."""
        self.all().delete()
        made = 0
        rows = self._made_from(Authorship.objects.all())
        while batch := list(itertools.islice(rows, 10 * PAIR_BATCH)):
            made += len(self.bulk_create(batch))
        return made

    def _made_from(self, authorships: "models.QuerySet[Authorship]") -> Iterator["CoauthorPair"]:
        """The pairs of the published papers among `authorships`' papers, read in paper order
        (one query, streamed)."""
        rows = (
            authorships.filter(publication__is_published=True, researcher__profile__isnull=False)
            .order_by("publication")
            .values_list("publication", "publication__year", "researcher")
            .iterator(chunk_size=10 * PAIR_BATCH)
        )
        for publication, year, person, partner in pairs_of_papers(rows):
            yield CoauthorPair(
                publication_id=publication, year=year, person_id=person, partner_id=partner
            )


def pairs_of_papers(
    rows: Iterable[tuple[int, int | None, int]],
) -> Iterator[tuple[int, int | None, int, int]]:
    """(paper, year, member) author rows in paper order: each paper's pairs of members, lower
    id first, each member once with themself (also what migration 0027 fills the table with)."""
    for (publication, year), group in itertools.groupby(rows, key=lambda row: row[:2]):
        people = sorted({person for _, _, person in group})
        for first, person in enumerate(people):
            for partner in people[first:]:
                yield publication, year, person, partner


# Papers whose pairs are made again per round of queries.
PAIR_BATCH = 500


class CoauthorPair(models.Model):
    """Two members on one published paper, the lower id first; a member with themself stands
    for their own paper. The co-author network counts these rows (publications/network.py):
    joining the author rows to themselves for each network took 7.5 s for the lab at 200,000
    papers; about 0.7 rows a paper here make it a count over one table.

    Never edited: `CoauthorPair.objects.refresh()` makes a paper's rows again in the same
    transaction whenever its authors, its year or whether it is published change
    (publications/receivers.py, and the bulk writes of Publication's and Authorship's
    QuerySets)."""

    # Not listed on the admin's delete confirmation (base/history.py): staff never made them.
    derived_rows = True

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="+")
    year = models.PositiveSmallIntegerField(null=True)  # the paper's, which may be unknown
    # Named reverse relations, not "+": Django leaves hidden ones out when a profile's key
    # column changes (people 0020 on SQLite rebuilds only the tables it knows point at it).
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="pairs_as_person")
    partner = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="pairs_as_partner")

    objects = CoauthorPairQuerySet.as_manager()

    class Meta:
        verbose_name = "co-author pair"
        constraints = [
            # A paper's rows are looked up and deleted by paper when it changes.
            models.UniqueConstraint(
                fields=["publication", "person", "partner"], name="coauthor_pair_once_a_paper"
            ),
            models.CheckConstraint(
                condition=models.Q(person__lte=models.F("partner")),
                name="coauthor_pair_lower_id_first",
            ),
        ]
        indexes = [
            # The lab's network in a range of years counts pairs without reading the table.
            models.Index(fields=["year", "person", "partner"], name="coauthor_pair_year"),
            # A member's network: their own papers are their rows with themself; by year, the
            # newest of them (a profile's selection: PublicationQuerySet.first_of_member).
            models.Index(
                fields=["person", "partner", "year", "publication"],
                name="coauthor_pair_people_year",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} and {self.partner_id} on {self.publication_id}"


class PublicationAward(PublicationPart):
    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="awards")
    name = models.CharField(max_length=300, help_text='e.g. "Best Paper Award".')

    class Meta(PublicationPart.Meta):
        verbose_name = "award"

    def __str__(self) -> str:
        return self.name


class PublicationLink(PublicationPart, WebLink):
    class Kind(models.TextChoices):
        PDF = "pdf", "PDF"
        CODE = "code", gettext_lazy("Code")
        SLIDES = "slides", gettext_lazy("Slides")
        PROJECT = "project", gettext_lazy("Project")
        VIDEO = "video", gettext_lazy("Video")
        DATASET = "dataset", gettext_lazy("Dataset")
        ARXIV = "arxiv", "arXiv"
        OTHER = "other", gettext_lazy("Other")

    # A link is counted nowhere: its write leaves the counts kept (PublicationPart.counted).
    counted = False

    publication = models.ForeignKey(Publication, on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.PDF)

    class Meta(PublicationPart.Meta):
        verbose_name = "link"


class BibtexImport(models.Model):
    """One uploaded BibTeX file from its review to its result.

    It keeps the reviewed text and the keys that were importable then, so a confirm posts only
    the entries left out (any number of entries fits in a form), and its state moves forward
    once: a second submit of the same confirm finds it already moved and is told so. A large
    import runs in the task worker, which writes its progress and result here for the status
    page to show; so does the reading and review of a large upload.
    """

    class State(models.TextChoices):
        READING = "reading", "Being read and reviewed"
        REVIEWED = "reviewed", "Reviewed, not confirmed"
        QUEUED = "queued", "Waiting for the worker"
        RUNNING = "running", "Running"
        DONE = "done", "Imported"
        REFUSED = "refused", "Refused: nothing was imported"
        FAILED = "failed", "Failed"

    class Source(models.TextChoices):
        BIBTEX = "bibtex", "BibTeX"
        IDENTIFIERS = "identifiers", "Identifiers and exports"

    FINISHED = (State.DONE, State.REFUSED, State.FAILED)
    # directory.E001: the file is kept as uploaded; the review judges each entry's text with the
    # models' validation, and nothing here is shown on a public page.
    validation_exempt = "an uploaded file kept as it came, for the import's review to judge"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.REVIEWED)
    text = models.TextField(help_text="The file as uploaded; emptied once it is imported.")
    # What `text` holds: BibTeX as uploaded, or the entries read from identifiers and the
    # services' exports, as JSON (publications/identifiers/stored.py).
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.BIBTEX)
    importable_keys = models.JSONField(default=list)
    skipped_keys = models.JSONField(default=list)
    # The keys of the entries saved so far, each batch's with the batch (bibtex/jobs.py): what
    # "Start again" leaves out after the worker stopped.
    saved_keys = models.JSONField(default=list)
    phase = models.CharField(max_length=100, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    problems = models.JSONField(default=list)
    # The worker's last sign of life, touched at each report of progress: a job not heard of
    # for BIBTEX_WORKER_TIMEOUT_SECONDS is failed (bibtex/jobs.py, fail_stalled_jobs), and
    # `interrupted` keeps the state it stopped in, to start it again from there.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    interrupted = models.CharField(max_length=20, choices=State.choices, blank=True)
    # A large file's review as the worker wrote it (bibtex/jobs.py, ReviewPage), shown without
    # reading the file again; emptied once it is confirmed.
    review = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "BibTeX import"

    def __str__(self) -> str:
        return f"BibTeX import of {self.created_at:%Y-%m-%d %H:%M} ({self.get_state_display()})"

    @property
    def is_finished(self) -> bool:
        return self.state in self.FINISHED


# The claim and correction queue (publications/claims/): a model of this app.
from publications.claims.models import Claim  # noqa: E402, F401

# Members' suggested works and citation counts (publications/suggestions/): models of this app.
from publications.suggestions.models import CitationCount, Suggestion, WorkCheck  # noqa: E402, F401
