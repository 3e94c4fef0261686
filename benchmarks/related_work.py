"""Times the related papers' model (publications/related.py, issue 29) at each data set's size.

    make bench                                          (after http.py: 2,000 / 20,000 / 200,000)
    .venv/bin/python benchmarks/related_work.py --quick (2,000 and 20,000)

On the data sets http.py keeps (benchmarks/dataset.py, the same options), in a child process
per size with the project's settings: the build as the worker runs it (reading the published
papers' titles and abstracts, TF-IDF, truncated SVD, writing the file), the file's size, the
model's arrays in memory, the first load of the file by a process, then, warm, a paper page's
related papers (the model's nearest papers and the query for their rows, as the page asks) and
a topic search (the model's nearest papers to a query and the query for their rows and
authors, as /search/ asks), each the median and p95 of many papers and queries.

The generated titles are few words over a small vocabulary, so the figures are of time and
size; the related papers' quality is measured on planted topics in the tests
(tests/publications/test_related_papers.py). Prints figures only: nothing here asserts a time.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path[0] = str(ROOT)  # as benchmarks/http.py: this folder must not hide `http`

import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from benchmarks import http  # noqa: E402

# Papers asked for their related papers, and topic queries, per size.
SAMPLES = 200
TOPIC_QUERIES = [
    "caching",
    "distributed storage",
    "serverless functions",
    "scheduling for clusters",
    "consistency of replicated data",
    "tail latency",
    "network transport",
    "machine learning systems",
]


def main() -> None:
    arguments = http.parse_arguments()
    if arguments.internal:
        return internal(arguments)
    workspace = Path(tempfile.mkdtemp(prefix="lab-bench-related-"))
    try:
        environment = http.base_environment(workspace)
        key = http.run_internal(["key"], environment, workspace)["key"]
        results = {}
        for size in arguments.sizes:
            database_url = http.data_set(size, key, arguments, environment, workspace)
            results[size] = measure_in_child(
                size, {**environment, "DATABASE_URL": database_url}, workspace
            )
            http.log(f"related papers at {size:,} papers: {results[size]}")
        print_report(results)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def measure_in_child(size: int, environment: dict[str, str], workspace: Path) -> dict:
    result = workspace / "related.json"
    environment = {**environment, "RELATED_PAPERS_MODEL": str(workspace / f"related-{size}.npz")}
    command = [sys.executable, __file__, "--internal", "measure", str(size)]
    subprocess.run([*command, "--result", str(result)], env=environment, cwd=ROOT, check=True)
    return json.loads(result.read_text())


def internal(arguments) -> None:
    import django

    django.setup()
    Path(arguments.result).write_text(json.dumps(measure()))


def milliseconds(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": round(statistics.median(ordered) * 1000, 2),
        "p95": round(ordered[max(0, round(0.95 * len(ordered)) - 1)] * 1000, 2),
    }


def measure() -> dict:
    import random

    from pages.views.publications import papers_in_order
    from pages.views.search import topic_rows
    from publications import related

    started = time.perf_counter()
    import sklearn.decomposition  # noqa: F401  (once per worker process, timed apart)
    import sklearn.feature_extraction.text  # noqa: F401

    imported = time.perf_counter() - started
    started = time.perf_counter()
    model = related.rebuild()
    built = time.perf_counter() - started
    assert model is not None
    path = related.model_path()
    related._loaded = None
    started = time.perf_counter()
    related.current_model()
    loaded = time.perf_counter() - started

    rng = random.Random(1)
    papers = [int(pk) for pk in rng.sample(list(model.ids), min(SAMPLES, len(model.ids)))]
    related_times, shown = [], 0
    for pk in papers:
        started = time.perf_counter()
        shown += len(papers_in_order(related.related_ids(pk)))
        related_times.append(time.perf_counter() - started)
    topic_times = []
    for query in TOPIC_QUERIES * 5:
        started = time.perf_counter()
        topic_rows(query, [], shown=[])
        topic_times.append(time.perf_counter() - started)
    return {
        "papers": len(model.ids),
        "words": len(model.vocabulary),
        "dimensions": int(model.vectors.shape[1]),
        "import_s": round(imported, 1),
        "build_s": round(built, 1),
        "file_mb": round(os.path.getsize(path) / 1e6, 1),
        "memory_mb": round(model.size_in_memory / 1e6, 1),
        "first_load_ms": round(loaded * 1000, 1),
        "related_ms": milliseconds(related_times),
        "related_shown_per_paper": round(shown / len(papers), 2),
        "topic_ms": milliseconds(topic_times),
    }


def print_report(results: dict[int, dict]) -> None:
    header = "| papers | scikit-learn import | build | file | memory | first load | related list (median / p95) | topic query (median / p95) |"
    print("\nRelated papers and topic search (publications/related.py)\n")
    print(header)
    print("|" + "---|" * 8)
    for size, result in results.items():
        print(
            f"| {size:,} | {result['import_s']} s | {result['build_s']} s | {result['file_mb']} MB | "
            f"{result['memory_mb']} MB | {result['first_load_ms']} ms | "
            f"{result['related_ms']['median']} / {result['related_ms']['p95']} ms | "
            f"{result['topic_ms']['median']} / {result['topic_ms']['p95']} ms |"
        )


if __name__ == "__main__":
    main()
