from django.db import models
from simple_history.models import HistoricalRecords


class LabQuerySet(models.QuerySet):
    def current(self) -> "Lab":
        """The one Lab row, created with defaults the first time. Hits the database."""
        lab, _ = self.get_or_create(pk=1)
        return lab


class Lab(models.Model):
    """What the site says about the lab itself: one row, edited by staff."""

    name = models.CharField(
        max_length=200, default="Lab Directory", help_text="Shown in every page's header and title."
    )
    tagline = models.CharField(
        max_length=300, blank=True, help_text="One line under the name on the home page."
    )
    about = models.TextField(blank=True, help_text="The home page's introduction. Markdown.")

    objects = LabQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = "lab"
        constraints = [
            # There is one lab: the home page and every header read row 1.
            models.CheckConstraint(condition=models.Q(pk=1), name="lab_single_row"),
        ]

    def __str__(self):
        return self.name
