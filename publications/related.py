"""Related papers and topic search (issue 29): a model of what the published papers are about,
built offline from their own titles and abstracts, read by the paper pages and the site search.

The model is latent semantic analysis: each paper's words weighed by TF-IDF, then reduced by a
truncated SVD to `DIMENSIONS` numbers, so that papers (and a visitor's query) using different
words of one topic land near each other (docs/decisions/related-work.md says why this and not
the database's full-text ranking). Building it needs scikit-learn (the `related` extra);
reading it needs only numpy, which scikit-learn brings: without them, or before the first
build, there is no model and the pages leave its sections out.

Built by the worker (publications/tasks.py, `manage.py build_related_papers`), never in a
request: a page loads the file the last build wrote (once per process and build) and does one
product of a vector with the papers' vectors, whatever the number of papers.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import re
import tempfile
import threading
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

from base import caches
from base.site_cache import note_change
from base.text import fold
from publications.models import Publication

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

# Numbers per paper, at most: enough for a lab's few dozen topics; 200,000 papers then take
# 51 MB.
DIMENSIONS = 64
# A word in fewer papers than this says nothing about what papers share.
MIN_PAPERS_PER_WORD = 2
# Papers the paper page and the site search show.
RELATED_SHOWN = 5
# Fewer papers than this make no model: nothing to relate.
MIN_PAPERS = 3
# A cosine at or below this is the float32 rounding of a right angle, not a paper near another:
# papers whose topics are at right angles score about 1e-7 either side of 0 (at most about 4e-6
# over 64 numbers), which side depending on the BLAS and the numerical libraries' releases
# (scikit-learn 1.9.1 with numpy 2.4.6 put a storage paper among a kernel paper's related ones).
# The margin holds for the randomized SVD `build` uses; a solver whose own float32 error is
# larger (ARPACK's, about 1e-4) would need a larger one.
NO_SHARED_TOPIC = 1e-4
# The scope a new model moves (base/caches.py): the paper pages that show its choices.
MODEL_SCOPE = "related-model"

# Words that say nothing about a topic (English function words, and the words every abstract
# uses); the TF-IDF weighing discounts the rest of the common ones.
_STOP_WORDS = """a about above after again against all also an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves new paper papers present presents show shows using use used based approach
    study results via towards toward"""
STOP_WORDS = frozenset(_STOP_WORDS.split())
WORD = re.compile(r"[^\W\d_]{2,}")


def words_of(text: str) -> list[str]:
    """The words of `text` the model counts: folded (no case or accents), letters only, two or
    more of them, stop words left out. The same for a paper and a query."""
    return [word for word in WORD.findall(fold(text)) if word not in STOP_WORDS]


@dataclass(frozen=True)
class TopicModel:
    """The papers' positions in the topic space, and what places a query among them.

    `ids[i]` is the paper whose unit-length vector is `vectors[i]`; a word's TF-IDF weight is
    `weights[vocabulary[word]]`, and its direction in the space `terms[vocabulary[word]]`."""

    ids: np.ndarray
    vectors: np.ndarray
    vocabulary: dict[str, int]
    weights: np.ndarray
    terms: np.ndarray

    def nearest(self, vector: np.ndarray, count: int, *, apart: Collection[int] = ()) -> list[int]:
        """The ids of the `count` papers nearest `vector` (by cosine), nearest first, none of
        `apart` nor any scoring at or below NO_SHARED_TOPIC (the rounding of a right angle); ties
        by id, so that the same model always answers the same."""
        import numpy as np

        scores = self.vectors @ vector
        if apart:
            scores[np.isin(self.ids, list(apart))] = -np.inf
        count = min(count, len(scores))
        if count <= 0:
            return []
        best = np.argpartition(-scores, count - 1)[:count]
        ranked = sorted(best, key=lambda index: (-scores[index], self.ids[index]))
        return [int(self.ids[index]) for index in ranked if scores[index] > NO_SHARED_TOPIC]

    def related_to(
        self, pk: int, count: int = RELATED_SHOWN, *, apart: Collection[int] = ()
    ) -> list[int]:
        """The papers about what paper `pk` is about, nearest first, none of `apart`; none for
        a paper the model does not hold (added since it was built)."""
        import numpy as np

        (where,) = np.nonzero(self.ids == pk)
        if not len(where):
            return []
        return self.nearest(self.vectors[where[0]], count, apart={pk, *apart})

    def about(
        self, query: str, count: int = RELATED_SHOWN, *, apart: Collection[int] = ()
    ) -> list[int]:
        """The papers nearest the query's words in the topic space, none of `apart`: they need
        not hold those words. None when no word of the query is one the papers use."""
        import numpy as np

        counts = Counter(
            self.vocabulary[word] for word in words_of(query) if word in self.vocabulary
        )
        if not counts:
            return []
        vector = np.zeros(self.terms.shape[1], dtype=np.float32)
        for index, times in counts.items():
            vector += (1 + math.log(times)) * self.weights[index] * self.terms[index]
        length = float(np.linalg.norm(vector))
        if length == 0:
            return []
        return self.nearest(vector / length, count, apart=apart)

    @property
    def size_in_memory(self) -> int:
        """Bytes of its arrays (the vocabulary's dictionary apart)."""
        return sum(array.nbytes for array in (self.ids, self.vectors, self.weights, self.terms))


def build(papers: Iterable[tuple[int, str, str]]) -> TopicModel | None:
    """The model of `papers` (id, title, abstract); None when they are too few or share too
    few words to relate. Needs scikit-learn. Deterministic: the same papers give the same
    model."""
    import numpy as np
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    ids, texts = [], []
    for pk, title, abstract in papers:
        ids.append(pk)
        # The title says most about a paper in fewest words: it counts twice.
        texts.append(f"{title}\n{title}\n{abstract}")
    if len(ids) < MIN_PAPERS:
        return None
    vectorizer = TfidfVectorizer(
        analyzer=words_of,
        min_df=MIN_PAPERS_PER_WORD,
        sublinear_tf=True,
        dtype=np.float32,
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no word in two papers
        return None
    # Fewer dimensions than papers by far, or the space keeps each paper's own words apart
    # instead of drawing its topics together: the square root of their number, at most
    # DIMENSIONS (reached at 4,096 papers).
    dimensions = min(DIMENSIONS, math.isqrt(matrix.shape[0]), matrix.shape[1] - 1)
    if dimensions < 1:
        return None
    svd = TruncatedSVD(n_components=dimensions, algorithm="randomized", random_state=0)
    with np.errstate(divide="ignore", invalid="ignore"):  # papers all alike: no variance
        vectors = svd.fit_transform(matrix).astype(np.float32)
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(lengths == 0, 1, lengths)
    words = vectorizer.get_feature_names_out()
    return TopicModel(
        ids=np.asarray(ids, dtype=np.int64),
        vectors=vectors,
        vocabulary={str(word): index for index, word in enumerate(words)},
        weights=vectorizer.idf_.astype(np.float32),
        terms=svd.components_.T.astype(np.float32),
    )


def model_path() -> Path:
    return Path(settings.RELATED_PAPERS_MODEL)


def save(model: TopicModel | None, path: Path | None = None) -> None:
    """Written whole to a temporary file, then put in place: a process loading it meanwhile
    reads the previous model or the new one, never half of one. None removes the model."""
    import numpy as np

    path = path or model_path()
    if model is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".related-", suffix=".npz")
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(
                file,
                ids=model.ids,
                vectors=model.vectors,
                words=np.array(sorted(model.vocabulary, key=model.vocabulary.__getitem__)),
                weights=model.weights,
                terms=model.terms,
            )
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path) -> TopicModel:
    import numpy as np

    with np.load(path, allow_pickle=False) as arrays:
        return TopicModel(
            ids=arrays["ids"],
            vectors=arrays["vectors"],
            vocabulary={str(word): index for index, word in enumerate(arrays["words"])},
            weights=arrays["weights"],
            terms=arrays["terms"],
        )


def one_blas_thread() -> None:
    """A process that reads the model (an app server) does one small product per request: with
    OpenBLAS's threads (one per core) those products took 34 ms at 20,000 papers on a busy
    2-core machine, its threads waiting for each other, and 0.13 ms on one thread. So this
    process keeps to one (threadpoolctl comes with scikit-learn; without it, as it is)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=1, user_api="blas")


# This process's copy of the model, and the file's identity when it was read.
_loaded: tuple[tuple[str, int, int, int], TopicModel] | None = None
_loading = threading.Lock()


def current_model() -> TopicModel | None:
    """The model the worker last wrote, read once per process and build (one `stat` a call to
    see whether a new one was written); None before the first build, or without numpy."""
    global _loaded
    path = model_path()
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    identity = (str(path), status.st_ino, status.st_mtime_ns, status.st_size)
    if _loaded is not None and _loaded[0] == identity:
        return _loaded[1]
    with _loading:
        if _loaded is not None and _loaded[0] == identity:
            return _loaded[1]
        try:
            model = read(path)
        except ImportError:
            return None
        except (OSError, ValueError, KeyError):
            logger.exception("The related papers' model at %s could not be read", path)
            return None
        one_blas_thread()
        _loaded = (identity, model)
        return model


def related_ids(pk: int, *, apart: Collection[int] = ()) -> list[int]:
    """The papers related to paper `pk` by the current model, nearest first, none of `apart`
    (shown elsewhere on the page); none without a model."""
    model = current_model()
    return model.related_to(pk, apart=apart) if model else []


def topic_ids(query: str, *, apart: Collection[int] = ()) -> list[int]:
    """The papers about the topic `query` names by the current model, none of `apart` (shown
    elsewhere on the page); none without a model."""
    model = current_model()
    return model.about(query, apart=apart) if model else []


def rebuild() -> TopicModel | None:
    """The model of the published papers as they are now, written for the pages to read, which
    then show its choices (MODEL_SCOPE moves the paper pages they were kept in). Run by the
    worker: about a minute at 200,000 papers (docs/decisions/related-work.md)."""
    papers = (
        Publication.objects.published()
        .order_by("pk")
        .values_list("pk", "title", "abstract")
        .iterator(chunk_size=5000)
    )
    model = build(papers)
    save(model)
    note_change(scopes={MODEL_SCOPE})
    return model


# How long a queued build keeps others from being queued: a worker that is down or busy is
# asked again after this long.
REBUILD_CLAIM_SECONDS = 3600


def can_build() -> bool:
    """Whether scikit-learn is installed (the `related` extra): without it no build is queued,
    and the pages show what they show without a model."""
    return importlib.util.find_spec("sklearn") is not None


def rebuild_later() -> None:
    """Queue a build of the model for the worker, unless one is queued and not yet started:
    a thousand saves in a row queue one build. The pages serve the previous model meanwhile."""
    from publications.tasks import rebuild_related_papers

    if not can_build():
        return
    if caches.add(caches.rebuild_claim_key("related-papers-model"), True, REBUILD_CLAIM_SECONDS):
        rebuild_related_papers.enqueue()


def rebuild_claimed() -> TopicModel | None:
    """The worker's build: the claim is given up first, so that a save made while it reads the
    papers queues the next build."""
    caches.forget(caches.rebuild_claim_key("related-papers-model"))
    return rebuild()
