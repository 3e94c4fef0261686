"""Takes the README's screenshots (docs/*.png) from a freshly seeded site: `make screenshots`.

The site is served as the browser suite serves it (DEBUG off, collected static files) and shot
with Debian's Chromium. The seed names no lab, so the lab's name, tagline, institution and
introduction are typed in as staff would, and one paper (CausalMesh) gets a sample abstract,
links and a DOI, as the README says. `--dark` shoots the same pages in the dark scheme into
test-artifacts/readme-dark/ instead, to look at (the README shows the light ones).
"""

import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, runserver  # noqa: E402
from tests.live_site import manage, prepare_site, site_environment  # noqa: E402

SAMPLE_CONTENT = """
from directory.models import Lab
from publications.models import Publication
lab = Lab.objects.current()
lab.name = "Example Systems Lab"
lab.tagline = "Systems for large-scale machine learning, networks and the cloud."
lab.institution = "Department of Computer Science, Example University"
lab.about = (
    "We build the systems that train and serve large models: schedulers for GPU clusters, "
    "programmable networks, serverless runtimes and caches. Our work appears at NSDI, OSDI, "
    "SIGCOMM, VLDB and NeurIPS, and our code is open source."
)
lab.save()
paper = Publication.objects.get(slug="causalmesh")
paper.abstract = (
    "Stateful serverless workflows need caches that keep **causal consistency** across "
    "functions that migrate between servers. CausalMesh is a causal cache that lets a workflow "
    "read its own writes wherever its functions run."
)
paper.doi = "10.5555/causalmesh"
paper.save()
for position, kind in enumerate(["pdf", "code", "slides", "video"], start=1):
    paper.links.create(position=position, kind=kind, url=f"https://example.org/causalmesh/{kind}")
"""

# name, path, width, height, whether CausalMesh's abstract is opened
SHOTS = [
    ("home", "/", 1440, 1100, False),
    ("home-phone", "/", 390, 1400, False),
    ("publications", "/publications/?author=haoran-zhang", 1440, 1150, True),
    ("publications-phone", "/publications/?author=haoran-zhang", 390, 1500, False),
    ("profile", "/people/haoran-zhang/", 1440, 1250, False),
    ("profile-phone", "/people/haoran-zhang/", 390, 1500, False),
]


def take(url: str, folder: Path, scheme: str) -> None:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        for name, path, width, height, open_abstract in SHOTS:
            context = browser.new_context(
                viewport={"width": width, "height": height}, base_url=url, color_scheme=scheme
            )
            page = context.new_page()
            page.goto(path)
            if open_abstract:
                entry = page.locator(".publication", has_text="CausalMesh")
                entry.locator("summary", has_text="Abstract").click()
            page.screenshot(path=folder / f"{name}.png")
            context.close()
        browser.close()


def main() -> None:
    dark = "--dark" in sys.argv[1:]
    folder = PROJECT / "test-artifacts" / "readme-dark" if dark else PROJECT / "docs"
    with tempfile.TemporaryDirectory() as work:
        environment = site_environment(Path(work))
        prepare_site(environment, staff=[])
        manage(environment, "shell", "-c", SAMPLE_CONTENT)
        with runserver(environment) as url:
            take(url, folder, "dark" if dark else "light")
    print(f"Screenshots written to {folder}")


if __name__ == "__main__":
    main()
