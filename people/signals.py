"""Signals the people app sends for the apps above it (which it may not import)."""

from django.dispatch import Signal

# Sent by the person admin after a save that changed a member's name or aliases, with
# `person`, `added` and `removed` (the names as typed, compared normalized) and `user`. A
# receiver returns a list of sentences for the editor (what it re-linked, what it left): the
# admin shows each. publications/receivers.py re-links the author rows printed with them.
names_changed = Signal()


def names_of(person: object | None) -> list[str]:
    """A member's name and aliases, as typed; none for a profile not saved yet."""
    if person is None:
        return []
    return [getattr(person, "name", ""), *getattr(person, "alias_list", [])]
