"""Card codes: the two-character names cards have everywhere in feltwire.

A card is written rank then suit, ``As`` (ace of spades), ``Td`` (ten of diamonds),
``2c``. Ranks run ``23456789TJQKA``; suits ``cdhs`` (clubs, diamonds, hearts, spades —
also the suit order used where suits break ties, clubs lowest, R-STUD-1 / R-POT-4).

Inside fast code a card is a :data:`CardIndex`: an ``int`` ``rank * 4 + suit``
(0 = ``2c`` … 51 = ``As``), a type of its own so that it is never taken for a seat or a
count.

>>> card_index("As"), card_code(51)
(51, 'As')
>>> parse_cards("AsKd 7c")
('As', 'Kd', '7c')
"""

from __future__ import annotations

import re
from typing import Final, NewType

from feltwire.errors import FeltwireError

CardIndex = NewType("CardIndex", int)
"""A card as the engine holds it: ``rank * 4 + suit``, 0 = ``2c`` … 51 = ``As`` — never a
seat, never a count. An ``int`` at run time (a ``NewType`` costs nothing in annotations);
an ``int`` becomes one only where it really is a card: :func:`card_index`, a loop over the
deck, a decoded tag. The rules' ``UNKNOWN`` (-1, :mod:`hub.rules.dealing`) is the one
value outside 0–51: a card whose face nobody read."""

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RANK_NAMES: Final = {
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}
SUIT_NAMES: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

FULL_DECK: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
"""All 52 codes in index order (``2c``, ``2d``, ``2h``, ``2s``, ``3c`` … ``As``)."""

CARD_INDEXES: Final[tuple[CardIndex, ...]] = tuple(CardIndex(i) for i in range(52))
"""All 52 card indexes in order (0 = ``2c`` … 51 = ``As``): the deck to loop over."""

_CARD_RE: Final = re.compile(r"[2-9TJQKA][cdhs]")
_INDEX: Final[dict[str, CardIndex]] = dict(zip(FULL_DECK, CARD_INDEXES, strict=True))


class CardError(FeltwireError, ValueError):
    """A string that is not a card code (``As``, ``Td``, ``2c`` …)."""


def is_card_code(text: str) -> bool:
    """True when ``text`` is exactly one card code such as ``As``."""
    return text in _INDEX


def normalize_card(text: str) -> str:
    """Return the canonical code for ``text``, accepting ``10`` for ``T`` and any case.

    >>> normalize_card("10h"), normalize_card("aS")
    ('Th', 'As')
    """
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(f"not a card code: {text!r} (expected rank+suit such as 'As' or 'Td')")
    code = t[0].upper() + t[1].lower()
    if code not in _INDEX:
        raise CardError(f"not a card code: {text!r} (expected rank+suit such as 'As' or 'Td')")
    return code


def card_index(code: str) -> CardIndex:
    """The 0–51 index of a card code (``rank * 4 + suit``)."""
    try:
        return _INDEX[code]
    except KeyError:
        raise CardError(f"not a card code: {code!r}") from None


def card_code(index: CardIndex) -> str:
    """The card code of a 0–51 index."""
    if not 0 <= index < 52:
        raise CardError(f"card index out of range: {index}")
    return FULL_DECK[index]


def rank_of(code: str) -> int:
    """Rank index 0 (deuce) … 12 (ace) of a card code."""
    return card_index(code) >> 2


def suit_of(code: str) -> int:
    """Suit index 0 (clubs) … 3 (spades) of a card code."""
    return card_index(code) & 3


def parse_cards(text: str) -> tuple[str, ...]:
    """Split a run of card codes (``"AsKd"``, ``"As Kd"``, ``"As,Kd"``) into codes.

    Raises :class:`CardError` naming the part that is not a card.
    """
    compact = re.sub(r"[\s,]+", "", text).replace("10", "T")
    if len(compact) % 2:
        raise CardError(f"not a run of card codes: {text!r}")
    out = []
    for i in range(0, len(compact), 2):
        out.append(normalize_card(compact[i : i + 2]))
    return tuple(out)


def format_cards(codes: tuple[str, ...] | list[str]) -> str:
    """Join card codes without separators, as PHH and the command line write them."""
    return "".join(codes)


__all__ = [
    "CARD_INDEXES",
    "FULL_DECK",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "CardError",
    "CardIndex",
    "card_code",
    "card_index",
    "format_cards",
    "is_card_code",
    "normalize_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]
