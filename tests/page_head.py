"""Reads what indexers read from a page: its <meta> and <link> tags, scripts and JSON-LD."""

import json
from html.parser import HTMLParser


class PageHead(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.meta: list[dict] = []
        self.links: list[dict] = []
        self.scripts: list[dict] = []
        self.json_ld: list[dict] = []
        self._json_ld_text: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "meta":
            self.meta.append(attributes)
        elif tag == "link":
            self.links.append(attributes)
        elif tag == "script":
            self.scripts.append(attributes)
            if attributes.get("type") == "application/ld+json":
                self._json_ld_text = []

    def handle_data(self, data):
        if self._json_ld_text is not None:
            self._json_ld_text.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._json_ld_text is not None:
            self.json_ld.append(json.loads("".join(self._json_ld_text)))
            self._json_ld_text = None

    def named(self, name: str) -> list[str]:
        """The contents of every <meta name=…> or <meta property=…> with that name, in order."""
        return [
            tag["content"] for tag in self.meta if name in (tag.get("name"), tag.get("property"))
        ]

    def link(self, rel: str) -> list[dict]:
        return [tag for tag in self.links if tag.get("rel") == rel]

    def feeds(self) -> list[dict]:
        """The alternates that are feeds (the others are the page in another language)."""
        return [tag for tag in self.link("alternate") if "hreflang" not in tag]
