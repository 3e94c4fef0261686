from collections.abc import Callable, Collection
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from simple_history.models import HistoricalRecords

from base import identity
from base.addresses import FreeAddressValidator
from base.markdown import MarkdownField, RenderedMarkdownField, RenderedMarkdownQuerySet
from base.querysets import SiteQuerySet
from base.renditions import Shape
from base.translations import markdown_translation, text_translation
from base.validation import ValidatedModel


class PublicPage(ValidatedModel):
    """A row with a public page of its own, found by its slug: a person, a paper, a news item.

    A draft (`is_published` off) is hidden from every public page, feed and export; its
    QuerySet is a PublishableQuerySet (base/querysets.py). `url_name` names the page.
    """

    url_name: ClassVar[str]
    slug: str  # each model declares its slug field

    is_published = models.BooleanField(
        "visible on the site",
        default=True,
        help_text="Untick to keep it as a draft: hidden from every public page, feed and export.",
    )

    class Meta:
        abstract = True

    def get_absolute_url(self) -> str:
        return reverse(self.url_name, kwargs={"slug": self.slug})

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        """The field checks, and a slug another address under the same prefix would hide
        ("feed" under /publications/) refused (base/addresses.py)."""
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        if "slug" not in (exclude or ()) and "slug" not in errors and self.slug:
            try:
                FreeAddressValidator(self.url_name)(self.slug)
            except ValidationError as error:
                errors.setdefault("slug", []).extend(error.error_list)
        if errors:
            raise ValidationError(errors)


def page_slug(help_text: str) -> "models.SlugField[str, str]":
    """The slug of a public page (a paper, a talk, a news item): the last part of its address,
    typed by staff, one per page; `help_text` tells the address it makes."""
    return models.SlugField("web address (slug)", max_length=200, unique=True, help_text=help_text)


def _image_path(row: "Illustrated", filename: str) -> str:
    return f"{row.image_folder}/{filename}"


class Illustrated(models.Model):
    """A row that may have a picture (a news item's, a paper's teaser, a group's), shown at the
    sizes of `image_shapes` ({use: Shape in CSS pixels}) from renditions made once, when it is
    saved (base/renditions.py, base/illustrations.py). Each model adds the
    constraint `image_has_alt_text` makes."""

    image_shapes: ClassVar[dict[str, Shape]]
    image_folder: ClassVar[str]

    image = models.ImageField(
        upload_to=_image_path,
        blank=True,
        help_text=(
            "Optional: JPEG, PNG or WebP. It is cropped to the shapes the pages show and stored "
            "re-encoded, without the file's metadata (camera, GPS position)."
        ),
    )
    image_alt = models.CharField(
        "image description for screen readers",
        max_length=300,
        blank=True,
        help_text="Describes the image for people who cannot see it. Needed with an image.",
    )
    # {use: {format extension: [name at 1x, at 2x, at 3x]}} (base/renditions.py); empty
    # without an image.
    image_renditions = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        abstract = True


def image_has_alt_text(name: str) -> models.CheckConstraint:
    """Every image on the site has alt text: a row with an image and none cannot be saved."""
    return models.CheckConstraint(
        condition=models.Q(image="") | ~models.Q(image_alt=""),
        name=name,
        violation_error_message=IMAGE_NEEDS_ALT_TEXT,
    )


IMAGE_NEEDS_ALT_TEXT = "Describe the image for people who cannot see it."


class WebLink(ValidatedModel):
    """A labelled web address: a profile's homepage, a paper's PDF. Each model of links declares
    its own `kind` field, with the kinds that fit it."""

    get_kind_display: Callable[[], str]  # made by Django for each model's `kind` field

    url = models.URLField("URL")
    label = models.CharField(
        max_length=100, blank=True, help_text="Shown instead of the kind's name when given."
    )

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.label or self.get_kind_display()


class OrderedRowQuerySet(SiteQuerySet):
    def get_by_natural_key(self, parent_slug: str, position: int) -> Any:
        return self.get(**{f"{self.model.parent_field}__slug": parent_slug, "position": position})


class OrderedRow(ValidatedModel):
    """A row that belongs to one parent row (a CV entry of a person, an author of a paper), in
    the order staff give it. Its natural key is the parent's slug and its position.

    A subclass names its parent's foreign key in `parent_field`, and declares in its Meta the
    ordering and the unique (parent, position) constraint (`unique_position`), which need the
    field's name.
    """

    parent_field: ClassVar[str]

    position = models.PositiveSmallIntegerField(
        default=0, help_text="Listed from the smallest number to the largest."
    )

    objects = OrderedRowQuerySet.as_manager()
    history = HistoricalRecords(inherit=True)

    class Meta:
        abstract = True

    def natural_key(self) -> tuple[str, int]:
        return (getattr(self, self.parent_field).slug, self.position)


def unique_position(parent_field: str, *, name: str) -> models.UniqueConstraint:
    """An OrderedRow's constraint: one row at each position of its parent (its natural key)."""
    return models.UniqueConstraint(fields=[parent_field, "position"], name=name)


class LabQuerySet(RenderedMarkdownQuerySet):
    def current(self) -> "Lab":
        """The one Lab row, created with defaults the first time. Hits the database."""
        lab: Lab = self.get_or_create(pk=1)[0]
        return lab


class Lab(ValidatedModel):
    """What the site says about the lab itself: one row, edited by staff."""

    # What a new site is called until staff name it; staff are told while it is.
    DEFAULT_NAME = "Lab Directory"

    name = models.CharField(
        max_length=200, default=DEFAULT_NAME, help_text="Shown in every page's header and title."
    )
    tagline = models.CharField(
        max_length=300, blank=True, help_text="One line under the name on the home page."
    )
    institution = models.CharField(
        max_length=300,
        blank=True,
        help_text=(
            'Where the lab is, e.g. "School of Computer Science, Example University". '
            "Shown on the home page and in every page's footer."
        ),
    )
    about = MarkdownField(blank=True, help_text="The home page's introduction. Markdown.")
    contact_email = models.EmailField(
        "contact email",
        blank=True,
        help_text="Where visitors write when a page does not work for them, e.g. with a screen "
        "reader. Named on the accessibility statement.",
    )
    about_html = RenderedMarkdownField(source="about")
    tagline_zh_hans = text_translation("tagline", max_length=300)
    about_zh_hans = markdown_translation("about")
    about_html_zh_hans = RenderedMarkdownField(source="about_zh_hans")
    # The lab's look (base/identity.py). Files are stored only as the admin's form cleaned
    # them: an SVG checked for scripts and foreign content, a raster image re-encoded as PNG.
    logo = models.FileField(
        upload_to="identity/",
        blank=True,
        help_text="Shown beside the lab's name in every page's header. SVG, PNG, JPEG or WebP.",
    )
    logo_dark = models.FileField(
        "logo for the dark scheme",
        upload_to="identity/",
        blank=True,
        help_text="Optional: a version of the logo that reads on a dark background.",
    )
    favicon_32 = models.FileField(upload_to="identity/", blank=True, editable=False)
    favicon_180 = models.FileField(upload_to="identity/", blank=True, editable=False)
    favicon_512 = models.FileField(upload_to="identity/", blank=True, editable=False)
    accent_colour = models.CharField(
        max_length=7,
        blank=True,
        validators=[identity.validate_light_accent],
        help_text=(
            'The colour of links and buttons, e.g. "#1a56a8". It must have a contrast of at '
            "least 4.5:1 on the white page. Leave empty for the site's blue."
        ),
    )
    accent_colour_dark = models.CharField(
        "accent colour for the dark scheme",
        max_length=7,
        blank=True,
        validators=[identity.validate_dark_accent],
        help_text=(
            "Optional: the accent on dark pages, at least 4.5:1 on near-black. Left empty, a "
            "lighter shade of the accent colour is used."
        ),
    )
    banner = models.ImageField(
        "banner or group photo",
        upload_to="identity/",
        blank=True,
        help_text="Optional: a wide photo shown at the top of the home page.",
    )
    banner_alt = models.CharField(
        "banner description for screen readers",
        max_length=300,
        blank=True,
        help_text='Describes the banner for people who cannot see it, e.g. "The lab in 2025".',
    )
    type_scale = models.CharField(
        max_length=20,
        choices=identity.TypeScale.CHOICES,
        default=identity.TypeScale.STANDARD,
        help_text="How large text and headings are on every page.",
    )

    show_citation_counts = models.BooleanField(
        default=False,
        help_text=(
            "Show how often each paper was cited, as OpenAlex and Crossref last counted it, "
            "with the date, on papers' pages and profiles. Off: no count is shown anywhere."
        ),
    )

    objects = LabQuerySet.as_manager()
    history = HistoricalRecords(excluded_fields=["about_html", "about_html_zh_hans"])

    class Meta:
        verbose_name = "lab settings"
        verbose_name_plural = "lab settings"
        # The editor's role (base/roles.py): the Editors group grants it.
        permissions = [("edit_all", "Edit every profile, publication and news item")]
        constraints = [
            # There is one lab: the home page and every header read row 1.
            models.CheckConstraint(condition=models.Q(pk=1), name="lab_single_row"),
            # Every image on the site has alt text.
            models.CheckConstraint(
                condition=models.Q(banner="") | ~models.Q(banner_alt=""),
                name="lab_banner_has_alt_text",
                violation_error_message="Describe the banner in its alt text.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def has_default_name(self) -> bool:
        return self.name == self.DEFAULT_NAME

    @property
    def identity_stamp(self) -> str:
        """Changes with the accent, the type scale and the logos: the identity stylesheet's
        and the icons' addresses carry it (base/identity.py)."""
        return identity.stamp(
            self.accent_colour,
            self.accent_colour_dark,
            self.type_scale,
            self.logo.name,
            self.logo_dark.name,
            self.favicon_32.name,
        )

    @property
    def logo_alt(self) -> str:
        return f"{self.name} logo"


class HistorySnapshot(models.Model):
    """What belonged to an object and what pointed at it, at one version of its history.

    django-simple-history keeps each model's own fields per version; this keeps the rest of
    the object as staff see it (base/versions.py): its parts (a paper's authors, awards
    and links; a person's CV entries and links), each as Django serializes it, and the rows
    that linked to it (author rows naming a person, news items about it), by primary key.
    A revert restores the parts; recovering a deleted object restores both.
    """

    # Its text is written by the code (a model's label, rows as Django serializes them), not
    # typed by staff; the rows it holds were validated when they were saved.
    validation_exempt = "written by base/versions.py from rows already validated"

    model = models.CharField(max_length=100, help_text='The versioned model, e.g. "people.person".')
    history_id = models.BigIntegerField(help_text="The version: the historical record's id.")
    parts = models.JSONField(default=dict, blank=True)
    links = models.JSONField(default=dict, blank=True)

    objects = SiteQuerySet.as_manager()

    class Meta:
        constraints = [
            # A version has one snapshot; the history pages look them up by version.
            models.UniqueConstraint(fields=["model", "history_id"], name="snapshot_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.model} version {self.history_id}"

    def cache_scopes(self) -> set[str]:
        """No public page shows a snapshot: the saves it copies name what they changed."""
        return set()
