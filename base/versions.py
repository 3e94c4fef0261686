"""Versions of whole objects, on top of django-simple-history's versions of single rows.

Staff think of a paper with its authors, awards and links, and of a person with their CV
entries and links; django-simple-history versions each row on its own. So every version of
an object that has such parts also gets a HistorySnapshot (base/models.py): its parts
as they were, and the rows elsewhere that pointed at it (an author row linked to a person,
under whatever spelling; a news item about it; a person in a role group). Everything here is
read from the models' relations, so a relation added later is versioned without code here:

- parts: the rows that a CASCADE foreign key ties to the object, when they are versioned too;
- links: rows whose foreign key to the object is SET_NULL, and many-to-many relations.

A version's snapshot is taken where staff make versions, once the parts are saved too: the
admin (after its inlines), an import, the first versions of seeded rows (`record_snapshot`,
`record_first_versions`). A deletion's is taken just before any deletion, while the links
still exist. A version saved elsewhere (a shell, a test's factory) has none: its parts are
not compared, and reverting to it leaves them as they are. A revert restores the parts
(`restore_parts`); recovering a deleted object restores the links as well (`restore_links`).
"""

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from django.apps import apps
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models.signals import pre_delete
from django.dispatch import receiver
from simple_history.models import DeletedObject
from simple_history.signals import post_create_historical_record
from simple_history.utils import get_m2m_reverse_field_name

from base.models import HistorySnapshot

TEXT_SHOWN = 80  # characters of a long text shown in a difference


def is_versioned(model: Any) -> bool:
    return hasattr(model._meta, "simple_history_manager_attribute")


def history_of(model: Any) -> Any:
    return getattr(model, model._meta.simple_history_manager_attribute)


@cache
def part_relations(model: Any) -> tuple[Any, ...]:
    return tuple(
        relation
        for relation in model._meta.related_objects
        if relation.one_to_many
        and relation.on_delete is models.CASCADE
        and is_versioned(relation.related_model)
    )


@cache
def link_relations(model: Any) -> tuple[tuple[str, Any], ...]:
    """(accessor on the object, relation or field) of each link that a deletion would lose."""
    links: list[tuple[str, Any]] = [
        (relation.get_accessor_name(), relation)
        for relation in model._meta.related_objects
        if (relation.one_to_many and relation.on_delete is models.SET_NULL) or relation.many_to_many
    ]
    links += [(many.name, many) for many in model._meta.many_to_many]
    return tuple(links)


def has_snapshots(model: Any) -> bool:
    return is_versioned(model) and bool(part_relations(model) or link_relations(model))


def _rows_of(relation: Any, obj: Any) -> models.QuerySet[Any]:
    rows: models.QuerySet[Any] = relation.related_model._default_manager.filter(
        **{relation.field.name: obj}
    )
    return rows


def take_snapshot(obj: Any) -> dict[str, Any]:
    """The parts and links of `obj` as stored now: one query per relation."""
    parts = {
        relation.get_accessor_name(): json.loads(
            serializers.serialize("json", _rows_of(relation, obj))
        )
        for relation in part_relations(obj._meta.model)
    }
    links = {}
    for accessor, relation in link_relations(obj._meta.model):
        if isinstance(relation, models.ManyToOneRel):
            rows = _rows_of(relation, obj)
        else:
            rows = getattr(obj, accessor).all()
        links[accessor] = sorted(rows.values_list("pk", flat=True))
    return {"parts": parts, "links": links}


def snapshot_of(record: Any) -> HistorySnapshot | None:
    label = record.instance_type._meta.label_lower
    return HistorySnapshot.objects.filter(model=label, history_id=record.history_id).first()


def snapshots_of(model: Any, records: Iterable[Any]) -> dict[int, HistorySnapshot]:
    """The snapshots of these versions by history_id, in one query."""
    ids = [record.history_id for record in records]
    found = HistorySnapshot.objects.filter(model=model._meta.label_lower, history_id__in=ids)
    return {snapshot.history_id: snapshot for snapshot in found}


def record_snapshot(obj: Any) -> None:
    """Snapshot `obj` again into its latest version, once its parts have been saved."""
    if not has_snapshots(obj._meta.model):
        return
    latest = history_of(type(obj)).filter(**{obj._meta.pk.attname: obj.pk}).first()
    if latest is not None:
        HistorySnapshot.objects.update_or_create(
            model=obj._meta.label_lower, history_id=latest.history_id, defaults=take_snapshot(obj)
        )


@receiver(pre_delete, dispatch_uid="base.versions.snapshot_before_deletion")
def _snapshot_before_deletion(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Deleting cuts the links (SET_NULL, many-to-many) before the deletion is recorded."""
    if has_snapshots(sender):
        instance._snapshot_at_deletion = take_snapshot(instance)


@receiver(post_create_historical_record, dispatch_uid="base.versions.snapshot_deletion")
def _snapshot_deletion(sender: Any, instance: Any, history_instance: Any, **kwargs: Any) -> None:
    snapshot = getattr(instance, "_snapshot_at_deletion", None)
    if history_instance.history_type == "-" and snapshot is not None:
        HistorySnapshot.objects.update_or_create(
            model=instance._meta.label_lower,
            history_id=history_instance.history_id,
            defaults=snapshot,
        )


# First versions ------------------------------------------------------------------------------


def record_first_versions(*, reason: str) -> int:
    """Give every versioned object that has no version yet (loaded from fixtures, or stored
    before its model was versioned) a first one, with `reason`. Returns how many."""
    created = 0
    for model in apps.get_models():
        if not is_versioned(model):
            continue
        history = history_of(model)
        pk_name = model._meta.pk.attname
        missing = list(model._default_manager.exclude(pk__in=history.values(pk_name)))
        if not missing:
            continue
        records = history.bulk_history_create(missing, default_change_reason=reason)
        created += len(missing)
        if has_snapshots(model):
            by_pk = {obj.pk: obj for obj in missing}
            HistorySnapshot.objects.bulk_create(
                HistorySnapshot(
                    model=model._meta.label_lower,
                    history_id=record.history_id,
                    **take_snapshot(by_pk[getattr(record, pk_name)]),
                )
                for record in records
            )
    return created


# Restoring -----------------------------------------------------------------------------------


def restore_parts(obj: Any, parts: dict[str, Any]) -> None:
    """Make `obj`'s parts what `parts` (a snapshot's) says: rows it lacks are deleted, the
    others saved as they were, under their old ids. A member a row named who has since been
    deleted is left out of the row."""
    for relation in part_relations(obj._meta.model):
        rows = parts.get(relation.get_accessor_name())
        if rows is None:
            continue  # a snapshot from before this relation existed: leave the rows alone
        model = relation.related_model
        current = _rows_of(relation, obj)
        kept = {row["pk"] for row in rows}
        for gone in current.exclude(pk__in=kept):
            gone.delete()
        restored: list[Any] = [item.object for item in serializers.deserialize("python", rows)]
        _without_missing_targets(restored, skip=relation.field)
        if any(field.name == "position" for field in model._meta.fields):
            # Out of the way of the restored places first (unique per parent).
            highest = max([row.position for row in restored] + [0])
            top = current.aggregate(top=models.Max("position"))["top"] or 0
            current.update(position=models.F("position") + max(highest, top) + 1)
        for row in restored:
            setattr(row, relation.field.attname, obj.pk)
            row.save()


def _without_missing_targets(rows: list[Any], *, skip: Any) -> None:
    by_field: dict[Any, set[Any]] = defaultdict(set)
    for row in rows:
        for model_field in row._meta.fields:
            value = getattr(row, model_field.attname)
            if model_field.many_to_one and model_field != skip and value is not None:
                by_field[model_field].add(value)
    for model_field, wanted in by_field.items():
        existing = set(
            model_field.related_model._default_manager.filter(pk__in=wanted).values_list(
                "pk", flat=True
            )
        )
        for row in rows:
            if getattr(row, model_field.attname) not in existing | {None}:
                setattr(row, model_field.attname, None)


def restore_links(obj: Any, links: dict[str, Any]) -> None:
    """Point again at `obj` what pointed at it (rows that still exist, and that point at
    nothing else meanwhile)."""
    for accessor, relation in link_relations(obj._meta.model):
        pks = links.get(accessor) or []
        if not pks:
            continue
        if isinstance(relation, models.ManyToOneRel):
            attname = relation.field.attname
            related: Any = relation.related_model
            for row in related._default_manager.filter(pk__in=pks, **{attname: None}):
                setattr(row, attname, obj.pk)
                row.save(update_fields=[attname])
        elif isinstance(relation, models.ManyToManyRel):
            # Added from each row's side, so the row's own history records the link it gets
            # back: django-simple-history records an add from this side as a version of `obj`
            # made with the row's model's settings (its excluded fields), which may not fit.
            name, linking = relation.field.name, cast(Any, relation.related_model)
            for row in linking._default_manager.filter(pk__in=pks):
                getattr(row, name).add(obj)
        else:
            manager = getattr(obj, accessor)
            manager.add(*manager.model._default_manager.filter(pk__in=pks))


def missing_files(obj: Any) -> list[Any]:
    """The file fields of `obj` that name a file its storage no longer has."""
    return [
        field
        for field in obj._meta.fields
        if isinstance(field, models.FileField)
        and (value := getattr(obj, field.attname))
        and not field.storage.exists(str(value))
    ]


# Differences in words ------------------------------------------------------------------------


@dataclass
class Labels:
    """Names of the rows that a page of differences mentions, read in one query per model."""

    wanted: dict[Any, set[Any]] = field(default_factory=lambda: defaultdict(set))
    found: dict[Any, dict[Any, Any]] = field(default_factory=dict)

    def want(self, model: Any, pk: Any) -> None:
        if pk is not None:
            self.wanted[model].add(pk)

    def of(self, model: Any, pk: Any) -> str:
        if pk is None:
            return ""
        if pk not in self.found.get(model, {}):
            self.found[model] = model._default_manager.in_bulk(self.wanted[model] | {pk})
        row = self.found[model].get(pk)
        return str(row) if row is not None else f"a deleted {model._meta.verbose_name}"


def describe(model_field: Any, value: Any, labels: Labels | None = None) -> str:
    """A stored value as staff read it: "yes", a choice's label, a member's name."""
    if isinstance(value, DeletedObject):
        return f"a deleted {model_field.related_model._meta.verbose_name}"
    if value is None or value == "":
        return "(empty)"
    if isinstance(model_field, models.BooleanField):
        return "yes" if value else "no"
    if model_field.choices:
        return str(dict(model_field.flatchoices).get(value, value))
    if model_field.many_to_one and labels is not None and not isinstance(value, models.Model):
        return labels.of(model_field.related_model, value)
    text = " ".join(str(value).split())
    return text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1] + "…"


def field_changes(newer: Any, older: Any) -> list[str]:
    """ "Visible on the site: no → yes" for each field a version changed."""
    model = newer.instance_type
    delta = newer.diff_against(older, foreign_keys_are_objs=True)
    changes = []
    for change in delta.changes:
        model_field = model._meta.get_field(change.field)
        if model_field.many_to_many:
            old = ", ".join(str(item) for item in _m2m_objects(model_field, change.old)) or "(none)"
            new = ", ".join(str(item) for item in _m2m_objects(model_field, change.new)) or "(none)"
        else:
            old, new = describe(model_field, change.old), describe(model_field, change.new)
        changes.append(f"{_label(model_field)}: {old} → {new}")
    return changes


def _m2m_objects(model_field: Any, values: Any) -> list[Any]:
    related = model_field.related_model
    name = get_m2m_reverse_field_name(model_field)
    chosen = [value[name] for value in values]
    pks = [item for item in chosen if not isinstance(item, models.Model)]
    rows = related._default_manager.in_bulk(pks) if pks else {}
    return [
        item
        if isinstance(item, models.Model)
        else rows.get(item, f"a deleted {related._meta.verbose_name}")
        for item in chosen
    ]


def _label(model_field: Any) -> str:
    name = str(model_field.verbose_name)
    return name[:1].upper() + name[1:]


def _row_objects(
    rows: list[dict[str, Any]], *, parent: Any = None, field: Any = None
) -> dict[Any, Any]:
    """The rows of a snapshot as model instances; given `parent`, each row's `field` is that
    object itself, which may no longer be stored (a deleted object's version)."""
    objects = {}
    for item in serializers.deserialize("python", rows):
        if parent is not None:
            setattr(item.object, field.name, parent)
        objects[item.object.pk] = item.object
    return objects


def _text(row: Any) -> str:
    """A row as the admin names it; a name made from a row deleted since cannot be read."""
    try:
        return str(row)
    except ObjectDoesNotExist:
        return f"a {row._meta.verbose_name} of a deleted row"


def part_changes(
    model: Any, newer: dict[str, Any], older: dict[str, Any], labels: Labels
) -> list[str]:
    """What a version changed in the object's parts: rows added, removed or changed, and
    the new order when rows moved."""
    changes = []
    for relation in part_relations(model):
        accessor = relation.get_accessor_name()
        if accessor not in newer or accessor not in older:
            continue
        before, after = _row_objects(older[accessor]), _row_objects(newer[accessor])
        part_model = relation.related_model
        name = _label_plural(part_model)
        fields = [
            model_field
            for model_field in part_model._meta.fields
            if model_field.editable
            and not model_field.primary_key
            and model_field.name != "position"
            and model_field != relation.field
        ]
        for row in [*before.values(), *after.values()]:
            for model_field in fields:
                if model_field.many_to_one:
                    labels.want(model_field.related_model, getattr(row, model_field.attname))
        for pk, row in after.items():
            if pk not in before:
                changes.append(f"{name}: added “{_text(row)}”")
        for pk, row in before.items():
            if pk not in after:
                changes.append(f"{name}: removed “{_text(row)}”")
        for pk, row in after.items():
            if pk not in before:
                continue
            for model_field in fields:
                old = getattr(before[pk], model_field.attname)
                new = getattr(row, model_field.attname)
                if old != new:
                    changes.append(
                        f"{name}, “{_text(before[pk])}”: {_label(model_field)}: "
                        f"{describe(model_field, old, labels)} → "
                        f"{describe(model_field, new, labels)}"
                    )
        common_before = [pk for pk in before if pk in after]
        common_after = [pk for pk in after if pk in before]
        if common_before != common_after:
            order = ", ".join(_text(row) for row in after.values())
            changes.append(f"{name}: new order: {order}")
    return changes


def _label_plural(model: Any) -> str:
    name = str(model._meta.verbose_name_plural)
    return name[:1].upper() + name[1:]


def parts_in_words(
    model: Any, parts: dict[str, Any], *, parent: Any
) -> list[tuple[str, list[str]]]:
    """(section, its rows) of a version's parts, for the page that shows the version of
    `parent` (the object as that version has it)."""
    return [
        (
            _label_plural(relation.related_model),
            [
                _text(row)
                for row in _row_objects(rows, parent=parent, field=relation.field).values()
            ],
        )
        for relation in part_relations(model)
        if (rows := parts.get(relation.get_accessor_name())) is not None
    ]
