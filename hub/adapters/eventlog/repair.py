"""Accepting a loss: keep the verified prefix of a damaged log, set the damaged files
aside for forensics, put a rebuilt and resealed log in their place."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from hub.adapters.eventlog.errors import EventLogError
from hub.adapters.eventlog.files import (
    SEAL_SUFFIX,
    create_private,
    fsync_dir,
    read_only,
    seal_path,
    sidecar,
)
from hub.adapters.eventlog.report import EventLogDamaged, LogReport, check_log
from hub.adapters.eventlog.schema import (
    INSERT,
    SCHEMA_VERSION,
    chained_v1_rows,
    create_schema,
    loss_rows,
)
from hub.adapters.eventlog.seal import Seal, create_seal
from hub.adapters.eventlog.store import EventLog, Sync
from hub.app.records import AcceptedLoss, local_time
from hub.security.chain import GENESIS

log = logging.getLogger(__name__)

_DAMAGED = ".damaged-"
_REBUILT = ".rebuilt-"


def accept_loss(
    path: Path, table: str, *, clock: Callable[[], float] = time.time
) -> AcceptedLoss | None:
    """Accept the damage :func:`check_log` finds in the log at ``path``: keep the prefix
    that verifies, move the damaged files aside (``events.sqlite.damaged-<UTC time>``,
    with ``-wal``, ``-shm`` and ``.seal`` after it) for forensics, put a rebuilt and
    resealed log in their place and record the loss in it. Returns the loss recorded;
    None when the log is sound (nothing is changed).

    The rebuilt log is made complete beside the damaged one before the files are
    swapped; a swap cut short (a crash) is finished by the next call, and the hub
    refuses to start in between.
    """
    pending = _pending_rebuild(path)
    if pending is not None:
        rebuilt, aside = pending
        _swap(path, rebuilt, aside)
        return _last_loss(path, table)
    report = check_log(path, table)
    if report.damage is None:
        return None
    at = float(clock())
    rebuilt, aside = _fresh_names(path, at)
    rows = _salvage(path, table, report) if report.inputs else []
    kept = (
        f"kept inputs 1..{report.inputs} (the last of {local_time(report.last_time)})"
        if report.inputs
        else "kept no input"
    )
    loss = AcceptedLoss(
        at,
        f"{report.damage}; dropped {report.lost_text()}; {kept}; the damaged files were "
        f"moved to {aside.name}*",
    )
    _build(rebuilt, table, rows, (*report.losses, loss))
    _swap(path, rebuilt, aside)
    return loss


def _fresh_names(path: Path, at: float) -> tuple[Path, Path]:
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y%m%dT%H%M%SZ")
    for n in range(1, 1000):
        tag = stamp if n == 1 else f"{stamp}-{n}"
        rebuilt = path.with_name(path.name + _REBUILT + tag)
        aside = path.with_name(path.name + _DAMAGED + tag)
        if not any(p.exists() for p in (rebuilt, aside, seal_path(aside))):
            return rebuilt, aside
    raise EventLogError(f"{path.parent}: too many damaged logs set aside with stamp {stamp}")


def _pending_rebuild(path: Path) -> tuple[Path, Path] | None:
    """A rebuilt log complete (its seal written) but not swapped in yet; leftovers of a
    rebuild cut short are removed."""
    pending = None
    for candidate in sorted(path.parent.glob(f"{path.name}{_REBUILT}*")):
        name = candidate.name
        if name.endswith(SEAL_SUFFIX):
            tag = name[len(path.name + _REBUILT) : -len(SEAL_SUFFIX)]
            pending = (
                path.with_name(path.name + _REBUILT + tag),
                path.with_name(path.name + _DAMAGED + tag),
            )
    if pending is not None:
        return pending
    for leftover in path.parent.glob(f"{path.name}{_REBUILT}*"):
        leftover.unlink()
    return None


def _salvage(path: Path, table: str, report: LogReport) -> list[tuple[Any, ...]]:
    """The rows 1..``report.inputs`` (they verified), ready to insert."""
    with read_only(path) as db:
        if report.schema == SCHEMA_VERSION:
            rows = db.execute(
                "SELECT table_id, seq, t, kind, payload, wall, chain FROM events "
                "WHERE table_id = ? AND seq <= ? ORDER BY seq",
                (table, report.inputs),
            ).fetchall()
        else:
            rows = chained_v1_rows(
                table,
                db.execute(
                    "SELECT seq, t, kind, payload FROM events WHERE table_id = ? AND seq <= ? "
                    "ORDER BY seq",
                    (table, report.inputs),
                ),
            )
    if len(rows) != report.inputs or (rows and rows[-1][6] != report.last_chain):
        raise EventLogError(f"event log {path}: the verified inputs could not be read again")
    return rows


def _build(
    target: Path, table: str, rows: list[tuple[Any, ...]], losses: Sequence[AcceptedLoss]
) -> None:
    """A complete log at ``target`` (closed: its WAL checkpointed away), then its seal."""
    create_private(target)
    db = sqlite3.connect(str(target), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("BEGIN IMMEDIATE")
        create_schema(db)
        db.executemany(INSERT, rows)
        db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", loss_rows(losses))
        db.execute("COMMIT")
    finally:
        db.close()
    if rows:
        last = rows[-1]
        seal = Seal(int(last[1]), str(last[6]), float(last[2]), last[5])
    else:
        seal = Seal(0, GENESIS)
    create_seal(seal_path(target), seal)


def _swap(path: Path, rebuilt: Path, aside: Path) -> None:
    """Move the damaged files aside and the rebuilt log in: the database first, its seal
    last (the seal of a rebuilt log in place is what marks the swap done)."""
    if rebuilt.exists():
        for suffix in ("-wal", "-shm", ""):
            damaged = sidecar(path, suffix)
            if damaged.exists():
                os.replace(damaged, sidecar(aside, suffix))
        os.replace(rebuilt, path)
        fsync_dir(path.parent)
    if seal_path(path).exists():
        os.replace(seal_path(path), seal_path(aside))
    os.replace(seal_path(rebuilt), seal_path(path))
    fsync_dir(path.parent)


def _last_loss(path: Path, table: str) -> AcceptedLoss | None:
    report = check_log(path, table)
    return report.losses[-1] if report.losses else None


TornPolicy = Literal["drop", "stop"]
"""What opening a log at start does with a torn last write (``event_log_torn``)."""


def open_log(
    path: Path,
    table: str,
    *,
    sync: Sync = "full",
    torn: TornPolicy = "drop",
    clock: Callable[[], float] = time.time,
) -> EventLog:
    """Open the log at ``path`` for the hub: as :class:`EventLog` does, except that with
    ``torn = "drop"`` a log whose damage is exactly a torn last write (the last commit the
    seal names is missing: a power cut or a kill while it was written) has that write
    dropped by :func:`accept_loss` — the damaged files set aside, the loss recorded in the
    log, which the hub then tells the dealer (the ``event_log_loss_accepted`` alert) — and
    is opened; a WARNING says what was dropped. Any other damage, and a torn write with
    ``torn = "stop"``, raises :class:`EventLogDamaged` (the operator decides).
    """
    try:
        return EventLog(path, table, sync=sync)
    except EventLogDamaged as exc:
        if torn != "drop" or not exc.report.torn:
            raise
    loss = accept_loss(path, table, clock=clock)
    if loss is not None:
        log.warning(
            "table %s: the event log's last write was torn (a power cut or a kill while it "
            'was written); the hub dropped it and goes on (event_log_torn = "drop"): %s',
            table,
            loss.description,
        )
    return EventLog(path, table, sync=sync)
