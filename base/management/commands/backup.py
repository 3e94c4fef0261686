import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from base.backup import BackupError, create_backup


class Command(BaseCommand):
    help = (
        "Write the database and the uploaded media to one archive (.tar.gz) with a manifest of "
        "row counts and file checksums. Safe while the site runs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            type=Path,
            help="The archive to write (default: backups/site-<UTC date and time>.tar.gz).",
        )

    def handle(self, *args: Any, output: Path | None = None, **options: Any) -> None:
        if output is None:
            stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H%M%SZ")
            output = Path("backups") / f"site-{stamp}.tar.gz"
        try:
            manifest = create_backup(output=output)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up to {output}: {manifest.summary()}.")
