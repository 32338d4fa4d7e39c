"""The event log on PostgreSQL: :class:`PgEventLog`, the same port as the SQLite
:class:`~hub.adapters.eventlog.store.EventLog`, for hubs that keep their tables' logs on
a database server (``event_log_url = "postgresql://…"`` in ``hub.toml``; psycopg 3, the
``postgres`` extra).

Tables (created when a log is opened, under an advisory lock, so several hubs may open
logs in one database at once):

* ``event_inputs`` — every table's inputs, one row each, keyed ``(table_id, seq)``: the
  same fields as a SQLite log's row (``t``, ``kind``, the JSON ``payload``, ``wall``) and
  the same hash chain (:func:`hub.security.chain.row_chain`, so a row changed behind the
  hub's back breaks the chain from that row on), plus ``epoch``: the lease epoch of the
  hub that appended the row, and ``written``, the server's time of the commit.
  Triggers refuse ``UPDATE``, ``DELETE`` and ``TRUNCATE``: the table is append-only.
* ``event_snapshots`` — the tables' snapshots (:mod:`~hub.adapters.eventlog.snapshots`:
  derived data, the newest kept, each verified before it is loaded).
* ``event_log_meta`` — the schema's version.

Order: a table's inputs are totally ordered by ``seq``, which the log assigns in the
append's transaction (the last one plus one). Two writers on one table cannot interleave:
the second one's ``seq`` is taken already, the primary key refuses its insert and its
:meth:`~PgEventLog.append_many` raises :class:`EventLogWriteError` with nothing written.

* ``table_leases`` — who owns each table, with the fencing trigger on ``event_inputs``
  (:mod:`~hub.adapters.eventlog.leases`): an append whose epoch is not the epoch of the
  table's live lease is refused by the database itself (:class:`LeaseLost`). A table
  no hub leased takes any epoch (``0``, the default, for a hub without leases).

Durability: each :meth:`~PgEventLog.append_many` is one transaction, committed before it
returns; with ``sync = "full"`` the session's ``synchronous_commit`` is at least ``on``
(the commit is in the server's WAL on disk), with ``"normal"`` it is ``off`` (a crash of
the server may lose its last commits, never a crash of the hub).

A lost connection (the server restarted, the backend terminated, the network cut) is
replaced: the next statement that finds it broken connects again and runs once more —
an append whose connection was lost *before* its ``COMMIT`` was sent wrote nothing and
is simply tried again. An append whose connection was lost *during* its ``COMMIT`` does
not know whether it was written; it reads the table's rows back once connected again
(:func:`commit_outcome`, for up to :data:`DOUBT_WAIT_S`): its own rows there, with the
same chain — it was written; none — it is written now; other rows — another writer
appended, :class:`EventLogWriteError`. Never a second copy: the primary key refuses
one, and a refused insert that finds its own rows there counts as written. While the
server cannot be reached an append is refused (:class:`EventLogWriteError`, the log
unchanged), and the first one after it is back goes through. A ``COMMIT`` whose
outcome could not be learnt before the append gave up is settled by the next append:
not written — as the hub was told; written after all — the table's state in the hub
lacks an input its log holds, so the log refuses every append until the hub is
restarted (its replay rebuilds the table from the log).

No seal: a SQLite log needs one because SQLite silently drops the frames of a damaged
WAL and a file can be truncated, copied or replaced from outside — nothing in the file
tells that its tail is gone. A PostgreSQL server writes its WAL with checksummed records
and replays it after a crash, a committed transaction is never silently undone, and the
log's rows are reached only through the server (its constraints and triggers). What is
left is someone with the rights to get past the triggers (a superuser, the tables' owner
— the hub's own role, which created them): opening a log verifies every row's chain and
that no sequence number is missing (:func:`check_pg`), and refuses a changed or removed
row with the same :class:`EventLogDamaged` as a SQLite log. Rows removed from the *end*
leave a shorter log that verifies: only a seal outside the database could tell, and one
on a hub's disk would tie the table to that hub — so keep that power away from anyone
but the operator (the database's roles, its backups).
``feltwire event-log accept-loss`` is for SQLite files only; on PostgreSQL the operator
restores the database from its backup.

**Secrecy**: the rows hold every hole card. Give the hub's database role its own
database (or schema), let no other role read it, and use TLS to a remote server
(``?sslmode=verify-full`` in the URL).
"""

from __future__ import annotations

import contextlib
import enum
import json
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from hub.adapters.eventlog.basics import LogBasics
from hub.adapters.eventlog.errors import EventLogError, EventLogWriteError, psycopg_missing
from hub.adapters.eventlog.leases import LeaseLost
from hub.adapters.eventlog.pg_schema import (
    FENCED,
    INSERT,
    PG_SCHEMA_VERSION,
    SCHEMA,
    connect,
    create_schema,
    safe_url,
)
from hub.adapters.eventlog.report import EventLogDamaged, inputs_text
from hub.adapters.eventlog.snapshots import (
    SNAPSHOTS_KEPT,
    Snapshot,
    pick_snapshot,
    snapshot_digest,
)
from hub.adapters.eventlog.store import Sync
from hub.app.records import AcceptedLoss, InputKind, Item, LogRecord, local_time
from hub.security.chain import GENESIS, row_chain

if TYPE_CHECKING:  # psycopg (the `postgres` extra) is imported only by a hub that uses it
    import psycopg

log = logging.getLogger("hub.adapters.eventlog")

FETCH = 2000
"""Rows read at a time when a log is verified."""

DOUBT_WAIT_S = 5.0
"""How long an append whose ``COMMIT``'s outcome is unknown keeps trying to reach the
server to learn it (a server restarting after a crash is back within seconds)."""
DOUBT_RETRY_S = 0.25
"""The pause between two of those tries."""

Row = tuple[str, int, float, str, str, float | None, str, int]
"""A row of ``event_inputs`` as an append inserts it: table, seq, t, kind, payload,
wall, chain, epoch."""

_T = TypeVar("_T")

__all__ = [
    "DOUBT_WAIT_S",
    "INSERT",
    "PG_SCHEMA_VERSION",
    "SCHEMA",
    "Outcome",
    "PgEventLog",
    "PgReport",
    "check_pg",
    "check_url",
    "commit_outcome",
    "last_input",
    "safe_url",
    "scan_pg",
]


@dataclass(frozen=True)
class PgReport:
    """What :func:`check_pg` found in one table's rows (``damage`` None: sound)."""

    where: str
    table: str
    inputs: int
    """Inputs that verify: 1..``inputs``."""
    last_chain: str = GENESIS
    last_t: float | None = None
    last_wall: float | None = None
    damage: str | None = None
    lost: tuple[int, int] | None = None
    """The sequence numbers after the verified ones that the log holds but that do not
    verify (None: none)."""
    torn: bool = False
    """Never: a torn write is SQLite's (a PostgreSQL commit is all or none)."""

    def message(self) -> str:
        """The operator's message: the log, what is wrong, what is lost, what to do."""
        if self.damage is None:
            return f"event log {self.where} (table {self.table}): OK, {self.inputs} inputs"
        kept = (
            f"inputs 1..{self.inputs} verify, the last of "
            f"{local_time(self.last_wall if self.last_wall is not None else self.last_t)}"
            if self.inputs
            else "no input verifies"
        )
        lost = "no input" if self.lost is None else inputs_text(*self.lost)
        return "\n".join(
            [
                f"event log {self.where} (table {self.table}) is damaged: {self.damage}.",
                f"  lost: {lost}; {kept}.",
                "  The hub does not start on a damaged log: the table it rebuilt would not be "
                "the one the dealer saw.",
                "  What to do: restore the database from its backup (the rows of table "
                f"{self.table} in event_inputs).",
            ]
        )


def check_pg(conn: psycopg.Connection[Any], where: str, table: str) -> PgReport:
    """Verify ``table``'s rows in ``event_inputs`` (read in one snapshot of the database):
    every row's chain, no sequence number missing. Damage is in the report (never raised)."""
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return scan_pg(conn, where, table)


def scan_pg(conn: psycopg.Connection[Any], where: str, table: str) -> PgReport:
    """:func:`check_pg`'s verification inside the transaction ``conn`` is in (what it
    has written itself included: ``feltwire event-log copy`` checks its copy so before
    it commits)."""
    chain, seq, t, wall = GENESIS, 0, None, None
    damage: str | None = None
    with conn.cursor(name="feltwire_check") as cur:
        cur.itersize = FETCH
        cur.execute(
            "SELECT seq, t, kind, payload, wall, chain FROM event_inputs WHERE table_id = %s "
            "ORDER BY seq",
            (table,),
        )
        for row_seq, row_t, kind, payload, row_wall, row_chain_ in cur:
            if row_seq != seq + 1:
                verb = "is" if row_seq - 1 == seq + 1 else "are"
                damage = f"{inputs_text(seq + 1, row_seq - 1)} {verb} missing from the log"
                break
            expected = row_chain(
                chain, table, int(row_seq), float(row_t), kind, payload, _float(row_wall)
            )
            if row_chain_ != expected:
                damage = (
                    f"input {row_seq} was changed after it was written (its chain does not match)"
                )
                break
            chain, seq, t, wall = expected, int(row_seq), float(row_t), _float(row_wall)
    report = PgReport(where, table, seq, chain, t, wall)
    if damage is None:
        return report
    (top,) = conn.execute(
        "SELECT max(seq) FROM event_inputs WHERE table_id = %s", (table,)
    ).fetchone() or (None,)
    last = int(top) if top is not None else seq
    lost = (seq + 1, last) if last > seq else None
    return PgReport(where, table, seq, chain, t, wall, damage, lost)


def last_input(url: str, table: str) -> int:
    """The sequence number of ``table``'s last input in the database at ``url`` (0: none,
    or no event log's tables there), read-only and without verifying anything (see
    :func:`check_url`). EventLogError when the database cannot be reached."""
    import psycopg

    where = safe_url(url)
    try:
        with connect(url, where) as conn:
            (found,) = conn.execute("SELECT to_regclass('event_inputs')").fetchone() or (None,)
            if found is None:
                return 0
            (top,) = conn.execute(
                "SELECT max(seq) FROM event_inputs WHERE table_id = %s", (table,)
            ).fetchone() or (None,)
    except psycopg.Error as exc:
        raise EventLogError(f"event log {where}: {exc}") from exc
    return 0 if top is None else int(top)


def _insert_statement(count: int) -> str:
    """One ``INSERT`` of ``count`` rows (:data:`INSERT`'s columns)."""
    head, _, values = INSERT.partition(" VALUES ")
    return f"{head} VALUES " + ", ".join([values] * count)


class Outcome(enum.Enum):
    """What the database holds where an append whose ``COMMIT``'s outcome is unknown was
    to write (:func:`commit_outcome`)."""

    WRITTEN = "written"
    """Every row of the append, each with the same chain: it was committed."""
    ABSENT = "absent"
    """None of its rows: it was not committed."""
    OTHER = "other"
    """Other rows in their place: another writer appended to the table."""


def commit_outcome(conn: psycopg.Connection[Any], table: str, rows: Sequence[Row]) -> Outcome:
    """Whether the append of ``rows`` (``table``'s, consecutive, as :meth:`PgEventLog.
    append_many` inserts them) is in the database ``conn`` reaches: read back by their
    sequence numbers and compared by their chains — which cover every field of the row
    and every row before it, so equal chains are the same inputs."""
    first, last = rows[0][1], rows[-1][1]
    found = dict(
        conn.execute(
            "SELECT seq, chain FROM event_inputs WHERE table_id = %s AND seq BETWEEN %s AND %s",
            (table, first, last),
        ).fetchall()
    )
    if not found:
        return Outcome.ABSENT
    if len(found) == len(rows) and all(found.get(r[1]) == r[6] for r in rows):
        return Outcome.WRITTEN
    return Outcome.OTHER


def check_url(url: str, table: str) -> PgReport:
    """Verify ``table``'s log in the database at ``url`` read-only (``feltwire event-log
    check``): what :func:`check_pg` finds; a database without the log's tables holds no
    log yet (``inputs`` 0). EventLogError when the database cannot be reached."""
    import psycopg

    where = safe_url(url)
    try:
        with connect(url, where) as conn:
            (found,) = conn.execute("SELECT to_regclass('event_inputs')").fetchone() or (None,)
            if found is None:
                return PgReport(where, table, 0)
            return check_pg(conn, where, table)
    except psycopg.Error as exc:
        raise EventLogError(f"event log {where}: {exc}") from exc


def _float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


class PgEventLog(LogBasics):
    """An append-only log of one table's inputs in PostgreSQL (see the module).

    Opening it creates the tables when they are missing and verifies the table's rows
    (:func:`check_pg`, :class:`EventLogDamaged` when they do not); ``epoch`` is the
    appending hub's lease epoch, recorded on every row. One connection per log, replaced
    when it is lost (see the module); thread-safe (one lock around it), as the SQLite log.
    ``read_only``: a session that writes nothing — no tables created, every append and
    snapshot refused by the server (``feltwire history import-log``, which may read a log
    a running hub appends to); a database without the log's tables is an EventLogError.
    """

    path = None
    """No file (the SQLite log's path): :attr:`where` names the log."""

    def __init__(
        self,
        url: str,
        table: str,
        *,
        epoch: int = 0,
        sync: Sync = "full",
        read_only: bool = False,
    ) -> None:
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - the postgres extra is missing
            raise psycopg_missing() from exc
        self.where = safe_url(url)
        self.table = table
        self.epoch = int(epoch)
        self._url = url
        self._sync: Sync = sync
        self._read_only = read_only
        self._lock = threading.Lock()
        self._psycopg = psycopg
        self._closed = False
        self._doubt: list[Row] | None = None
        """The rows of an append whose COMMIT's outcome could not be learnt yet."""
        self._stuck: str | None = None
        """Why this log refuses every append from now on (None: it does not)."""
        self.accepted_losses: list[AcceptedLoss] = []
        """Always empty: ``accept-loss`` is a SQLite log's (see the module)."""
        self._db = connect(url, self.where)
        try:
            self._open()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, psycopg.Error):
                raise EventLogError(f"event log {self.where}: {exc}") from exc
            raise

    def _open(self) -> None:
        db = self._db
        if self._read_only:
            (found,) = db.execute("SELECT to_regclass('event_inputs')").fetchone() or (None,)
            if found is None:
                raise EventLogError(
                    f"event log {self.where}: the database holds no event log (no table "
                    "event_inputs)"
                )
        else:
            create_schema(db, self.where)
        self._session(db)
        report = check_pg(db, self.where, self.table)
        if report.damage is not None:
            raise EventLogDamaged(report)
        self._seq, self._chain = report.inputs, report.last_chain
        self._last_t = report.last_t

    def _session(self, db: psycopg.Connection[Any]) -> None:
        """The log's session settings on a new connection: the commit's durability
        (``sync``), read-only when asked."""
        if self._sync == "normal":
            db.execute("SET synchronous_commit = off")
        else:
            (current,) = db.execute("SHOW synchronous_commit").fetchone() or ("on",)
            if current in ("off", "local"):
                db.execute("SET synchronous_commit = on")
        if self._read_only:
            db.execute("SET default_transaction_read_only = on")

    def _connection(self) -> psycopg.Connection[Any]:
        """The log's connection — a new one when the last was lost (the lock held).
        EventLogError when the server cannot be reached (EventLogWriteError: the log is
        closed)."""
        if not self._db.closed:
            return self._db
        if self._closed:
            raise EventLogWriteError(f"event log {self.where} (table {self.table}) is closed")
        db = connect(self._url, self.where)
        try:
            self._session(db)
        except self._psycopg.Error as exc:
            db.close()
            raise EventLogError(f"event log {self.where}: {exc}") from exc
        self._db = db
        log.info("event log %s: table %s connected again", self.where, self.table)
        return db

    def _retrying(self, work: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``work`` on the log's connection, and once more on a new one when that
        connection turns out lost — for reads and writes that may be repeated (the lock
        held; psycopg's errors pass, EventLogError when no connection can be made)."""
        db = self._connection()
        try:
            return work(db)
        except self._psycopg.Error:
            if not db.broken:
                raise
        return work(self._connection())

    def append_many(self, items: Sequence[Item]) -> list[LogRecord]:
        """Append inputs in one transaction, all or none, committed before this returns.

        :class:`EventLogWriteError` when it cannot be — the server cannot be reached,
        another writer appended to this table meanwhile (the primary key refuses the
        sequence numbers, see the module) — with the log and :attr:`last_seq` as they
        were. A lost connection is replaced and the append tried again; a ``COMMIT``
        whose outcome is unknown is settled by reading the rows back (see the module).
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
            self._settle_earlier()
            seq, chain, rows = self._seq, self._chain, []
            for kind, _, text, t_, wall_ in prepared:
                seq += 1
                chain = row_chain(chain, self.table, seq, t_, kind.value, text, wall_)
                rows.append((self.table, seq, t_, kind.value, text, wall_, chain, self.epoch))
            try:
                self._insert(rows)
            except self._psycopg.Error as exc:
                error = LeaseLost if exc.sqlstate == FENCED else EventLogWriteError
                raise error(self._not_written(self._seq + 1, seq, exc)) from exc
            except EventLogWriteError:
                raise
            except EventLogError as exc:  # no connection could be made
                raise EventLogWriteError(
                    self._not_written(self._seq + 1, seq, exc.__cause__ or exc)
                ) from exc
            self._seq, self._chain, self._last_t = seq, chain, rows[-1][2]
        return [
            LogRecord(self.table, row[1], row[2], item[0], item[1], row[5])
            for row, item in zip(rows, prepared, strict=True)
        ]

    def _insert(self, rows: list[Row]) -> None:
        """Insert ``rows`` in one transaction, committed (the lock held): on a lost
        connection once more on a new one; a ``COMMIT`` cut off settled by
        :meth:`_settle` (see the module). Raises psycopg's error, EventLogError (no
        connection) or EventLogWriteError (the outcome unknown, or another writer)."""
        statement = _insert_statement(len(rows))
        values = [value for row in rows for value in row]
        for attempt in (1, 2):
            db = self._connection()
            committing = False
            try:
                # ONE statement (not executemany: psycopg pipelines that, and a hub frozen
                # mid-pipeline left the server waiting for its Sync with the lease row
                # locked FOR SHARE — no idle timeout applies there — so no other hub could
                # take the table); between it and the COMMIT the session is idle in its
                # transaction, which the server ends after 2 s (PG_OPTIONS)
                with db.transaction(), db.cursor() as cur:
                    cur.execute(statement, values)
                    committing = True  # what fails from here on is the COMMIT
                return
            except self._psycopg.errors.UniqueViolation:
                # taken: by another writer, or by this append's own COMMIT that an earlier
                # connection lost while the server still committed it
                if commit_outcome(db, self.table, rows) is Outcome.WRITTEN:
                    return
                raise
            except self._psycopg.Error:
                if not db.broken:
                    raise
                if committing and self._settle(rows, DOUBT_WAIT_S) is Outcome.WRITTEN:
                    return
                if attempt == 2:
                    raise
                log.warning(
                    "event log %s: table %s lost its connection to the database; "
                    "connecting again to write %s",
                    self.where,
                    self.table,
                    inputs_text(rows[0][1], rows[-1][1]),
                )

    def _settle(self, rows: list[Row], wait_s: float) -> Outcome:
        """Learn whether the append of ``rows``, whose ``COMMIT`` was cut off, was
        written: trying to reach the server for up to ``wait_s`` seconds. WRITTEN or
        ABSENT; EventLogWriteError when another writer's rows are there (this log then
        refuses every append) or when the server could not be asked (the next append
        asks again)."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                outcome = commit_outcome(self._connection(), self.table, rows)
                break
            except (self._psycopg.Error, EventLogError) as exc:
                if time.monotonic() >= deadline:
                    self._doubt = rows
                    raise EventLogWriteError(
                        f"event log {self.where}: whether {self._rows_text(rows)} of table "
                        f"{self.table} {self._were(rows)} written is unknown: the connection "
                        f"was lost during the commit and the database cannot be asked ({exc}); "
                        "it is refused as not written, and the next append asks again"
                    ) from exc
                time.sleep(DOUBT_RETRY_S)
        self._doubt = None
        if outcome is Outcome.OTHER:
            self._stuck = (
                f"event log {self.where}: another writer appended "
                f"{self._rows_text(rows)} of table {self.table} meanwhile; this log no "
                "longer writes (reopen it to read what was written)"
            )
            raise EventLogWriteError(self._stuck)
        if outcome is Outcome.WRITTEN:
            log.info(
                "event log %s: table %s: %s %s written although the connection was lost "
                "during the commit (read back after connecting again)",
                self.where,
                self.table,
                self._rows_text(rows),
                self._were(rows),
            )
        return outcome

    def _settle_earlier(self) -> None:
        """Before an append (the lock held): refuse it when the log no longer writes,
        and settle an earlier append whose outcome was unknown — not written, as the
        hub was told: go on; written after all: the hub's table lacks an input of its
        log, so refuse this append and every later one until the hub is restarted."""
        if self._stuck is None and self._doubt is not None:
            rows = self._doubt
            if self._settle(rows, 0.0) is Outcome.WRITTEN:
                self._stuck = (
                    f"event log {self.where}: {self._rows_text(rows)} of table {self.table}, "
                    "which the hub refused when the connection was lost during its commit, "
                    f"{self._were(rows)} written after all; the table the hub holds lacks "
                    "it: restart the hub, which rebuilds the table from its log"
                )
        if self._stuck is not None:
            raise EventLogWriteError(self._stuck)

    @staticmethod
    def _rows_text(rows: Sequence[Row]) -> str:
        return inputs_text(rows[0][1], rows[-1][1])

    @staticmethod
    def _were(rows: Sequence[Row]) -> str:
        return "was" if len(rows) == 1 else "were"

    def _not_written(self, first: int, last: int, exc: BaseException) -> str:
        reason = str(exc).strip()
        sqlstate = getattr(exc, "sqlstate", None)
        if sqlstate == FENCED:
            reason = (
                f"this hub's lease on table {self.table} (epoch {self.epoch}) expired or "
                "another hub took the table; this hub must stop serving it"
            )
        elif isinstance(exc, self._psycopg.errors.UniqueViolation):
            reason = (
                f"another writer appended input {first} of table {self.table} meanwhile; "
                "this log no longer writes (reopen it to read what was written)"
            )
        elif isinstance(exc, self._psycopg.errors.ReadOnlySqlTransaction):
            reason = "the log was opened read-only"
        elif isinstance(exc, self._psycopg.OperationalError) or not isinstance(
            exc, self._psycopg.Error
        ):
            reason = (
                f"the database cannot be reached: {reason}; the next input tries to connect again"
            )
        return (
            f"event log {self.where}: {inputs_text(first, last)} of table {self.table} not "
            f"written ({reason}); the log is unchanged"
        )

    def records(self, after: int = 0) -> Iterator[LogRecord]:
        """Every input after sequence number ``after``, in order."""
        with self._lock:
            rows = self._read(
                "SELECT seq, t, kind, payload, wall FROM event_inputs "
                "WHERE table_id = %s AND seq > %s ORDER BY seq",
                (self.table, after),
            )
        for seq, t, kind, payload, wall in rows:
            yield LogRecord(
                self.table, int(seq), float(t), InputKind(kind), json.loads(payload), _float(wall)
            )

    def _read(self, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """The rows ``sql`` reads (the lock held; once more on a new connection when the
        connection turns out lost). EventLogError when it cannot be read."""
        try:
            return self._retrying(lambda db: db.execute(sql, params).fetchall())
        except self._psycopg.Error as exc:
            raise EventLogError(f"event log {self.where} (table {self.table}): {exc}") from exc

    def _stored_chain(self, seq: int) -> str | None:
        rows = self._read(
            "SELECT chain FROM event_inputs WHERE table_id = %s AND seq = %s", (self.table, seq)
        )
        return str(rows[0][0]) if rows else None

    def save_snapshot(
        self, seq: int, fmt: int, state: Mapping[str, Any], *, wall: float | None = None
    ) -> None:
        """Store the table's ``state`` as of input ``seq`` in format ``fmt`` (its own
        transaction; only the newest snapshots are kept). ValueError when the log holds no
        input ``seq``; :class:`EventLogWriteError` when it cannot be written."""
        text = json.dumps(state, separators=(",", ":"), sort_keys=True, allow_nan=False)
        with self._lock:
            chain = self._chain_at(seq)
            if chain is None:
                raise ValueError(f"the event log holds no input {seq} to snapshot at")
            digest = snapshot_digest(chain, self.table, seq, fmt, text)

            def write(db: psycopg.Connection[Any]) -> None:  # the same again is harmless
                with db.transaction():
                    db.execute(
                        "INSERT INTO event_snapshots (table_id, seq, format, state, wall, chain, "
                        "digest) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seq) "
                        "DO UPDATE SET format = excluded.format, state = excluded.state, "
                        "wall = excluded.wall, chain = excluded.chain, digest = excluded.digest",
                        (self.table, seq, fmt, text, wall, chain, digest),
                    )
                    db.execute(
                        "DELETE FROM event_snapshots WHERE table_id = %s AND seq NOT IN (SELECT "
                        "seq FROM event_snapshots WHERE table_id = %s ORDER BY seq DESC LIMIT %s)",
                        (self.table, self.table, SNAPSHOTS_KEPT),
                    )

            try:
                self._retrying(write)
            except (self._psycopg.Error, EventLogError) as exc:
                raise EventLogWriteError(
                    f"event log {self.where}: the snapshot of table {self.table} as of input "
                    f"{seq} not written ({exc})"
                ) from exc

    def latest_snapshot(self, fmt: int) -> Snapshot | None:
        """The newest snapshot in format ``fmt`` that verifies against this log (None:
        none does; each one skipped is told in a log line)."""
        with self._lock:
            try:
                rows = self._read(
                    "SELECT seq, format, state, wall, chain, digest FROM event_snapshots "
                    "WHERE table_id = %s ORDER BY seq DESC",
                    (self.table,),
                )
            except EventLogError as exc:
                log.warning(
                    "table %s: the snapshots cannot be read (%s): replaying every input",
                    self.table,
                    exc,
                )
                return None
            return pick_snapshot(
                [(int(r[0]), *r[1:3], _float(r[3]), *r[4:]) for r in rows],
                self.table,
                fmt,
                self._chain_at,
            )

    def close(self) -> None:
        """Close the connection (appending afterwards is an error)."""
        with self._lock, contextlib.suppress(self._psycopg.Error):
            self._closed = True
            self._db.close()
