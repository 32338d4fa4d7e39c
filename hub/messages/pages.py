"""The catalog as the pages load it: ``hub/web/static/messages/<lang>.json``.

The pages render texts themselves (``static/lib/i18n.js``) from a JSON file per language
— :func:`~hub.messages.phrasebook.catalog_json`, written out by ``python -m hub.messages
--write-static`` and committed beside the pages, so they are served like every other
static file and work offline. A test keeps the files equal to the catalog
(:func:`stale_files`): change a ``catalog/*.toml`` entry, run the command, commit both.

>>> sorted(static_files())
['cs.json', 'en.json']
>>> stale_files(STATIC_DIR)
[]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from hub.messages.phrasebook import LANGS, Catalog, catalog_json

STATIC_DIR: Final = Path(__file__).resolve().parents[1] / "web" / "static" / "messages"
"""Where the pages' catalog files live (``/static/messages/<lang>.json``)."""


def static_files(catalog: Catalog | None = None) -> dict[str, str]:
    """Each language's file name and its content: the catalog JSON, keys sorted, one
    entry a line, UTF-8 as it is (no ``\\u`` escapes)."""
    return {
        f"{lang}.json": json.dumps(catalog_json(lang, catalog), ensure_ascii=False, indent=1) + "\n"
        for lang in LANGS
    }


def write_files(directory: Path = STATIC_DIR) -> list[Path]:
    """Write the pages' catalog files into ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, content in static_files().items():
        path = directory / name
        path.write_text(content, encoding="utf-8")
        out.append(path)
    return out


def stale_files(directory: Path = STATIC_DIR) -> list[str]:
    """The names of the files in ``directory`` that are missing or differ from the catalog."""
    stale = []
    for name, content in static_files().items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != content:
            stale.append(name)
    return stale
