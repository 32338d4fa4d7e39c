"""Registered decks: which tag uid is which card.

Readers report tag uids; only the hub turns them into cards, through the deck registered
for its table. A deck file is TOML::

    name = "club-red-1"
    [tags]
    "04A2249A6B1D80" = "As"
    "04A2249A6B1D81" = "Ks"

Each uid appears once and each card at most once. The simulator's deck is built in
(:func:`simulated_deck`) so the demo needs no file.

>>> deck = simulated_deck()
>>> deck.card_for(deck.uid_for("As"))
'As'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

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

    def __len__(self) -> int:
        return len(self.tags)


def load_deck(path: Path | str) -> Deck:
    """Read a deck file, checking every uid and card; raises DeckError with the reason."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DeckError(f"{p}: no such deck file") from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{p}: not valid TOML: {exc}") from None
    raw = data.get("tags")
    if not isinstance(raw, dict) or not raw:
        raise DeckError(f"{p}: needs a [tags] table of uid = card")
    tags: dict[str, str] = {}
    for uid, card in raw.items():
        up = str(uid).upper()
        try:
            ReaderInventory(v=1, node="deck", seq=0, ts=0, reader="register", uids=[up])
        except ValueError:
            raise DeckError(f"{p}: {uid!r} is not a tag uid (8, 14 or 20 hex digits)") from None
        try:
            tags[up] = normalize_card(str(card))
        except CardError as exc:
            raise DeckError(f"{p}: tag {uid}: {exc}") from None
    return Deck(name=str(data.get("name", p.stem)), tags=tags)


def dump_deck(deck: Deck) -> str:
    """The TOML text of a deck file, cards in deck order."""
    lines = [f'name = "{deck.name}"', "", "[tags]"]
    order = {c: i for i, c in enumerate(FULL_DECK)}
    for uid, card in sorted(deck.tags.items(), key=lambda kv: order.get(kv[1], 99)):
        lines.append(f'"{uid}" = "{card}"')
    return "\n".join(lines) + "\n"


def simulated_uid(index: int) -> str:
    """The 7-byte uid the simulator gives card ``index`` (NXP-style, first byte 04)."""
    return f"045EED{index:02X}C0DE80"


def simulated_deck() -> Deck:
    """The built-in deck of the simulated table: 52 NTAG-style 7-byte uids."""
    return Deck(name="simulated", tags={simulated_uid(i): card for i, card in enumerate(FULL_DECK)})


__all__ = ["Deck", "dump_deck", "load_deck", "simulated_deck", "simulated_uid"]
