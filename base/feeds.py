"""Atom feeds that XML can always carry.

XML 1.0 has no way to write most control characters, so Django's feed writer refuses a title
holding one (UnserializableContentError) and the whole feed answers 500. Validation keeps new
rows free of them (base/validation.py); this writer drops them from rows stored before,
so one bad row can never take a feed down for every reader.
"""

from typing import Any

from django.utils.feedgenerator import Atom1Feed

from base.validation import without_control_characters


class XmlSafeAtom1Feed(Atom1Feed):
    def write(self, outfile: Any, encoding: str) -> None:
        self.feed = without_control_characters(self.feed)
        self.items = without_control_characters(self.items)
        super().write(outfile, encoding)
