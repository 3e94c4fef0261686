"""Takes the README's screenshots (docs/*.png) and the review gallery (docs/gallery/) from a
freshly seeded site: `make screenshots`.

The site is served as the browser suite serves it (DEBUG off, collected static files) and shot
with Debian's Chromium. The seed names no lab, so the lab's name, tagline, institution and
introduction are typed in as staff would, one paper (CausalMesh) gets a sample abstract, links
and a DOI, and the lab a sample identity (SAMPLE_IDENTITY): a logo, an accent colour, a banner
and a generated portrait for two of the four people, the others keeping their placeholders;
a research group, and sample pictures for a news item, a paper and the group (SAMPLE_PICTURES).

The gallery has every page type (GALLERY) at 390 and 1440 px, light and dark, the first screen
of each: what a reviewer compares with the anchors (issue 26). `--dark` shoots the README's
pages in the dark scheme into test-artifacts/readme-dark/ instead, to look at.
"""

import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, runserver  # noqa: E402
from tests.live_site import manage, prepare_site, site_environment  # noqa: E402

SAMPLE_CONTENT = """
from base.models import Lab
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

# Made with Pillow here rather than shipped: a logo, a banner and two portraits, stored through
# the same cleaning and renditions as an upload through the admin.
SAMPLE_IDENTITY = """
import io
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw
from base import identity
from base.models import Lab
from people.models import Person
from people.photos import clean_photo, save_photo

def jpeg(image):
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return SimpleUploadedFile("upload.jpg", buffer.getvalue(), content_type="image/jpeg")

lab = Lab.objects.current()
logo = identity.CleanLogo(content=identity.clean_svg(LOGO), extension="svg")
lab.logo.save(logo.name, ContentFile(logo.content), save=False)
lab.accent_colour = "#7a1f5c"
banner = Image.new("RGB", (1600, 500), "#2d3a4a")
draw = ImageDraw.Draw(banner)
for index in range(9):
    draw.ellipse((80 + index * 170, 170, 220 + index * 170, 330), fill=("#c98f6b", "#8a5a3c", "#e0b48f")[index % 3])
    draw.rectangle((60 + index * 170, 330, 240 + index * 170, 500), fill=("#3f6e8f", "#6f3f5a", "#4f6f3f")[index % 3])
lab.banner.save("banner.jpg", identity.clean_banner(upload=jpeg(banner)), save=False)
lab.banner_alt = "The lab's members in front of the department, 2026"
identity.store_favicons(lab)
lab.save()
for slug, skin, shirt in (("hang-zhu", "#c9a27e", "#2f4f6f"), ("zerui-wang", "#e0b48f", "#6f3f5a")):
    portrait = Image.new("RGB", (800, 800), "#dfe6ee")
    draw = ImageDraw.Draw(portrait)
    draw.ellipse((250, 150, 550, 500), fill=skin)
    draw.rectangle((170, 540, 630, 800), fill=shirt)
    person = Person.objects.get(slug=slug)
    person.photo_alt = f"Portrait of {person.name}"
    save_photo(person=person, photo=clean_photo(upload=jpeg(portrait)))
"""
# A research group (the seed has none) and sample pictures for a news item, a paper's teaser
# and the group, made with Pillow and stored as an upload through the admin is (the seed itself
# holds no pictures: its fixtures hold only what the four profiles say).
SAMPLE_PICTURES = """
import io
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw
from base.illustrations import clean_illustration, save_with_image
from news.models import NewsItem
from people.models import Membership, Person, ResearchGroup
from publications.models import Publication

def picture(ground, shapes):
    image = Image.new("RGB", (1600, 1000), ground)
    draw = ImageDraw.Draw(image)
    for index, colour in enumerate(shapes):
        left = 160 + index * 420
        draw.rounded_rectangle((left, 260, left + 360, 740), radius=40, fill=colour)
        draw.ellipse((left + 90, 340, left + 270, 520), fill="#f4efe6")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return SimpleUploadedFile("upload.jpg", buffer.getvalue(), content_type="image/jpeg")

group = ResearchGroup.objects.create(
    name="Machine Learning Systems", slug="ml-systems",
    short_description="Systems for training and serving large models.",
    description="We build schedulers, caches and runtimes for **large models**.",
)
people = {person.slug: person for person in Person.objects.all()}
Membership.objects.create(group=group, person=people["hao-zhang"], role="leader")
Membership.objects.create(group=group, person=people["zerui-wang"], role="phd-student", start="2023-09")
Membership.objects.create(group=group, person=people["hang-zhu"], role="phd-student", start="2022-09")
rows = [
    (NewsItem.objects.get(slug="linear-attention-visualized"), "#22313f",
     ("#c98f6b", "#4f7f9f", "#8a5a3c"), "Attention maps of a linear model, drawn as tiles"),
    (Publication.objects.get(slug="causalmesh"), "#2f4f4f",
     ("#7fb3a3", "#d9a441", "#5f7fbf"), "CausalMesh's cache between three serverless functions"),
    (group, "#3a2f4f", ("#b07aa1", "#6f9fcf", "#cf9f6f"), "The group's GPU servers in the machine room"),
]
for row, ground, shapes, alt in rows:
    row.image_alt = alt
    upload = picture(ground, shapes)
    save_with_image(row=row, image=clean_illustration(upload=upload, model=type(row)))
"""
LOGO = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<rect width="64" height="64" rx="14" fill="#7a1f5c"/>'
    '<path d="M14 46 L26 18 L38 46 M20 34 H32 M40 18 V46 H52" stroke="#ffffff" '
    'stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>'
)

# Every page type, as the gallery shows it.
GALLERY = [
    ("home", "/"),
    ("people", "/people/"),
    ("profile", "/people/hang-zhu/"),
    ("profile-advisors", "/people/zerui-wang/"),
    ("cv", "/people/hang-zhu/cv/"),
    ("publications", "/publications/"),
    ("paper", "/publications/causalmesh/"),
    ("news", "/news/"),
    ("news-item", "/news/linear-attention-visualized/"),
    ("groups", "/groups/"),
    ("group", "/groups/ml-systems/"),
    ("search", "/search/?q=zhang"),
    ("api-docs", "/api/docs"),
    ("admin-sign-in", "/admin/login/"),
]
GALLERY_WIDTHS = {390: 844, 1440: 900}

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


def gallery(url: str, folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        for scheme in ("light", "dark"):
            for width, height in GALLERY_WIDTHS.items():
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    base_url=url,
                    color_scheme=scheme,
                    device_scale_factor=1,
                )
                page = context.new_page()
                for name, path in GALLERY:
                    page.goto(path, wait_until="networkidle")
                    if path.startswith("/api/docs"):
                        # Swagger UI draws the operations after its 1.5 MB script has run.
                        page.wait_for_selector(".opblock", timeout=60_000)
                    page.screenshot(path=folder / f"{name}-{width}-{scheme}.png")
                context.close()
        browser.close()


def main() -> None:
    dark = "--dark" in sys.argv[1:]
    folder = PROJECT / "test-artifacts" / "readme-dark" if dark else PROJECT / "docs"
    with tempfile.TemporaryDirectory() as work:
        # Django serves the sample photos itself, as on a one-machine site.
        environment = site_environment(Path(work), SERVE_MEDIA="1")
        prepare_site(environment, staff=[])
        manage(environment, "shell", "-c", SAMPLE_CONTENT)
        manage(environment, "shell", "-c", f"LOGO = {LOGO.encode()!r}\n{SAMPLE_IDENTITY}")
        manage(environment, "shell", "-c", SAMPLE_PICTURES)
        with runserver(environment) as url:
            take(url, folder, "dark" if dark else "light")
            if not dark:
                gallery(url, PROJECT / "docs" / "gallery")
    print(f"Screenshots written to {folder}" + ("" if dark else " and docs/gallery/"))


if __name__ == "__main__":
    main()
