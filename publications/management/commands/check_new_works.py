from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from people.models import Person, PersonLink
from publications.suggestions.checking import check_member
from publications.suggestions.models import WorkCheck
from publications.suggestions.tasks import check_new_works


class Command(BaseCommand):
    help = (
        "Queue a check for new works of each member with an ORCID iD or a DBLP link who was not "
        "checked (nor queued) in the last WORKS_CHECK_INTERVAL_HOURS; the task worker reads "
        "their records and keeps the works the site does not have as suggestions for them. "
        "Run it from a timer (README, 'Scheduled tasks'). The services are asked only when "
        "IDENTIFIER_FETCHING is on."
    )

    def add_arguments(self, parser):
        parser.add_argument("people", nargs="*", help="Check only these people (their slugs).")
        parser.add_argument(
            "--all", action="store_true", help="Check everyone, however recently checked."
        )
        parser.add_argument(
            "--now",
            action="store_true",
            help="Check here, one member after another, instead of queuing tasks for the worker.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dblp = PersonLink.objects.filter(person=OuterRef("pk"), kind=PersonLink.Kind.DBLP)
        people = Person.objects.filter(~Q(orcid="") | Exists(dblp))
        if slugs := options["people"]:
            people = people.filter(slug__in=slugs)
            if missing := set(slugs) - set(people.values_list("slug", flat=True)):
                raise CommandError(
                    "No member with an ORCID iD or a DBLP link has the slug "
                    + ", ".join(sorted(missing))
                    + "."
                )
        now = timezone.now()
        if not options["all"] and not options["people"]:
            since = now - timedelta(hours=settings.WORKS_CHECK_INTERVAL_HOURS)
            people = people.exclude(work_check__checked_at__gt=since).exclude(
                work_check__queued_at__gt=since
            )
        queued = 0
        for person in people.order_by("pk"):
            if options["now"]:
                check = check_member(person.pk)
                if check is not None:
                    self.stdout.write(f"{person.name}: {_said(check)}")
                continue
            WorkCheck.objects.update_or_create(
                person=person, defaults={"state": WorkCheck.State.QUEUED, "queued_at": now}
            )
            check_new_works.enqueue(person.pk)
            queued += 1
        if not options["now"]:
            self.stdout.write(f"{queued} member{'s' if queued != 1 else ''} queued for a check.")


def _said(check: WorkCheck) -> str:
    said = (
        f"{check.get_state_display()}: {check.works_read} works read, "
        f"{check.suggested} new suggested."
    )
    return f"{said} {check.message}" if check.message else said
