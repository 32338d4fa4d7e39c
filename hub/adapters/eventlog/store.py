"""The event log itself: :class:`EventLog`, one table's inputs appended in SQLite,
chained and sealed (see :mod:`hub.adapters.eventlog`)."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from hub.adapters.eventlog.basics import LogBasics
from hub.adapters.eventlog.errors import EventLogError, EventLogWriteError
from hub.adapters.eventlog.files import create_private, is_locked, seal_path
from hub.adapters.eventlog.report import EventLogDamaged, LogReport, check_log, inputs_text
from hub.adapters.eventlog.schema import INSERT, SCHEMA_VERSION, create_schema, migrate
from hub.adapters.eventlog.seal import Seal, SealWriter
from hub.adapters.eventlog.snapshots import (
    Snapshot,
    create_snapshots,
    latest_snapshot,
    write_snapshot,
)
from hub.app.records import AcceptedLoss, InputKind, Item, LogRecord
from hub.security.chain import GENESIS, row_chain

log = logging.getLogger("hub.adapters.eventlog")

Sync = Literal["full", "normal"]
CACHE_KIB = 64
"""The page cache of a log's connection, in KiB: an append touches the last pages of two
B-trees (the rows and their key), a few pages each, and a start reads the log once
through. The cache fills as the log grows and is held for the hub's life (the connection
is exclusive, so SQLite never drops it): at 256 KiB a table's cache went on filling for
its first ~1,200 inputs (20 minutes at a read a second), up to 51 MB at 200 tables."""


class EventLog(LogBasics):
    """An append-only log of one table's inputs in SQLite (see :mod:`hub.adapters.eventlog`).

    Opening a file verifies it (:func:`check_log`) and raises :class:`EventLogDamaged`
    for a damaged one; a schema-1 file is migrated, a seal that lags is rewritten.
    Thread-safe (one lock around the connection): the hub appends from its event loop
    and its disk thread, tests and the demo's dealer may call in from other threads.
    """

    def __init__(self, path: Path | str, table: str, *, sync: Sync = "full") -> None:
        self.path = None if str(path) == ":memory:" else Path(path)
        self.table = table
        self._lock = threading.Lock()
        self._seal: SealWriter | None = None
        self._seq, self._chain = 0, GENESIS
        self._last_t: float | None = None
        self.accepted_losses: list[AcceptedLoss] = []
        """The losses the operator accepted on this log (``feltwire event-log
        accept-loss``), oldest first: the hub tells the dealer at start."""
        if self.path is None:
            self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            self._db.execute("BEGIN")
            create_schema(self._db)
            self._db.execute("COMMIT")
            return
        report = check_log(self.path, table)
        if report.damage is not None:
            raise EventLogDamaged(report)
        create_private(self.path)
        # autocommit mode: each append is its own explicit transaction
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            self._open(self.path, report, sync)
        except BaseException as exc:
            self._db.close()
            if self._seal is not None:
                self._seal.close()
            if isinstance(exc, sqlite3.Error):
                if is_locked(exc):
                    raise EventLogError(
                        f"event log {self.path} is locked: another hub uses it; stop it first"
                    ) from exc
                raise EventLogError(f"event log {self.path}: {exc}") from exc
            raise
        self.accepted_losses = list(report.losses)

    def _open(self, path: Path, report: LogReport, sync: Sync) -> None:
        """Pragmas, then — holding the log's lock — the schema (created or migrated), the
        verified end of the log, and the seal (created or rewritten)."""
        db = self._db
        # one hub per log: the lock taken below is kept while this connection lives (the
        # OS drops it when the process dies, so a killed hub's successor gets it)
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise EventLogError(f"{path}: SQLite refused WAL mode ({mode})")
        db.execute(f"PRAGMA synchronous={sync.upper()}")
        # an append-only log is read back only at start: a small page cache (SQLite's
        # default, 2 MiB a connection, grows with the log and, at 50 tables, with the night;
        # see CACHE_KIB)
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        durable = sync == "full"
        sealed = seal_path(path)
        db.execute("BEGIN EXCLUSIVE")
        try:
            if report.schema is None:
                create_schema(db)
            elif report.schema == 1:
                migrate(db, self.table)
            else:
                create_snapshots(db)  # a log of a hub before snapshots gains the table
            row = db.execute(
                "SELECT seq, chain, t FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                (self.table,),
            ).fetchone()
            seq, chain, t = (
                (0, GENESIS, None) if row is None else (int(row[0]), str(row[1]), row[2])
            )
            if (seq, chain) != (report.inputs, report.last_chain):
                raise EventLogError(
                    f"event log {path} changed while it was being opened (input {seq} where "
                    f"{report.inputs} was verified): is another hub using it?"
                )
            if report.seal is None:
                # before the commit: a migrated log is never without its seal
                here = Seal(seq, chain, report.last_t, report.last_wall)
                self._seal = SealWriter(sealed, here, durable=durable, create=True)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._seq, self._chain = seq, chain
        self._last_t = None if t is None else float(t)
        if report.schema == 1:
            log.info(
                "event log %s: migrated from schema 1 to %d (%d inputs chained, sealed in %s)",
                path,
                SCHEMA_VERSION,
                seq,
                sealed.name,
            )
        if self._seal is None:
            assert report.seal is not None
            self._seal = SealWriter(sealed, report.seal, durable=durable, create=False)
            if report.ahead:
                old = report.seal
                self._seal.write(
                    Seal(seq, chain, report.last_t, report.last_wall, old.seq, old.chain)
                )
                log.info(
                    "event log %s: %s committed after the seal's last write (the hub stopped "
                    "in between); their chain verifies, the seal is rewritten",
                    path,
                    inputs_text(old.seq + 1, seq),
                )

    @classmethod
    def memory(cls, table: str) -> EventLog:
        """A log that lives in memory only (tests, the demo): no file, no seal."""
        return cls(":memory:", table)

    @property
    def where(self) -> str:
        """The log's place, for people: its file (``(in memory)``: none)."""
        return str(self.path) if self.path is not None else "(in memory)"

    def append_many(self, items: Sequence[Item]) -> list[LogRecord]:
        """Append inputs — (kind, payload, table time ``t``, wall time or None) — in one
        transaction: one fsync with ``sync = "full"``, one seal write, all or none.

        A commit that fails raises :class:`EventLogWriteError` (the reason in its
        message) and leaves the log and :attr:`last_seq` as they were.
        """
        prepared = []
        for kind, payload, t, wall in items:
            t_, wall_ = float(t), None if wall is None else float(wall)
            if not math.isfinite(t_) or (wall_ is not None and not math.isfinite(wall_)):
                raise ValueError(f"an input's times must be finite (t={t}, wall={wall})")
            text = json.dumps(payload, separators=(",", ":"), sort_keys=True)
            prepared.append((kind, dict(payload), text, t_, wall_))
        if not prepared:
            return []
        with self._lock:
            before_seq, before_chain = self._seq, self._chain
            seq, chain, rows = before_seq, before_chain, []
            for kind, _, text, t_, wall_ in prepared:
                seq += 1
                chain = row_chain(chain, self.table, seq, t_, kind.value, text, wall_)
                rows.append((self.table, seq, t_, kind.value, text, wall_, chain))
            try:
                with self._write():
                    self._db.executemany(INSERT, rows)
            except sqlite3.Error as exc:
                raise EventLogWriteError(self._not_written(before_seq + 1, seq, exc)) from exc
            self._seq, self._chain, self._last_t = seq, chain, rows[-1][2]
            if self._seal is not None:
                self._seal.write(
                    Seal(seq, chain, rows[-1][2], rows[-1][5], before_seq, before_chain)
                )
        return [
            LogRecord(self.table, row[1], row[2], item[0], item[1], row[5])
            for row, item in zip(rows, prepared, strict=True)
        ]

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), rolled back when
        anything in it raises; the caller holds the lock and maps SQLite's errors."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    def _not_written(self, first: int, last: int, exc: sqlite3.Error) -> str:
        where = self.path if self.path is not None else "(in memory)"
        reason = str(exc)
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL":
            place = self.path.parent if self.path is not None else "memory"
            reason += f": the disk is full — free space on {place}"
        return (
            f"event log {where}: {inputs_text(first, last)} not written ({reason}); "
            "the log is unchanged"
        )

    def records(self, after: int = 0) -> Iterator[LogRecord]:
        """Every input after sequence number ``after``, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, t, kind, payload, wall FROM events WHERE table_id = ? AND seq > ? "
                "ORDER BY seq",
                (self.table, after),
            ).fetchall()
        for seq, t, kind, payload, wall in rows:
            yield LogRecord(
                self.table,
                int(seq),
                float(t),
                InputKind(kind),
                json.loads(payload),
                None if wall is None else float(wall),
            )

    def _stored_chain(self, seq: int) -> str | None:
        row = self._db.execute(
            "SELECT chain FROM events WHERE table_id = ? AND seq = ?", (self.table, seq)
        ).fetchone()
        return None if row is None else str(row[0])

    def save_snapshot(
        self, seq: int, fmt: int, state: Mapping[str, Any], *, wall: float | None = None
    ) -> None:
        """Store the table's ``state`` (JSON values) as of input ``seq``, in format ``fmt``
        (:mod:`~hub.adapters.eventlog.snapshots`), in a transaction of its own; older
        snapshots beyond the newest kept are dropped. ValueError when the log holds no
        input ``seq``; :class:`EventLogWriteError` when it cannot be written (the inputs
        are untouched: a start without the snapshot replays more of them)."""
        with self._lock:
            chain = self._chain_at(seq)
            if chain is None:
                raise ValueError(f"the event log holds no input {seq} to snapshot at")
            try:
                with self._write():
                    write_snapshot(self._db, self.table, seq, chain, fmt, state, wall=wall)
            except sqlite3.Error as exc:
                where = self.path if self.path is not None else "(in memory)"
                raise EventLogWriteError(
                    f"event log {where}: the snapshot as of input {seq} not written ({exc})"
                ) from exc

    def latest_snapshot(self, fmt: int) -> Snapshot | None:
        """The newest snapshot in format ``fmt`` that verifies against this log (None:
        none does; each one skipped is told in a log line)."""
        with self._lock:
            return latest_snapshot(self._db, self.table, fmt, self._chain_at)

    def close(self) -> None:
        """Close the file (appending afterwards is an error)."""
        with self._lock:
            self._db.close()
            if self._seal is not None:
                self._seal.close()
