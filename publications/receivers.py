"""What publications do when rows of the apps below them change."""

from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from directory.history import object_recovered
from people.models import ExternalPerson, KnownByNames, Person
from publications.models import Authorship
from publications.services import link_authors


def link_authors_named_as(who: KnownByNames) -> None:
    """Link the unlinked author rows printed with `who`'s name or an alias (when unambiguous)."""
    names = Q()
    for name in [who.name, *who.alias_list]:
        names |= Q(name__iexact=name)
    link_authors(Authorship.objects.filter(names, person=None, external=None))


@receiver(object_recovered, sender=Person)
def relink_recovered_person(sender, instance: Person, **kwargs) -> None:
    """Deleting a person unlinked their authorships; link those printed with their names again."""
    link_authors_named_as(instance)


@receiver(post_save, sender=ExternalPerson)
def link_authors_to_external_person(sender, instance: ExternalPerson, raw=False, **kwargs) -> None:
    """A record staff add or rename claims the unlinked author rows printed with its names, as
    a member's would. Fixtures (`raw`) carry their own links."""
    if not raw:
        link_authors_named_as(instance)
