"""Background tasks of members' suggestions and citation counts (django-tasks, run by
`manage.py db_worker`); the commands check_new_works and refresh_citation_counts queue them."""

from django_tasks import task

from publications.suggestions.checking import check_member
from publications.suggestions.citations import refresh_citation_counts


@task()
def check_new_works(person_id: int) -> str:
    """One member's check (checking.py): its result is on their WorkCheck."""
    check = check_member(person_id)
    return check.state if check else "no such person"


@task()
def refresh_counts(publication_ids: list[int] | None = None) -> str:
    """Citation counts of these papers (every paper with a DOI when None), asked of OpenAlex
    and Crossref (citations.py)."""
    return refresh_citation_counts(publication_ids).summary()
