import math
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from publications.bibtex import review_bibliography
from publications.bibtex.importing import IMPORTED_BY_IDENTIFIER, import_bibliography
from publications.identifiers.documents import MAX_DOCUMENT_BYTES, Unreadable, too_large
from publications.identifiers.fetching import default_fetch
from publications.identifiers.gathering import FORMATS, gather, read_export
from publications.identifiers.pasted import recognise
from publications.management.commands import import_bibtex


class Command(import_bibtex.Command):
    help = (
        "Add publications by identifier: DOIs, arXiv ids, an ORCID iD, a dblp person key or an "
        "OpenAlex author id (asked of the services only when IDENTIFIER_FETCHING is on), or a "
        "file those services export. Prints what each work would do, as import_bibtex does, "
        "then imports every new work in one transaction (likely updates from the admin's review "
        "page, where an editor ticks them)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "identifiers", nargs="*", help="DOIs, arXiv ids, ORCID iDs, dblp keys, OpenAlex ids."
        )
        parser.add_argument("--file", type=Path, help=f"An export instead: {FORMATS}.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the review and import nothing."
        )
        parser.add_argument(
            "--seconds",
            type=float,
            help="Stop asking the services after this many seconds in all, and import what was "
            "read (default: no limit, as no web request waits).",
        )

    def handle(self, *args: object, **options: Any) -> None:
        identifiers: list[str] = options["identifiers"]
        file: Path | None = options["file"]
        dry_run: bool = options["dry_run"]
        seconds: float | None = options["seconds"]
        if bool(identifiers) == bool(file):
            raise CommandError("Give identifiers or --file, one of the two.")
        if file is not None:
            try:
                if file.stat().st_size > MAX_DOCUMENT_BYTES:
                    raise CommandError(too_large(file.stat().st_size, what=str(file)))
                bibliography = read_export(file.read_bytes(), name=str(file))
            except OSError as error:
                raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
            except Unreadable as unreadable:
                raise CommandError(str(unreadable)) from None
        else:
            found, refused = recognise("\n".join(identifiers))
            if refused:
                raise CommandError("\n".join(refused))
            gathered = gather(
                found, fetch=default_fetch(), seconds=math.inf if seconds is None else seconds
            )
            if gathered.problems and not (gathered.works and gathered.only_late):
                raise CommandError("\n".join(gathered.problems))
            # Lines cut or not asked at --seconds: what was read is imported, these are said.
            for problem in gathered.late:
                self.stderr.write(problem)
            bibliography = gathered.bibliography()
        review = review_bibliography(bibliography=bibliography)
        self.print_review(review)
        self.import_reviewed(
            review,
            run_import=lambda: import_bibliography(
                bibliography=bibliography, reason=IMPORTED_BY_IDENTIFIER
            ),
            dry_run=dry_run,
        )
