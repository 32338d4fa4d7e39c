"""What lies on each antenna, as cards: the hub's picture of the table.

Pure: it is fed complete inventories (already mapped to cards) and says what changed.

>>> p = TablePresence()
>>> p.apply("seat3", frozenset({"As"}))
AntennaChange(reader='seat3', cards=('As',), arrived=('As',), left=())
>>> p.apply("seat3", frozenset({"As"})) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from feltwire.cards import card_index


def _ordered(cards: frozenset[str] | set[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_index, reverse=True))


@dataclass(frozen=True, slots=True)
class AntennaChange:
    """An antenna's new contents and the difference from before (cards high to low)."""

    reader: str
    cards: tuple[str, ...]
    arrived: tuple[str, ...]
    left: tuple[str, ...]


class TablePresence:
    """The cards on every antenna; changes only through :meth:`apply`."""

    def __init__(self) -> None:
        self._cards: dict[str, frozenset[str]] = {}
        self._came: dict[str, tuple[str, ...]] = {}

    def apply(self, reader: str, cards: frozenset[str]) -> AntennaChange | None:
        """Set ``reader``'s contents; return the change, or None when nothing changed."""
        before = self._cards.get(reader, frozenset())
        if before == cards:
            return None
        self._cards[reader] = cards
        arrived = _ordered(cards - before)
        self._came[reader] = tuple(c for c in self._came.get(reader, ()) if c in cards) + arrived
        return AntennaChange(
            reader=reader, cards=_ordered(cards), arrived=arrived, left=_ordered(before - cards)
        )

    def export_state(self) -> list[list[Any]]:
        """Every antenna's cards, in the order they came, as JSON values (a snapshot)."""
        return [[r, list(self._came.get(r, ())), sorted(c)] for r, c in self._cards.items()]

    def import_state(self, state: Sequence[Sequence[Any]]) -> None:
        """Take back what :meth:`export_state` gave."""
        self._cards = {str(r): frozenset(cards) for r, _, cards in state}
        self._came = {str(r): tuple(came) for r, came, _ in state}

    def cards_on(self, reader: str) -> tuple[str, ...]:
        """The cards on one antenna now."""
        return _ordered(self._cards.get(reader, frozenset()))

    def came_on(self, reader: str) -> tuple[str, ...]:
        """The cards on one antenna now, in the order they came (a board as dealt)."""
        return self._came.get(reader, ()) if reader in self._cards else ()

    def snapshot(self) -> Mapping[str, tuple[str, ...]]:
        """Every antenna that has held a card, with its cards now."""
        return {r: _ordered(c) for r, c in sorted(self._cards.items())}

    def as_they_came(self) -> Mapping[str, tuple[str, ...]]:
        """Every antenna that has held a card, with its cards now in the order they came
        (cards that came together high to low): a board as it was dealt.

        >>> p = TablePresence()
        >>> _ = p.apply("board", frozenset({"7d"})), p.apply("board", frozenset({"7d", "Ks"}))
        >>> p.as_they_came()["board"], p.snapshot()["board"]
        (('7d', 'Ks'), ('Ks', '7d'))
        """
        return {r: self._came.get(r, ()) for r in sorted(self._cards)}
