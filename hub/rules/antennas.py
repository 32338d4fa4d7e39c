"""Antennas: what each reader id stands for, and card moves derived from inventories.

The readers report full inventories ("on ``seat3`` lie these cards now"). An
:class:`AntennaTracker` turns a stream of inventories, each stamped with an explicit
``now`` (seconds), into *moves*: a card arrived somewhere (fresh from the stub, or from
the antenna it just left), a card left an antenna for good, or one card is read in two
places at once. A tag lost and found on the same antenna within the debounce window is
no move at all (reads flicker); a tag that leaves one antenna and turns up on another
within the window has moved; one that stays gone longer has left.

Pure: time is an input, nothing here reads a clock.

>>> t = AntennaTracker(debounce=0.5)
>>> t.inventory("seat3", frozenset({51}), now=10.0)
[Arrival(card=51, reader='seat3', source=None)]
>>> t.inventory("seat3", frozenset(), now=10.1)      # the tag flickers off ...
[]
>>> t.inventory("seat3", frozenset({51}), now=10.3)  # ... and on again: no move
[]
>>> t.inventory("seat3", frozenset(), now=11.0)
[]
>>> t.inventory("muck", frozenset({51}), now=11.1)   # gone from seat3, read at the muck
[Arrival(card=51, reader='muck', source='seat3')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from feltwire.cards import CardIndex
from feltwire.text import Text
from hub.rules.errors import ConfigurationError, TableSeat

__all__ = [
    "AntennaTracker",
    "Arrival",
    "Departure",
    "Doubled",
    "Move",
    "Place",
    "PlaceKind",
    "place_of",
]


class PlaceKind(Enum):
    """What an antenna is for."""

    SEAT = "seat"
    """The cards in front of a seat (``seat1`` … ``seat10``); face-down cards in stud."""
    UP = "up"
    """Stud up cards of a seat (``up1`` … ``up10``)."""
    BOARD = "board"
    """``board``, or ``flop1`` ``flop2`` ``flop3`` ``turn`` ``river``."""
    BURN = "burn"
    MUCK = "muck"
    OTHER = "other"
    """Anything else (the deck registration pad): not part of a hand."""


@dataclass(frozen=True, slots=True)
class Place:
    """An antenna's meaning: its kind and, for seat and up-card antennas, the table seat."""

    kind: PlaceKind
    seat: TableSeat | None = None


_SEAT_RE = re.compile(r"^(seat|up)([1-9][0-9]?)$")
_BOARD = frozenset({"board", "flop1", "flop2", "flop3", "turn", "river"})


def place_of(reader: str) -> Place:
    """The meaning of a reader id (``docs/protocol.md``).

    >>> place_of("seat7"), place_of("up2").kind, place_of("river").kind
    (Place(kind=<PlaceKind.SEAT: 'seat'>, seat=7), <PlaceKind.UP: 'up'>, <PlaceKind.BOARD: 'board'>)
    """
    m = _SEAT_RE.match(reader)
    if m:
        kind = PlaceKind.SEAT if m.group(1) == "seat" else PlaceKind.UP
        return Place(kind, TableSeat(int(m.group(2))))
    if reader in _BOARD:
        return Place(PlaceKind.BOARD)
    if reader == "burn":
        return Place(PlaceKind.BURN)
    if reader == "muck":
        return Place(PlaceKind.MUCK)
    return Place(PlaceKind.OTHER)


@dataclass(frozen=True, slots=True)
class Arrival:
    """``card`` now lies on ``reader``; ``source`` is the antenna it came from, or None when
    it was on no antenna (fresh from the stub, or back after having left for good)."""

    card: CardIndex
    reader: str
    source: str | None


@dataclass(frozen=True, slots=True)
class Departure:
    """``card`` left ``reader`` and was not found again within the debounce window."""

    card: CardIndex
    reader: str


@dataclass(frozen=True, slots=True)
class Doubled:
    """``card`` is read on two antennas at once for longer than the debounce window:
    ``readers`` is (where it lay first, where it also turned up)."""

    card: CardIndex
    readers: tuple[str, str]


Move = Arrival | Departure | Doubled


class AntennaTracker:
    """The cards on every antenna, debounced; see the module docstring.

    Feed it with :meth:`inventory` (and :meth:`expire` when time passes without a read);
    each call returns the moves it recognised, in order.
    """

    def __init__(self, debounce: float = 0.5) -> None:
        if debounce < 0:
            raise ConfigurationError("R-CARD-1", Text("refusal.configuration.negative_debounce"))
        self.debounce = debounce
        self._raw: dict[str, frozenset[CardIndex]] = {}
        self._place: dict[CardIndex, str] = {}
        self._leaving: dict[CardIndex, tuple[str, float]] = {}
        self._dual: dict[CardIndex, tuple[str, float, bool]] = {}
        self._manual: set[CardIndex] = set()

    def where(self, card: CardIndex) -> str | None:
        """The antenna ``card`` lies on (still counted there while it may be flickering)."""
        return self._place.get(card)

    def cards_on(self, reader: str) -> frozenset[CardIndex]:
        """The cards counted on ``reader`` now."""
        return frozenset(c for c, r in self._place.items() if r == reader)

    def would_expire(self, now: float) -> bool:
        """Whether :meth:`expire` at ``now`` would find a move (a departure or a doubled
        card becoming certain); a query, it changes nothing. When False, ``expire(now)``
        returns nothing and leaves the tracker as it is.

        >>> t = AntennaTracker(debounce=0.5)
        >>> _ = t.inventory("seat3", frozenset({51}), now=10.0)
        >>> _ = t.inventory("seat3", frozenset(), now=10.1)
        >>> t.would_expire(10.5), t.would_expire(10.7)
        (False, True)
        """
        d = self.debounce  # the very comparisons of expire(), for the same answer
        if any(now - t > d for _, t in self._leaving.values()):
            return True
        return any(not told and now - t > d for _, t, told in self._dual.values())

    def expire(self, now: float) -> list[Move]:
        """Moves that became certain because time passed: departures and doubled cards."""
        out: list[Move] = []
        for card, (reader, t) in sorted(self._leaving.items(), key=lambda kv: (kv[1][1], kv[0])):
            if now - t > self.debounce:
                del self._leaving[card]
                if self._place.get(card) == reader:
                    del self._place[card]
                out.append(Departure(card, reader))
        for card, (reader, t, told) in sorted(self._dual.items()):
            if not told and now - t > self.debounce:
                self._dual[card] = (reader, t, True)
                first = self._place.get(card, "?")
                out.append(Doubled(card, (first, reader)))
        return out

    def inventory(self, reader: str, cards: frozenset[CardIndex], now: float) -> list[Move]:
        """Apply one antenna's full inventory at time ``now``; return the moves."""
        out = self.expire(now)
        before = self._raw.get(reader, frozenset())
        self._raw[reader] = cards
        for card in sorted(before - cards):
            dual = self._dual.get(card)
            if dual is not None and dual[0] == reader:
                del self._dual[card]  # the second copy went away again
            elif self._place.get(card) == reader:
                if dual is not None:  # the first copy left: the card moved to the second place
                    del self._dual[card]
                    self._place[card] = dual[0]
                    out.append(Arrival(card, dual[0], reader))
                else:
                    self._leaving[card] = (reader, now)
        for card in sorted(cards - before):
            leaving = self._leaving.get(card)
            place = self._place.get(card)
            if leaving is not None and leaving[0] == reader:
                del self._leaving[card]  # flicker: lost and found within the window
            elif place is not None and card in self._manual:
                self._manual.discard(card)  # entered by hand, now read: it moved (or is there)
                self._place[card] = reader
                if place != reader:
                    out.append(Arrival(card, reader, place))
            elif place is not None and place != reader and leaving is None:
                if card not in self._dual:
                    self._dual[card] = (reader, now, False)
            elif leaving is not None:
                del self._leaving[card]
                self._place[card] = reader
                out.append(Arrival(card, reader, leaving[0]))
            elif place is None:
                self._place[card] = reader
                out.append(Arrival(card, reader, None))
        return out

    def manual(self, reader: str, card: CardIndex) -> list[Move]:
        """The dealer says ``card`` lies on ``reader`` (its tag will not read)."""
        source = self._place.get(card)
        if source == reader:
            return []
        self._leaving.pop(card, None)
        self._dual.pop(card, None)
        self._place[card] = reader
        self._manual.add(card)
        return [Arrival(card, reader, source)]
