"""A visitor's CV PDF printed by a real `manage.py db_worker` process beside a real app server,
sharing the site's database and file cache as `make serve` runs them (base/pdf_renders.py):
the first request queues the print and is answered 503, a later one gets the PDF the worker
printed with WeasyPrint. tests/people/test_cv_pdf_bounded.py tests the rules in-process."""

import contextlib
import io
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pikepdf
import pytest

from tests.live_site import PROJECT, prepare_site, served, site_environment

# Generous: the worker polls the queue every 0.2 s, and the seeded CV prints in seconds even
# on a busy 2-core machine.
PRINTED_WITHIN_SECONDS = 120


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (our own server)
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


@pytest.mark.needs("weasyprint")
def test_a_db_worker_process_prints_the_cv_pdf_a_visitor_asked_for(tmp_path, collected_static):
    environment = site_environment(
        tmp_path, STATIC_ROOT=str(collected_static), CACHE_URL=f"file://{tmp_path / 'cache'}"
    )
    prepare_site(environment, staff=[], collect_static=False)
    with served(environment, tmp_path) as site:
        cv = f"{site}/people/hang-zhu/cv.pdf"
        status, headers, body = fetch(cv)
        assert status == 503, "no worker has printed it yet"
        assert int(headers["Retry-After"]) > 0
        assert body.decode() == "The PDF is being prepared; try again in a few seconds.\n"

        with open(tmp_path / "worker.log", "wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"],
                cwd=PROJECT, env=environment, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            deadline = time.monotonic() + PRINTED_WITHIN_SECONDS
            while (answer := fetch(cv))[0] == 503 and time.monotonic() < deadline:
                time.sleep(0.5)
        finally:
            worker.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.wait(timeout=10)
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        status, headers, body = answer
        assert status == 200, (tmp_path / "worker.log").read_text()[-3000:]
        assert headers["Content-Type"] == "application/pdf"
        assert body.startswith(b"%PDF-")
        assert pikepdf.open(io.BytesIO(body)).Root.MarkInfo.Marked is True, "tagged, as printed"
