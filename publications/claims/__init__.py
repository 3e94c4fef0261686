"""The claim and correction queue: a member says an author row is them ("This is me") or not
("Not me"), a visitor says what is wrong on a paper; editors accept or reject each in one list
(admin.py). The model is imported by publications/models.py; the decisions are services
(publications/services.py)."""
