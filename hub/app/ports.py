"""The ports of the per-table application: what it needs from the world, as small
interfaces (``typing.Protocol``) that the adapters, the composition root and the tests'
fakes fill in.

* :class:`EventStore` — where every accepted input is appended before it is applied
  (the SQLite event log; an in-memory one in tests and the demo);
* :class:`Outbox` — messages for the broker (light commands, alerts, the public topic);
* :class:`FeedSink` — a live feed of frames to the pages (the public and overlay feeds);
* :class:`Clock` — the hub's time (seconds), never the wall clock for delays;
* :class:`Recorder` — the table's entrance of inputs (log, then apply), as the
  staff's console (:class:`~hub.app.table_console.TableConsole`) uses it;
* :class:`Presence` — the table's presence picture as the rules side reads it;
* :class:`TableOutput` — where the rules side's frames, lights and alerts go (the
  table's publisher); the rules side points at nothing else of the application;
* :class:`EquityRunner` — where live equity is computed, off the event loop (worker
  processes, :class:`hub.adapters.equity_workers.EquityWorkers`; threads by default);
* :class:`DiskCheck` — whether the event log's disk can take a write now, asked without
  writing (:class:`hub.adapters.eventlog.disk.LogDisk`);
* :class:`HandSink` — where finished hands are kept (the hands store,
  :class:`hub.adapters.hands.store.HandStore`), written by
  :class:`~hub.app.hand_book.HandBook` off the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from typing import Any, Protocol

from feltwire.protocol import LightPattern
from hub.app.hand_record import HandRecord
from hub.app.live_equity import LiveSpot
from hub.app.records import AcceptedLoss, InputKind, LogRecord
from hub.views.frames import Event

Inbound = tuple[str, bytes, bool, Callable[[], None] | None]
"""An MQTT message for a table, as the broker's adapter hands it in: topic, payload,
retained, and its acknowledgement to the broker (None: nothing to acknowledge), called
once the message is taken (:func:`hub.adapters.mqtt.run_table_link`)."""


class Clock(Protocol):
    """The hub's time in seconds (:class:`~hub.app.table_time.TableTime` in a running hub)."""

    def __call__(self) -> float:
        """Now."""


class EquityRunner(Protocol):
    """Computes ``fn(live, rng)`` (a pure, module-level function of
    :mod:`hub.app.live_equity`) off the event loop and gives back what it returns."""

    def __call__(
        self, fn: Callable[[LiveSpot, int], dict[str, Any]], live: LiveSpot, rng: int
    ) -> Coroutine[Any, Any, dict[str, Any]]:
        """The frame ``fn`` computes for ``live``."""
        ...


class DiskCheck(Protocol):
    """Whether the event log can take a write now, asked without writing one."""

    def problem(self) -> str | None:
        """None when it can; otherwise what stands in the way."""


class EventStore(Protocol):
    """An append-only log of the table's inputs, each with its receive time."""

    @property
    def last_seq(self) -> int:
        """The sequence number of the last input appended (0: empty)."""

    @property
    def origin(self) -> str | None:
        """The log's identity: the chain of its first input (None: the log is empty)."""

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

    def save_snapshot(
        self, seq: int, fmt: int, state: Mapping[str, Any], *, wall: float | None = None
    ) -> None:
        """Store the table's state (JSON values) as of input ``seq``, in format ``fmt``."""

    def latest_snapshot(self, fmt: int) -> StoredState | None:
        """The newest stored state in format ``fmt`` that verifies (None: none does)."""


class StoredState(Protocol):
    """A table's state as the event store keeps it: as of input ``seq``."""

    @property
    def seq(self) -> int:
        """The input the state is as of."""

    @property
    def state(self) -> dict[str, Any]:
        """The state, JSON values."""


class AsyncRecorder(Protocol):
    """:class:`Recorder` with the log's write off the event loop (awaited)."""

    def __call__(
        self, kind: InputKind, payload: dict[str, Any], now: float
    ) -> Coroutine[Any, Any, object]:
        """Log the input off the loop, then apply it; what applying returned."""
        ...


class Recorder(Protocol):
    """The entrance of a table's inputs: log one, then apply it (what applying returned)."""

    def __call__(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Append ``payload`` to the event store, then apply it."""


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


class TableOutput(Protocol):
    """Where the rules side of a table sends what it has to say: the table's publisher
    (:class:`~hub.app.publisher.TablePublisher`)."""

    def publish(self, frame: Event) -> None:
        """A frame to the public feed now (never a hole card)."""

    def both(self, frame: Event, now: float) -> None:
        """A frame with no hole card to the public feed now and to the overlay (delayed)."""

    def to_overlay(self, frame: Event, happened: float) -> None:
        """A frame to the overlay only, now or after the overlay's delay."""

    def overlay_changed(self, now: float) -> None:
        """The overlay's picture of the table may have changed (sent when it did)."""

    def set_light(self, seat: int, pattern: LightPattern) -> None:
        """Command a seat light."""

    def send_alert(self, frame: Event) -> None:
        """An alert frame to the table's alerts topic."""


class HandSink(Protocol):
    """Where finished hands are kept: each written once, whoever writes it again."""

    def write(self, hand: HandRecord) -> bool:
        """Store ``hand`` in one transaction (False: it was there already);
        :class:`~hub.app.errors.HandStoreError` when it cannot be written."""

    def count(self, table: str, origin: str) -> int:
        """How many hands of ``table`` from the event log ``origin`` are stored."""
