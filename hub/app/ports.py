"""The ports of the per-table application: what it needs from the world, as small
interfaces (``typing.Protocol``) that the adapters, the composition root and the tests'
fakes fill in.

* :class:`EventStore` — where every accepted input is appended before it is applied
  (the SQLite event log; an in-memory one in tests and the demo);
* :class:`Outbox` — messages for the broker (light commands, alerts, the public topic);
* :class:`FeedSink` — a live feed of frames to the pages (the public and overlay feeds);
* :class:`Clock` — the hub's time (seconds), never the wall clock for delays;
* :class:`TableHost` and :class:`TableRules` — the two halves of one table's app as they
  see each other: the live side (reads, presence, feeds, log) offers :class:`TableHost`
  to the rules side, which offers :class:`TableRules` back. Neither module imports the
  other; the table's composition (:mod:`hub.bootstrap`, or a test) joins them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from feltwire.protocol import LightPattern
from hub.app.records import AcceptedLoss, InputKind, LogRecord
from hub.rules.procedure import DealingMonitor, Step
from hub.rules.setup import HandSetup
from hub.views.frames import Event


class Clock(Protocol):
    """The hub's time in seconds (:class:`~hub.app.table_time.TableTime` in a running hub)."""

    def __call__(self) -> float:
        """Now."""


class EventStore(Protocol):
    """An append-only log of the table's inputs, each with its receive time."""

    @property
    def last_seq(self) -> int:
        """The sequence number of the last input appended (0: empty)."""

    @property
    def accepted_losses(self) -> Sequence[AcceptedLoss]:
        """Losses of the log the operator accepted (each raises an alert at start)."""

    def append(
        self, kind: InputKind, payload: Mapping[str, Any], t: float, *, wall: float | None = None
    ) -> LogRecord:
        """Append one input (committed before this returns)."""

    def append_many(
        self, items: Sequence[tuple[InputKind, Mapping[str, Any], float, float | None]]
    ) -> list[LogRecord]:
        """Append inputs in one transaction, all or none."""

    def records(self, after: int = 0) -> Iterator[LogRecord]:
        """The inputs after sequence number ``after``, in order."""


class Outbox(Protocol):
    """Messages for the broker."""

    def send(self, topic: str, payload: bytes, *, retain: bool) -> None:
        """Queue one message (dropped while the table replays its log)."""


class FeedSink(Protocol):
    """A live feed the application publishes frames to."""

    def publish(self, event: Event) -> None:
        """Hand ``event`` to every subscriber."""


class Presence(Protocol):
    """Which cards lie on which antenna now."""

    def cards_on(self, reader: str) -> tuple[str, ...]:
        """The cards on one antenna."""

    def snapshot(self) -> Mapping[str, tuple[str, ...]]:
        """Every antenna that has held a card, with its cards."""


class TableRules(Protocol):
    """The rules side of a table, as the live side drives it."""

    @property
    def in_hand(self) -> bool:
        """True while a hand runs."""

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand."""

    @property
    def monitor(self) -> DealingMonitor | None:
        """The dealing monitor of the current hand (kept until the next starts)."""

    @property
    def setup(self) -> HandSetup | None:
        """The current hand's seats and button."""

    def ensure_open(self, now: float) -> None:
        """Open the table (seat the configured players) unless it is open."""

    def apply_input(self, kind: InputKind, payload: dict[str, Any], now: float) -> Step | None:
        """Apply one logged input of the rules (live or replayed)."""

    def on_read(
        self,
        reader: str,
        cards: frozenset[str],
        unknown_uids: Iterable[str],
        changed: bool,
        now: float,
    ) -> None:
        """Watch one accepted read of an antenna."""

    def public_state(self) -> Event:
        """The hand as the public may see it."""


class TableHost(Outbox, Protocol):
    """The live side of a table, as the rules side uses it: the log, the feeds, the
    lights, the presence picture and the clock."""

    table: str
    readers: list[str]
    overlay_delay_s: float
    hub_alerts: deque[Event]

    @property
    def presence(self) -> Presence:
        """The cards on the antennas now."""

    @property
    def public(self) -> FeedSink:
        """The public feed (no hole card ever)."""

    @property
    def clock(self) -> Clock:
        """The hub's time."""

    @property
    def has_history(self) -> bool:
        """True when the log holds inputs of an earlier run (its replay opens the table)."""

    def attach_rules(self, rules: TableRules) -> None:
        """Let ``rules`` watch every read."""

    def record(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Append one input to the log, then apply it."""

    def set_light(self, seat: int, pattern: LightPattern) -> None:
        """Command a seat light."""

    def to_overlay(self, event: Event, happened: float) -> None:
        """Send an overlay frame now or after the overlay's delay."""

    def task_failed(self, task: str) -> None:
        """A background task failed: count and log it."""
