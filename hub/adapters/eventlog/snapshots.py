"""Table snapshots beside the inputs: a table's state as of one input, so that a start
can load it and replay only the inputs after it.

A snapshot is *derived* data: the inputs are the truth, and a snapshot that is missing,
damaged, unreadable, of another format or of another history is simply not used — the
start then replays from the first input (never a wrong state). So snapshots live in their
own table of the log's SQLite file, ``snapshots``, which — unlike ``events`` — is not
append-only: only the newest :data:`SNAPSHOTS_KEPT` of a table are kept.

Each row holds the table id, the sequence number ``seq`` of the input the state is as of,
the state's ``format`` (the version of the state's layout: the application's, a start
ignores every other one), the state as JSON text (explicit values only — never pickle: a
state directory's content must not be able to run code in the hub), the wall time it was
taken, the chain of the input at ``seq`` (:mod:`hub.security.chain`) and its ``digest``:
the hash chain's next value after that input's chain over the snapshot's own fields. A
snapshot is used only when its digest verifies *and* the log's input at ``seq`` still has
that chain — so a snapshot changed behind the hub's back, or left over from a history the
operator cut (``feltwire event-log accept-loss``), is never loaded. A start that skips one
says why in a log line.

The table is created when a log is opened (``CREATE TABLE IF NOT EXISTS``): it adds to
schema 2 without changing it, so a log of an older hub gains it at its first open, and an
older hub reads a log that has it (it ignores the table).

>>> import sqlite3
>>> db = sqlite3.connect(":memory:")
>>> create_snapshots(db)
>>> write_snapshot(db, "t1", 3, "c" * 64, 1, {"hand": 7}, wall=None)
>>> found = latest_snapshot(db, "t1", 1, lambda seq: "c" * 64 if seq == 3 else None)
>>> (found.seq, found.state) if found else None
(3, {'hand': 7})
>>> latest_snapshot(db, "t1", 2, lambda seq: "c" * 64) is None   # another format
True
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hub.security.chain import chain_digest

log = logging.getLogger("hub.adapters.eventlog")

SNAPSHOTS_KEPT = 2
"""Snapshots kept per table (the newest; an older one is the fallback when the newest
does not verify)."""

SNAPSHOTS_TABLE = """
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    format INTEGER NOT NULL,
    state TEXT NOT NULL,
    wall REAL,
    chain TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
)
"""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's state as of input ``seq`` (``state``: JSON values), in ``format``."""

    table: str
    seq: int
    format: int
    state: dict[str, Any]
    wall: float | None = None


def snapshot_digest(chain: str, table: str, seq: int, fmt: int, text: str) -> str:
    """The digest of a snapshot: the hash chain's next value after the chain of its input.

    >>> len(snapshot_digest("0" * 64, "t1", 1, 1, "{}"))
    64
    """
    return chain_digest(chain, ("snapshot", table, seq, fmt, text))


def create_snapshots(db: sqlite3.Connection) -> None:
    """The ``snapshots`` table, when it is not there yet (no commit of its own)."""
    db.execute(SNAPSHOTS_TABLE)


def write_snapshot(
    db: sqlite3.Connection,
    table: str,
    seq: int,
    chain: str,
    fmt: int,
    state: Mapping[str, Any],
    *,
    wall: float | None,
) -> None:
    """Store ``table``'s ``state`` as of input ``seq`` (whose chain is ``chain``) and drop
    its snapshots older than the newest :data:`SNAPSHOTS_KEPT` — in the transaction ``db``
    is in (none: each statement its own)."""
    text = json.dumps(state, separators=(",", ":"), sort_keys=True, allow_nan=False)
    digest = snapshot_digest(chain, table, seq, fmt, text)
    db.execute(
        "INSERT OR REPLACE INTO snapshots (table_id, seq, format, state, wall, chain, digest) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table, seq, fmt, text, wall, chain, digest),
    )
    db.execute(
        "DELETE FROM snapshots WHERE table_id = ? AND seq NOT IN "
        "(SELECT seq FROM snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT ?)",
        (table, table, SNAPSHOTS_KEPT),
    )


def latest_snapshot(
    db: sqlite3.Connection, table: str, fmt: int, chain_at: Callable[[int], str | None]
) -> Snapshot | None:
    """The newest snapshot of ``table`` that verifies (see the module), in format
    ``fmt``; ``chain_at(seq)`` is the log's chain of input ``seq`` (None: no such input).
    Each one skipped is told in a log line; None when none verifies."""
    try:
        rows = db.execute(
            "SELECT seq, format, state, wall, chain, digest FROM snapshots WHERE table_id = ? "
            "ORDER BY seq DESC",
            (table,),
        ).fetchall()
    except sqlite3.Error as exc:
        log.warning(
            "table %s: the snapshots cannot be read (%s): replaying every input", table, exc
        )
        return None
    return pick_snapshot(rows, table, fmt, chain_at)


def pick_snapshot(
    rows: Iterable[Sequence[Any]], table: str, fmt: int, chain_at: Callable[[int], str | None]
) -> Snapshot | None:
    """The first of ``rows`` — (seq, format, state, wall, chain, digest), newest first —
    that verifies (see the module; each one skipped is told in a log line): the SQLite
    log's snapshots and the PostgreSQL log's (:mod:`~hub.adapters.eventlog.pg`) alike."""
    for seq, fmt_, text, wall, chain, digest in rows:
        why = _unusable(table, seq, fmt_, text, chain, digest, fmt, chain_at)
        if why is None:
            try:
                state = json.loads(text)
            except ValueError as exc:
                why = f"its state is not JSON ({exc})"
            else:
                if isinstance(state, dict):
                    return Snapshot(table, int(seq), int(fmt_), state, wall)
                why = "its state is not a JSON object"
        log.warning("table %s: the snapshot as of input %s is not used: %s", table, seq, why)
    return None


def _unusable(
    table: str,
    seq: object,
    fmt_: object,
    text: object,
    chain: object,
    digest: object,
    fmt: int,
    chain_at: Callable[[int], str | None],
) -> str | None:
    """Why a snapshot row may not be loaded (None: it may)."""
    if not (isinstance(seq, int) and isinstance(fmt_, int) and isinstance(text, str)):
        return "the row is malformed"
    if fmt_ != fmt:
        return f"it is of format {fmt_}, this hub reads {fmt}"
    if not isinstance(chain, str) or digest != snapshot_digest(chain, table, seq, fmt_, text):
        return "it does not verify (damaged)"
    logged = chain_at(seq)
    if logged is None:
        return f"the log holds no input {seq}"
    if logged != chain:
        return f"it was taken on another history of the log (input {seq} differs)"
    return None
