from django.db import models
from django.db.models.functions import Substr
from django.utils.translation import gettext_lazy

from base.history_records import SiteHistoricalRecords
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import Illustrated, PublicPage, image_has_alt_text, page_slug
from base.partial_dates import PartialDateField, year_of
from base.querysets import PublishableQuerySet
from base.renditions import Shape
from base.translations import markdown_translation, text_translation
from people.models import Person, ResearchGroup, covers_year
from publications.models import Publication, listed_publications


class NewsItemQuerySet(PublishableQuerySet):
    def for_listing(self) -> "NewsItemQuerySet":
        """The people named beside each item; publications are only on the item's own page."""
        return self.prefetch_related(
            models.Prefetch("people", queryset=Person.objects.published().only("name", "slug"))
        )

    def with_publications(self) -> "NewsItemQuerySet":
        """Each item's published papers as `listed_publications`: a one-line item links its
        papers, having no page of its own to show them. One query for all items."""
        return self.prefetch_related(listed_publications("title", "title_zh_hans", "slug"))

    def with_groups(self) -> "NewsItemQuerySet":
        """Each item's published research groups, named beside it on the news page: one query
        for all items."""
        return self.prefetch_related(
            models.Prefetch(
                "groups",
                queryset=ResearchGroup.objects.published().only("name", "name_zh_hans", "slug"),
                to_attr="listed_groups",
            )
        )

    def about(self, person: Person) -> "NewsItemQuerySet":
        """The items that name `person` among the people they are about."""
        return self.filter(people=person)

    def of_group(self, group: ResearchGroup | models.QuerySet[ResearchGroup]) -> "NewsItemQuerySet":
        """The items about the group itself, or about one of its members while they were a
        member (by year, as for the group's papers: people.models.covers_year). `group` is a
        ResearchGroup, or a queryset of them (the news filter's: any of them)."""
        groups = [group] if isinstance(group, ResearchGroup) else group
        about_members = NewsItem.people.through.objects.filter(
            models.Q(person__memberships__group__in=groups)
            & covers_year(year_of("newsitem__date"), prefix="person__memberships__")
        )
        tagged = NewsItem.groups.through.objects.filter(researchgroup__in=groups)
        return self.filter(
            models.Q(pk__in=about_members.values("newsitem"))
            | models.Q(pk__in=tagged.values("newsitem"))
        )

    def mentioning(self, publication: Publication) -> "NewsItemQuerySet":
        return self.filter(publications=publication)

    def in_year(self, year: int) -> "NewsItemQuerySet":
        # Dates are stored as ISO strings ("2026", "2026-07-25"), so a year is a prefix.
        return self.filter(date__startswith=f"{year:04d}")

    def years(self) -> "models.QuerySet[NewsItem, str]":
        """The distinct years, newest first, in one query."""
        years: models.QuerySet[NewsItem, str] = (
            self.annotate(year=Substr("date", 1, 4, output_field=models.CharField()))
            .order_by("-year")
            .values_list("year", flat=True)
            .distinct()
        )
        return years


class NewsItem(PublicPage, Illustrated):
    url_name = "news:detail"
    # A small picture beside the summary in lists, a larger one atop the item's page.
    image_shapes = {"thumbnail": Shape(120, 80), "page": Shape(720, 405)}
    image_folder = "news"

    class Kind(models.TextChoices):
        NEWS = "news", gettext_lazy("News")
        BLOG_POST = "blog-post", gettext_lazy("Blog post")

    title = models.CharField(max_length=300)
    title_zh_hans = text_translation("title", max_length=300)
    slug = page_slug("The item's address: /news/slug/.")
    date = PartialDateField(help_text='As precise as known: "2026", "May 2026" or "25 Jul 2026".')
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.NEWS)
    body = MarkdownField(
        blank=True,
        help_text="Markdown. Leave empty for a one-line item: it is listed without a page.",
    )
    body_html = RenderedMarkdownField(source="body")
    body_zh_hans = markdown_translation("body")
    body_html_zh_hans = RenderedMarkdownField(source="body_zh_hans")
    link = models.URLField(
        "external link",
        max_length=500,
        blank=True,
        help_text="Where the full story lives, e.g. a blog post on another site: the title links there.",
    )
    people = models.ManyToManyField(
        Person, blank=True, related_name="news_items", help_text="The members this item is about."
    )
    publications = models.ManyToManyField(
        Publication, blank=True, related_name="news_items", help_text="The papers it mentions."
    )
    groups = models.ManyToManyField(
        ResearchGroup,
        blank=True,
        related_name="news_items",
        help_text="The research groups it is about. News about a group's members is on the "
        "group's page anyway.",
    )

    objects = NewsItemQuerySet.as_manager()
    history = SiteHistoricalRecords(
        m2m_fields=["people", "publications", "groups"],
        excluded_fields=["body_html", "body_html_zh_hans"],
    )

    class Meta:
        # The slug last: items of one date and title keep one order, page after page.
        ordering = ["-date", "title", "slug"]
        verbose_name = "news item"
        constraints = [image_has_alt_text("newsitem_image_has_alt_text")]
        indexes = [
            # The news page lists newest first.
            models.Index(fields=["-date"], name="newsitem_date_desc"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def has_page(self) -> bool:
        """A one-line item (no body) is listed without a link to a page of its own."""
        return bool(self.body.strip())

    @property
    def href(self) -> str:
        """Where the item's title leads: its page, the story elsewhere, or nowhere."""
        if self.has_page:
            return self.get_absolute_url()
        return self.link
