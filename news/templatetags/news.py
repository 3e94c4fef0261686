from django import template

from base.site_cache import kept_block

register = template.Library()


@register.simple_tag
def news_entry(item, compact: bool = False):
    """`item`'s entry in a list of news (includes/news_entry.html), kept until a change of
    anyone's name or of a paper it names: a list rendered anew after an edit of another paper
    renders none of its entries again. A write of news or of a group names no narrower scope,
    so it moves every entry. What the item was loaded with is part of the key: an entry names
    its papers and groups only where the list loaded them (`with_publications`, `with_groups`)."""
    papers = getattr(item, "listed_publications", None)
    return kept_block(
        "news-entry",
        "includes/news_entry.html",
        item,
        as_name="item",
        scopes={"people", *(f"paper:{paper.pk}" for paper in papers or ())},
        loaded=(papers is not None, hasattr(item, "listed_groups")),
        compact=bool(compact),
    )
