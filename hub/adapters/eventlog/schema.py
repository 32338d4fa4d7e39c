"""The log's SQLite schema: the append-only ``events`` table, ``meta`` (schema version,
accepted losses), ``snapshots`` (derived, see :mod:`~hub.adapters.eventlog.snapshots`),
the migration from schema 1."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from hub.adapters.eventlog.snapshots import create_snapshots
from hub.app.records import AcceptedLoss
from hub.security.chain import GENESIS, row_chain

SCHEMA_VERSION = 2

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
)

EVENTS_TABLE = """
CREATE TABLE {name} (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    wall REAL,
    chain TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
)
"""

INSERT = (
    "INSERT INTO events (table_id, seq, t, kind, payload, wall, chain) VALUES (?, ?, ?, ?, ?, ?, ?)"
)

LOSS_KEY = "accepted_loss:"
"""Meta keys of the accepted losses: ``accepted_loss:1``, ``accepted_loss:2`` …"""


def create_schema(db: sqlite3.Connection) -> None:
    """The schema-2 tables in the transaction ``db`` is in (no implicit commit)."""
    db.execute(EVENTS_TABLE.format(name="events"))
    _meta_and_triggers(db)


def migrate(db: sqlite3.Connection, table: str) -> None:
    """Schema 1 → 2, inside the open transaction: the rows with their chain (``wall``
    empty) in a new table that replaces the old one."""
    rows = db.execute(
        "SELECT seq, t, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (table,)
    ).fetchall()
    db.execute(EVENTS_TABLE.format(name="events_v2"))
    db.executemany(INSERT.replace("INTO events ", "INTO events_v2 "), chained_v1_rows(table, rows))
    db.execute("DROP TABLE events")
    db.execute("ALTER TABLE events_v2 RENAME TO events")
    _meta_and_triggers(db)


def _meta_and_triggers(db: sqlite3.Connection) -> None:
    """The ``meta`` table with this schema's version, the append-only triggers and the
    ``snapshots`` table (:mod:`~hub.adapters.eventlog.snapshots`)."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    create_snapshots(db)
    for trigger in TRIGGERS:
        db.execute(trigger)
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
    )


def chained_v1_rows(table: str, rows: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Schema-1 rows (seq, t, kind, payload) as schema-2 rows ready to insert: ``wall``
    empty, each with its chain."""
    chain, out = GENESIS, []
    for seq, t, kind, payload in rows:
        chain = row_chain(chain, table, int(seq), float(t), str(kind), str(payload), None)
        out.append((table, int(seq), float(t), str(kind), str(payload), None, chain))
    return out


def read_losses(db: sqlite3.Connection) -> tuple[AcceptedLoss, ...]:
    """The losses accepted on this log, oldest first (unreadable entries skipped)."""
    rows = db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (LOSS_KEY + "%",)).fetchall()
    out = []
    for _key, value in sorted(rows, key=lambda r: int(str(r[0])[len(LOSS_KEY) :] or 0)):
        with contextlib.suppress(ValueError, KeyError, TypeError):
            data = json.loads(value)
            out.append(AcceptedLoss(float(data["at"]), str(data["description"])))
    return tuple(out)


def loss_rows(losses: Sequence[AcceptedLoss]) -> list[tuple[str, str]]:
    """The ``meta`` rows that record ``losses`` (numbered from 1, oldest first)."""
    return [
        (f"{LOSS_KEY}{n}", json.dumps({"at": loss.at, "description": loss.description}))
        for n, loss in enumerate(losses, 1)
    ]
