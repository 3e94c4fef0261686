from django.core.management import call_command
from django.core.management.base import BaseCommand

from people.models import Person

# In dependency order, so every natural key a file refers to is already loaded.
FIXTURES = ["role_groups", "venues", "people", "department", "publications", "news"]


class Command(BaseCommand):
    help = "Load the seeded profiles when the database has no people yet (safe to run twice)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Load the fixtures even if people exist."
        )

    def handle(self, *args, force=False, **options):
        if Person.objects.exists() and not force:
            self.stdout.write("The database already has people; nothing loaded.")
            return
        call_command("loaddata", *FIXTURES, verbosity=options["verbosity"])
