"""What publications do when rows of the apps below them change."""

from django.db.models import Q
from django.dispatch import receiver

from directory.history import object_recovered
from people.models import Person
from publications.models import Authorship
from publications.services import link_authors_to_members


@receiver(object_recovered, sender=Person)
def relink_recovered_person(sender, instance: Person, **kwargs) -> None:
    """Deleting a person unlinked their authorships; link those printed with their names again."""
    names = Q()
    for name in [instance.name, *instance.alias_list]:
        names |= Q(name__iexact=name)
    link_authors_to_members(Authorship.objects.filter(names, person=None))
