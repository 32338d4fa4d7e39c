"""The message catalog loaded: every key's English and Czech text, and how to render one.

The catalog is data — ``hub/messages/catalog/*.toml``, one file per area, each entry a
table ``[key]`` with ``en = "…"`` and ``cs = "…"`` that name the same ``{placeholders}``.
:func:`load_catalog` reads and merges the files (a key in two files is refused) into a
:class:`Catalog`; :meth:`Catalog.render` (or :func:`render`) turns a
:class:`~feltwire.text.Text` into a sentence in one language; :func:`catalog_json` is what
the pages fetch to render the same texts themselves.

>>> from feltwire.text import Seat, Text
>>> t = Text("alert.action_out_of_turn.acted.message", {"seat": Seat(3), "actor": Seat(5)})
>>> render(t, "en")
'seat 3 acted out of turn; seat 5 is to act'
>>> render(t, "cs")
'místo 3 jedná mimo pořadí; na řadě je místo 5'

The template syntax is ``{name}`` and nothing else (no format specs, no plural rules —
a plural is another key, ``….one`` / ``….many``), so a page renders a text with a few
lines of JavaScript and the catalog JSON::

    function render(t, texts, num) {   // num: String, or Intl.NumberFormat(locale).format
      const p = (v) => typeof v === "number" ? num(v)
        : typeof v === "string" ? v
        : "key" in v ? render(v, texts, num)
        : "seat" in v ? render({key: "seat", params: {n: v.seat}}, texts, num)
        : render({key: "player", params: {n: v.player + 1}}, texts, num);
      return texts[t.key].replace(/\\{([a-z_][a-z0-9_]*)\\}/g, (m, k) => p(t.params[k]));
    }

Numbers (:func:`format_int`): English keeps the digits as the hub has always written
them (``12345``: the English texts do not change), Czech groups them as
``Intl.NumberFormat("cs-CZ")`` does (``12 345``, a no-break space, from five digits on);
the catalog JSON says which (``group_digits``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

from feltwire.text import Param, Player, Seat, Text
from hub.messages.errors import (
    CatalogError,
    DuplicateKeyError,
    ParamsError,
    UnknownKeyError,
    UnknownLanguageError,
)

Lang: TypeAlias = Literal["en", "cs"]
"""A language the catalog speaks: English or Czech (the club's languages)."""

LANGS: Final[tuple[Lang, ...]] = ("en", "cs")
LOCALES: Final[Mapping[str, str]] = {"en": "en-GB", "cs": "cs-CZ"}
"""Each language's locale (the pages' ``Intl`` locales)."""

SEAT_KEY: Final = "seat"
"""The entry that names a :class:`~feltwire.text.Seat` (``{n}``: the seat number)."""
PLAYER_KEY: Final = "player"
"""The entry that names a :class:`~feltwire.text.Player` (``{n}``: its index + 1)."""

PLACEHOLDER: Final = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
"""A placeholder in a template: ``{name}``, a lower-case identifier."""
_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")

# how a language groups digits — the separator and the fewest digits grouped — or None:
# English as the hub's texts always were (no grouping), Czech as Intl.NumberFormat does
_GROUPING: Final[Mapping[str, tuple[str, int] | None]] = {"en": None, "cs": ("\u00a0", 5)}


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses.

    >>> sorted(placeholders("{seat} takes {amount} ({half})"))
    ['amount', 'half', 'seat']
    """
    return frozenset(PLACEHOLDER.findall(template))


def format_int(n: int, lang: str) -> str:
    """``n`` as a text in ``lang`` shows it.

    >>> format_int(12345, "en"), format_int(1234, "cs"), format_int(-12345, "cs")
    ('12345', '1234', '-12\\xa0345')
    """
    grouping = _GROUPING[_lang(lang)]
    digits = str(abs(n))
    if grouping is not None and len(digits) >= grouping[1]:
        sep = grouping[0]
        head = len(digits) % 3 or 3
        groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
        digits = sep.join(groups)
    return f"-{digits}" if n < 0 else digits


def _lang(lang: str) -> Lang:
    if lang == "en":
        return "en"
    if lang == "cs":
        return "cs"
    raise UnknownLanguageError(f"the catalog speaks {' and '.join(LANGS)}, not {lang!r}")


@dataclass(frozen=True, slots=True)
class Entry:
    """One catalog entry: its key, its English and Czech templates, the file it is in."""

    key: str
    en: str
    cs: str
    source: str
    """The catalog file that holds it (for error messages)."""

    @property
    def params(self) -> frozenset[str]:
        """The parameter names both templates use."""
        return placeholders(self.en)

    def template(self, lang: str) -> str:
        """The template in ``lang``."""
        return self.en if _lang(lang) == "en" else self.cs

    def check(self) -> None:
        """Raise CatalogError unless the entry is well formed: a dotted lower-case key,
        both texts non-empty, the same placeholders, no brace outside a placeholder."""
        where = f"{self.source}: [{self.key}]"
        if not _KEY.match(self.key):
            raise CatalogError(f"{where}: a key is dotted lower-case words")
        for lang in LANGS:
            text = self.template(lang)
            if not text.strip():
                raise CatalogError(f"{where}: the {lang} text is empty")
            if "{" in PLACEHOLDER.sub("", text) or "}" in PLACEHOLDER.sub("", text):
                raise CatalogError(f"{where}: the {lang} text has a brace outside a {{name}}")
        if placeholders(self.en) != placeholders(self.cs):
            en, cs = sorted(placeholders(self.en)), sorted(placeholders(self.cs))
            raise CatalogError(f"{where}: en names {en}, cs names {cs}")


class Catalog(Mapping[str, Entry]):
    """Every entry of the catalog, by key; renders texts in either language.

    >>> cat = load_catalog()
    >>> cat["street.flop"].cs, sorted(cat.params_of("award.share.half"))
    ('flop', ['amount', 'half', 'seat'])
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        by_key: dict[str, Entry] = {}
        for entry in entries:
            entry.check()
            old = by_key.get(entry.key)
            if old is not None:
                raise DuplicateKeyError(
                    f"[{entry.key}] is in {old.source} and in {entry.source}: one key, one entry"
                )
            by_key[entry.key] = entry
        for key in (SEAT_KEY, PLAYER_KEY):
            if key in by_key and by_key[key].params != {"n"}:
                raise CatalogError(f"[{key}] names one parameter, {{n}}")
        self._entries = dict(sorted(by_key.items()))

    def __getitem__(self, key: str) -> Entry:
        try:
            return self._entries[key]
        except KeyError:
            raise UnknownKeyError(f"the catalog has no entry {key!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def params_of(self, key: str) -> frozenset[str]:
        """The parameter names the entry ``key`` needs."""
        return self[key].params

    def render(self, text: Text, lang: str) -> str:
        """``text`` as a sentence in ``lang``: its template with every placeholder
        filled, nested texts rendered the same way, ints in the language's locale.
        ParamsError when a placeholder has no parameter (one too many is ignored, as the
        pages ignore it: :func:`hub.messages.keys.check` is the strict test)."""
        template = self[text.key].template(lang)

        def fill(m: re.Match[str]) -> str:
            name = m[1]
            if name not in text.params:
                raise ParamsError(f"[{text.key}] needs {{{name}}}; the text has none")
            return self._param(text.params[name], lang)

        return PLACEHOLDER.sub(fill, template)

    def _param(self, value: Param, lang: str) -> str:
        if isinstance(value, Text):
            return self.render(value, lang)
        if isinstance(value, Seat):
            return self.render(Text(SEAT_KEY, {"n": value.n}), lang)
        if isinstance(value, Player):
            return self.render(Text(PLAYER_KEY, {"n": value.index + 1}), lang)
        if isinstance(value, int):
            return format_int(value, lang)
        return value

    def as_json(self, lang: str) -> dict[str, Any]:
        """What a page fetches to render texts in ``lang``: the language, its locale,
        whether numbers are grouped (``Intl.NumberFormat(locale)``) or shown as digits,
        and every key's template."""
        lang = _lang(lang)
        return {
            "lang": lang,
            "locale": LOCALES[lang],
            "group_digits": _GROUPING[lang] is not None,
            "texts": {key: entry.template(lang) for key, entry in self._entries.items()},
        }


def read_entries(name: str, data: str) -> list[Entry]:
    """The entries of one catalog file's text (``name`` names it in errors).

    >>> [e.key for e in read_entries("x.toml", '[a.b]\\nen = "hi"\\ncs = "ahoj"')]
    ['a.b']
    """
    try:
        tables = tomllib.loads(data)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{name}: not valid TOML: {exc}") from None
    return list(_walk(tables, "", name))


def _walk(table: Mapping[str, Any], prefix: str, source: str) -> Iterator[Entry]:
    if not table:
        raise CatalogError(f"{source}: [{prefix}] is empty")
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if not isinstance(value, dict):
            raise CatalogError(f"{source}: {key} is not a table of texts")
        if "en" in value or "cs" in value:
            extra = sorted(set(value) - set(LANGS))
            if extra:
                raise CatalogError(
                    f"{source}: [{key}] holds {extra}: an entry has en and cs only, and no"
                    " entry lies inside another"
                )
            en, cs = value.get("en"), value.get("cs")
            if not isinstance(en, str) or not isinstance(cs, str):
                raise CatalogError(f"{source}: [{key}] needs an en and a cs text")
            yield Entry(key, en, cs, source)
        else:
            yield from _walk(value, key, source)


def _files(directory: Traversable) -> list[Traversable]:
    return sorted(
        (f for f in directory.iterdir() if f.name.endswith(".toml") and f.is_file()),
        key=lambda f: f.name,
    )


@functools.cache
def _packaged() -> Catalog:
    return catalog_from(resources.files("hub.messages.catalog"))


def catalog_from(directory: Traversable | Path) -> Catalog:
    """The catalog of every ``*.toml`` file in ``directory`` (a key in two of them is a
    DuplicateKeyError; a directory with no catalog file is a CatalogError)."""
    files = _files(directory)
    if not files:
        raise CatalogError(f"no catalog files (*.toml) in {directory}")
    return Catalog(e for f in files for e in read_entries(f.name, f.read_text("utf-8")))


def load_catalog() -> Catalog:
    """The hub's catalog, ``hub/messages/catalog/*.toml`` (read once, then kept)."""
    return _packaged()


def render(text: Text, lang: str = "en", catalog: Catalog | None = None) -> str:
    """``text`` in ``lang`` (by the hub's catalog unless ``catalog`` is given)."""
    return (catalog or load_catalog()).render(text, lang)


def catalog_json(lang: str, catalog: Catalog | None = None) -> dict[str, Any]:
    """The catalog as a page fetches it: ``{"lang", "locale", "group_digits", "texts"}``.

    >>> catalog_json("cs")["texts"]["award.pot.main"]
    'hlavní bank'
    """
    return (catalog or load_catalog()).as_json(lang)
