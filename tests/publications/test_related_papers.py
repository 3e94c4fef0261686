"""Related papers and topic search (publications/related.py, issue 29): the model's quality on
papers with planted topics, and how the paper page and the site search use it."""

import random
import string

import pytest
from django.db.models import Q

from people.models import Person, ResearchArea
from publications import related
from publications.models import Authorship, Publication
from publications.tasks import rebuild_related_papers
from tests.factories import count_queries, make_person, make_publication
from tests.worker import run_worker

TOPICS = 8
WORDS_PER_TOPIC = 30
NOISE_WORDS = 400
MEMBERS_PER_TOPIC = 3
PAPERS_PER_TOPIC = 40
# Every fourth paper is asked for its related papers; the labels (areas, members) are never
# shown to the model, only used to judge its answers.
HELD_OUT_EVERY = 4
# How often a topic's words are drawn: the first twice as often as the second, and so on.
UNEVEN = [1 / (rank + 1) for rank in range(WORDS_PER_TOPIC)]


def made_up_words(rng: random.Random, count: int) -> list[str]:
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 9))))
    return sorted(words)


def plant_topics(seed: int = 29) -> list[Publication]:
    """Papers in TOPICS topics: each topic has its own words, research area and members; each
    paper's title and (for half of them) abstract mix its topic's words, drawn unevenly as real
    vocabularies are, with two or three times as many noise words shared by all topics. One paper in ten is also
    filed under another topic's area, and one in five has a member of another topic."""
    rng = random.Random(seed)
    words = made_up_words(rng, TOPICS * WORDS_PER_TOPIC + NOISE_WORDS)
    noise = words[TOPICS * WORDS_PER_TOPIC :]
    areas = [ResearchArea.objects.create(name=f"Area {t}", slug=f"area-{t}") for t in range(TOPICS)]
    members = [
        [Person.objects.create(name=f"Member {t}-{m}", slug=f"member-{t}-{m}") for m in range(3)]
        for t in range(TOPICS)
    ]
    papers, labels = [], []
    for number in range(TOPICS * PAPERS_PER_TOPIC):
        topic = number % TOPICS
        vocabulary = words[topic * WORDS_PER_TOPIC : (topic + 1) * WORDS_PER_TOPIC]

        def text(topic_words: int, noise_words: int, vocabulary=vocabulary) -> str:
            chosen = rng.choices(vocabulary, UNEVEN, k=topic_words)
            chosen += rng.choices(noise, k=noise_words)
            rng.shuffle(chosen)
            return " ".join(chosen)

        abstract = text(8, 24).capitalize() + "." if rng.random() < 0.5 else ""
        papers.append(
            Publication(
                title=text(2, 4).capitalize(),
                slug=f"planted-{number}",
                year=2000 + number % 25,
                abstract=abstract,
            )
        )
        paper_areas = {topic} | ({rng.randrange(TOPICS)} if rng.random() < 0.1 else set())
        paper_members = set(rng.sample(members[topic], rng.randint(1, 2)))
        if rng.random() < 0.2:
            paper_members.add(rng.choice(rng.choice(members)))
        labels.append((paper_areas, paper_members))
    papers = Publication.objects.bulk_create(papers)
    Authorship.objects.bulk_create(
        Authorship(publication=paper, position=position, name=member.name, person=member)
        for paper, (_, paper_members) in zip(papers, labels, strict=True)
        for position, member in enumerate(sorted(paper_members, key=lambda m: m.pk), start=1)
    )
    Publication.areas.through.objects.bulk_create(
        Publication.areas.through(publication=paper, researcharea=areas[area])
        for paper, (paper_areas, _) in zip(papers, labels, strict=True)
        for area in paper_areas
    )
    return papers


def shares_an_area_or_members(paper: Publication, others: list[int]) -> list[bool]:
    """Whether each of `others` shares a research area or a member with `paper`."""
    areas = paper.areas.values("pk")
    members = Authorship.objects.filter(
        publication=paper, researcher__profile__isnull=False
    ).values("researcher")
    sharing = set(
        Publication.objects.filter(pk__in=others)
        .filter(Q(areas__in=areas) | Q(authorships__researcher__in=members))
        .values_list("pk", flat=True)
    )
    return [pk in sharing for pk in others]


@pytest.mark.django_db
def test_related_papers_share_an_area_or_members_at_precision_at_5_of_at_least_0_6():
    papers = plant_topics()
    model = related.rebuild()
    assert model is not None and len(model.ids) == len(papers)
    held_out = papers[::HELD_OUT_EVERY]
    hits = shown = 0
    for paper in held_out:
        nearest = model.related_to(paper.pk, 5)
        assert paper.pk not in nearest
        hits += sum(shares_an_area_or_members(paper, nearest))
        shown += 5  # a paper with fewer than five related counts the missing ones as misses
    precision = hits / shown
    print(f"\nrelated papers, precision at 5 on {len(held_out)} held-out papers: {precision:.3f}")
    assert precision >= 0.6


@pytest.mark.django_db
def test_the_same_papers_give_the_same_related_papers():
    plant_topics()
    first = related.rebuild()
    second = related.rebuild()
    assert first is not None and second is not None
    assert [first.related_to(int(pk)) for pk in first.ids[:20]] == [
        second.related_to(int(pk)) for pk in second.ids[:20]
    ]


def test_papers_at_right_angles_are_not_related_whichever_side_of_zero_rounding_puts_them():
    """Two topics at right angles: the float32 products of their papers are about 1e-7 either
    side of 0 (which side depends on the BLAS and the numerical libraries' releases), and no
    such paper is listed as related, nor found for a query of the other topic; a paper barely
    about a topic still is."""
    import numpy as np

    # Paper 30 is barely about the kernel papers' topic (a cosine of 0.01 with paper 10), but
    # is: it stays listed.
    vectors = np.array(
        [[1, 7e-8], [1, -5e-8], [-4e-8, 1], [6e-8, 1], [0.01, (1 - 0.01**2) ** 0.5]],
        dtype=np.float32,
    )
    model = related.TopicModel(
        ids=np.array([10, 11, 20, 21, 30], dtype=np.int64),
        vectors=vectors,
        vocabulary={"kernel": 0, "storage": 1},
        weights=np.ones(2, dtype=np.float32),
        terms=np.eye(2, dtype=np.float32),
    )
    assert float(vectors[3] @ vectors[0]) > 0  # what a cut-off at 0 would list
    assert model.related_to(10) == [11, 30]
    assert model.related_to(11) == [10, 30]
    assert model.related_to(21) == [20, 30]
    assert model.about("kernel") == [10, 11, 30]


def make_topic_papers() -> dict[str, Publication]:
    """Two topics, whose papers share words with each other but not always the same ones;
    written by no member, so that their pages list no "More by" papers."""
    titles = {
        "scheduler": "A kernel scheduler for threads with preemption",
        "preemption": "Preemption of kernel threads under load",
        "fairness": "Fair scheduler queues for kernel threads",
        "cores": "Threads, cores and the kernel scheduler",
        "caching": "A cache for replicated storage with consistency",
        "replicas": "Consistency of replicated storage replicas",
        "storage": "Storage replicas and their cache",
    }
    return {
        key: make_publication(slug=key, title=title, authors=["Ada Outside"])
        for key, title in titles.items()
    }


@pytest.mark.django_db
def test_a_paper_page_shows_its_related_papers_once_the_worker_built_the_model(
    client, django_capture_on_commit_callbacks
):
    papers = make_topic_papers()
    # No model yet: the page has no such section, and builds none.
    response = client.get("/publications/preemption/")
    assert response.status_code == 200 and response.context["similar"] == []
    assert "Related papers" not in response.content.decode()

    # A save queues a build for the worker; the page serves the previous model meanwhile.
    with django_capture_on_commit_callbacks(execute=True):
        papers["scheduler"].title = "A kernel scheduler for threads with preemption, revised"
        papers["scheduler"].save()
    assert "Related papers" not in client.get("/publications/preemption/").content.decode()
    run_worker()

    response = client.get("/publications/preemption/")
    html = response.content.decode()
    assert '<h2 id="similar">Related papers</h2>' in html
    similar = [paper.slug for paper in response.context["similar"]]
    assert similar[0] in {"scheduler", "fairness", "cores"}
    assert "preemption" not in similar
    # The kernel papers come before the storage ones.
    kernel = [slug for slug in similar if slug in {"scheduler", "fairness", "cores"}]
    assert similar[: len(kernel)] == kernel and len(kernel) == 3


@pytest.mark.django_db
def test_a_paper_listed_under_more_by_its_members_is_not_listed_again_as_related(client):
    papers = make_topic_papers()
    member = make_person(name="Hang Zhu")
    for slug in ["preemption", "scheduler"]:
        Authorship.objects.create(
            publication=papers[slug], position=2, name=member.name, person=member
        )
    related.rebuild()
    response = client.get("/publications/preemption/")
    assert [paper.slug for paper in response.context["related"]] == ["scheduler"]
    similar = [paper.slug for paper in response.context["similar"]]
    # The other kernel papers; the storage ones are about something else.
    assert sorted(similar) == ["cores", "fairness"]


@pytest.mark.django_db
def test_many_saves_queue_one_build(django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    with django_capture_on_commit_callbacks(execute=True):
        make_topic_papers()
    with django_capture_on_commit_callbacks(execute=True):
        make_publication(title="Another kernel scheduler")
    queued = DBTaskResult.objects.filter(task_path__endswith="rebuild_related_papers")
    assert queued.count() == 1
    run_worker()
    assert related.current_model() is not None
    with django_capture_on_commit_callbacks(execute=True):
        make_publication(title="Yet another kernel scheduler")
    assert queued.filter(status="READY").count() == 1


@pytest.mark.django_db
def test_without_scikit_learn_saves_queue_no_build_and_pages_show_no_section(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    from django_tasks_db.models import DBTaskResult

    monkeypatch.setattr(related.importlib.util, "find_spec", lambda name: None)
    with django_capture_on_commit_callbacks(execute=True):
        make_topic_papers()
    assert not DBTaskResult.objects.exists()
    response = client.get("/publications/preemption/")
    assert response.status_code == 200 and "Related papers" not in response.content.decode()


@pytest.mark.django_db
def test_a_draft_is_never_among_related_papers_nor_in_the_model():
    papers = make_topic_papers()
    make_publication(slug="draft", title="Kernel threads scheduler preemption", is_published=False)
    model = related.rebuild()
    assert model is not None
    assert papers["scheduler"].pk in model.ids
    assert Publication.objects.get(slug="draft").pk not in model.ids


@pytest.mark.django_db
def test_topic_search_finds_papers_about_the_topic_without_the_words_searched(client):
    make_topic_papers()
    rebuild_related_papers.call()
    response = client.get("/search/", {"q": "scheduler"})
    html = response.content.decode()
    assert '<h2 id="results-topic">Papers on this topic</h2>' in html
    found = [row.url for row in response.context["topic"]]
    # "Preemption of kernel threads under load" does not say "scheduler": the word search
    # misses it, the topic search finds it among the kernel papers, before any storage paper.
    assert "/publications/preemption/" in found
    words = [row.url for group in response.context["found"] for row in group.rows]
    assert "/publications/preemption/" not in words
    # The kernel papers the words did not find come first; those they found are not repeated.
    assert set(words) == {f"/publications/{slug}/" for slug in ["scheduler", "fairness", "cores"]}
    assert found[0] == "/publications/preemption/" and not set(found) & set(words)


@pytest.mark.django_db
def test_topic_search_is_absent_without_a_model_or_a_known_word(client):
    make_topic_papers()
    response = client.get("/search/", {"q": "scheduler"})
    assert (
        response.context["topic"] == [] and "Papers on this topic" not in response.content.decode()
    )
    related.rebuild()
    response = client.get("/search/", {"q": "zebra"})
    assert (
        response.context["topic"] == [] and "Papers on this topic" not in response.content.decode()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("rows", [5, 200])
def test_a_paper_page_with_related_papers_runs_a_fixed_number_of_queries(client, rows):
    """Rendered anew with a model: the page's queries without one (15,
    tests/pages/test_publication_detail.py), then the related papers' rows and their entries'
    (the rows with their prefetches): none per paper in the model or shown."""
    member = make_person()
    for number in range(rows):
        make_publication(
            slug=f"kernel-{number}",
            title=f"Kernel scheduler number {number} for threads",
            abstract="Threads and preemption in the kernel scheduler.",
            # The member's other papers are listed under "More by", not again as related.
            authors=[member, f"Author {number}"] if number < 3 else [f"Author {number}"],
        )
    related.rebuild()
    assert count_queries(client, "/publications/kernel-1/") == 20
