from typing import Any

from django.core.management.base import BaseCommand

from publications.suggestions.citations import refresh_citation_counts
from publications.suggestions.tasks import refresh_counts


class Command(BaseCommand):
    help = (
        "Ask OpenAlex and Crossref how often each paper with a DOI is cited and keep today's "
        "count with its source (papers counted longest ago first, for at most five minutes). "
        "Queued for the task worker unless --now. Run it from a timer (README, 'Scheduled "
        "tasks'); the services are asked only when IDENTIFIER_FETCHING is on."
    )

    def add_arguments(self, parser):
        parser.add_argument("--now", action="store_true", help="Ask here instead of queuing.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["now"]:
            self.stdout.write(refresh_citation_counts().summary())
        else:
            refresh_counts.enqueue(None)
            self.stdout.write("Queued: the task worker asks the services.")
