"""The forms of a paper's "Claim or correct" page (pages/views/publications.py, claims)."""

from typing import Any

from django import forms

from base import caches
from publications.claims.models import Claim
from publications.models import Authorship, Publication

# Corrections one client address may send in an hour: a person fixing a few papers, not a
# script filling the queue.
CORRECTIONS_PER_HOUR = 5
RATE_WINDOW_SECONDS = 3600


class ClaimForm(forms.Form):
    """A member's "This is me" or "Not me" on one author row of the paper."""

    # Its queryset is the paper's author rows, set per paper.
    author: forms.ModelChoiceField[Authorship] = forms.ModelChoiceField(
        queryset=None,
        error_messages={"invalid_choice": "Choose an author of this paper."},
    )
    kind = forms.ChoiceField(
        choices=[(Claim.Kind.THIS_IS_ME, "This is me"), (Claim.Kind.NOT_ME, "Not me")],
        error_messages={"invalid_choice": "Choose “This is me” or “Not me”."},
    )

    def __init__(self, *args: Any, publication: Publication, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["author"].queryset = publication.authorships.all()  # type: ignore[attr-defined]


class CorrectionForm(forms.ModelForm[Claim]):
    """A visitor's correction, no account needed. `website` is a trap for robots: hidden from
    people, filled in by scripts that fill every field; such a form is thanked and dropped."""

    website = forms.CharField(required=False, label="Leave this empty")

    class Meta:
        model = Claim
        fields = ["message", "email"]
        labels = {"message": "What is wrong?", "email": "Your email (optional)"}
        help_texts = {
            "message": "Say which detail is wrong and what it should be, in a few sentences.",
            "email": "Only if you would like an answer. It is shown to the lab's editors only.",
        }
        widgets = {"message": forms.Textarea(attrs={"rows": 5})}

    def __init__(self, *args: Any, address: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address
        self.fields["message"].required = True
        self.fields["message"].error_messages["required"] = "Say what is wrong on this page."

    @property
    def from_robot(self) -> bool:
        return bool(self.cleaned_data.get("website"))

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if not self.errors and not within_rate_limit(self.address):
            raise forms.ValidationError(
                f"This connection has sent {CORRECTIONS_PER_HOUR} corrections in the last hour, "
                "the most we take: please try again in an hour.",
                code="rate_limited",
            )
        return cleaned


def within_rate_limit(address: str) -> bool:
    """Count one correction from `address` (kept hashed, for an hour, in the shared cache);
    False once it passes CORRECTIONS_PER_HOUR."""
    key = caches.corrections_sent_key(address)
    caches.add(key, 0, RATE_WINDOW_SECONDS)
    try:
        count = caches.increment(key)
    except ValueError:  # expired between the two calls
        caches.write(key, 1, RATE_WINDOW_SECONDS)
        count = 1
    return count <= CORRECTIONS_PER_HOUR
