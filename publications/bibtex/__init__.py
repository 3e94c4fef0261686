"""BibTeX in, one module per step: reading (with its limits and LaTeX decoding), venues, review
and matching, importing, jobs for the task worker, and the admin's views.

What the admin, the `import_bibtex` command and the task worker call is exported here. The
admin's views (admin_views.py, with their upload form in forms.py) are imported from their
module: it imports the tasks, which import this package. Nothing here is imported by the
models, which this package imports (so a venue's aliases are read in publications.models).
"""

from publications.bibtex.importing import ImportRefused, ImportResult, import_bibtex
from publications.bibtex.jobs import review_upload, run_import
from publications.bibtex.reading import Bibliography, parse_bibtex
from publications.bibtex.review import Decision, Review, VenueIndex, review_bibliography

__all__ = [
    "Bibliography",
    "Decision",
    "ImportRefused",
    "ImportResult",
    "Review",
    "VenueIndex",
    "import_bibtex",
    "parse_bibtex",
    "review_bibliography",
    "review_upload",
    "run_import",
]
