"""Django's loaddata, each paper's derived rows made once (publications/derived.py).

A fixture saves a paper and then each of its author rows; every one of those saves makes the
paper's citation key, search text and co-author pairs again. The seed's 29 papers and 271
author rows made them 300 times, three fifths of the load's time (6.6 of 11.5 s, profiled);
inside `refreshed_once()` they are made 29 times, at the end of the load, still inside its
transaction. What is stored is the same.
"""

from typing import Any

from django.core.management.commands import loaddata

from publications.derived import refreshed_once


class Command(loaddata.Command):
    def loaddata(self, fixture_labels: Any) -> None:
        # Called by `handle` inside the load's transaction: the papers are made again before
        # it commits, or not at all if a fixture fails.
        with refreshed_once():
            super().loaddata(fixture_labels)
