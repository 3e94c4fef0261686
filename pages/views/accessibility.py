"""/accessibility/: the accessibility statement. Its facts (the standard, the page types, screen
sizes, colour schemes, checks and keyboard journeys) are base/accessibility.py's, the
list the browser tests run from."""

from django.shortcuts import render

from base import accessibility


def statement(request):
    pages = accessibility.PAGE_TYPES
    return render(
        request,
        "accessibility.html",
        {
            "standard": accessibility.STANDARD,
            "standard_url": accessibility.STANDARD_URL,
            "viewports": [
                {"label": accessibility.VIEWPORT_LABELS[name], **size}
                for name, size in accessibility.VIEWPORTS.items()
            ],
            "schemes": [accessibility.SCHEME_LABELS[scheme] for scheme in accessibility.SCHEMES],
            "blocking_impacts": [
                accessibility.IMPACT_LABELS[impact] for impact in accessibility.AXE_BLOCKING_IMPACTS
            ],
            "axe_pages": [page for page in pages if accessibility.AXE in page.checks],
            "nu_pages": [page for page in pages if accessibility.NU in page.checks],
            "journeys": accessibility.KEYBOARD_JOURNEYS,
            "limitations": accessibility.LIMITATIONS,
        },
    )
