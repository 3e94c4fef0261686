"""Importing datasets and software from DataCite, Zenodo or CITATION.cff files: what each
record would do (new, a duplicate, or invalid; who its creators are; which papers it belongs
to), then, once an editor confirms, the chosen records saved in one transaction or none.

Called by the admin's upload page (outputs/admin.py) and `manage.py import_outputs`. Creators
are matched to researchers as a paper's authors are (publications/bibtex/review.py): by ORCID
iD, then by a name or alias that names one person only. A creator matched to nobody becomes a
new external person: an output's creators are researchers, never bare names.
"""

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from base.addresses import unique_title_slug
from base.validation import validate_visible_name
from outputs.formats import Creator, ReadOutput
from outputs.models import Output, OutputCreator
from people.models import ExternalPerson, Person, Researcher
from people.names import normalize_name
from people.services import Editor, save_with_history, unique_slug
from publications.bibtex.review import (
    AuthorMatch,
    Change,
    Decision,
    normalize_title,
    people_by_orcid,
)
from publications.models import Publication
from publications.services import AuthorNames, author_name_index

# The reason each version an import makes is recorded with, in the history pages.
IMPORTED = "Imported from a DataCite, Zenodo or CITATION.cff file"
UPDATED = "Updated from a DataCite, Zenodo or CITATION.cff record"

# What a record found on the site may change there, when staff tick it: the fields a newer
# record says better (a new version, its DOI, its date). Not the description, which staff
# write for the page, nor the creators and papers, which staff curate.
UPDATED_FIELDS = ("kind", "title", "version", "licence", "url", "doi", "released")

# Slugs the outputs' URLs use for pages of their own (/outputs/feed/, export.bib).
RESERVED_SLUGS = {"export", "feed"}

MAX_NAME_LENGTH = Researcher._meta.get_field("name").max_length or 200

# For each update (its key), the changes the editor reviewed: each field, and its value on the
# site as the review showed it.
ReviewedChanges = Mapping[str, Sequence[tuple[str, str]]]


@dataclass(frozen=True)
class CreatorMatch:
    """A creator and the researcher they are: a member, an external person, or nobody yet (an
    import makes them an external person)."""

    creator: Creator
    researcher: Person | ExternalPerson | None
    unlinked_reason: str = ""

    def describe(self) -> str:
        if isinstance(self.researcher, Person):
            return f"{self.creator.name} (member: {self.researcher.name})"
        if self.researcher is not None:
            return f"{self.creator.name} (external person: {self.researcher.name})"
        why = f"; {self.unlinked_reason}" if self.unlinked_reason else ""
        return f"{self.creator.name} (new external person{why})"


@dataclass(frozen=True)
class ReviewedOutput:
    read: ReadOutput
    decision: Decision
    creators: tuple[CreatorMatch, ...] = ()
    papers: tuple[Publication, ...] = ()
    # Related DOIs no paper on the site has: named in the review, linked to nothing.
    unknown_dois: tuple[str, ...] = ()
    existing: Output | None = None
    reason: str = ""
    # For an update: each field of the output on the site the record would change.
    changes: tuple[Change, ...] = ()

    @property
    def key(self) -> str:
        return str(self.read.number)

    @property
    def importable(self) -> bool:
        """A new record: imported unless staff leave it out."""
        return self.decision is Decision.NEW

    @property
    def is_update(self) -> bool:
        """A record of an output on the site that says something else: applied only when
        staff tick it, as the BibTeX review's likely updates."""
        return self.decision is Decision.UPDATE

    def describe(self) -> str:
        match self.decision:
            case Decision.NEW:
                return f"New {Output.Kind(self.read.kind).label.lower()}."
            case Decision.UPDATE:
                changes = "; ".join(
                    f"{change.label} {change.old or '(none)'} → {change.new or '(none)'}"
                    for change in self.changes
                )
                return (
                    f"An update of “{self.existing}” ({self.reason}): {changes}. "
                    "Applied only if ticked."
                )
            case Decision.DUPLICATE:
                return f"Duplicate of {self.reason}: nothing to import."
        return "Cannot be imported: " + " ".join(self.read.problems)


@dataclass(frozen=True)
class OutputReview:
    outputs: tuple[ReviewedOutput, ...]

    @property
    def importable_keys(self) -> list[str]:
        return [item.key for item in self.outputs if item.importable]

    @property
    def update_keys(self) -> list[str]:
        return [item.key for item in self.outputs if item.is_update]

    def summary(self) -> str:
        counts = Counter(item.decision for item in self.outputs)
        total = len(self.outputs)
        updates = counts[Decision.UPDATE]
        return (
            f"{total} record{'s' if total != 1 else ''}: {counts[Decision.NEW]} new, "
            f"{updates} update{'s' if updates != 1 else ''} of outputs on the site, "
            f"{counts[Decision.DUPLICATE]} duplicate{'s' if counts[Decision.DUPLICATE] != 1 else ''}, "
            f"{counts[Decision.INVALID]} that cannot be imported."
        )


def review_outputs(*, outputs: Sequence[ReadOutput]) -> OutputReview:
    """What importing each record would do. A record of an output on the site (the same DOI,
    else the same title and release year, else the same title; titles compared without case,
    accents or punctuation) is an update of it when it says something else in UPDATED_FIELDS,
    a duplicate when not; a record repeating one earlier in the file is a duplicate. Writes
    nothing; a fixed number of queries whatever the records."""
    existing = list(Output.objects.defer("description", "description_html").order_by("pk"))
    by_doi = {output.doi.casefold(): output for output in existing if output.doi}
    by_title_year: dict[tuple[str, int | None], Output] = {}
    by_title: dict[str, Output] = {}
    for output in existing:
        by_title_year.setdefault((normalize_title(output.title), output.year), output)
        by_title.setdefault(normalize_title(output.title), output)
    papers = {
        doi.casefold(): paper
        for paper in Publication.objects.exclude(doi="").only("title", "slug", "doi", "year")
        if (doi := paper.doi)
    }
    people = author_name_index()
    by_orcid = people_by_orcid(creator.orcid for output in outputs for creator in output.creators)

    seen: dict[str, int] = {}
    reviewed = []
    for read in outputs:
        creators = tuple(_match(creator, people, by_orcid) for creator in read.creators)
        problems = [
            *read.problems,
            *_field_problems(read),
            *_repeated_creators(creators),
            *_new_people_problems(creators),
        ]
        linked = [papers[doi.casefold()] for doi in read.paper_dois if doi.casefold() in papers]
        item = ReviewedOutput(
            read=replace(read, problems=tuple(problems)),
            decision=Decision.INVALID,
            creators=creators,
            papers=tuple(dict.fromkeys(linked)),
            unknown_dois=tuple(doi for doi in read.paper_dois if doi.casefold() not in papers),
        )
        if problems:
            reviewed.append(item)
            continue
        title, doi = normalize_title(read.title), read.doi.casefold()
        if earlier := (doi and seen.get(doi)) or seen.get(title):
            reason = f"record {earlier} above"
            reviewed.append(replace(item, decision=Decision.DUPLICATE, reason=reason))
            continue
        seen[title] = read.number
        if doi:
            seen[doi] = read.number
        if doi and doi in by_doi:
            match, why = by_doi[doi], "same DOI"
        elif (title, _year(read.released)) in by_title_year:
            match, why = by_title_year[(title, _year(read.released))], "same title and year"
        elif title in by_title:
            match, why = by_title[title], "same title"
        else:
            reviewed.append(replace(item, decision=Decision.NEW))
            continue
        if changes := _changes(match, read):
            reviewed.append(
                replace(item, decision=Decision.UPDATE, existing=match, reason=why, changes=changes)
            )
            continue
        reason = f"“{match}” ({why})"
        reviewed.append(replace(item, decision=Decision.DUPLICATE, existing=match, reason=reason))
    return OutputReview(outputs=tuple(reviewed))


def _year(released: str) -> int | None:
    return int(released[:4]) if released[:4].isdigit() else None


def _changes(output: Output, read: ReadOutput) -> tuple[Change, ...]:
    """What the record says otherwise than the output on the site, field by field, as the
    model reads it (a licence in SPDX's spelling, a date as a partial date). A field the record
    leaves empty changes nothing: a record that omits the licence does not erase it."""
    candidate = _cleaned(read, slug=output.slug)
    changes = []
    for name in UPDATED_FIELDS:
        old, new = getattr(output, name), getattr(candidate, name)
        if new in (None, "") or _same(name, old, new):
            continue
        changes.append(
            Change(
                field=name,
                label=_label(name),
                old=_shown(output, name),
                new=_shown(candidate, name),
            )
        )
    return tuple(changes)


def _same(name: str, old: object, new: object) -> bool:
    """DOIs are the same whatever their case (doi.org reads them so)."""
    if name == "doi" and isinstance(old, str) and isinstance(new, str):
        return old.casefold() == new.casefold()
    return old == new


def _shown(output: Output, name: str) -> str:
    if name == "kind":
        return str(output.get_kind_display())
    value = getattr(output, name)
    return "" if value is None else str(value)


def _match(
    creator: Creator, people: AuthorNames, by_orcid: dict[str, Person | ExternalPerson]
) -> CreatorMatch:
    """The author matching of paper imports (AuthorMatch.of): ORCID iD first, then the name."""
    author = AuthorMatch.of(creator.name, people, by_orcid.get(creator.orcid))
    return CreatorMatch(
        creator=creator,
        researcher=author.member or author.external,
        unlinked_reason=author.unlinked_reason,
    )


def _field_problems(read: ReadOutput) -> list[str]:
    """The model's own rules (lengths, SPDX licence, DOI, address, date), as the admin's form
    would say them."""
    if read.problems:
        return []
    try:
        _cleaned(read, slug="")
    except ValidationError as error:
        return [
            f"{_label(field)}: {message}"
            for field, messages in error.message_dict.items()
            for message in messages
        ]
    return []


def _cleaned(read: ReadOutput, *, slug: str) -> Output:
    """The record as an unsaved output, its fields as the model reads them (a licence in SPDX's
    spelling, a date as a partial date). ValidationError when the model refuses it."""
    candidate = _output(read, slug=slug)
    candidate.full_clean(
        exclude=["slug", "description_html"], validate_unique=False, validate_constraints=False
    )
    return candidate


def _label(name: str) -> str:
    return str(getattr(Output._meta.get_field(name), "verbose_name", name)).capitalize()


def _output(read: ReadOutput, *, slug: str) -> Output:
    return Output(
        kind=read.kind,
        title=read.title,
        slug=slug,
        version=read.version,
        licence=read.licence,
        url=read.url,
        doi=read.doi,
        released=read.released or None,
        description=read.description,
    )


def _new_people_problems(creators: Sequence[CreatorMatch]) -> list[str]:
    """The rules a new external person's record keeps (a visible name, its length)."""
    problems = []
    for match in creators:
        if match.researcher is not None or not match.creator.name:
            continue
        if len(match.creator.name) > MAX_NAME_LENGTH:
            problems.append(
                f"A creator's name is {len(match.creator.name):,} characters long; a name "
                f"holds at most {MAX_NAME_LENGTH}."
            )
            continue
        try:
            validate_visible_name(match.creator.name)
        except ValidationError as error:
            problems.append(f"Creator “{match.creator.name}”: {' '.join(error.messages)}")
    return problems


def _repeated_creators(creators: Sequence[CreatorMatch]) -> list[str]:
    found = [match.researcher.pk for match in creators if match.researcher is not None]
    repeated = {pk for pk, count in Counter(found).items() if count > 1}
    names = dict.fromkeys(
        match.creator.name
        for match in creators
        if match.researcher is not None and match.researcher.pk in repeated
    )
    return [f"It names {name} twice among its creators." for name in names]


class SiteChanged(Exception):
    """The save met a row added since the review (an ORCID iD held once, a slug): the review
    does not check what the save does. Nothing was written."""

    def __init__(self) -> None:
        super().__init__(
            "Nothing was imported: an output or a person this file names was added or changed "
            "on the site after the file was reviewed."
        )


def import_outputs(
    *,
    review: OutputReview,
    chosen: Collection[str] | None = None,
    user: Editor = None,
    publish: bool = True,
    reviewed: ReviewedChanges | None = None,
) -> list[Output]:
    """Save the chosen records of `review`: new ones (all of them when `chosen` is None), their
    creators (new external people for those matched to nobody) and their related papers, and
    the updates `chosen` names (none when it is None: an update is applied only when asked
    for), each a version in the output's history. New outputs are published at once, as an
    editor's imported papers are, or kept as drafts (`publish` off); an update leaves that as
    it is. `reviewed` (the admin, which reviews again at confirmation) holds the changes the
    editor saw: only those are applied, and a field whose value on the site is no longer the
    one shown makes it SiteChanged. One transaction: all or nothing; SiteChanged when the site
    changed under the review."""
    try:
        return _save_reviewed(
            review=review, chosen=chosen, user=user, publish=publish, reviewed=reviewed
        )
    except (ValidationError, IntegrityError, Output.DoesNotExist):
        raise SiteChanged from None


@transaction.atomic
def _save_reviewed(
    *,
    review: OutputReview,
    chosen: Collection[str] | None,
    user: Editor,
    publish: bool,
    reviewed: ReviewedChanges | None,
) -> list[Output]:
    wanted = set(review.importable_keys if chosen is None else chosen)
    taken = set(Output.objects.values_list("slug", flat=True)) | RESERVED_SLUGS
    made_people: dict[str, Researcher] = {}
    saved = []
    for item in review.outputs:
        if item.key not in wanted:
            continue
        if item.is_update:
            saved.append(_update(item, user=user, reviewed=reviewed))
            continue
        if not item.importable:
            continue
        read = item.read
        slug = unique_title_slug(
            read.title, taken=taken, url_name=Output.url_name, fallback="output"
        )
        output = _output(read, slug=slug)
        output.is_published = publish
        output.full_clean()
        save_with_history(output, reason=IMPORTED, user=user)
        for position, match in enumerate(item.creators, start=1):
            researcher = match.researcher or _external_person(match.creator, made_people, user)
            row = OutputCreator(output=output, position=position, researcher=researcher)
            row.full_clean()
            row.save()
        if item.papers:
            output.publications.add(*item.papers)
        saved.append(output)
    return saved


def _update(item: ReviewedOutput, *, user: Editor, reviewed: ReviewedChanges | None) -> Output:
    """The reviewed changes written on the output as it stands now (read again, locked), one
    version in its history saying where they came from. With `reviewed`, the fields the editor
    saw, each still as shown on the site (SiteChanged if not), not those `item` finds now."""
    assert item.existing is not None  # an update names the output it changes
    output: Output = Output.objects.select_for_update().get(pk=item.existing.pk)
    candidate = _cleaned(item.read, slug=output.slug)
    if reviewed is None:
        fields = [change.field for change in item.changes]
    else:
        shown = reviewed.get(item.key, ())
        changed = (name not in UPDATED_FIELDS or _shown(output, name) != old for name, old in shown)
        if not shown or any(changed):  # no update was shown, or a field shown changed since
            raise SiteChanged
        fields = [name for name, _old in shown]
    for name in fields:
        setattr(output, name, getattr(candidate, name))
    output.full_clean()
    save_with_history(output, reason=UPDATED, user=user)
    return output


def _external_person(creator: Creator, made: dict[str, Researcher], user: Editor) -> Researcher:
    """A creator matched to nobody, as a new external person: once per import for one ORCID iD
    or name, so two records by the same outsider name one person."""
    key = creator.orcid or normalize_name(creator.name)
    if key not in made:
        person = ExternalPerson(
            name=creator.name,
            slug=unique_slug(creator.name),
            orcid=creator.orcid,
            affiliation=creator.affiliation[:300],
        )
        person.full_clean()
        save_with_history(person, reason=IMPORTED, user=user)
        made[key] = person
    return made[key]
