"""Benchmark-only settings: the project's own, plus the two baselines each page is compared with.

WHITENOISE_ROOT serves the pages' saved copies as static files under the same gunicorn and the
same middleware, and the URLconf adds a bare view; everything else is what production runs.
"""

import os
from importlib import import_module

from benchmarks.http import PROJECT_SETTINGS

_project = import_module(PROJECT_SETTINGS)
globals().update({name: value for name, value in vars(_project).items() if name.isupper()})

ROOT_URLCONF = "benchmarks.urls"
# The saved copies: <root>/__bench__/copy/NN.html is served at /__bench__/copy/NN.html.
WHITENOISE_ROOT = os.environ.get("BENCH_COPIES_ROOT") or None
# The in-process query count uses Django's test client, which calls itself "testserver".
ALLOWED_HOSTS = [*_project.ALLOWED_HOSTS, "testserver"]
