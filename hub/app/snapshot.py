"""Table snapshots: a table's state at a hand's start, so that a restart replays only the
inputs after it (issue #15).

The event log is the truth and a restart is its replay (:meth:`TableApp.replay
<hub.app.table_app.TableApp.replay>`). A snapshot cuts that replay short: it is the state
the replay reaches at one input, written beside the inputs
(:mod:`hub.adapters.eventlog.snapshots`: the log's SQLite file, the newest two kept, each
chained on its input's chain). A start loads the newest one that verifies, restores it
and replays only the inputs after its ``seq``; one that does not verify, is of another
:data:`SNAPSHOT_FORMAT`, was taken with another table set-up (antennas, game, stakes,
overlay delay) or fails to restore is skipped with a log line, and the start replays from
the first input — never a wrong state.

**When.** At every hand's start: the input that starts a hand (the read that clears the
table, the table's opening, a seat command) is the hand boundary. The rules desk's state
is exported just *before* the hand starts (:attr:`RulesDesk.started_from
<hub.app.rules_desk.RulesDesk.started_from>`: no hand engine to export — only the table,
the counts, the recent alerts and the last hand's read-outs); restoring it starts that
hand again, as the input did. The other parts are exported after the input: the intake
(presence, which node each reader is on, where each card lies, the doubled cards' spells,
each antenna's and node's last sequence number), the publisher (the seat lights, the
overlay's released picture and antennas, and every overlay frame the delay still holds —
with a 30-minute delay that is half an hour of frames, so a start after a restore releases
exactly what the replay would have), the button counters. A start killed mid-hand
restores the hand's start and replays the hand's inputs.

What a replay does not rebuild is not in a snapshot either: the hub's own alerts and the
equity frames (news of the live run), the nodes' availability, the counters other than
the buttons' (a restart starts them at 0, as before). What the rules' table logs of its
events (the ``log`` of :class:`hub.rules.table.Table`) starts empty after a restore.

**Where and how.** The state is JSON values only (never pickle: a state directory's
content must not run code in the hub). The overlay's held frames are its bulk (about
3.6 MB of JSON at 30 minutes of a six-player table): they go in as one zlib-compressed,
base64 JSON text (a snapshot is about 0.6 MB in all). The capture runs on the event loop and takes
references only; the encoding and the write run in the table's snapshot thread, in a
transaction of their own on the log's connection (:meth:`EventLog.save_snapshot
<hub.adapters.eventlog.store.EventLog.save_snapshot>`). The delay holds its frames as
JSON text already (:class:`hub.app.feeds.DelayedRelease`), so the encoding decompresses
and joins them, parsing none, and a restore takes each frame's text as it stands in the
snapshot (parsed once, to check it, not encoded again). A write still running when the
next hand starts makes that one wait (only the newest waits). A write that fails is
logged and counted (``snapshot_failed``): the inputs are untouched, the next start
replays more of them. A replay takes snapshots too (the last one is written when it
ends), so the first start after an older hub writes one.

``event_log_snapshots = false`` in ``hub.toml`` turns them off (writing and loading).
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from hub.app.feeds import HeldFrames
from hub.app.intake import ReadIntake
from hub.app.ports import Clock, EventStore, StoredState
from hub.app.publisher import TablePublisher, encode_held
from hub.app.rules_desk import RulesDesk
from hub.app.throttle import ThrottledLog

log = logging.getLogger(__name__)

__all__ = ["REPLAY_WINDOW", "SNAPSHOT_FORMAT", "TableSnapshots"]

SNAPSHOT_FORMAT = 1
"""The layout of a table snapshot's state; a start loads only snapshots of this format."""
REPLAY_WINDOW = 5000
"""A replay captures the hands that start in its last this many inputs (it writes the
last capture when it ends; capturing every hand of a night would cost more than it saves)."""
COUNTED = ("button.",)
"""The counters a replay rebuilds (by prefix): a snapshot carries them."""


class SnapshotTable(Protocol):
    """What the snapshots take and restore of a table's application
    (:class:`hub.app.table_app.TableApp` is one; naming the protocol, not the class, keeps
    the imports pointing one way)."""

    table: str
    readers: list[str]
    game: str
    log: EventStore | None
    wall: Clock
    throttle: ThrottledLog
    intake: ReadIntake
    feeds: TablePublisher
    desk: RulesDesk | None

    @property
    def counters(self) -> dict[str, int]:
        """The table's counters, a copy."""
        ...

    def count(self, counter: str, n: int = 1) -> None:
        """Add ``n`` to one of the table's counters."""
        ...


@dataclass
class _Capture:
    """A snapshot taken on the event loop, to encode and write in the snapshot thread."""

    seq: int
    state: dict[str, Any]
    held: HeldFrames
    wall: float


class TableSnapshots:
    """One table's snapshots: captured at each hand's start, written off the event loop,
    restored at start (see the module)."""

    def __init__(self, app: SnapshotTable) -> None:
        self.app = app
        self.enabled = True
        """False: no snapshot is written or loaded (``event_log_snapshots = false``)."""
        self.restored: int | None = None
        """The input the last start's state was restored as of (None: a full replay)."""
        self.written = 0
        """Snapshots written since the hub started."""
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._writing: Future[None] | None = None
        self._next: _Capture | None = None
        self._replayed: _Capture | None = None

    # ------------------------------------------------------------------ taking them

    def taken(self, seq: int, now: float) -> None:
        """Input ``seq`` (at hub time ``now``) was applied: when it started a hand, take a
        snapshot (while replaying: keep it, :meth:`replayed` writes the last)."""
        app = self.app
        desk = app.desk
        if desk is None or desk.started_from is None:
            return
        started_at, desk_state = desk.started_from
        desk.started_from = None
        if not self.enabled or app.log is None:
            return
        if app.feeds.replaying:
            if app.log.last_seq - seq >= REPLAY_WINDOW:
                return
            app.feeds.overlay_changed(now)  # the replay may have left the picture behind
            app.feeds.release_due()  # what is due by now needs no holding in it
        self._capture(seq, started_at, desk_state)

    def _capture(self, seq: int, started_at: float, desk_state: dict[str, Any]) -> None:
        app = self.app
        feeds, held = app.feeds.export_state()
        state = {
            "setup": self._setup(),
            "started_at": started_at,
            "desk": desk_state,
            "intake": app.intake.export_state(),
            "feeds": feeds,
            "counters": {k: v for k, v in app.counters.items() if k.startswith(COUNTED)},
        }
        capture = _Capture(seq, state, held, app.wall())
        if app.feeds.replaying:
            self._replayed = capture
        else:
            self._write(capture)

    def replayed(self) -> None:
        """The replay ended: write its last capture (when it is newer than the snapshot
        it started from)."""
        capture, self._replayed = self._replayed, None
        if capture is not None and capture.seq > (self.restored or 0):
            self._write(capture)

    def _setup(self) -> dict[str, Any]:
        """What a snapshot must have been taken with to be restored here."""
        app = self.app
        desk = app.desk
        assert desk is not None
        return {
            "table": app.table,
            "readers": list(app.readers),
            "game": app.game,
            "stakes": desk.stakes(),
            "overlay_delay_s": app.feeds.overlay_delay_s,
        }

    def _write(self, capture: _Capture) -> None:
        with self._lock:
            if self._writing is not None and not self._writing.done():
                self._next = capture  # the newest waits; an older waiting one is dropped
                return
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="snapshot")
            self._writing = self._executor.submit(self._save, capture)

    def _save(self, capture: _Capture) -> None:
        """Encode and write one snapshot (in the snapshot thread), then the one that
        waited, if any."""
        app = self.app
        assert app.log is not None
        try:
            text = encode_held(capture.held).encode()
            held = base64.b64encode(zlib.compress(text, 1)).decode("ascii")
            app.log.save_snapshot(
                capture.seq, SNAPSHOT_FORMAT, capture.state | {"held": held}, wall=capture.wall
            )
            self.written += 1
        except Exception as exc:  # the thread goes on; the inputs are untouched
            app.count("snapshot_failed")
            app.throttle.warning(
                "table %s: the snapshot as of input %d not written: %s",
                app.table,
                capture.seq,
                exc,
                key="snapshot",
            )
        with self._lock:
            waiting, self._next = self._next, None
        if waiting is not None:
            self._save(waiting)

    def flush(self, timeout: float | None = 30.0) -> None:
        """Wait for the snapshot being written (and the one waiting) — tests, and a hub
        that stops."""
        with self._lock:
            writing = self._writing
        if writing is not None:
            try:
                writing.result(timeout)
            except TimeoutError:
                log.warning("table %s: a snapshot is still being written", self.app.table)

    def close(self) -> None:
        """Finish the writes and end the snapshot thread."""
        self.flush()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    # ------------------------------------------------------------------ at start

    @property
    def restored_seq(self) -> int:
        """The input the last start's state was restored as of (0: none, a full replay)."""
        return self.restored or 0

    def restore(self) -> int:
        """At start, before the replay: restore the newest snapshot that verifies and
        fits; the seq of the input it is as of (0: none — replay every input)."""
        app = self.app
        self.restored = None
        if not self.enabled or app.log is None or app.desk is None or app.desk.opened:
            return 0  # (opened: the table opened live, on an empty log — nothing to restore)
        try:
            snap = app.log.latest_snapshot(SNAPSHOT_FORMAT)
        except Exception as exc:  # a start never fails on a snapshot
            log.warning("table %s: no snapshot read (%s): replaying every input", app.table, exc)
            return 0
        if snap is None:
            return 0
        pristine = self._pristine()
        try:
            self._load(snap)
        except Exception as exc:
            log.warning(
                "table %s: the snapshot as of input %d is not used: %s: replaying every input",
                app.table,
                snap.seq,
                exc if str(exc) else type(exc).__name__,
            )
            self._load_pristine(pristine)
            return 0
        log.info("table %s: state restored as of input %d (snapshot)", app.table, snap.seq)
        self.restored = snap.seq
        return snap.seq

    def _load(self, snap: StoredState) -> None:
        app = self.app
        desk = app.desk
        assert desk is not None
        state = snap.state
        if state["setup"] != self._setup():
            raise ValueError("it was taken with another table set-up (antennas, game, stakes)")
        text = zlib.decompress(base64.b64decode(state["held"], validate=True)).decode()
        held = app.feeds.parse_held(text)  # ValueError: not a list of held frames
        app.intake.import_state(state["intake"])
        for name, n in state["counters"].items():
            app.intake.counters[str(name)] = int(n)
        desk.resume_from(float(state["started_at"]), state["desk"])  # the hand starts again
        app.feeds.import_state(state["feeds"], held)  # what that sent is replaced

    def _pristine(self) -> dict[str, Any]:
        """The fresh table's state, to go back to when a restore fails half-way."""
        app = self.app
        assert app.desk is not None
        feeds, held = app.feeds.export_state()
        return {
            "desk": app.desk.export_state(),
            "intake": app.intake.export_state(),
            "feeds": json.loads(json.dumps(feeds)),
            "held": held,
            "counters": dict(app.intake.counters),
        }

    def _load_pristine(self, pristine: dict[str, Any]) -> None:
        app = self.app
        assert app.desk is not None
        app.desk.import_state(pristine["desk"])
        app.intake.import_state(pristine["intake"])
        app.feeds.import_state(pristine["feeds"], pristine["held"])
        app.intake.counters.clear()
        app.intake.counters.update(pristine["counters"])
