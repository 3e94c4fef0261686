"""What publications do when rows of the apps below them change."""

from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from people.models import ExternalPerson, KnownByNames
from publications.citation_keys import refresh_citation_key
from publications.models import Authorship, CoauthorPair, Publication
from publications.related import rebuild_later
from publications.search import refresh_search_text
from publications.services import link_authors


def link_authors_named_as(who: KnownByNames) -> None:
    """Link the unlinked author rows printed with `who`'s name or an alias (when unambiguous)."""
    names = Q()
    for name in [who.name, *who.alias_list]:
        names |= Q(name__iexact=name)
    link_authors(Authorship.objects.filter(names, researcher=None))


@receiver(post_save, sender=ExternalPerson)
def link_authors_to_external_person(sender, instance: ExternalPerson, raw=False, **kwargs) -> None:
    """A record staff add or rename claims the unlinked author rows printed with its names, as
    a member's would. Fixtures (`raw`) carry their own links."""
    if not raw:
        link_authors_named_as(instance)


@receiver(post_save, sender=Publication)
def refresh_saved_publication(sender, instance: Publication, **kwargs) -> None:
    """Its title or year may have changed its citation key and search text (a fixture's
    rows too), its year or publishing its co-author pairs."""
    refresh_citation_key(instance.pk)
    refresh_search_text(instance.pk)
    CoauthorPair.objects.refresh([instance.pk])


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
    refresh_citation_key(instance.publication_id)
    refresh_search_text(instance.publication_id)
    CoauthorPair.objects.refresh([instance.publication_id])
