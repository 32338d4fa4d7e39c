"""The demo's table surface: tags on the simulated node's antennas, read by the node and
sent over MQTT to the hub; :class:`MotionClock` is the hub's clock, moved by each motion
of the dealer; :class:`ConsoleApi` is the way in to the dealer console;
:class:`NodeSurface` is the node's antennas under the dealer's hands, and
:class:`AntennaSurface` the demo's table on it.
"""

from __future__ import annotations

import asyncio
import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Protocol

from feltwire.cards import CardIndex, card_code
from feltwire.deck import Deck, simulated_deck
from hub.app.records import ConsoleInput
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.rules.hand import Hand
from hub.rules.procedure import (
    Input,
    Step,
)
from simulator.errors import Stopped
from simulator.monitor_table import MOTION
from table_node.node import Node
from table_node.simulated import SimulatedTable


class MotionClock:
    """The hub's clock in the demo: it moves only when the dealer makes a motion.

    Each motion of the simulated dealer advances it by :data:`MOTION` seconds, so the
    monitor's debounce (seconds of ``now``) sees the same timing however fast the
    pipeline runs. Thread-safe to read.

    >>> clock = MotionClock(100.0)
    >>> clock.advance(); clock()
    101.0
    """

    def __init__(self, start: float) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float = MOTION) -> None:
        """Time passes: one motion."""
        self._now += seconds


class ConsoleApi(Protocol):
    """A way in to the hub's dealer console from outside the hub's process — the demo's is
    the console's HTTP API (:class:`simulator.demo.HttpConsole`).

    :meth:`enter` returns once the hub has applied the input, refused or not (a refusal is
    the table's business, as at a real console: the hub raises its alert); it raises only
    when the API itself fails (a bad credential, a server error).
    """

    def takes(self, inp: ConsoleInput) -> bool:
        """True when the API has a route for ``inp``."""

    def enter(self, inp: ConsoleInput) -> object:
        """Enter ``inp`` at the console; what the hub answered."""


class NodeSurface(ABC):
    """Tags on a simulated node's antennas, the node sweeping them after each motion of
    the dealer: the motions of :class:`~simulator.monitor_table.TableSurface` (put, take,
    move, unknown tag, clear) as a node reports them. What a sweep waits for, where the
    hand is kept and where console inputs and time go are the subclass's
    (:meth:`_sweep`, :attr:`hand`, :meth:`console`, :meth:`tick`): the demo's
    :class:`AntennaSurface`, the soak bench's surface on a hub in another process.

    Each motion advances ``clock`` (:class:`MotionClock`) by one motion, moves the tags
    (cards as their deck's uids), then sweeps.
    """

    BOGUS_UID = "04DEADBEEF0000"
    """A tag that is in no deck (the unknown-tag mistake)."""

    def __init__(
        self,
        *,
        antennas: SimulatedTable,
        node: Node,
        clock: MotionClock,
        deck: Deck | None = None,
        pause: Callable[[], None] = lambda: None,
    ) -> None:
        self.antennas = antennas
        self.node = node
        self.clock = clock
        self.deck = deck or simulated_deck()
        self.pause = pause
        self.on: dict[str, set[CardIndex]] = {}
        self.motions = 0

    @property
    def now(self) -> float:
        """The hub's clock."""
        return self.clock()

    @property
    @abstractmethod
    def hand(self) -> Hand:
        """The hand being played (the subclass says where it is kept)."""

    @abstractmethod
    def _sweep(self) -> None:
        """The node sweeps once, after a motion (the subclass adds what it waits for)."""

    @abstractmethod
    def console(self, inp: Input) -> object:
        """Enter ``inp`` at the dealer console (the subclass says how)."""

    @abstractmethod
    def tick(self) -> object:
        """Time passes with no read (the subclass says how the hub hears of it)."""

    def _uid(self, card: CardIndex) -> str:
        return self.deck.uid_for(card_code(card))

    # --- motions
    def put(self, reader: str, *cards: CardIndex) -> None:
        """Lay ``cards`` on ``reader``."""
        self._lay_or_lift(reader, cards, lay=True)

    def take(self, reader: str, *cards: CardIndex) -> None:
        """Lift ``cards`` off ``reader``."""
        self._lay_or_lift(reader, cards, lay=False)

    def _lay_or_lift(self, reader: str, cards: tuple[CardIndex, ...], *, lay: bool) -> None:
        """Lay ``cards`` on ``reader`` (``lay``) or lift them off it; then one sweep."""
        self.clock.advance()
        for card in cards:
            antenna = self.antennas.reader(reader)
            (antenna.place if lay else antenna.lift)(self._uid(card))
        lying = self.on.setdefault(reader, set())
        if lay:
            lying.update(cards)
        else:
            lying.difference_update(cards)
        self._sweep()

    def move(self, cards: Sequence[CardIndex], dst: str) -> None:
        """Slide ``cards`` from wherever they lie to ``dst`` (one sweep reads both ends)."""
        self.clock.advance()
        for card in cards:
            for src in self.where(card):
                if src != dst:
                    self.antennas.move(self._uid(card), src, dst)
                    self.on[src].discard(card)
        self.on.setdefault(dst, set()).update(cards)
        self._sweep()

    def unknown_tag(self, reader: str) -> None:
        """Lay a tag that is in no deck on ``reader``, then take it away."""
        self.clock.advance()
        self.antennas.reader(reader).place(self.BOGUS_UID)
        self._sweep()
        self.clock.advance()
        self.antennas.reader(reader).lift(self.BOGUS_UID)
        self._sweep()

    def clear(self) -> None:
        """Sweep every card off the table."""
        self.clock.advance()
        for reader in self.antennas.readers.values():
            reader.clear()
        for cards in self.on.values():
            cards.clear()
        self._sweep()

    def where(self, card: CardIndex) -> list[str]:
        """The antennas ``card`` lies on."""
        return sorted(r for r, cs in self.on.items() if card in cs)


class AntennaSurface(NodeSurface):
    """The demo's table surface: tags on simulated antennas, read by a node, sent over
    MQTT to the hub; console inputs go through ``api`` (the hub's console API) when it
    takes them, else to the hub's table service in-process.

    Each motion advances the hub's :class:`MotionClock`, moves the tags (cards as their
    deck's uids), sweeps the node once (it publishes what changed) and waits until the
    hub has handled every message published — so the next motion, or a console input,
    reaches the hub after it. ``pause`` is called after each motion (the paced demo
    sleeps there; it may raise :class:`Stopped`). ``entered`` counts the console inputs
    by the way they went in (``api``, ``in_process``).
    """

    def __init__(
        self,
        *,
        antennas: SimulatedTable,
        node: Node,
        published: Callable[[], int],
        hub: TableApp,
        rules: TableConsole,
        clock: MotionClock,
        loop: asyncio.AbstractEventLoop,
        deck: Deck | None = None,
        api: ConsoleApi | None = None,
        pause: Callable[[], None] = lambda: None,
        timeout: float = 30.0,
    ) -> None:
        super().__init__(antennas=antennas, node=node, clock=clock, deck=deck, pause=pause)
        self._published = published
        self.hub = hub
        self.rules = rules
        self.loop = loop
        self.api = api
        self.entered: Counter[str] = Counter()
        self.timeout = timeout

    @property
    def hand(self) -> Hand:
        """The hand the hub's monitor keeps."""
        monitor = self.rules.desk.monitor
        if monitor is None:
            raise RuntimeError("the hub has no hand running")
        return monitor.hand

    # --- plumbing
    def _sweep(self) -> None:
        self.node.poll_once()
        if not self.hub.wait_handled(self._published(), self.timeout):
            raise TimeoutError("the hub did not take the node's reads in time")
        self.motions += 1
        self.pause()

    def _in_loop(self, fn: Callable[[], Step | None]) -> Step | None:
        async def call() -> Step | None:
            return fn()

        fut: Future[Step | None] = asyncio.run_coroutine_threadsafe(call(), self.loop)
        return fut.result(self.timeout)

    def console(self, inp: Input) -> object:
        """Enter ``inp`` at the hub's console — through ``api`` when it has a route for
        it, else at the table service in-process — and return what the hub answered.
        The hub stamps it with its clock either way."""
        if not isinstance(inp, ConsoleInput):
            raise TypeError(f"{type(inp).__name__} is not a console input")
        entered: ConsoleInput = inp
        self.clock.advance()
        answer: object
        if self.api is not None and self.api.takes(entered):
            answer = self.api.enter(entered)
            self.entered["api"] += 1
        else:
            answer = self._in_loop(lambda: self.rules.console(entered))
            self.entered["in_process"] += 1
        self.pause()
        return answer

    def tick(self) -> Step | None:
        """Time passes with no read: the hub's table service ticks."""
        self.clock.advance()
        return self._in_loop(self.rules.tick)


def wait_event(event: threading.Event, seconds: float) -> None:
    """A pause for the paced demo: sleep, or raise :class:`Stopped` once ``event`` is set."""
    if event.wait(seconds):
        raise Stopped
