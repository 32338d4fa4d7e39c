"""The message catalog: every text a person reads from the hub, in English and Czech.

Producers say what happened as a :class:`feltwire.text.Text` (a key and its
parameters); the catalog (``catalog/*.toml``) holds each key's sentence in both languages;
the server renders with :func:`render`, the pages with the JSON of :func:`catalog_json`.
:mod:`hub.messages.keys` says which key belongs to which alert code and raise site.

>>> from feltwire.text import Seat, Text
>>> render(Text("refusal.console.seat_folded", {"seat": Seat(4)}), "cs")
'místo 4 už složilo karty (fold)'
"""

from hub.messages.errors import (
    CatalogError,
    DuplicateKeyError,
    MessagesError,
    ParamsError,
    UnknownKeyError,
    UnknownLanguageError,
)
from hub.messages.phrasebook import (
    LANGS,
    Catalog,
    Entry,
    Lang,
    catalog_from,
    catalog_json,
    format_int,
    load_catalog,
    placeholders,
    render,
)
from hub.messages.vocabulary import antenna, joined, phase, street

__all__ = [
    "LANGS",
    "Catalog",
    "CatalogError",
    "DuplicateKeyError",
    "Entry",
    "Lang",
    "MessagesError",
    "ParamsError",
    "UnknownKeyError",
    "UnknownLanguageError",
    "antenna",
    "catalog_from",
    "catalog_json",
    "format_int",
    "joined",
    "load_catalog",
    "phase",
    "placeholders",
    "render",
    "street",
]
