# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve test install upgrade migrations-check messages lint format bench bench-bibtex bench-export load vnu screenshots duplicates

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

## The releases in constraints.txt (docs/decisions/dependency-pins.md): what CI last passed with,
## pip and the build's setuptools among them (built without isolation, which would fetch the newest).
$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -c constraints.txt pip setuptools
	$(BIN)/python -m pip install --quiet --no-build-isolation -c constraints.txt -e '.[test]'
	touch $@

install: $(VENV)/.installed

## The newest release of every dependency pyproject.toml allows (pip and setuptools too), installed
## into a new virtualenv with CI's Python (3.11) and written to constraints.txt under its header
## comment; then run `make test` and commit the file.
upgrade:
	@$(PYTHON) -c 'import sys; sys.version_info[:2] == (3, 11) or sys.exit("constraints.txt pins what CI installs, with Python 3.11: make upgrade PYTHON=python3.11")'
	rm -rf .upgrade-venv constraints.new
	$(PYTHON) -m venv .upgrade-venv
	.upgrade-venv/bin/python -m pip install --quiet --upgrade pip setuptools
	.upgrade-venv/bin/python -m pip install --quiet --no-build-isolation -e '.[test]'
	{ sed -n '/^#/p' constraints.txt; .upgrade-venv/bin/python -m pip freeze --all --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt
	rm -rf .upgrade-venv
	-git diff --stat constraints.txt

## The W3C's Nu HTML Checker, which the HTML test runs with Java (tests/tools.py): vnu.jar from
## the npm registry (PyPI's copies are years old), into the git-ignored .tools/. Needs npm.
VNU_VERSION := 26.9.27
VNU_JAR := .tools/node_modules/vnu-jar/build/dist/vnu.jar

$(VNU_JAR): Makefile
	npm install --prefix .tools --no-save --no-audit --no-fund --ignore-scripts vnu-jar@$(VNU_VERSION)
	touch $@

vnu: $(VNU_JAR)

## Re-take the README's screenshots (docs/*.png) from a freshly seeded site with Chromium, and
## the staff guide's (docs/staff-guide/*.png) by walking its steps (tests/browser/test_staff_guide.py).
screenshots: install
	$(BIN)/python docs/screenshots.py
	STAFF_GUIDE_DIR=docs/staff-guide $(BIN)/python -m pytest tests/browser/test_staff_guide.py -q -p no:cacheprovider

## Install, migrate, seed the four profiles into an empty database, serve on 127.0.0.1:8000,
## with the task worker (large BibTeX imports, visitors' CV PDFs) beside it; Ctrl+C stops both.
run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed
	DEBUG=1 $(BIN)/python manage.py db_worker --no-reload --verbosity 0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

## The production server (config/serve.py: granian, its time-outs and limits explained there),
## on HOST:PORT with the environment's settings (README, "Production"): collect the static files
## first. WEB_CONCURRENCY processes (2), WEB_THREADS threads each (8); the task worker (large
## BibTeX imports, visitors' CV PDFs) beside it, at a lower CPU priority; Ctrl+C stops both.
serve: install
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	nice -n 10 $(BIN)/python manage.py db_worker --no-reload --verbosity 0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m config.serve

## Install, then run every check and test.
test: install migrations-check lint
	$(BIN)/python -m pytest

migrations-check: install
	DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run

## The Chinese catalogue (docs/decisions/languages.md): gather the strings wrapped in the public
## templates and code into locale/zh_Hans/LC_MESSAGES/django.po, to translate there; then compile it
## to django.mo, which is committed (the site needs no gettext tools). Needs gettext (xgettext, msgfmt).
messages: install
	DEBUG=1 $(BIN)/python manage.py makemessages -l zh_Hans --no-obsolete \
		--ignore=.venv --ignore=.tools --ignore=node_modules --ignore=tests --ignore=templates/admin
	DEBUG=1 $(BIN)/python manage.py compilemessages -l zh_Hans --ignore=.venv --ignore=.tools

## Style, and the layers (docs/architecture.md): import-linter's contract and mypy's types.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DEBUG=1 $(BIN)/mypy

## Issue 25's count of duplicated code (docs/decisions/duplicates.md): the `duplicates` tool over
## the tracked files without the migration folders; the first line is the count, MOST=200 lists more.
duplicates:
	.ci/duplicates

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Serve 2k, 20k and 200k generated papers with gunicorn and time every page (prints figures;
## not part of `test`). BENCH_ARGS=--quick for 2k and 20k; DATABASE_URL=postgres://... for PostgreSQL.
## Then the related papers' model on the same data sets: build, size, related list, topic query.
bench: install
	$(BIN)/python benchmarks/http.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/related_work.py $(BENCH_ARGS)

## The public pages under wrk while an editor saves in the admin: requests/s, p99, errors.
load: install
	$(BIN)/python benchmarks/load.py $(LOAD_ARGS)

## Time LaTeX decoding and BibTeX reading: pylatexenc against our pieces, hostile files (prints figures).
bench-bibtex: install
	$(BIN)/python benchmarks/bibtex_reading.py

## Stream the whole BibTeX export of 200,000 papers through gunicorn: its time and the worker's
## memory growth (prints figures). BENCH_ARGS="--sizes 20000" for another size.
bench-export: install
	$(BIN)/python benchmarks/export_stream.py $(BENCH_ARGS)
