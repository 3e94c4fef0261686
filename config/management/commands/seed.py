from django.core.management import call_command
from django.core.management.base import BaseCommand

from base.versions import record_first_versions
from people.models import Person

# In dependency order, so every natural key a file refers to is already loaded.
FIXTURES = ["role_groups", "venues", "people", "department", "publications", "news"]


class Command(BaseCommand):
    help = (
        "Load the seeded profiles when the database has no people yet, and give every row "
        "without history its first version (safe to run twice)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Load the fixtures even if people exist."
        )

    def handle(self, *args, force=False, **options):
        if Person.objects.exists() and not force:
            self.stdout.write("The database already has people; nothing loaded.")
        else:
            call_command("loaddata", *FIXTURES, verbosity=options["verbosity"])
        # Fixtures load without history: each row gets its first version, so its first edit
        # has something to compare with and to revert to.
        recorded = record_first_versions(reason="Seeded")
        if recorded:
            self.stdout.write(f"Recorded the first version of {recorded} rows.")
