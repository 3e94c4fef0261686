"""What publications do when rows of the apps below them change."""

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from people.models import ExternalPerson, KnownByNames, Person
from people.signals import names_changed
from publications.derived import refresh_derived
from publications.models import Authorship, Publication
from publications.related import rebuild_later
from publications.services import link_authors, printed_as, relink_member_names


def link_authors_named_as(who: KnownByNames) -> None:
    """Link the unlinked author rows printed with `who`'s name or an alias (when unambiguous)."""
    link_authors(
        Authorship.objects.filter(printed_as([who.name, *who.alias_list]), researcher=None)
    )


@receiver(post_save, sender=ExternalPerson)
def link_authors_to_external_person(sender, instance: ExternalPerson, raw=False, **kwargs) -> None:
    """A record staff add or rename claims the unlinked author rows printed with its names, as
    a member's would. Fixtures (`raw`) carry their own links."""
    if not raw:
        link_authors_named_as(instance)


@receiver(names_changed, sender=Person)
def relink_member_names_changed(sender, person: Person, added, removed, user=None, **kwargs):
    """A member's new name or alias links the unlinked rows printed with it; a lost one
    unlinks nothing (the editor is told which rows stay)."""
    return relink_member_names(person=person, added=added, removed=removed, user=user)


@receiver(post_save, sender=Publication)
def refresh_saved_publication(sender, instance: Publication, **kwargs) -> None:
    """Its title or year may have changed its citation key and search text (a fixture's
    rows too), its year or publishing its co-author pairs."""
    refresh_derived([instance.pk])


@receiver(post_save, sender=Publication)
@receiver(post_delete, sender=Publication)
def rebuild_related_papers_later(sender, instance: Publication, raw=False, **kwargs) -> None:
    """A paper added, removed, retitled or published changes what is related to what: the
    worker builds the model anew once the save commits (publications/related.py)."""
    if not raw:
        transaction.on_commit(rebuild_later)


@receiver(post_save, sender=Authorship)
@receiver(post_delete, sender=Authorship)
def refresh_publication_of_author(sender, instance: Authorship, **kwargs) -> None:
    """A new, moved or removed author changes the search text, and may be the first author,
    whose name the citation key begins with, and changes the paper's co-author pairs."""
    refresh_derived([instance.publication_id])
