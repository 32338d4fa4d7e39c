"""A table's hands on their way to the hands store: :class:`HandBook`.

The rules desk reads a :class:`~hub.app.hand_record.HandRecord` off each hand as it ends
(:attr:`RulesDesk.ended <hub.app.rules_desk.RulesDesk.ended>`); the table's application
tells the book of every input it applied, live or replayed (:meth:`HandBook.taken`, with
the logged record: its sequence number and wall time). The book stamps each ended hand
with where it lies in the event log — the log's ``origin``, the input that ended it
(``end_seq``) and the one that started it — and hands it to the store in the table's own
writer thread, so a store that is slow or away never holds the event loop. A write that
fails is logged, counted (``hands_store_failed``) and tried again before the next hand.

**Nothing lost, nothing twice.** A hand is in the event log before the store hears of
it, and the store's write is idempotent on (table, origin, number) with the log
position. A hub killed before a hand reached the store replays that hand at its restart
when the hand ended after the newest table snapshot (the replay runs through the same
code, so the record is the same). When it ended *before* that snapshot — the replay
starts after it — the store counts fewer hands of the log than the snapshot's table had
ended, and :meth:`HandBook.replay` replays the whole log instead (the snapshot unused, as
if snapshots were off): every hand is handed to the store again and the missing ones are
written. The same code rebuilds a store from logs (``feltwire history import-log``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Protocol

from hub.app.errors import HandStoreError
from hub.app.hand_record import HandRecord
from hub.app.ports import EventStore, HandSink, StoredState
from hub.app.records import LogRecord
from hub.app.rules_desk import RulesDesk
from hub.app.snapshot import SNAPSHOT_FORMAT
from hub.app.throttle import ThrottledLog

log = logging.getLogger(__name__)

__all__ = ["HandBook"]


class _Snapshots(Protocol):
    enabled: bool
    restored: int | None


class BookTable(Protocol):
    """What the book reads of a table's application (:class:`~hub.app.table_app.TableApp`)."""

    table: str
    log: EventStore | None
    desk: RulesDesk | None
    throttle: ThrottledLog

    @property
    def snapshots(self) -> _Snapshots:
        """The table's snapshots (whether a start restored one, and as of which input)."""
        ...

    def replay(self) -> int:
        """Rebuild the table from its log; how many inputs were replayed."""
        ...

    def count(self, counter: str, n: int = 1) -> None:
        """Add ``n`` to one of the table's counters."""
        ...


class HandBook:
    """One table's finished hands, from the rules desk to the hands store (see the module)."""

    def __init__(self, app: BookTable) -> None:
        self.app = app
        self.store: HandSink | None = None
        """The hands store (None: hands are not kept — no store, or no event log)."""
        self.progress: Callable[[int], None] | None = None
        """Told the sequence number of every input applied (``import-log``'s progress)."""
        self.written = 0
        """Hands written to the store by this book."""
        self.already = 0
        """Hands handed to the store that it held already (a replay's)."""
        self.failed = 0
        """Writes that failed (each tried again later)."""
        self._origin: str | None = None
        self._starts: dict[int, int] = {}
        """The input each running hand started at, by hand number."""
        self._first = True
        self._lock = threading.Lock()
        self._retry: list[HandRecord] = []
        self._thread: ThreadPoolExecutor | None = None
        self._last: Future[None] | None = None

    def attach(self, store: HandSink) -> None:
        """Keep the table's hands in ``store`` from now on (before the replay at start)."""
        desk = self.app.desk
        if desk is None or self.app.log is None:
            return  # no rules, no hands; no log, nothing to keep them from
        self.store = store
        desk.ended = []

    # ------------------------------------------------------------------ inputs applied

    def taken(self, rec: LogRecord) -> None:
        """Input ``rec`` was applied: the hands it ended go to the store, stamped."""
        if self.progress is not None:
            self.progress(rec.seq)
        desk = self.app.desk
        if self.store is None or desk is None or desk.ended is None:
            return
        ended = desk.ended
        if ended:
            desk.ended = []
        if self._first:
            self._first = False
            restored = self.app.snapshots.restored
            if restored is not None:  # the hand of the snapshot began at its input
                number = ended[0].number if ended else desk.hand_number
                self._starts[number] = restored
        for hand in ended:
            self._submit(self._stamped(hand, rec))
        if desk.in_hand and desk.hand_number not in self._starts:
            self._starts[desk.hand_number] = rec.seq
            for old in [n for n in self._starts if n < desk.hand_number - 1]:
                del self._starts[old]

    def _stamped(self, hand: HandRecord, rec: LogRecord) -> HandRecord:
        """``hand`` with its place in the log and its wall-clock times: the end's is the
        ending input's; the start's is counted back from it by the hand's length in table
        time — the same whether the hub saw the start or restored it from a snapshot."""
        start_seq = self._starts.pop(hand.number, None)
        wall = rec.wall
        return replace(
            hand,
            origin=self.origin,
            start_seq=start_seq,
            end_seq=rec.seq,
            started_at=None if wall is None else wall - (hand.ended_t - hand.started_t),
            ended_at=wall,
        )

    @property
    def origin(self) -> str:
        """The event log's identity (the chain of its first input)."""
        if self._origin is None:
            log_ = self.app.log
            self._origin = (log_.origin if log_ is not None else None) or ""
        return self._origin

    # ------------------------------------------------------------------ writing

    def _submit(self, hand: HandRecord) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(1, thread_name_prefix=f"hands-{self.app.table}")
            self._last = self._thread.submit(self._write, hand)

    def _write(self, hand: HandRecord) -> None:
        """Write the hands that failed before, then ``hand`` (in the writer thread); one
        that fails waits for the next write (the others go on: each is keyed, so their
        order does not matter)."""
        store = self.store
        assert store is not None
        todo, self._retry = [*self._retry, hand], []
        for h in todo:
            try:
                if store.write(h):
                    self.written += 1
                else:
                    self.already += 1
            except Exception as exc:  # the thread goes on; the hand waits for the next write
                self.failed += 1
                self._retry.append(h)
                self.app.count("hands_store_failed")
                self.app.throttle.error(
                    "table %s: %s (tried again before the next hand)",
                    self.app.table,
                    exc,
                    key="hands-store",
                )

    def flush(self, timeout: float | None = 60.0) -> None:
        """Wait for the writes handed over so far."""
        with self._lock:
            last = self._last
        if last is not None:
            last.result(timeout)

    def close(self) -> None:
        """Finish the writes and end the writer thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=True)

    # ------------------------------------------------------------------ at start

    def replay(self) -> int:
        """The table's replay at start (:meth:`TableApp.replay
        <hub.app.table_app.TableApp.replay>`) — of every input, the newest snapshot
        unused, when the store lacks a hand that ended before it (see the module)."""
        app = self.app
        snapshots = app.snapshots
        full = snapshots.enabled and self._store_lags()
        if full:
            log.warning(
                "table %s: the hands store lacks hands the event log ended before its newest "
                "snapshot: replaying every input to write them",
                app.table,
            )
            snapshots.enabled = False
        try:
            return app.replay()
        finally:
            if full:
                snapshots.enabled = True

    def _store_lags(self) -> bool:
        """Whether the store holds fewer hands of this log than the newest snapshot's
        table had ended."""
        app, store = self.app, self.store
        if store is None or app.log is None or app.log.last_seq == 0:
            return False
        try:
            snap: StoredState | None = app.log.latest_snapshot(SNAPSHOT_FORMAT)
            if snap is None:
                return False  # the replay is of every input anyway
            ended = sum(int(n) for n in snap.state["desk"]["hands"])
            return store.count(app.table, self.origin) < ended
        except (HandStoreError, OSError, KeyError, TypeError, ValueError) as exc:
            log.warning("table %s: the hands store not checked at start: %s", app.table, exc)
            return False
