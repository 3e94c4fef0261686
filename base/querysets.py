from typing import Any, Self

from django.db import models

from base.markdown import RenderedMarkdownQuerySet
from base.roles import is_editor, person_of
from base.site_cache import SiteQuerySet

__all__ = ["PublishableQuerySet", "SiteQuerySet"]


class PublishableQuerySet(RenderedMarkdownQuerySet):
    """For PublicPage models (base/models.py): drafts stay off every public page."""

    def get_by_natural_key(self, slug: str) -> Any:
        return self.get(slug=slug)

    def published(self) -> Self:
        return self.filter(is_published=True)

    def visible_to(self, user: Any) -> Self:
        """Published rows, plus the drafts a staff member may preview through "view on site":
        every draft for editors, their own for a member."""
        if is_editor(user):
            return self
        person = person_of(user) if user.is_staff else None
        if person is None:
            return self.published()
        return self.filter(models.Q(is_published=True) | self.drafts_of(person))

    def drafts_of(self, person: Any) -> models.Q:
        """The rows that are `person`'s own, for their previews; none unless a model says."""
        return models.Q(pk__in=[])
