"""System checks: run by `manage.py check`, `migrate`, `runserver` and the test suite, so a
mistake in the code or the configuration is named at start-up rather than found by a visitor."""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig, apps
from django.conf import settings
from django.core import checks

from base.markdown import companion_problems
from base.site_cache import SiteQuerySet, shown_on_pages
from base.validation import ValidatedModel, text_fields

# The apps whose rows staff and imports write; the base checks them without importing them.
EDITED_APPS = ("directory", "people", "publications", "news")


@checks.register(checks.Tags.models)
def every_edited_model_is_validated(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """A new model with text fields must refuse control characters like the others, or say in
    `validation_exempt` why its text is not staff's to type (an uploaded file kept as it came)."""
    errors: list[checks.CheckMessage] = []
    for model in apps.get_models():
        if model._meta.app_label not in EDITED_APPS or hasattr(model, "instance_type"):
            continue  # another app's model, or a history row (a copy of a validated one)
        exempt = getattr(model, "validation_exempt", "")
        if text_fields(model) and not issubclass(model, ValidatedModel) and not exempt:
            errors.append(
                checks.Error(
                    f"{model._meta.label} has text fields but is not a ValidatedModel.",
                    hint=(
                        "Inherit base.validation.ValidatedModel (or a base that does), or "
                        "say why not in a `validation_exempt` class attribute."
                    ),
                    obj=model,
                    id="directory.E001",
                )
            )
    return errors


@checks.register(checks.Tags.models)
def every_markdown_field_is_rendered_at_save(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """Pages show Markdown only as its stored HTML (base/markdown.py): a Markdown field
    must have its companion, and its model a manager whose update() fills it."""
    return [
        checks.Error(
            problem,
            hint="See base/markdown.py: a MarkdownField, its RenderedMarkdownField, and a "
            "QuerySet built on RenderedMarkdownQuerySet (PublishableQuerySet is one).",
            obj=model,
            id="directory.E002",
        )
        for model in apps.get_models()
        if model._meta.app_label in EDITED_APPS and not hasattr(model, "instance_type")
        for problem in companion_problems(model)
    ]


@checks.register(checks.Tags.security)
def proxy_count_is_set_behind_a_proxy(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """Behind a proxy every request comes from the proxy's address: without AXES_PROXY_COUNT,
    django-axes counts every visitor's failed sign-ins as one address's, and five lock everyone
    out of the admin."""
    if getattr(settings, "BEHIND_HTTPS_PROXY", False) and not getattr(
        settings, "AXES_PROXY_COUNT_SET", False
    ):
        return [
            checks.Warning(
                "BEHIND_HTTPS_PROXY is on but AXES_PROXY_COUNT is not set: every visitor's "
                "failed admin sign-ins count as the proxy's, and five lock everyone out.",
                hint=(
                    "Set AXES_PROXY_COUNT to the number of proxies that append to "
                    "X-Forwarded-For (1 for one nginx in front of gunicorn); set it to 0 if the "
                    "proxy passes the client's own address as REMOTE_ADDR."
                ),
                id="directory.W001",
            )
        ]
    return []


@checks.register(checks.Tags.models)
def every_site_model_moves_the_stamp(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """Every model a public page may read writes through SiteQuerySet, so its `update()` and
    bulk writes move the change stamp as its saves do (base/site_cache.py). Exempt: models
    no page shows (settings.SITE_CACHE_IGNORED_MODELS), history rows (written by the saves of
    the rows they copy, whose signals move the stamp) and m2m through tables (m2m_changed)."""
    return [
        checks.Error(
            f"{model._meta.label}'s default manager is not built on SiteQuerySet: its update() "
            "and bulk writes would leave cached pages stale.",
            hint=(
                "Build the model's QuerySet on base.querysets.SiteQuerySet (or on a "
                "QuerySet built on it, such as PublishableQuerySet) and use `as_manager()`."
            ),
            obj=model,
            id="directory.E003",
        )
        for model in apps.get_models()
        if model._meta.app_label in EDITED_APPS
        and not hasattr(model, "instance_type")
        and shown_on_pages(model)
        and not isinstance(model._default_manager.get_queryset(), SiteQuerySet)
    ]
