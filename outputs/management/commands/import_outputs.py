from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from outputs.fetching import FETCHED, dois_in, fetch_records
from outputs.formats import MAX_FILE_BYTES, read_outputs, too_large
from outputs.importing import SiteChanged, import_outputs, review_outputs
from publications.identifiers.documents import Unreadable


class Command(BaseCommand):
    help = (
        "Import datasets and software from a DataCite or Zenodo JSON record or a CITATION.cff "
        "file, or by DOI from DataCite (--doi, with IDENTIFIER_FETCHING on). Prints what each "
        "record would do, then imports every new one in one transaction (the admin's import "
        "page lets an editor leave some out). A record of an output already on the site that "
        "says something else is reported as an update and applied only with --apply-updates."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, nargs="?")
        parser.add_argument(
            "--doi",
            action="append",
            default=[],
            dest="dois",
            help="A DOI whose record DataCite gives (Zenodo's too); repeat it for several.",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the review and import nothing."
        )
        parser.add_argument(
            "--apply-updates",
            action="store_true",
            help="Also write the updates the review reports on outputs already on the site "
            "(each a version in the output's history). Off by default: they are only reported.",
        )
        parser.add_argument(
            "--drafts",
            action="store_true",
            help="Keep the new records as drafts, off the site until an editor publishes them "
            "(by default they are published at once, as imported papers are).",
        )

    def handle(
        self,
        *,
        file: Path | None,
        dois: list[str],
        dry_run: bool,
        apply_updates: bool,
        drafts: bool,
        **options,
    ):
        if (file is None) == (not dois):
            raise CommandError("Give a file, or one or more --doi, but not both.")
        late = ""
        try:
            if file is None:
                fetched = fetch_records(dois_in(" ".join(dois)))
                records = read_outputs(fetched.data, name=FETCHED)
                late = fetched.late_sentence()
            else:
                size = file.stat().st_size
                if size > MAX_FILE_BYTES:
                    raise CommandError(too_large(size, name=str(file)))
                records = read_outputs(file.read_bytes(), name=str(file))
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except Unreadable as unreadable:
            raise CommandError(str(unreadable)) from None
        review = review_outputs(outputs=records)
        for item in review.outputs:
            self.stdout.write(
                f"[{item.decision}] {item.key} ({item.read.source}): {item.read.title}"
            )
            for match in item.creators:
                self.stdout.write(f"    {match.describe()}")
            for paper in item.papers:
                self.stdout.write(f"    paper: {paper.title}")
            self.stdout.write(f"    {item.describe()}")
        self.stdout.write(review.summary())
        if late:
            self.stderr.write(late)
        if dry_run:
            self.stdout.write("Dry run: nothing was imported.")
            return
        updates = review.update_keys if apply_updates else []
        try:
            saved = import_outputs(
                review=review,
                chosen=[*review.importable_keys, *updates],
                publish=not drafts,
            )
        except SiteChanged as changed:
            raise CommandError(f"{changed} Run the command again to review it anew.") from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported {len(saved) - len(updates)} new record(s).")
        )
        if updates:
            self.stdout.write(self.style.SUCCESS(f"Updated {len(updates)} output(s) on the site."))
        elif review.update_keys:
            self.stdout.write(
                f"{len(review.update_keys)} update(s) reported above were not applied: run the "
                "command again with --apply-updates to apply them."
            )
