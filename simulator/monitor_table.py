"""The dealer's table as a behavioural fake: :class:`MonitorTable` drives a
:class:`~hub.rules.procedure.DealingMonitor` directly with an explicit clock, and
:class:`TableSurface` is what any table the simulated dealer works on offers (the
motions of the hands, the console, time).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from feltwire.cards import CardIndex, card_index
from hub.messages import render
from hub.rules.alerts import Alert, AlertCode
from hub.rules.hand import Hand
from hub.rules.procedure import (
    DealingMonitor,
    Input,
    Inventory,
    Step,
    Tick,
    UnknownTag,
)

MOTION = 1.0
"""Seconds between two motions of the dealer (longer than the debounce window)."""
SLIDE = 0.01
"""Seconds between the two reports of one card slid from an antenna to another."""


class TableSurface(Protocol):
    """What a dealer can do at a table: the motions of the hands, the console, time.

    ``on`` is what lies on each antenna (cards as indexes 0–51), as the dealer sees it;
    ``hand`` is the hand as the table's monitor keeps it (players know whose turn it is).
    """

    on: dict[str, set[CardIndex]]

    @property
    def now(self) -> float:
        """The table's clock (seconds)."""

    @property
    def hand(self) -> Hand:
        """The hand being played."""

    def put(self, reader: str, *cards: CardIndex) -> object:
        """Lay ``cards`` on ``reader`` (one motion)."""

    def take(self, reader: str, *cards: CardIndex) -> object:
        """Lift ``cards`` off ``reader`` (one motion)."""

    def move(self, cards: Sequence[CardIndex], dst: str) -> object:
        """Slide ``cards`` from wherever they lie to ``dst`` (one motion)."""

    def console(self, inp: Input) -> object:
        """Enter ``inp`` at the dealer console (its ``now`` is the table's clock)."""

    def tick(self) -> object:
        """Time passes with no read."""

    def unknown_tag(self, reader: str) -> object:
        """A tag that is not in the deck shows up on ``reader`` and goes away again."""

    def clear(self) -> object:
        """Sweep every card off the table (one motion)."""

    def where(self, card: CardIndex) -> list[str]:
        """The antennas ``card`` lies on."""


def _restamp(inp: Input, now: float) -> Input:
    return dataclasses.replace(inp, now=now)


def c(code: str) -> CardIndex:
    """``"As"`` → 51."""
    return card_index(code)


class MonitorTable:
    """The antennas of a table, driving a monitor: every motion is reported as full
    inventories, exactly as the readers would, with an explicit clock (a motion takes
    :data:`MOTION` seconds; the two reports of a card slid from one antenna to another
    come :data:`SLIDE` apart).

    >>> from hub.rules.games import Stakes, game
    >>> from hub.rules.setup import HandSetup
    >>> setup = HandSetup(1, game("NT"), (2, 5), 5, Stakes.blind_game(2, 5, 10), (500, 500))
    >>> tb = MonitorTable(DealingMonitor(setup))
    >>> _ = tb.put("seat9", c("As"))
    >>> tb.codes
    [<AlertCode.CARD_TO_EMPTY_SEAT: 'card_to_empty_seat'>]
    """

    def __init__(self, monitor: DealingMonitor, now: float = 0.0) -> None:
        self.monitor = monitor
        self.now = now
        self.on: dict[str, set[CardIndex]] = {}
        self.steps: list[Step] = []

    @property
    def hand(self) -> Hand:
        """The monitor's hand."""
        return self.monitor.hand

    # --- plumbing
    def send(self, inp: Input) -> Step:
        """Apply one input to the monitor and keep its step."""
        step = self.monitor.apply(inp)
        self.steps.append(step)
        return step

    def _report(self, reader: str) -> Step:
        step = self.send(Inventory(reader, frozenset(self.on.get(reader, set())), self.now))
        self.now += SLIDE
        return step

    def beat(self, seconds: float = MOTION) -> None:
        """Time passes between two motions."""
        self.now += seconds

    # --- motions (each returns the steps it caused)
    def put(self, reader: str, *cards: CardIndex) -> list[Step]:
        """Lay ``cards`` on ``reader`` (from the stub or a hand)."""
        self.beat()
        self.on.setdefault(reader, set()).update(cards)
        return [self._report(reader)]

    def take(self, reader: str, *cards: CardIndex) -> list[Step]:
        """Lift ``cards`` off ``reader`` (to the stub, or into a player's hand)."""
        self.beat()
        self.on.setdefault(reader, set()).difference_update(cards)
        return [self._report(reader)]

    def move(self, cards: Sequence[CardIndex], dst: str) -> list[Step]:
        """Slide ``cards`` from wherever they lie to ``dst``: each source reports, then
        ``dst``."""
        self.beat()
        out = []
        sources = sorted({r for r, cs in self.on.items() for c in cards if c in cs and r != dst})
        for r in sources:
            self.on[r].difference_update(cards)
            out.append(self._report(r))
        self.on.setdefault(dst, set()).update(cards)
        out.append(self._report(dst))
        return out

    def console(self, inp: Input) -> Step:
        """A console input (its ``now`` is replaced by the table clock)."""
        self.beat()
        return self.send(_restamp(inp, self.now))

    def tick(self) -> Step:
        """Time passes with no read."""
        self.beat()
        return self.send(Tick(self.now))

    def unknown_tag(self, reader: str) -> Step:
        """The ingest reports a tag on ``reader`` that is not in the deck."""
        self.beat()
        return self.send(UnknownTag(reader, self.now))

    def clear(self) -> list[Step]:
        """Sweep every card off the table: each antenna reports empty."""
        self.beat()
        out = []
        for reader in sorted(r for r, cs in self.on.items() if cs):
            self.on[reader].clear()
            out.append(self._report(reader))
        return out

    def where(self, card: CardIndex) -> list[str]:
        """The antennas ``card`` lies on."""
        return sorted(r for r, cs in self.on.items() if card in cs)

    @property
    def alerts(self) -> list[Alert]:
        """Every alert raised so far."""
        return [a for s in self.steps for a in s.alerts]

    @property
    def codes(self) -> list[AlertCode]:
        """The codes of every alert so far."""
        return [a.code for a in self.alerts]

    @property
    def refused(self) -> list[str]:
        """Every refusal so far, in English as the console shows it."""
        return [render(s.refused, "en") for s in self.steps if s.refused is not None]
