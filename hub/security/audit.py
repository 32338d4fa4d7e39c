"""The audit trail: who opened which card-bearing page or feed, when, and from where.

Every web route that can carry a hole card declares it in its access rule
(``allow(Role.PRODUCER, audit="overlay")``, :mod:`hub.web.auth`); each time such a route is
opened — and each time one is refused — the rule appends one :class:`AuditEntry`: the
principal's name, role and how it proved them (session, token, anonymous), the feed, the
path and the table, the client's address and user agent, and for a refusal the reason.
Admins read the trail at ``GET /api/admin/audit`` (newest first).

Storage: one SQLite file, ``<state_dir>/audit.sqlite`` (mode 0600, WAL, ``synchronous =
FULL``: an entry is on disk before the feed opens). The table is append-only — triggers
refuse ``UPDATE`` and ``DELETE`` — and every row carries ``chain``, the SHA-256 of the
previous row's chain and its own fields, so :meth:`AuditLog.verify` notices a row that
was changed or removed behind the hub's back (with the triggers dropped). A hub without
a ``state_dir`` (tests, the demo) keeps its trail in memory: the same code on SQLite's
``:memory:``, gone when the hub stops.

Refusals are throttled per client address (:data:`REFUSALS_PER_MINUTE`) and in all
(:data:`REFUSALS_PER_MINUTE_TOTAL`), so neither one client hammering the overlay with bad
tokens nor many addresses doing it together can fill the disk; the refusals left out are
counted in :attr:`AuditLog.suppressed` (the web's access rule says so in the log,
throttled too). Opens are
never throttled. An entry's time ``t`` is the wall clock (it is a record, read by
people); the throttle's windows run on a monotonic clock, so a clock jump neither
lifts nor extends them.

>>> trail = AuditLog.memory(clock=lambda: 100.0)
>>> entry = trail.record(
...     outcome="open", feed="overlay", route="/ws/overlay", table="t1", name="obs",
...     role="producer", via="token", address="10.0.0.7", user_agent="OBS")
>>> [(e.id, e.outcome, e.name, e.address) for e in trail.read()]
[(1, 'open', 'obs', '10.0.0.7')]
>>> trail.verify()
1
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from feltwire.files import private_file as create_private
from hub.security.chain import GENESIS, chain_digest
from hub.security.errors import AuditError
from hub.security.limits import SlidingWindow

AUDIT_FILE = "audit.sqlite"
"""The audit trail's file name inside the hub's state directory."""

REFUSALS_PER_MINUTE = 30
"""Refusals written per client address and minute; more are only counted."""

REFUSALS_PER_MINUTE_TOTAL = 120
"""Refusals written per minute from all addresses together; more are only counted."""

MAX_TEXT = 300
"""Longest user agent or reason kept (they come from the client)."""

Outcome = Literal["open", "refused"]

_FIELDS = (
    "t",
    "outcome",
    "feed",
    "route",
    "table_id",
    "name",
    "role",
    "via",
    "address",
    "user_agent",
    "detail",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    t REAL NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('open', 'refused')),
    feed TEXT NOT NULL,
    route TEXT NOT NULL,
    table_id TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    via TEXT NOT NULL,
    address TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    detail TEXT NOT NULL,
    chain TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_append_only_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_append_only_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
"""


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One open of (or refusal at) a card-bearing page or feed."""

    id: int
    t: float
    """When (the hub's clock, seconds since the epoch)."""
    outcome: Outcome
    feed: str
    """The access rule's audit label (``overlay`` …)."""
    route: str
    """The path opened (``/overlay``, ``/ws/overlay`` …)."""
    table_id: str
    name: str
    """The principal's name (``anonymous`` without a credential)."""
    role: str
    via: str
    """How the principal proved it: ``session``, ``token`` or ``anonymous``."""
    address: str
    user_agent: str
    detail: str
    """Why it was refused (empty for an open)."""

    def as_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data (what ``GET /api/admin/audit`` returns)."""
        return asdict(self)


class AuditLog:
    """The append-only audit trail in SQLite (see the module docstring).

    Thread-safe: one lock around the connection.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = None if str(path) == ":memory:" else Path(path)
        self.clock = clock
        """Wall time: each entry's ``t``."""
        self.monotonic = monotonic
        """The refusal throttle's clock."""
        self.suppressed = 0
        """Refusals left out by the throttle (per address or in all)."""
        self._refusals = SlidingWindow(REFUSALS_PER_MINUTE, 60.0)
        self._all_refusals = SlidingWindow(REFUSALS_PER_MINUTE_TOTAL, 60.0)
        if self.path is not None:
            create_private(self.path)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        try:
            if self.path is not None:
                mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise AuditError(f"{self.path}: SQLite refused WAL mode ({mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT chain FROM audit ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            self._db.close()
            raise AuditError(f"audit trail {path}: {exc}") from exc
        except AuditError:
            self._db.close()
            raise
        self._last_chain = str(row[0]) if row is not None else GENESIS

    @classmethod
    def memory(
        cls,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> AuditLog:
        """A trail that lives in memory only (a hub without a state directory)."""
        return cls(":memory:", clock=clock, monotonic=monotonic)

    def _throttled(self, address: str) -> bool:
        """Whether a refusal from ``address`` is left out now (if not, it is counted)."""
        now = self.monotonic()
        if (
            self._refusals.retry_after(address, now) > 0
            or self._all_refusals.retry_after("", now) > 0
        ):
            self.suppressed += 1
            return True
        self._refusals.add(address, now)
        self._all_refusals.add("", now)
        return False

    def record(
        self,
        *,
        outcome: Outcome,
        feed: str,
        route: str,
        table: str,
        name: str,
        role: str,
        via: str,
        address: str,
        user_agent: str,
        detail: str = "",
    ) -> AuditEntry | None:
        """Append one entry (committed before this returns); None when a refusal was
        throttled (counted in :attr:`suppressed`)."""
        now = self.clock()
        with self._lock:
            if outcome == "refused" and self._throttled(address):
                return None
            values: tuple[Any, ...] = (
                now,
                outcome,
                feed,
                route[:MAX_TEXT],
                table[:MAX_TEXT],
                name[:MAX_TEXT],
                role,
                via,
                address[:MAX_TEXT],
                user_agent[:MAX_TEXT],
                detail[:MAX_TEXT],
            )
            chain = chain_digest(self._last_chain, values)
            cur = self._db.execute(
                f"INSERT INTO audit ({', '.join(_FIELDS)}, chain) "
                f"VALUES ({', '.join('?' * (len(_FIELDS) + 1))})",
                (*values, chain),
            )
            self._last_chain = chain
            row_id = cur.lastrowid
        assert row_id is not None
        return AuditEntry(row_id, *values)

    def read(self, *, limit: int = 50, before: int | None = None) -> list[AuditEntry]:
        """Up to ``limit`` entries, newest first; ``before`` = only entries older than
        that id (the next page)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, {', '.join(_FIELDS)} FROM audit WHERE id < ? ORDER BY id DESC LIMIT ?",
                (before if before is not None else 2**62, limit),
            ).fetchall()
        return [AuditEntry(*row) for row in rows]

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM audit").fetchone()
        return int(count)

    def verify(self) -> int:
        """Check every row's chain; returns how many rows verified (AuditError names the
        first row that was changed, or the gap where rows were removed)."""
        previous = GENESIS
        expected_id = None
        with self._lock:
            rows = self._db.execute(
                f"SELECT id, {', '.join(_FIELDS)}, chain FROM audit ORDER BY id"
            ).fetchall()
        for row in rows:
            row_id, values, chain = row[0], tuple(row[1:-1]), row[-1]
            if expected_id is not None and row_id != expected_id:
                raise AuditError(f"audit rows {expected_id}..{row_id - 1} are missing")
            if chain_digest(previous, values) != chain:
                raise AuditError(f"audit row {row_id} was changed (its chain does not match)")
            previous, expected_id = chain, row_id + 1
        return len(rows)

    def close(self) -> None:
        """Close the file (recording afterwards is an error)."""
        with self._lock:
            self._db.close()


__all__ = [
    "AUDIT_FILE",
    "REFUSALS_PER_MINUTE",
    "REFUSALS_PER_MINUTE_TOTAL",
    "AuditEntry",
    "AuditError",
    "AuditLog",
    "Outcome",
]
