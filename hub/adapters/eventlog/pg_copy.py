"""Moving a table's SQLite event log into PostgreSQL (``feltwire event-log copy``):
:func:`copy_log` copies every input — its sequence number, times, kind, payload and
chain, byte for byte — and the snapshots that verify, so that a hub switched to
``event_log_url`` resumes the table exactly where the SQLite log left it.

What it guarantees:

* **Only a sound log, and only a stopped one.** The SQLite log is verified first, as
  ``feltwire event-log check`` does (:func:`~hub.adapters.eventlog.report.check_log`:
  every row's chain, the last row against the seal); a damaged log is refused with its
  damage named (:class:`~hub.adapters.eventlog.report.EventLogDamaged`), a log a running
  hub holds (it keeps it locked) with "stop it first". The rows are read in one read
  transaction of the file and each one's chain is computed again as it is copied.
* **All or nothing, per table.** A table's rows and snapshots go in one transaction,
  committed to the server's disk (``synchronous_commit`` at least ``on``): an
  interruption (Ctrl-C, a lost connection, a crash) leaves nothing of that table in the
  database, and running the copy again does it whole.
* **Checked as the hub checks it.** Before the commit, the table's rows in the database
  are verified inside the copy's own transaction by the hub's check
  (:func:`~hub.adapters.eventlog.pg.scan_pg`: every chain, no input missing) and must end
  at the SQLite log's last input and chain; after it, the log is opened as the hub opens
  it (:class:`~hub.adapters.eventlog.pg.PgEventLog`) and its newest snapshot loaded.
* **Never two histories in one log.** A table the database already holds is left alone:
  the same rows (the same last input and chain — the chain covers every row before it)
  make the copy a no-op, so a second run after the first one committed says so and
  exits 0; any other rows refuse it, as does a lease on the table
  (:mod:`~hub.adapters.eventlog.leases`: the rows of a leased table carry its holder's
  epoch). Two copies of one table at once wait for each other (an advisory lock).

The rows carry epoch 0, as a hub without leases writes them. Losses accepted on the
SQLite log (``accept-loss``) are not carried: the PostgreSQL log has no place for them
and the hub told the dealer when it started after each; the SQLite file keeps them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hub.adapters.eventlog.errors import EventLogError
from hub.adapters.eventlog.files import is_locked, locked_error, read_only
from hub.adapters.eventlog.pg import PgEventLog, PgReport, scan_pg
from hub.adapters.eventlog.pg_schema import connect, create_schema, safe_url
from hub.adapters.eventlog.report import EventLogDamaged, LogReport, check_log, inputs_text
from hub.adapters.eventlog.schema import SCHEMA_VERSION
from hub.adapters.eventlog.snapshots import SNAPSHOTS_KEPT, snapshot_digest
from hub.app.records import local_time
from hub.security.chain import GENESIS, row_chain

if TYPE_CHECKING:  # psycopg (the `postgres` extra) is imported only by a hub that uses it
    import psycopg

__all__ = ["COPY_LOCK", "CopyRefused", "CopyResult", "copy_log"]

COPY_LOCK = 0x66637079
"""The advisory lock (with the table's hash) a copy holds in its transaction (``fcpy``)."""
BATCH = 2000
"""Rows read from the SQLite file at a time."""

Status = Literal["copied", "already", "no log"]


class CopyRefused(EventLogError):
    """The copy was not made (the database is as it was): why, and what to do."""


@dataclass(frozen=True)
class CopyResult:
    """What :func:`copy_log` did with one table's log."""

    table: str
    source: Path
    to: str
    """The database, without its password."""
    status: Status
    """``copied``; ``already`` — the database held exactly these inputs, nothing was
    written; ``no log`` — the table has no SQLite log (or no input in it): nothing to copy."""
    inputs: int = 0
    """The log's inputs (1..``inputs``)."""
    last_time: float | None = None
    """The wall time of the last input (its table time in a schema-1 log)."""
    snapshots: tuple[int, ...] = ()
    """The inputs whose snapshots were copied, newest first."""
    losses: int = 0
    """Losses accepted on the SQLite log, which the copy does not carry (see the module)."""
    notes: tuple[str, ...] = ()
    """What the operator should know besides (a snapshot that does not load)."""

    def json(self) -> dict[str, Any]:
        """The result as ``--json`` prints it."""
        return {
            "table": self.table,
            "log": str(self.source),
            "to": self.to,
            "status": self.status,
            "inputs": self.inputs,
            "last": local_time(self.last_time) if self.last_time is not None else None,
            "snapshots": list(self.snapshots),
            "losses_not_copied": self.losses,
        }


@dataclass
class _Stream:
    """The SQLite log's rows as they are copied, each chain computed again."""

    table: str
    schema: int
    wanted: set[int]
    """Inputs whose chains the snapshots need."""
    progress: Callable[[int, int], None] | None
    total: int
    seq: int = 0
    chain: str = GENESIS
    chains: dict[int, str] = field(default_factory=dict)

    def rows(self, db: sqlite3.Connection, epoch: int) -> Iterator[tuple[Any, ...]]:
        columns = "seq, t, kind, payload" + (
            ", wall, chain" if self.schema == SCHEMA_VERSION else ""
        )
        cur = db.execute(
            f"SELECT {columns} FROM events WHERE table_id = ? ORDER BY seq", (self.table,)
        )
        while batch := cur.fetchmany(BATCH):
            for row in batch:
                seq, t, kind, payload = int(row[0]), float(row[1]), str(row[2]), str(row[3])
                wall = None if len(row) < 5 or row[4] is None else float(row[4])
                chain = row_chain(self.chain, self.table, seq, t, kind, payload, wall)
                if seq != self.seq + 1 or (len(row) > 5 and str(row[5]) != chain):
                    raise EventLogError(
                        f"input {seq} of the SQLite log does not verify as it is read again "
                        "(did a hub write to it meanwhile?); nothing was copied"
                    )
                self.seq, self.chain = seq, chain
                if seq in self.wanted:
                    self.chains[seq] = chain
                yield (self.table, seq, t, kind, payload, wall, chain, epoch)
            if self.progress is not None:
                self.progress(self.seq, self.total)


def copy_log(
    path: Path,
    table: str,
    url: str,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> CopyResult:
    """Copy ``table``'s SQLite log at ``path`` into the PostgreSQL database at ``url``
    (see the module); ``progress(inputs copied, inputs)`` is called as rows go. Raises
    :class:`EventLogDamaged` (the SQLite log is damaged), :class:`CopyRefused` (the
    database holds other rows of the table, or a lease on it) or EventLogError (the log
    is locked by a running hub, the database cannot be reached, the copy does not check);
    the database is then as it was."""
    where = safe_url(url)
    report = check_log(path, table)  # EventLogError when a running hub holds it
    if report.damage is not None:
        raise EventLogDamaged(report)
    result = CopyResult(
        table, path, where, "no log", report.inputs, report.last_time, losses=len(report.losses)
    )
    if report.schema is None or report.inputs == 0:
        return result
    import psycopg

    conn = connect(url, where)
    try:
        create_schema(conn, where)
        (durable,) = conn.execute("SHOW synchronous_commit").fetchone() or ("on",)
        if durable in ("off", "local"):  # as a hub's log with sync "full": on the server's disk
            conn.execute("SET synchronous_commit = on")
        snapshots = _copy(conn, path, report, where, progress)
    except psycopg.Error as exc:
        raise EventLogError(
            f"event log {where}: table {table} not copied ({exc}) — unless the connection "
            "was lost while it committed: running the copy again makes it, or finds it made"
        ) from exc
    except sqlite3.Error as exc:
        if is_locked(exc):
            raise locked_error(path) from exc
        raise EventLogError(f"event log {path}: {exc}; nothing was copied") from exc
    finally:
        conn.close()
    if snapshots is None:
        return replace(result, status="already")
    notes = _check_as_the_hub(url, table, report, snapshots)
    return replace(
        result, status="copied", snapshots=tuple(int(s[0]) for s in snapshots), notes=notes
    )


def _copy(
    conn: psycopg.Connection[Any],
    path: Path,
    report: LogReport,
    where: str,
    progress: Callable[[int, int], None] | None,
) -> list[tuple[Any, ...]] | None:
    """The copy's transaction: the rows, their check, the snapshots; the snapshot rows
    copied (None: the database held these inputs already, nothing was written)."""
    table = report.table
    with read_only(path) as db, conn.transaction():
        db.execute("BEGIN")  # one snapshot of the file for everything read below
        conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (COPY_LOCK, table))
        there = scan_pg(conn, where, table)
        if there.damage is not None or there.inputs:
            if (there.damage, there.inputs, there.last_chain) == (
                None,
                report.inputs,
                report.last_chain,
            ):
                return None
            raise CopyRefused(_held_already(db, report, there))
        lease = conn.execute(
            "SELECT hub, epoch, expires > now() FROM table_leases WHERE table_id = %s", (table,)
        ).fetchone()
        if lease is not None:
            raise CopyRefused(
                f"{where}: table {table} has a lease there (hub {lease[0]}, epoch {lease[1]}, "
                f"{'live' if lease[2] else 'expired'}): a hub that takes leases served it, "
                "and the database takes only that lease's epoch on its rows; the copy writes "
                "only a table no hub leased"
            )
        candidates = _snapshot_rows(db, table)
        stream = _Stream(
            table, report.schema or 1, {int(s[0]) for s in candidates}, progress, report.inputs
        )
        with conn.cursor().copy(
            "COPY event_inputs (table_id, seq, t, kind, payload, wall, chain, epoch) FROM STDIN"
        ) as copy:
            for row in stream.rows(db, 0):
                copy.write_row(row)
        if (stream.seq, stream.chain) != (report.inputs, report.last_chain):
            raise EventLogError(
                f"event log {path} changed while it was copied (input {stream.seq} where "
                f"{report.inputs} was verified): is a hub using it?; nothing was copied"
            )
        copied = scan_pg(conn, where, table)  # the hub's own check, before the commit
        if copied.damage is not None or (copied.inputs, copied.last_chain) != (
            report.inputs,
            report.last_chain,
        ):
            raise EventLogError(
                f"{where}: the copy of table {table} does not check "
                f"({copied.damage or f'{copied.inputs} inputs verify of {report.inputs}'}); "
                "nothing was copied"
            )
        kept = [s for s in candidates if _verifies(table, s, stream.chains)][:SNAPSHOTS_KEPT]
        for seq, fmt, state, wall, chain, digest in kept:
            conn.execute(
                "INSERT INTO event_snapshots (table_id, seq, format, state, wall, chain, digest) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seq) DO UPDATE SET "
                "format = excluded.format, state = excluded.state, wall = excluded.wall, "
                "chain = excluded.chain, digest = excluded.digest",
                (table, seq, fmt, state, wall, chain, digest),
            )
        return kept


def _held_already(db: sqlite3.Connection, report: LogReport, there: PgReport) -> str:
    """Why a table the database holds rows of is not copied, and what to do."""
    table = report.table
    if there.damage is not None:
        what = f"rows of table {table} that do not verify ({there.damage})"
    else:
        what = f"{inputs_text(1, there.inputs)} of table {table}"
        row = None
        if report.schema == SCHEMA_VERSION and there.inputs < report.inputs:
            row = db.execute(
                "SELECT chain FROM events WHERE table_id = ? AND seq = ?", (table, there.inputs)
            ).fetchone()
        if row is not None and str(row[0]) == there.last_chain:
            what += (
                f" — the first {there.inputs} of this log's {report.inputs}: an earlier copy, "
                "after which the hub went on with the SQLite log"
            )
        else:
            what += (
                " — not this log's (a hub ran the table on PostgreSQL, or another log was "
                "copied there)"
            )
    return (
        f"{there.where} already holds {what}; the copy does not mix two histories in one "
        f"log. Copy into a database that holds no rows of table {table}, or — if those rows "
        "are to go — remove them there first (they are append-only: only a superuser can)"
    )


def _snapshot_rows(db: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    """The SQLite log's snapshots of ``table``, newest first (none: a log of a hub
    before snapshots)."""
    if (
        db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'snapshots'"
        ).fetchone()
        is None
    ):
        return []
    return [
        tuple(r)
        for r in db.execute(
            "SELECT seq, format, state, wall, chain, digest FROM snapshots WHERE table_id = ? "
            "ORDER BY seq DESC",
            (table,),
        )
    ]


def _verifies(table: str, row: tuple[Any, ...], chains: dict[int, str]) -> bool:
    """Whether a snapshot row would be loaded: its digest verifies and it was taken on
    this log's history (the chain of its input) — one that would not is not copied."""
    seq, fmt, state, _wall, chain, digest = row
    if not (isinstance(seq, int) and isinstance(fmt, int) and isinstance(state, str)):
        return False
    if not isinstance(chain, str) or digest != snapshot_digest(chain, table, seq, fmt, state):
        return False
    return chains.get(seq) == chain


def _check_as_the_hub(
    url: str, table: str, report: LogReport, snapshots: list[tuple[Any, ...]]
) -> tuple[str, ...]:
    """Open the copied log as the hub opens it (every row verified) and load its newest
    snapshot. EventLogError when the log does not end where the SQLite log ends; a note
    when the newest snapshot copied does not load (a start then replays every input)."""
    log = PgEventLog(url, table)
    try:
        ends = (log.last_seq, log._chain_at(log.last_seq))
        newest = log.latest_snapshot(int(snapshots[0][1])) if snapshots else None
    finally:
        log.close()
    if ends != (report.inputs, report.last_chain):
        raise EventLogError(
            f"{log.where}: table {table} opened as the hub opens it ends at input {ends[0]}, "
            f"not at the SQLite log's {report.inputs}: do not switch this table to PostgreSQL"
        )
    if snapshots and (newest is None or newest.seq != snapshots[0][0]):
        return (
            f"the snapshot as of input {snapshots[0][0]} was copied but does not load: the "
            "hub's first start on PostgreSQL replays every input",
        )
    return ()
