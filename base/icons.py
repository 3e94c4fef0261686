"""Line icons drawn in the page as SVG: presentation attributes only, so the strict CSP holds
(no style attribute), and `currentColor`, so they follow the text's colour in light and dark.
Every icon is decorative: the link or button it sits in says what it is in words."""

PATHS = {
    "homepage": "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z",
    "github": "M9 19c-4.3 1.4-4.3-2.5-6-3m12 5v-3.5c0-1 .1-1.4-.5-2 2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2 4.2 4.2 0 0 0-.1-3.2s-1.1-.3-3.5 1.3a12.3 12.3 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 9.5c0 4.6 2.7 5.7 5.5 6-.6.6-.6 1.2-.5 2V21",
    "scholar": "M12 4 2 9.5l10 5.5 10-5.5L12 4zM6 12v4.5c0 1.4 2.7 3 6 3s6-1.6 6-3V12M22 9.5V15",
    "linkedin": "M4 4h16v16H4zM8 11v5M8 8v.01M12 16v-5M12 13a2 2 0 0 1 4 0v3",
    "orcid": "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM9 8v.01M9 11v5M12.5 8h1.5a4 4 0 0 1 0 8h-1.5z",
    "dblp": "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
    "social": "M21 11.5a8.4 8.4 0 0 1-12.3 7.5L3 21l2-5.4A8.5 8.5 0 1 1 21 11.5z",
    "link": "M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1 1M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1-1",
    "email": "M3 5h18v14H3zM3 6l9 7 9-7",
    "pdf": "M14 3H6v18h12V7l-4-4zM14 3v4h4M9 13h6M9 17h6",
    "code": "M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16",
    "slides": "M3 4h18v12H3zM12 16v4M8 20h8",
    "video": "M3 5h18v14H3zM10 9l5 3-5 3z",
    "project": "M4 4h16v16H4zM4 9h16M9 9v11",
    "dataset": "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
    "arxiv": "M14 3H6v18h12V7l-4-4zM14 3v4h4",
    "abstract": "M4 6h16M4 10h16M4 14h16M4 18h10",
    "cite": "M6 7h4v4c0 3-1.5 5-4 6M14 7h4v4c0 3-1.5 5-4 6",
    "search": "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM21 21l-5-5",
    "copy": "M9 9h11v11H9zM5 15H4V4h11v1",
    "feed": "M5 11a8 8 0 0 1 8 8M5 5a14 14 0 0 1 14 14M5 19h.01",
    "download": "M12 4v11M7 10l5 5 5-5M5 20h14",
    "award": "M12 3a6 6 0 1 0 0 12 6 6 0 0 0 0-12zM8.5 14 7 21l5-3 5 3-1.5-7",
    "external": "M14 4h6v6M20 4l-9 9M18 14v6H4V6h6",
}
