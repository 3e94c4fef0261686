"""Papers added by identifier: DOIs, arXiv ids, an ORCID iD, a dblp person key or an OpenAlex
author id pasted, or a file Crossref, OpenAlex, ORCID, dblp or arXiv exports, read into the
entries a BibTeX review takes (publications/bibtex/), so the review, the import and its jobs
are the BibTeX upload's own.

One module per service reads its documents into `works.Work`s (crossref, openalex, orcid, dblp,
arxiv); pasted.py recognises the pasted lines, fetching.py asks the services (only when the
site allows it), gathering.py puts these together, stored.py keeps the entries on their job,
and admin_views.py and forms.py are the admin's page. This package imports nothing from
itself here: the BibTeX jobs read stored.py while this package is still being imported.
"""
