from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from publications.bibtex import (
    Decision,
    ImportRefused,
    ImportResult,
    Review,
    import_bibtex,
    parse_bibtex,
    review_bibliography,
)


class Command(BaseCommand):
    help = (
        "Import publications from a BibTeX file: prints what each entry would do (new, "
        "duplicate, likely update), then imports every new entry in one transaction. A likely "
        "update changes a paper already on the site: it is imported from the admin's review page, "
        "where an editor ticks it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The .bib file, in UTF-8.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the review and import nothing."
        )

    def handle(self, *, file: Path, dry_run: bool, **options):
        try:
            text = file.read_bytes().decode("utf-8-sig")
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file} is not UTF-8 text.") from None

        review = review_bibliography(bibliography=parse_bibtex(text))
        self.print_review(review)
        if not review.entries and not review.problems:
            raise CommandError(f"No BibTeX entry was found in {file}.")
        self.import_reviewed(review, run_import=lambda: import_bibtex(text=text), dry_run=dry_run)

    def import_reviewed(
        self, review: Review, *, run_import: Callable[[], ImportResult], dry_run: bool
    ) -> None:
        """What follows a printed review, for this command and import_works alike."""
        if not review.can_import:
            raise CommandError("Nothing was imported: fix the problems above and run again.")
        if dry_run:
            self.stdout.write("Dry run: nothing was imported.")
            return
        if not review.ticked_keys:
            self.stdout.write(
                "Nothing to import by default: import likely updates from the admin's review "
                "page, where each is ticked by hand."
                if review.importable_keys
                else "Nothing to import."
            )
            return
        try:
            result = run_import()
        except ImportRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {len(result.created)} new, updated {len(result.updated)}, "
                f"added {len(result.venues)} venues."
            )
        )

    def print_review(self, review: Review) -> None:
        for item in review.entries:
            entry = item.entry
            where = f" (line {entry.line})" if entry.line else ""
            self.stdout.write(f"[{item.decision}] {entry.key}{where}: {entry.title}")
            venue = ""
            if item.venue:
                venue = f"new venue {item.venue}" if item.venue.is_new else str(item.venue)
            details = [item.type_label, str(entry.year or "no year"), venue or "no venue"]
            self.stdout.write(f"    {', '.join(details)}")
            members = [f"{a.name} = {a.member.slug}" for a in item.authors if a.member]
            authors = f"{len(item.authors)} author{'s' if len(item.authors) != 1 else ''}"
            self.stdout.write(
                f"    {authors}" + (f"; members: {', '.join(members)}" if members else "")
            )
            if item.decision is not Decision.NEW:
                self.stdout.write(f"    {item.describe()}")
            for warning in entry.warnings:
                self.stdout.write(f"    note: {warning}")
            for note in item.venue_notes():
                self.stdout.write(f"    note: {note}")
        for problem in review.all_problems:
            self.stdout.write(self.style.ERROR(f"problem: {problem}"))
        self.stdout.write(review.summary())
