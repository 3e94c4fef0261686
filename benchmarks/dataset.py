"""A department's worth of publications, generated the same way every time from a seed.

The shape is the one issue 15 measured, with a softer popularity: 3–12 distinct authors per paper
drawn from 500 names whose weight falls off as rank^-0.2 (the most prolific name is on about 4% of
the papers and the 20th on about 2%, as in a real department; the issue's first figures used
1/rank, which put the most prolific name on two papers in three), about 40 venues, years 1995–2026 with more papers in
recent years (so a recent year holds about 1,100 papers at 20,000), and the 20 most prolific
authors as lab members whose Authorship rows point at them. Some papers carry abstracts, DOIs, awards and links; there is some news.

Everything goes in through bulk inserts, so 200,000 papers and their 1.5 million authorships
load in about half a minute on SQLite (under two minutes on PostgreSQL, with ANALYZE). The rows
bypass `save()`, signals and history, as an import by a script would; public pages do not read
history.
"""

import itertools
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils.text import slugify

from base.models import Lab
from base.partial_dates import PartialDate
from news.models import NewsItem
from people.models import Education, Person, PersonLink, RoleGroup
from publications.citation_keys import keys_in_order
from publications.models import (
    Authorship,
    CoauthorPair,
    Publication,
    PublicationAward,
    PublicationLink,
    Venue,
)
from publications.search import search_text_of

FIRST_YEAR, LAST_YEAR = 1995, 2026
AUTHOR_POOL = 500
AUTHORS_PER_PAPER = (3, 12)
# How fast popularity falls with rank: weight rank ** -POPULARITY_EXPONENT. Under 1, so that no
# name is on more than a few percent of the papers (1 put the first name on 68% of them).
POPULARITY_EXPONENT = 0.2
MEMBERS = 20
# The word ?q= searches: about one title in seven has it (as a subject or a setting).
SEARCH_WORD = "caching"
BATCH = 5000

FIRST_NAMES = [
    "Wei",
    "Jing",
    "Hao",
    "Yue",
    "Xin",
    "Lei",
    "Yan",
    "Chen",
    "Ming",
    "Tao",
    "Ying",
    "Jun",
    "Li",
    "Na",
    "Bo",
    "Fei",
    "Qiang",
    "Zhe",
    "Yu",
    "Rui",
    "Anna",
    "Maria",
    "José",
    "Lukas",
    "Sofia",
    "Ahmed",
    "Fatima",
    "Hiroshi",
    "Yuki",
    "Priya",
    "Arjun",
    "Olga",
    "Ivan",
    "Noah",
    "Emma",
    "Liam",
    "Chloé",
    "Mateo",
    "Zoë",
    "Björn",
    "Ines",
    "Omar",
    "Leila",
    "Kwame",
    "Amara",
    "Tomás",
    "Elena",
    "David",
    "Sara",
    "Paul",
    "Nina",
]
LAST_NAMES = [
    "Zhou",
    "Wang",
    "Li",
    "Zhang",
    "Liu",
    "Chen",
    "Yang",
    "Huang",
    "Zhao",
    "Wu",
    "Xu",
    "Sun",
    "Zhu",
    "Ma",
    "Hu",
    "Guo",
    "Lin",
    "He",
    "Gao",
    "Luo",
    "Müller",
    "Schmidt",
    "García",
    "Martínez",
    "Rossi",
    "Dubois",
    "Kowalski",
    "Novák",
    "Nakamura",
    "Sato",
    "Kim",
    "Park",
    "Patel",
    "Singh",
    "Ivanova",
    "Petrov",
    "Smith",
    "Johnson",
    "Brown",
    "Okafor",
    "Haddad",
    "Nguyen",
    "Silva",
    "Costa",
    "Jensen",
    "Larsen",
    "O'Brien",
    "Şahin",
    "Fernández",
    "Ødegaard",
]
TITLE_OPENINGS = [
    "Scalable",
    "Efficient",
    "Adaptive",
    "Practical",
    "Fast",
    "Robust",
    "Elastic",
    "Predictable",
    "Secure",
    "Verified",
    "Decentralized",
    "Learned",
    "Incremental",
    "Transparent",
    "Fair",
    "Lightweight",
]
TITLE_SUBJECTS = [
    "Caching",
    "Scheduling",
    "Serverless Computing",
    "Model Training",
    "Network Telemetry",
    "Key-Value Stores",
    "Stream Processing",
    "Congestion Control",
    "Storage Systems",
    "Inference Serving",
    "Load Balancing",
    "Consensus",
    "Packet Processing",
    "Graph Analytics",
    "Resource Disaggregation",
    "Query Optimization",
    "Edge Computing",
    "Data Center Networks",
    "Reinforcement Learning",
    "Memory Management",
]
TITLE_SETTINGS = [
    "in the Cloud",
    "at Scale",
    "for Large Language Models",
    "with Programmable Switches",
    "on Heterogeneous Hardware",
    "across Data Centers",
    "under Failures",
    "with Caching Hints",
    "for Mobile Devices",
    "in Production",
]
VENUES = [
    "NSDI",
    "SOSP",
    "OSDI",
    "SIGCOMM",
    "EuroSys",
    "ATC",
    "FAST",
    "MLSys",
    "SoCC",
    "VLDB",
    "SIGMOD",
    "ICDE",
    "KDD",
    "NeurIPS",
    "ICML",
    "ICLR",
    "AAAI",
    "IJCAI",
    "CVPR",
    "ICCV",
    "ACL",
    "EMNLP",
    "HotNets",
    "HotOS",
    "CoNEXT",
    "IMC",
    "INFOCOM",
    "MobiCom",
    "SIGMETRICS",
    "PODC",
    "ISCA",
    "MICRO",
    "ASPLOS",
    "HPCA",
    "SC",
    "TON",
    "TOCS",
    "JMLR",
    "TPDS",
    "arXiv",
]
JOURNALS = {"TON", "TOCS", "JMLR", "TPDS"}
PUBLICATION_TYPES = {
    Venue.Kind.JOURNAL: Publication.Type.JOURNAL_ARTICLE,
    Venue.Kind.WORKSHOP: Publication.Type.WORKSHOP_PAPER,
    Venue.Kind.PREPRINT_SERVER: Publication.Type.PREPRINT,
}
WORKSHOPS = {"HotNets", "HotOS"}
ROLE_GROUPS = [
    ("Faculty", "faculty", 2),
    ("Research Scientists", "research-scientists", 3),
    ("PhD Students", "phd-students", 10),
    ("Alumni", "alumni", 5),
]


@dataclass(frozen=True)
class Summary:
    """What was generated, for the smoke test and the benchmark's report."""

    publications: int
    authorships: int
    members: int
    news_items: int


def author_names(rng: random.Random) -> list[str]:
    """500 distinct names, most popular first."""
    names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    return rng.sample(names, AUTHOR_POOL)


def paper_authors(rng: random.Random, cumulative_weights: list[float], count: int) -> list[int]:
    """`count` distinct indexes into the name pool, drawn by popularity without replacement: a
    name drawn twice is drawn again."""
    chosen: dict[int, None] = {}
    while len(chosen) < count:
        for index in rng.choices(range(AUTHOR_POOL), cum_weights=cumulative_weights, k=count):
            chosen.setdefault(index)
    return list(chosen)[:count]


def generate(*, size: int, seed: int) -> Summary:
    """Fill an empty, migrated database with `size` publications. One transaction."""
    if Publication.objects.exists():
        raise ValueError("The benchmark's data set goes into a database with no publications.")
    rng = random.Random(seed)
    names = author_names(rng)
    # Zipf-like but soft: the name at rank r is drawn with weight r ** -POPULARITY_EXPONENT.
    cumulative, total = [], 0.0
    for rank in range(1, AUTHOR_POOL + 1):
        total += rank**-POPULARITY_EXPONENT
        cumulative.append(total)
    years = list(range(FIRST_YEAR, LAST_YEAR + 1))
    # More papers every year: 2026 has about seven times as many as 1995.
    year_weights = [year - FIRST_YEAR + 5 for year in years]
    # Each paper's year, venue index and author indexes, decided before any row is written,
    # so the members (the most prolific names) are known when authorships are inserted.
    papers = [
        (
            rng.choices(years, weights=year_weights)[0],
            rng.randrange(len(VENUES)),
            paper_authors(rng, cumulative, rng.randint(*AUTHORS_PER_PAPER)),
        )
        for _ in range(size)
    ]
    counts = Counter(index for _, _, authors in papers for index in authors)
    member_indexes = [index for index, _ in counts.most_common(MEMBERS)]

    with transaction.atomic():
        Lab.objects.update_or_create(
            pk=1,
            defaults={
                "name": "Systems and Machine Learning Lab",
                "tagline": "Generated for the benchmark.",
                "about": "A department-sized lab, **generated** with a fixed seed.",
            },
        )
        members = create_members(rng, [names[index] for index in member_indexes])
        person_of = dict(zip(member_indexes, members, strict=True))
        venues = Venue.objects.bulk_create(
            Venue(
                short_name=short_name,
                full_name=f"Proceedings of {short_name}" if short_name != "arXiv" else "",
                kind=venue_kind(short_name),
            )
            for short_name in VENUES
        )
        # Ids are given rather than read back, so the authorships can point at their papers.
        publications = [
            publication_row(rng, number, year, venues[venue])
            for number, (year, venue, _) in enumerate(papers, start=1)
        ]
        # The keys the site gives papers as they are saved, in the order they were added.
        keys = keys_in_order(
            (
                (names[authors[0]], row["year"], row["title"])
                for row, (_, _, authors) in zip(publications, papers, strict=True)
            ),
            taken=set(),
        )
        for row, key, (_, _, authors) in zip(publications, keys, papers, strict=True):
            row["citation_key"] = key
            row["search_text"] = search_text_of(
                title=row["title"], authors=[names[index] for index in authors]
            )
        insert(Publication, publications)
        authorships = insert(
            Authorship,
            (
                {
                    "publication_id": number,
                    "position": position,
                    "name": names[index],
                    "researcher_id": person_of[index].pk if index in person_of else None,
                    "equal_contribution": position <= 2 and number % 17 == 0,
                }
                for number, (_, _, authors) in enumerate(papers, start=1)
                for position, index in enumerate(authors, start=1)
            ),
        )
        add_awards_and_links(rng, publications)
        # The inserts above bypass the writes that keep the co-author pairs.
        CoauthorPair.objects.rebuild()
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), [Publication]):
                cursor.execute(statement)
        news_items = create_news(rng, size=size, members=members)
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        # A live site's autovacuum would have analysed the tables long before anyone reads them,
        # and marked their pages all-visible, which index-only scans (the facets) rely on.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    return Summary(
        publications=size, authorships=authorships, members=len(members), news_items=news_items
    )


def venue_kind(short_name: str) -> str:
    if short_name in JOURNALS:
        return Venue.Kind.JOURNAL
    if short_name in WORKSHOPS:
        return Venue.Kind.WORKSHOP
    if short_name == "arXiv":
        return Venue.Kind.PREPRINT_SERVER
    return Venue.Kind.CONFERENCE


def publication_row(rng: random.Random, number: int, year: int, venue: Venue) -> dict:
    subject = rng.choice(TITLE_SUBJECTS)
    title = f"{rng.choice(TITLE_OPENINGS)} {subject} {rng.choice(TITLE_SETTINGS)}"
    has_abstract = rng.random() < 0.3
    return {
        "id": number,
        "title": title,
        "slug": f"{slugify(subject)}-{year}-{number}",
        "year": year,
        "venue_id": venue.pk,
        "type": PUBLICATION_TYPES.get(venue.kind, Publication.Type.CONFERENCE_PAPER),
        "status": Publication.Status.ACCEPTED
        if year == LAST_YEAR and number % 5 == 0
        else Publication.Status.PUBLISHED,
        "is_featured": number % 997 == 0,
        "abstract": (
            f"We present a new approach to **{subject.lower()}** {rng.choice(TITLE_SETTINGS)}. "
            "Our evaluation on production traces shows it cuts tail latency by half "
            "while using fewer resources than the state of the art."
            if has_abstract
            else ""
        ),
        "doi": f"10.1145/{year}.{number:07d}" if rng.random() < 0.6 else "",
        # About one in a hundred is a draft: hidden from every public page.
        "is_published": number % 101 != 0,
    }


def add_awards_and_links(rng: random.Random, publications: list[dict]) -> None:
    awards, links = [], []
    for publication in publications:
        number, slug = publication["id"], publication["slug"]
        if rng.random() < 0.02:
            awards.append({"publication_id": number, "position": 1, "name": "Best Paper Award"})
        position = 0
        for kind, share, url in [
            (PublicationLink.Kind.PDF, 0.4, f"https://papers.example.org/{slug}.pdf"),
            (PublicationLink.Kind.CODE, 0.15, f"https://code.example.org/{slug}"),
        ]:
            if rng.random() < share:
                position += 1
                links.append(
                    {"publication_id": number, "position": position, "kind": kind, "url": url}
                )
    insert(PublicationAward, awards)
    insert(PublicationLink, links)


def insert(model: type[models.Model], rows: Iterable[dict]) -> int:
    """Writes rows without making model instances, which would take most of the time: COPY on
    PostgreSQL, executemany on SQLite. Every row names the same fields; the others get their
    default, so a field added later with a default needs no change here. Returns the count."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return 0
    meta = model._meta
    named = [meta.get_field(name) for name in first]
    others = [f for f in meta.concrete_fields if f not in named and not f.primary_key]
    defaults = tuple(f.get_db_prep_save(f.get_default(), connection) for f in others)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in named + others)
    values = (tuple(row.values()) + defaults for row in itertools.chain([first], rows))
    count = 0

    def counted(values):
        nonlocal count
        for value in values:
            count += 1
            yield value

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
                for value in counted(values):
                    copy.write_row(value)
        else:
            placeholders = ", ".join(["%s"] * (len(named) + len(others)))
            cursor.executemany(
                f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({placeholders})",
                counted(values),
            )
    return count


def create_members(rng: random.Random, names: list[str]) -> list[Person]:
    """The prolific authors as members, spread over the directory's groups, with some CV."""
    groups = RoleGroup.objects.bulk_create(
        RoleGroup(name=name, slug=slug, position=position, is_alumni=slug == "alumni")
        for position, (name, slug, _) in enumerate(ROLE_GROUPS)
    )
    group_of = [
        group
        for group, (_, _, count) in zip(groups, ROLE_GROUPS, strict=True)
        for _ in range(count)
    ]
    people = Person.objects.bulk_create(
        Person(
            name=name,
            slug=slugify(name),
            role_group=group,
            position_title=group.name.removesuffix("s"),
            affiliations="Department of Computer Science\nInstitute for Data Systems",
            email=f"{slugify(name)}@example.org",
            research_interests="Distributed systems\nMachine learning systems\nNetworking",
            short_bio=f"{name} works on *systems for machine learning*.",
            bio=f"{name} studies how large systems can be fast **and** predictable.\n\n"
            "Before joining the lab they worked in industry on storage and networking.",
        )
        for name, group in zip(names, group_of, strict=True)
    )
    Education.objects.bulk_create(
        Education(
            person=person,
            position=1,
            degree="Ph.D.",
            field="Computer Science",
            institution="Example University",
            start=PartialDate(2010 + index % 10),
            end=PartialDate(2015 + index % 10),
        )
        for index, person in enumerate(people)
    )
    PersonLink.objects.bulk_create(
        PersonLink(person=person, position=1, url=f"https://{person.slug}.example.org/")
        for person in people
    )
    return people


def create_news(rng: random.Random, *, size: int, members: list[Person]) -> int:
    """One item per twenty papers, most about a member or two."""
    count = max(size // 20, 10)
    items = NewsItem.objects.bulk_create(
        (
            NewsItem(
                title=f"Lab news {number}: a paper on {rng.choice(TITLE_SUBJECTS).lower()}",
                slug=f"news-{number}",
                date=PartialDate(
                    rng.randint(FIRST_YEAR, LAST_YEAR), rng.randint(1, 12), rng.randint(1, 28)
                ),
                body="Our paper was **accepted**. Congratulations to everyone involved!",
                is_published=number % 50 != 1,
            )
            for number in range(count)
        ),
        batch_size=BATCH,
    )
    through = NewsItem.people.through
    through.objects.bulk_create(
        (
            through(newsitem_id=item.pk, person_id=member.pk)
            for item in items
            for member in rng.sample(members, rng.randint(0, 2))
        ),
        batch_size=BATCH,
    )
    return count
