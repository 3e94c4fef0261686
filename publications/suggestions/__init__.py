"""Members' lists kept current, and citation counts as dated snapshots.

For a member with an ORCID iD or a dblp key (their DBLP link), `manage.py check_new_works`
queues one task per member (tasks.py); the task reads the member's works from the service
(publications/identifiers/) and keeps each one the site does not have yet, by the BibTeX
review's own matching (DOI, arXiv id, folded title), as a `Suggestion` for that member
(checking.py). The member or an editor accepts one (imported by the review's import, with the
member linked) or rejects it, which is remembered (deciding.py, admin.py). `manage.py
refresh_citation_counts` asks OpenAlex and Crossref how often each paper with a DOI is cited
and keeps the answer with its date and source (citations.py), shown only when staff turn it on
in the lab's settings.

The models live in models.py, imported by publications/models.py.
"""
