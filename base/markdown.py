"""Markdown that staff and members type, rendered once when it is saved, never on a page view.

A Markdown field (`MarkdownField`) has a companion (`RenderedMarkdownField`) holding its HTML,
sanitized: pages, feeds and the API show the companion and never call the renderer, so what a
member types can cost the server only when it is saved, once. Both are filled on every way in:
- `save()`, the admin, `loaddata` (raw saves): the `pre_save` receiver of the shared validation
  (base/validation.py) checks the text and fills the companion;
- `bulk_create()` (the BibTeX import): the companion's own `pre_save`, which Django calls for
  every row it inserts;
- `save(update_fields=[...])`, `QuerySet.update()` and `bulk_update()`: `ValidatedModel.save`
  and `RenderedMarkdownQuerySet` add the companion to what they write.
Raw SQL alone skips it; a data migration refills every companion (`fill_rendered_markdown`)
whenever the renderer or the allowed tags change.

The renderer is markdown-it-py, linear in its input by design (docs/decisions/
markdown-renderer.md has the measurements that chose it over Python-Markdown, which took 16 s on
a 12 KB link-bracket bomb and a RecursionError on a list nested 500 deep). Its time is bounded
by bounding the text: at most `MAX_LENGTH` characters, lists and quotes nested at most
`MAX_NESTING` deep, both refused at save with what to change.
"""

import functools
import html
import re
from collections.abc import Iterable
from typing import Any

import nh3
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.token import Token

from base.site_cache import SiteQuerySet

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "em", "h2", "h3", "h4", "hr", "i", "li",
    "ol", "p", "pre", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip

# A long biography or news story is a few thousand characters; 20,000 is ten pages of text.
MAX_LENGTH = 20_000
# Lists within lists and quotes within quotes, counted together.
MAX_NESTING = 20
# What the parser itself goes down to: a list level is two of its levels (the list, the item),
# so text nested a few levels past MAX_NESTING is still seen whole, and counted. Past this the
# parser stops reading (markdown-it's own guard against deep recursion).
PARSER_NESTING = 2 * MAX_NESTING + 10

_CONTAINERS_OPENED = {"blockquote_open", "bullet_list_open", "ordered_list_open"}
_CONTAINERS_CLOSED = {"blockquote_close", "bullet_list_close", "ordered_list_close"}

# CommonMark with GitHub's tables; raw HTML is let through to nh3, which keeps only the allowed
# tags (as Python-Markdown did before).
_parser = MarkdownIt("commonmark", {"maxNesting": PARSER_NESTING}).enable("table")


@functools.lru_cache(maxsize=2)
def _parsed(text: str) -> tuple[Token, ...]:
    """The text's tokens, parsed once for a save's check and its render. Only read. Two kept:
    the tokens of 20,000 characters of link brackets take megabytes."""
    return tuple(_parser.parse(text))


def markdown_to_html(text: str) -> SafeString:
    """Markdown as HTML with anything executable removed. Called when a text is saved, not on
    page views: read the field's rendered companion instead."""
    html = _parser.renderer.render(list(_parsed(text or "")), _parser.options, {})
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(cleaned)


def nesting_depth(tokens: Iterable[Token]) -> int:
    """How deep lists and quotes nest in parsed text, counted together."""
    depth = deepest = 0
    for token in tokens:
        if token.type in _CONTAINERS_OPENED:
            depth += 1
            deepest = max(deepest, depth)
        elif token.type in _CONTAINERS_CLOSED:
            depth -= 1
    return deepest


def validate_markdown(text: str) -> None:
    """Refuse text too long or too deeply nested to render in bounded time, saying what to
    change. Length first: it is checked without parsing."""
    if len(text) > MAX_LENGTH:
        raise ValidationError(
            f"This text is {len(text):,} characters long; it may be at most {MAX_LENGTH:,}. "
            "Shorten it, or link to a page that has the rest.",
            code="markdown_length",
        )
    tokens = _parsed(text)
    depth = nesting_depth(tokens)
    if depth > MAX_NESTING:
        cut_short = any(token.level >= PARSER_NESTING - 1 for token in tokens)
        deep = f"at least {depth}" if cut_short else str(depth)
        raise ValidationError(
            f"Lists and quotes may nest at most {MAX_NESTING} deep; this text nests {deep} "
            "deep. Indent the inner lists less, or use fewer “>” at the start of a line.",
            code="markdown_nesting",
        )


class MarkdownField(models.TextField[Any, Any]):
    """Text staff or members write in Markdown: refused at save when too long or too deeply
    nested to render in bounded time (`validate_markdown`). Give it a `RenderedMarkdownField`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("validators", [validate_markdown])
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        # A TextField to migrations: the column is one, and a changed field would make SQLite
        # rebuild the table (losing the publications' full-text triggers) for no change at all.
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("validators") == [validate_markdown]:
            del kwargs["validators"]
        return name, "django.db.models.TextField", args, kwargs


class RenderedMarkdownField(models.TextField[Any, Any]):
    """The sanitized HTML of the Markdown field `source`, filled whenever the row is written;
    what pages show, as safe HTML. Not edited, not kept in history."""

    def __init__(self, *args: Any, source: str, **kwargs: Any) -> None:
        self.source = source
        kwargs.update(editable=False, blank=True, default="")
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        for fixed in ("editable", "blank", "default"):
            kwargs.pop(fixed, None)
        kwargs["source"] = self.source
        return name, path, args, kwargs

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> SafeString:
        return mark_safe(value or "")

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        return fill_rendered(model_instance, self)


def rendered_fields(model: type[models.Model]) -> list[RenderedMarkdownField]:
    return [
        field for field in model._meta.concrete_fields if isinstance(field, RenderedMarkdownField)
    ]


def companion_problems(model: type[models.Model]) -> list[str]:
    """What would let a page show Markdown not rendered, or rendered from stale text: a Markdown
    field without its companion, a companion of no Markdown field, a manager whose update()
    does not render. For the system check directory.E002."""
    label = model._meta.label
    markdown = {f.name for f in model._meta.concrete_fields if isinstance(f, MarkdownField)}
    companions = rendered_fields(model)
    problems = [
        f"{label}.{name} is Markdown with no RenderedMarkdownField(source={name!r}) beside it."
        for name in sorted(markdown - {field.source for field in companions})
    ]
    problems += [
        f"{label}.{field.name} renders {field.source!r}, which is not a MarkdownField."
        for field in companions
        if field.source not in markdown
    ]
    queryset = model._default_manager.get_queryset()
    if companions and not isinstance(queryset, RenderedMarkdownQuerySet):
        problems.append(
            f"{label}'s manager is not a RenderedMarkdownQuerySet: its update() would leave "
            "the rendered Markdown stale."
        )
    return problems


def fill_rendered(instance: models.Model, field: RenderedMarkdownField) -> SafeString:
    """Set `field` to its source's HTML, rendering only when the source changed since this
    instance last rendered it (a save runs the `pre_save` receiver, then the field's own)."""
    text = getattr(instance, field.source) or ""
    rendered_from: dict[str, str] = instance.__dict__.setdefault("_markdown_rendered_from", {})
    if rendered_from.get(field.attname) != text:
        setattr(instance, field.attname, markdown_to_html(text))
        rendered_from[field.attname] = text
    return SafeString(getattr(instance, field.attname))


def fill_all_rendered(instance: models.Model) -> None:
    """Every companion of `instance` filled, but for a text not loaded (`only()`, `defer()`): a
    save of such a row writes only what was loaded, neither the text nor its HTML."""
    deferred = instance.get_deferred_fields()
    for field in rendered_fields(type(instance)):
        if field.source not in deferred:
            fill_rendered(instance, field)


def with_rendered_fields(model: type[models.Model], names: Any) -> Any:
    """`names` (update_fields, or bulk_update's fields), plus the companion of each Markdown
    field among them; None stays None (every field)."""
    if names is None:
        return None
    names = list(names)
    return names + [
        field.name
        for field in rendered_fields(model)
        if field.source in names and field.name not in names
    ]


class RenderedMarkdownQuerySet(SiteQuerySet):
    """`update()` and `bulk_update()` that write a Markdown field's companion with it (and, as
    every SiteQuerySet's, move the site's change stamp)."""

    def update(self, **kwargs: Any) -> int:
        for field in rendered_fields(self.model):
            if field.source in kwargs and field.name not in kwargs:
                text = kwargs[field.source]
                if not isinstance(text, str):
                    raise TypeError(
                        f"update() can render {field.source} from text only; save the rows."
                    )
                kwargs[field.name] = str(markdown_to_html(text))
        return super().update(**kwargs)

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        objs = list(objs)
        for instance in objs:
            fill_all_rendered(instance)
        return super().bulk_update(
            objs, with_rendered_fields(self.model, fields), batch_size=batch_size
        )


def fill_rendered_markdown(model: type[models.Model]) -> None:
    """For data migrations: render every row's Markdown again into its companions (a new field,
    a new renderer or new allowed tags). Row by row, so memory stays flat on a large table."""
    fields = rendered_fields(model)
    sources = [field.source for field in fields]
    rows = model._default_manager.values_list("pk", *sources)
    for pk, *texts in rows.iterator():
        changes = {
            field.attname: str(markdown_to_html(text or ""))
            for field, text in zip(fields, texts, strict=True)
        }
        model._default_manager.filter(pk=pk).update(**changes)


def render_stored_markdown(app_label: str, *model_names: str) -> Any:
    """A data migration's forward step: `fill_rendered_markdown` for each of the app's models
    named, for the rows stored before their Markdown was rendered at save."""

    def render(apps: Any, schema_editor: Any) -> None:
        for name in model_names:
            fill_rendered_markdown(apps.get_model(app_label, name))

    return render


# Tags that end a block of text: a space stands for them, so "<p>One.</p><p>Two.</p>" reads
# "One. Two.", not "One.Two.".
_BLOCK_TAG = re.compile(r"<(?:/?(?:p|li|h[1-6]|blockquote|pre|td|th|tr|ul|ol|table)|br|hr)\b[^>]*>")
_ANY_TAG = re.compile(r"<[^>]*>")


def plain_text(rendered: str) -> str:
    """The text of a rendered Markdown companion (`RenderedMarkdownField`) as one line of plain
    text, for what is read as text, not HTML: the exports' abstracts (RIS, CSL-JSON, JSON-LD)
    and meta descriptions. Read from the companion, already parsed and sanitized, so the
    Markdown's own marks ("**", "[...](...)") never go out; entities are unescaped."""
    without_tags = _ANY_TAG.sub("", _BLOCK_TAG.sub(" ", rendered))
    return " ".join(html.unescape(without_tags).split())
