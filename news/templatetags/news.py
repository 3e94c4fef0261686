from django import template

from base.site_cache import kept_block

register = template.Library()


@register.simple_tag
def news_entry(item, compact: bool = False):
    """`item`'s entry in a list of news (includes/news_entry.html), kept until a change of
    anyone's name or of a paper it names: a list rendered anew after an edit of another paper
    renders none of its entries again. A write of news or of a group names no narrower scope,
    so it moves every entry; so does a paper published or unpublished (`facets`), which may
    add one to the papers an entry names (`listed_publications` holds the published ones).
    What the item was loaded with is part of the key: an entry names its papers, groups and
    published people only where the list loaded them (`with_publications`, `with_groups`,
    `for_listing`)."""
    papers = getattr(item, "listed_publications", None)
    follows = {"people"}
    if papers is not None:
        follows |= {"facets", *(f"paper:{paper.pk}" for paper in papers)}
    prefetched = getattr(item, "_prefetched_objects_cache", {})
    return kept_block(
        "news-entry",
        "includes/news_entry.html",
        item,
        as_name="item",
        scopes=follows,
        loaded=(papers is not None, hasattr(item, "listed_groups"), "people" in prefetched),
        compact=bool(compact),
    )
