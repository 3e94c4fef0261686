"""`manage.py build_related_papers`: the related papers' model built now, in this process (the
worker builds it after papers change; this is for a first build, or a site without a worker)."""

import time

from django.core.management.base import BaseCommand

from publications import related


class Command(BaseCommand):
    help = "Builds the model behind the related papers and the topic search (needs the `related` extra)."

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        model = related.rebuild()
        seconds = time.perf_counter() - started
        if model is None:
            self.stdout.write("Too few papers share words for a model: none is shown.")
            return
        self.stdout.write(
            f"Related papers: a model of {len(model.ids):,} papers and {len(model.vocabulary):,} "
            f"words in {seconds:.1f} s, written to {related.model_path()}."
        )
