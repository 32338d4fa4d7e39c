"""A disk-backed outbox: messages survive a broker outage and a node restart.

Every message is written here before it is handed to the MQTT client and deleted when
the broker acknowledges it (QoS 1 PUBACK). A node that restarts finds what was never
acknowledged and sends it first, in its original order; the hub drops any copy it
already had by sequence number.

The outbox holds what the node read (the tags on every antenna, hole cards included), so
its file, like the whole state dir, is its owner's only: the directory 0700, the
database and its ``-wal``/``-shm`` 0600, an existing looser one tightened.

>>> box = Outbox(None)            # in memory: no restart survival, same behaviour
>>> row = box.add("t/a", b"1", qos=1, retain=True)
>>> [m.topic for m in box.pending()]
['t/a']
>>> box.ack(row); box.pending()
[]
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from feltwire.files import private_dir, private_file

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """A message waiting for the broker's acknowledgement."""

    row: int
    topic: str
    payload: bytes
    qos: int
    retain: bool


class Outbox:
    """Unacknowledged messages in SQLite (a file in the node's state dir, or memory)."""

    def __init__(self, path: Path | None) -> None:
        if path is not None:
            private_dir(path.parent)
            # SQLite gives the -wal and -shm it creates the database file's mode
            private_file(path)
            for companion in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                if companion.exists():
                    private_file(companion)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(path) if path is not None else ":memory:",
            check_same_thread=False,
            isolation_level=None,
        )
        if path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS outbox (row INTEGER PRIMARY KEY AUTOINCREMENT,"
            " topic TEXT NOT NULL, payload BLOB NOT NULL, qos INTEGER NOT NULL,"
            " retain INTEGER NOT NULL)"
        )

    def add(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> int:
        """Store a message before it is sent; returns its row id."""
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO outbox (topic, payload, qos, retain) VALUES (?, ?, ?, ?)",
                (topic, payload, qos, int(retain)),
            )
            row = cur.lastrowid
        assert row is not None
        return row

    def ack(self, row: int) -> None:
        """The broker has the message: forget it."""
        with self._lock:
            self._db.execute("DELETE FROM outbox WHERE row = ?", (row,))

    def pending(self) -> list[StoredMessage]:
        """Every unacknowledged message, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT row, topic, payload, qos, retain FROM outbox ORDER BY row"
            ).fetchall()
        return [StoredMessage(r, t, bytes(p), q, bool(k)) for r, t, p, q, k in rows]

    def __len__(self) -> int:
        with self._lock:
            # fetchall finishes the statement: an unfinished SELECT would hold the
            # connection's transaction open and later writes would never commit
            ((n,),) = self._db.execute("SELECT COUNT(*) FROM outbox").fetchall()
        return int(n)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
