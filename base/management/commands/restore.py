from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from base.backup import BackupError, restore_backup


class Command(BaseCommand):
    help = (
        "Restore an archive made by `manage.py backup` into an empty (or just migrated) "
        "database and an empty media storage. The whole archive is verified first; a refusal "
        "leaves the site as it was. Stop the site while it runs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", type=Path, help="The .tar.gz that `backup` wrote.")

    def handle(self, *args: Any, archive: Path, **options: Any) -> None:
        try:
            manifest = restore_backup(archive_path=archive)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Restored {archive}: {manifest.summary()}; every count and file checked."
        )
