"""Importing datasets and software from DataCite, Zenodo or CITATION.cff files: what each
record would do (new, a duplicate, or invalid; who its creators are; which papers it belongs
to), then, once an editor confirms, the chosen records saved in one transaction or none.

Called by the admin's upload page (outputs/admin.py) and `manage.py import_outputs`. Creators
are matched to researchers as a paper's authors are (publications/bibtex/review.py): by ORCID
iD, then by a name or alias that names one person only. A creator matched to nobody becomes a
new external person: an output's creators are researchers, never bare names.
"""

from collections import Counter
from collections.abc import Collection, Sequence
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
from publications.bibtex.review import AuthorMatch, Decision, normalize_title, people_by_orcid
from publications.models import Publication
from publications.services import AuthorNames, author_name_index

# The reason each version an import makes is recorded with, in the history pages.
IMPORTED = "Imported from a DataCite, Zenodo or CITATION.cff file"

# Slugs the outputs' URLs use for pages of their own (/outputs/feed/, export.bib).
RESERVED_SLUGS = {"export", "feed"}

MAX_NAME_LENGTH = Researcher._meta.get_field("name").max_length or 200


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

    @property
    def key(self) -> str:
        return str(self.read.number)

    @property
    def importable(self) -> bool:
        return self.decision is Decision.NEW

    def describe(self) -> str:
        match self.decision:
            case Decision.NEW:
                return f"New {Output.Kind(self.read.kind).label.lower()}."
            case Decision.DUPLICATE:
                return f"Duplicate of {self.reason}: nothing to import."
        return "Cannot be imported: " + " ".join(self.read.problems)


@dataclass(frozen=True)
class OutputReview:
    outputs: tuple[ReviewedOutput, ...]

    @property
    def importable_keys(self) -> list[str]:
        return [item.key for item in self.outputs if item.importable]

    def summary(self) -> str:
        counts = Counter(item.decision for item in self.outputs)
        total = len(self.outputs)
        return (
            f"{total} record{'s' if total != 1 else ''}: {counts[Decision.NEW]} new, "
            f"{counts[Decision.DUPLICATE]} duplicate{'s' if counts[Decision.DUPLICATE] != 1 else ''}, "
            f"{counts[Decision.INVALID]} that cannot be imported."
        )


def review_outputs(*, outputs: Sequence[ReadOutput]) -> OutputReview:
    """What importing each record would do. A record is a duplicate of an output with the same
    DOI or the same title (compared without case, accents or punctuation), on the site or
    earlier in the file. Writes nothing; a fixed number of queries whatever the records."""
    existing = list(Output.objects.only("title", "doi", "slug"))
    by_doi = {output.doi.casefold(): output for output in existing if output.doi}
    by_title = {normalize_title(output.title): output for output in existing}
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
        match = (by_doi.get(doi) if doi else None) or by_title.get(title)
        if match is not None:
            why = "same DOI" if doi and match.doi.casefold() == doi else "same title"
            reason = f"“{match}” ({why})"
            reviewed.append(
                replace(item, decision=Decision.DUPLICATE, existing=match, reason=reason)
            )
            continue
        reviewed.append(replace(item, decision=Decision.NEW))
    return OutputReview(outputs=tuple(reviewed))


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
    candidate = _output(read, slug="")
    try:
        candidate.full_clean(
            exclude=["slug", "description_html"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as error:
        return [
            f"{str(getattr(Output._meta.get_field(field), 'verbose_name', field)).capitalize()}: "
            f"{message}"
            for field, messages in error.message_dict.items()
            for message in messages
        ]
    return []


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
            "Nothing was imported: an output or a person this file names was added to the site "
            "after the file was reviewed."
        )


def import_outputs(
    *, review: OutputReview, chosen: Collection[str] | None = None, user: Editor = None
) -> list[Output]:
    """Save the chosen new records of `review` (all new ones when `chosen` is None), their
    creators (new external people for those matched to nobody) and their related papers. One
    transaction: all or nothing; SiteChanged when the site changed under the review."""
    try:
        return _save_reviewed(review=review, chosen=chosen, user=user)
    except (ValidationError, IntegrityError):
        raise SiteChanged from None


@transaction.atomic
def _save_reviewed(
    *, review: OutputReview, chosen: Collection[str] | None, user: Editor
) -> list[Output]:
    wanted = set(review.importable_keys if chosen is None else chosen)
    taken = set(Output.objects.values_list("slug", flat=True)) | RESERVED_SLUGS
    made_people: dict[str, Researcher] = {}
    saved = []
    for item in review.outputs:
        if item.key not in wanted or not item.importable:
            continue
        read = item.read
        slug = unique_title_slug(
            read.title, taken=taken, url_name=Output.url_name, fallback="output"
        )
        output = _output(read, slug=slug)
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
