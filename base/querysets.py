from typing import Any, Self

from django.contrib.auth import get_user_model
from django.db import models

from base.markdown import RenderedMarkdownQuerySet
from base.roles import EDIT_ALL_CODENAME, is_editor, person_of
from base.site_cache import SiteQuerySet

__all__ = ["CreditedQuerySet", "FiledQuerySet", "PublishableQuerySet", "SiteQuerySet"]


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

    def waiting_for_editor(self) -> Self:
        """The drafts members added (their first version was saved by a member's login) that
        no editor has published yet, with the member's name (`submitted_by`): members' papers,
        talks, datasets and software alike (base/scoped_admin.py). Reads the model's history."""
        editors = (
            models.Q(is_superuser=True)
            | models.Q(groups__permissions__codename=EDIT_ALL_CODENAME)
            | models.Q(user_permissions__codename=EDIT_ALL_CODENAME)
        )
        members = get_user_model().objects.filter(person__isnull=False).exclude(editors)
        history = self.model.history
        added = history.filter(history_type="+", history_user__in=members)
        return self.filter(is_published=False, pk__in=added.values("id")).annotate(
            submitted_by=models.Subquery(
                added.filter(id=models.OuterRef("pk")).values("history_user__person__name")[:1]
            )
        )

    def filed_under(self, field: str, targets: Any) -> Self:
        """The rows staff filed under any of `targets` (one row, several, or a queryset)
        through the many-to-many `field`: a subquery on its through table, never a join
        repeating a row filed under two of them."""
        many = self.model._meta.get_field(field)
        through = many.remote_field.through if isinstance(many, models.ManyToManyField) else None
        if through is None:
            raise TypeError(f"{self.model.__name__}.{field} is not a many-to-many field.")
        targets = [targets] if isinstance(targets, models.Model) else targets
        tagged = through._default_manager.filter(
            **{f"{many.m2m_reverse_field_name()}__in": targets}
        )
        return self.filter(pk__in=tagged.values(many.m2m_field_name()))


class FiledQuerySet(PublishableQuerySet):
    """For pages staff file under research groups and areas (outputs, projects, papers): the
    filters a group's or an area's page, the lists' facets and the API share."""

    groups_field = "groups"
    areas_field = "areas"

    def of_groups(self, groups: Any) -> Self:
        """The rows staff filed under any of `groups` (a ResearchGroup or several)."""
        return self.filed_under(self.groups_field, groups)

    def in_areas(self, areas: Any) -> Self:
        """The rows staff filed under any of `areas` (a ResearchArea or several)."""
        return self.filed_under(self.areas_field, areas)

    def with_filing(self) -> Self:
        """Each row's published groups and areas, as `listed_groups` and `listed_areas`: what
        its own page names (one query each, whatever the number of rows)."""

        def published(field: str) -> Any:
            target: Any = self.model._meta.get_field(field).related_model
            return target.objects.published().only("name", "slug")

        return self.prefetch_related(
            models.Prefetch(self.groups_field, published(self.groups_field), "listed_groups"),
            models.Prefetch(self.areas_field, published(self.areas_field), "listed_areas"),
        )


class CreditedQuerySet(FiledQuerySet):
    """For pages that credit researchers in ordered rows of their own (an output's creators, a
    project's people): `credits_field` names those rows' reverse relation, each holding a
    `researcher` foreign key."""

    credits_field = ""

    def credits_of(self, researchers: Any) -> "models.QuerySet[Any, Any]":
        """The ids of the rows `researchers` (a Researcher, a member's Person, or several) are
        credited in: a subquery on the credit rows' researcher index."""
        relation = self.model._meta.get_field(self.credits_field)
        if not isinstance(relation, models.ManyToOneRel):
            raise TypeError(
                f"{self.model.__name__}.{self.credits_field} is not a reverse relation."
            )
        lookup = "researcher" if isinstance(researchers, models.Model) else "researcher__in"
        rows = relation.field.model._default_manager.filter(**{lookup: researchers})
        return rows.values(relation.field.name)

    def credited_to(self, researchers: Any) -> Self:
        """The rows `researchers` (a Researcher, a member's Person, or several) are credited
        in, never a join repeating a row."""
        return self.filter(pk__in=self.credits_of(researchers))

    def drafts_of(self, person: Any) -> models.Q:
        """A member previews the drafts they are credited in."""
        return models.Q(pk__in=self.credits_of(person))
