"""Django set up for a benchmark run as a script: the project's settings, a benchmark-only
secret key, and a fresh SQLite database in a temporary folder unless DATABASE_URL names a
PostgreSQL one (emptied by the benchmark itself). Imported for its effect, before anything that
needs Django; `TEMPORARY` is the run's folder.

Each script puts the repository's root on sys.path first (it runs with benchmarks/ there), then
imports this module.
"""

import os
import tempfile

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")
TEMPORARY = tempfile.mkdtemp(prefix="lab-bench-")
if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
    os.environ["DATABASE_URL"] = f"sqlite:///{TEMPORARY}/bench.sqlite3"

import django  # noqa: E402

django.setup()
