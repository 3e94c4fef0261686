from django.db import models


class PublishableQuerySet(models.QuerySet):
    """For models with an `is_published` flag: drafts stay off every public page."""

    def published(self):
        return self.filter(is_published=True)

    def visible_to(self, user):
        """Published rows, and drafts too for staff, who preview them through "view on site"."""
        return self if user.is_staff else self.published()
