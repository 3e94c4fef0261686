"""The SPDX licence identifiers an output may name (https://spdx.org/licenses/), kept here
rather than in a dependency: no maintained Python package ships the list alone, and researchers'
data and code use a few dozen of its 600 entries. An id missing here is added by a line; the
admin says where to look it up. Matched without regard to case, stored as SPDX spells it."""

from django.core.exceptions import ValidationError

SPDX_LICENCES = (
    # Software
    "0BSD",
    "AFL-3.0",
    "AGPL-3.0-only",
    "AGPL-3.0-or-later",
    "Apache-1.1",
    "Apache-2.0",
    "APSL-2.0",
    "Artistic-2.0",
    "BlueOak-1.0.0",
    "BSD-1-Clause",
    "BSD-2-Clause",
    "BSD-2-Clause-Patent",
    "BSD-3-Clause",
    "BSD-3-Clause-Clear",
    "BSD-4-Clause",
    "BSL-1.0",
    "CDDL-1.0",
    "CDDL-1.1",
    "CECILL-2.1",
    "CECILL-B",
    "CECILL-C",
    "ECL-2.0",
    "EPL-1.0",
    "EPL-2.0",
    "EUPL-1.1",
    "EUPL-1.2",
    "GPL-2.0-only",
    "GPL-2.0-or-later",
    "GPL-3.0-only",
    "GPL-3.0-or-later",
    "ISC",
    "LGPL-2.1-only",
    "LGPL-2.1-or-later",
    "LGPL-3.0-only",
    "LGPL-3.0-or-later",
    "LPPL-1.3c",
    "MIT",
    "MIT-0",
    "MPL-1.1",
    "MPL-2.0",
    "MS-PL",
    "MS-RL",
    "MulanPSL-2.0",
    "NCSA",
    "OFL-1.1",
    "OSL-3.0",
    "PostgreSQL",
    "Python-2.0",
    "PSF-2.0",
    "Ruby",
    "Unicode-3.0",
    "Unlicense",
    "UPL-1.0",
    "Vim",
    "W3C",
    "WTFPL",
    "X11",
    "Zlib",
    "ZPL-2.1",
    # Data, text and media
    "CC-BY-1.0",
    "CC-BY-2.0",
    "CC-BY-2.5",
    "CC-BY-3.0",
    "CC-BY-4.0",
    "CC-BY-NC-3.0",
    "CC-BY-NC-4.0",
    "CC-BY-NC-ND-3.0",
    "CC-BY-NC-ND-4.0",
    "CC-BY-NC-SA-3.0",
    "CC-BY-NC-SA-4.0",
    "CC-BY-ND-3.0",
    "CC-BY-ND-4.0",
    "CC-BY-SA-3.0",
    "CC-BY-SA-4.0",
    "CC0-1.0",
    "CC-PDDC",
    "CDLA-Permissive-1.0",
    "CDLA-Permissive-2.0",
    "CDLA-Sharing-1.0",
    "etalab-2.0",
    "GFDL-1.3-only",
    "GFDL-1.3-or-later",
    "ODbL-1.0",
    "ODC-By-1.0",
    "OGL-UK-3.0",
    "PDDL-1.0",
)

_BY_FOLDED = {licence.casefold(): licence for licence in SPDX_LICENCES}


def canonical_licence(value: str) -> str:
    """ "mit" → "MIT", "cc-by-4.0" → "CC-BY-4.0"; anything else as it came."""
    return _BY_FOLDED.get(value.strip().casefold(), value.strip())


def validate_licence(value: str) -> None:
    if value and value.casefold() not in _BY_FOLDED:
        raise ValidationError(
            f"“{value}” is not a licence this site knows. Write its SPDX identifier as "
            "spdx.org/licenses lists it, e.g. “MIT”, “Apache-2.0” or “CC-BY-4.0”.",
            code="invalid",
        )
