"""Registered decks: which tag uid is which card.

Readers report tag uids; only the hub turns them into cards, through the deck registered
for its table. A deck file is TOML::

    name = "club-red-1"
    [tags]
    "04A2249A6B1D80" = "As"
    "04A2249A6B1D81" = "Ks"

Each uid appears once (uids are case-insensitive), each card once, and a deck the hub
plays with holds every card of the game (:func:`load_deck` names the file, the line and
the problem otherwise). Deck files are written 0600 (:func:`write_deck`): they map every
tag to its card. The simulator's deck is built in (:func:`simulated_deck`) so the demo
needs no file.

>>> deck = simulated_deck()
>>> deck.card_for(deck.uid_for("As"))
'As'
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from feltwire.cards import FULL_DECK, CardError, normalize_card
from feltwire.errors import DeckError
from feltwire.protocol import ReaderInventory


@dataclass(frozen=True)
class Deck:
    """A one-to-one map between tag uids and card codes."""

    name: str
    tags: dict[str, str]
    _by_card: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_card: dict[str, str] = {}
        for uid, card in self.tags.items():
            if card in by_card:
                raise DeckError(
                    f"deck {self.name!r}: card {card} is registered twice "
                    f"({by_card[card]} and {uid}); re-register the deck"
                )
            by_card[card] = uid
        object.__setattr__(self, "_by_card", by_card)

    def card_for(self, uid: str) -> str | None:
        """The card a tag uid stands for, or None when the tag is not in this deck."""
        return self.tags.get(uid)

    def uid_for(self, card: str) -> str:
        """The uid registered for a card (KeyError when the card is not registered)."""
        return self._by_card[card]

    def missing(self, cards: Iterable[str]) -> tuple[str, ...]:
        """Which of ``cards`` this deck has no tag for, in the order given."""
        return tuple(c for c in cards if c not in self._by_card)

    def __len__(self) -> int:
        return len(self.tags)


def load_deck(path: Path | str, *, required: Iterable[str] | None = FULL_DECK) -> Deck:
    """Read a deck file, checking every uid and card; raises DeckError naming the file,
    the line and the problem.

    Uids are case-insensitive (``04a1…`` and ``04A1…`` are one tag, given twice); a card
    may appear once; ``required`` are the cards the deck must hold (default: all 52 —
    a missing card is an error), None accepts a partial deck (``feltwire deck check``
    lists what is missing).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError(f"deck {p}: no such deck file") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise DeckError(
            f"deck {p}: cannot read it ({why}); the hub's user must be able to read it "
            "(e.g. `install -m 0600 -o feltwire`)"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"deck {p}: not valid TOML: {exc}") from None
    raw = data.get("tags")
    if not isinstance(raw, dict) or not raw:
        raise DeckError(f"deck {p}: needs a [tags] table of uid = card")
    lines = _tag_lines(text)

    def where(uid: str) -> str:
        line = lines.get(uid)
        return f"line {line}" if line is not None else f"key tags.{uid}"

    tags: dict[str, str] = {}
    given_as: dict[str, str] = {}  # upper-case uid -> the key as written
    by_card: dict[str, str] = {}  # card -> the key as written
    for uid, card in raw.items():
        key = str(uid)
        up = key.upper()
        try:
            ReaderInventory(v=1, node="deck", seq=0, ts=0, reader="register", uids=[up])
        except ValueError:
            raise DeckError(
                f"deck {p}, {where(key)}: {key!r} is not a tag uid (8, 14 or 20 hex digits)"
            ) from None
        if up in given_as:
            first = given_as[up]
            raise DeckError(
                f"deck {p}, {where(key)}: tag {key} is given twice (also {where(first)} as "
                f"{first}; uids are case-insensitive); remove one"
            )
        if not isinstance(card, str):
            raise DeckError(f"deck {p}, {where(key)}: tag {key}: the card must be a string")
        try:
            code = normalize_card(card)
        except CardError as exc:
            raise DeckError(f"deck {p}, {where(key)}: tag {key}: {exc}") from None
        if code in by_card:
            first = by_card[code]
            raise DeckError(
                f"deck {p}, {where(key)}: card {code} is given twice (tag {first} on "
                f"{where(first)}, tag {key} on {where(key)}); re-register the deck or remove "
                "the wrong tag"
            )
        given_as[up] = key
        by_card[code] = key
        tags[up] = code
    deck = Deck(name=str(data.get("name", p.stem)), tags=tags)
    if required is not None:
        missing = deck.missing(required)
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise DeckError(
                f"deck {p} has {len(deck)} cards; {', '.join(missing)} {verb} missing "
                "(register the deck again, or add the missing tags)"
            )
    return deck


_KEY_LINE = re.compile(r"""^\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")
_TABLE_LINE = re.compile(r"^\s*\[\s*([^\]]*?)\s*\]")


def _tag_lines(text: str) -> dict[str, int]:
    """The line of each key of a deck file's ``[tags]`` table (for error messages)."""
    out: dict[str, int] = {}
    table = ""
    for n, line in enumerate(text.splitlines(), start=1):
        header = _TABLE_LINE.match(line)
        if header:
            table = header.group(1).strip().strip("\"'")
            continue
        if table != "tags":
            continue
        m = _KEY_LINE.match(line)
        if m:
            key = next(g for g in m.groups() if g is not None)
            out.setdefault(key, n)
    return out


def write_deck(deck: Deck, path: Path | str) -> None:
    """Write ``deck`` to ``path`` atomically, readable by its owner only (0600): a deck
    file names every card's tag, so whoever reads it can read hole cards off the wire."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dump_deck(deck))
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dump_deck(deck: Deck) -> str:
    """The TOML text of a deck file, cards in deck order (``tomli-w``: whatever the
    name holds, the file is TOML)."""
    order = {c: i for i, c in enumerate(FULL_DECK)}
    tags = dict(sorted(deck.tags.items(), key=lambda kv: order.get(kv[1], 99)))
    return tomli_w.dumps({"name": deck.name, "tags": tags})


def simulated_uid(index: int) -> str:
    """The 7-byte uid the simulator gives card ``index`` (NXP-style, first byte 04)."""
    return f"045EED{index:02X}C0DE80"


def simulated_deck() -> Deck:
    """The built-in deck of the simulated table: 52 NTAG-style 7-byte uids."""
    return Deck(name="simulated", tags={simulated_uid(i): card for i, card in enumerate(FULL_DECK)})


__all__ = ["Deck", "dump_deck", "load_deck", "simulated_deck", "simulated_uid", "write_deck"]
