"""django-simple-history's `HistoricalRecords`, for the models whose history keeps the links of
a many-to-many field (`m2m_fields`): a link made or undone from the side that does not declare
the field (`paper.events.add(talk)`, `paper.news_items.remove(item)`) is recorded too.

simple-history 3.13 hands such a change to the declaring model's receiver with the other
side's row (the paper) as the instance, and records it as a version of the paper built with
the talk's fields: `TypeError: HistoricalPublication() got unexpected keyword arguments`. The
links live in the declaring model's history only (a talk's versions list its papers), so the
change is recorded there: a new version of each talk linked or unlinked, as a link made from
the talk's side records one.
"""

from typing import Any

from django.db import models
from simple_history.models import HistoricalRecords

# On the other side's row between pre_clear and post_clear: the rows a clear() unlinks, which
# are gone from the links once it has run.
_CLEARED = "_history_rows_cleared"


class SiteHistoricalRecords(HistoricalRecords):  # type: ignore[misc]  # simple-history has no types
    def m2m_changed(
        self,
        instance: models.Model,
        action: str,
        attr: str,
        pk_set: set[Any] | None,
        reverse: bool,
        **kwargs: Any,
    ) -> None:
        if not reverse:
            super().m2m_changed(instance, action, attr, pk_set, reverse, **kwargs)
            return
        # `instance` is a row of the other side; the rows whose links changed are of `model`,
        # the side that declares the field `attr`.
        model: type[models.Model] = kwargs["model"]
        if action == "pre_clear":
            cleared = list(model._default_manager.filter(**{attr: instance}))
            instance.__dict__.setdefault(_CLEARED, {})[attr] = cleared
            return
        if action == "post_clear":
            rows = instance.__dict__.get(_CLEARED, {}).pop(attr, [])
        elif action in ("post_add", "post_remove"):
            rows = list(model._default_manager.filter(pk__in=pk_set or ()))
        else:
            return
        for row in rows:
            super().m2m_changed(row, action, attr, pk_set, False, **kwargs)
