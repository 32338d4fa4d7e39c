"""The hub's event log: every input the hub accepts, in order, before it is applied.

"The event log is the truth" (see ``ARCHITECTURE.md``): the hub appends each input —
an accepted reader inventory, a dealer button press, a console action, a dealer command,
a tick, a table command — with its receive time, *then* applies it. The hub's state
after a restart is the replay of the log through the same code paths, with the recorded
receive times as the clock (no MQTT, no wall clock during replay).

Storage: one SQLite file (``<state_dir>/events.sqlite``) in WAL mode, one row per input
(table id, sequence number, receive time, kind, JSON payload), one transaction per
input. The table is append-only: triggers refuse ``UPDATE`` and ``DELETE``.

Durability: ``synchronous = FULL`` by default — every append is on disk (fsync of the
WAL) before the input is applied, so neither a crash of the process (``kill -9``) nor a
power cut loses an input the hub acted on. ``NORMAL`` survives a process crash as well
(the WAL is in the OS cache) but may lose the last inputs on a power cut; it is offered
for slow SD cards (``event_log_sync = "normal"`` in ``hub.toml``).

**Secrecy**: the log holds every hole card (it is the truth). The file is created with
mode 0600 (SQLite gives its ``-wal`` and ``-shm`` files the same mode) inside a state
directory created 0700; keep it that way, back it up as secret material, and never
serve it.

>>> log = EventLog.memory("t1")
>>> log.append(InputKind.CONSOLE, {"type": "ConsoleAction", "seat": 3, "act": "call"}, 12.5)
LogRecord(table='t1', seq=1, t=12.5, kind=<InputKind.CONSOLE: 'console'>, payload={...})
>>> [(r.seq, r.kind.value, r.payload["seat"]) for r in log.records()]
[(1, 'console', 3)]
"""

from __future__ import annotations

import enum
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from feltwire.cards import card_code, card_index
from hub.ingest import InventoryRead
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    DeclareMisdeal,
    ManualCard,
    MuckHand,
    ShowHand,
    UndoAction,
)

SCHEMA_VERSION = 1
EVENT_LOG_FILE = "events.sqlite"
"""The log's file name inside the hub's state directory."""

Sync = Literal["full", "normal"]

ConsoleInput = ConsoleAction | ShowHand | MuckHand | ManualCard | DeclareMisdeal | UndoAction
"""What the dealer console may enter (actions and dealer commands)."""


class SeatOp(enum.StrEnum):
    """What the dealer does for a seat at the console (the table's rules decide whether
    it is allowed: :class:`hub.rules.table.Table`'s ``verify_…`` methods)."""

    SIT = "sit"
    """A player sits down in an empty seat with a buy-in."""
    TOP_UP = "top_up"
    """The player adds chips (from the next hand when the seat is in a hand)."""
    SIT_OUT = "sit_out"
    """The player sits out from the next hand."""
    COME_BACK = "come_back"
    """The player sitting out is back from the next hand."""
    LEAVE = "leave"
    """The player leaves the table with their chips."""


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A seat command entered at the console, logged as a :attr:`InputKind.TABLE` input.

    ``name`` and ``amount`` (the buy-in) belong to :attr:`SeatOp.SIT`, ``amount`` also to
    :attr:`SeatOp.TOP_UP`; ``wait`` (sit down or come back) waits for the big blind
    instead of posting at once (R-BLIND-3, R-BLIND-5).

    >>> cmd = SeatCommand(SeatOp.SIT, 4, name="Bo", amount=800)
    >>> decode_table(encode_table(cmd)) == cmd
    True
    """

    op: SeatOp
    seat: int
    name: str = ""
    amount: int = 0
    wait: bool = False


@dataclass(frozen=True, slots=True)
class AckAlert:
    """The dealer acknowledged alert ``alert`` (the id the console shows)."""

    alert: int


TableCommand = SeatCommand | AckAlert
"""A table command besides the opening of the table (which the table service logs)."""


class EventLogError(Exception):
    """The log cannot be used: wrong table, unknown schema, or it contradicts the config."""


class InputKind(enum.StrEnum):
    """What one logged input is."""

    INVENTORY = "inventory"
    """An accepted reader inventory (cards mapped from tags, unknown uids kept apart)."""
    BUTTON = "button"
    """A dealer button pressed on a node."""
    CONSOLE = "console"
    """A betting action, a shown or mucked hand entered at the dealer console."""
    DEALER = "dealer"
    """A dealer command: a card entered by hand, a misdeal declared, an undo."""
    TICK = "tick"
    """Time passed without a read while a hand ran."""
    TABLE = "table"
    """A table command: the table opened with its seated players and buy-ins, a seat
    command entered at the console (:class:`SeatCommand`), an alert acknowledged
    (:class:`AckAlert`)."""


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One input as logged."""

    table: str
    seq: int
    t: float
    """The hub's receive time (seconds since the epoch): the clock when it is replayed."""
    kind: InputKind
    payload: dict[str, Any]

    def __repr__(self) -> str:
        return (
            f"LogRecord(table={self.table!r}, seq={self.seq}, t={self.t}, "
            f"kind={self.kind!r}, payload={{...}})"
        )


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


def create_private(path: Path) -> None:
    """Create ``path`` (and its directory) readable by the owner only; tighten an
    existing file that is looser."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


class EventLog:
    """An append-only log of one table's inputs in SQLite (see the module docstring).

    Thread-safe (one lock around the connection): the hub appends from its event loop,
    tests and the demo's dealer may call in from other threads.
    """

    def __init__(self, path: Path | str, table: str, *, sync: Sync = "full") -> None:
        self.path = None if str(path) == ":memory:" else Path(path)
        self.table = table
        if self.path is not None:
            create_private(self.path)
        # autocommit mode: each append is its own explicit transaction
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        try:
            self._seq = self._setup(sync)
        except sqlite3.Error as exc:
            self._db.close()
            raise EventLogError(f"event log {path}: {exc}") from exc
        except EventLogError:
            self._db.close()
            raise

    def _setup(self, sync: Sync) -> int:
        """Pragmas, schema and checks; the last sequence number in the log."""
        db, table = self._db, self.table
        if self.path is not None:
            # one hub per log: the first write takes a lock this connection keeps (the OS
            # drops it when the process dies, so a killed hub's successor gets it)
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise EventLogError(f"{self.path}: SQLite refused WAL mode ({mode})")
        db.execute(f"PRAGMA synchronous={sync.upper()}")
        db.executescript(_SCHEMA)
        self._check_meta()
        others = db.execute(
            "SELECT DISTINCT table_id FROM events WHERE table_id != ? LIMIT 1", (table,)
        ).fetchone()
        if others is not None:
            raise EventLogError(
                f"{self.path} is the event log of table {others[0]!r}, not {table!r}: "
                "give each table its own state_dir"
            )
        row = db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table,)
        ).fetchone()
        return int(row[0])

    @classmethod
    def memory(cls, table: str) -> EventLog:
        """A log that lives in memory only (tests, the demo)."""
        return cls(":memory:", table)

    def _check_meta(self) -> None:
        self._db.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )
        (version,) = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if int(version) != SCHEMA_VERSION:
            raise EventLogError(f"event log schema {version}; this hub reads {SCHEMA_VERSION}")

    @property
    def last_seq(self) -> int:
        """The sequence number of the last input appended (0: the log is empty)."""
        return self._seq

    def append(self, kind: InputKind, payload: Mapping[str, Any], t: float) -> LogRecord:
        """Append one input (its own transaction, committed before this returns)."""
        text = json.dumps(payload, separators=(",", ":"), sort_keys=True)
        with self._lock:
            seq = self._seq + 1
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO events (table_id, seq, t, kind, payload) VALUES (?, ?, ?, ?, ?)",
                    (self.table, seq, t, kind.value, text),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._seq = seq
        return LogRecord(self.table, seq, t, kind, dict(payload))

    def records(self, after: int = 0) -> Iterator[LogRecord]:
        """Every input after sequence number ``after``, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, t, kind, payload FROM events WHERE table_id = ? AND seq > ? "
                "ORDER BY seq",
                (self.table, after),
            ).fetchall()
        for seq, t, kind, payload in rows:
            yield LogRecord(self.table, int(seq), float(t), InputKind(kind), json.loads(payload))

    def close(self) -> None:
        """Close the file (appending afterwards is an error)."""
        with self._lock:
            self._db.close()


# ------------------------------------------------------------------ payload codecs


def encode_read(read: InventoryRead) -> dict[str, Any]:
    """An accepted inventory as a log payload (cards as codes, sorted)."""
    return {
        "reader": read.reader,
        "node": read.node,
        "seq": read.seq,
        "cards": sorted(read.cards, key=card_index),
        "unknown": list(read.unknown_uids),
    }


def decode_read(payload: Mapping[str, Any]) -> InventoryRead:
    """The inventory a log payload records."""
    return InventoryRead(
        reader=str(payload["reader"]),
        node=str(payload["node"]),
        seq=int(payload["seq"]),
        cards=frozenset(str(c) for c in payload["cards"]),
        unknown_uids=tuple(str(u) for u in payload["unknown"]),
    )


def console_kind(inp: ConsoleInput) -> InputKind:
    """Whether a console input is a betting/showdown action or a dealer command."""
    if isinstance(inp, ConsoleAction | ShowHand | MuckHand):
        return InputKind.CONSOLE
    return InputKind.DEALER


def encode_console(inp: ConsoleInput) -> dict[str, Any]:
    """A console input as a log payload (its time is the record's)."""
    out: dict[str, Any] = {"type": type(inp).__name__}
    if isinstance(inp, ConsoleAction):
        out |= {"seat": inp.seat, "act": inp.act.value, "to": inp.to}
    elif isinstance(inp, ShowHand | MuckHand):
        out["seat"] = inp.seat
    elif isinstance(inp, ManualCard):
        out |= {
            "reader": inp.reader,
            "card": None if inp.card is None else card_code(inp.card),
        }
    return out


def decode_console(payload: Mapping[str, Any], now: float) -> ConsoleInput:
    """The console input a log payload records, stamped ``now``."""
    kind = payload["type"]
    if kind == "ConsoleAction":
        return ConsoleAction(int(payload["seat"]), Act(payload["act"]), now, int(payload["to"]))
    if kind == "ShowHand":
        return ShowHand(int(payload["seat"]), now)
    if kind == "MuckHand":
        return MuckHand(int(payload["seat"]), now)
    if kind == "ManualCard":
        card = payload["card"]
        return ManualCard(str(payload["reader"]), None if card is None else card_index(card), now)
    if kind == "DeclareMisdeal":
        return DeclareMisdeal(now)
    if kind == "UndoAction":
        return UndoAction(now)
    raise EventLogError(f"unknown console input {kind!r} in the event log")


def encode_table(cmd: TableCommand) -> dict[str, Any]:
    """A seat command or an acknowledged alert as a table-command log payload."""
    if isinstance(cmd, AckAlert):
        return {"command": "ack_alert", "alert": cmd.alert}
    out: dict[str, Any] = {"command": cmd.op.value, "seat": cmd.seat}
    if cmd.op is SeatOp.SIT:
        out |= {"name": cmd.name, "amount": cmd.amount, "wait": cmd.wait}
    elif cmd.op is SeatOp.TOP_UP:
        out["amount"] = cmd.amount
    elif cmd.op is SeatOp.COME_BACK:
        out["wait"] = cmd.wait
    return out


def decode_table(payload: Mapping[str, Any]) -> TableCommand:
    """The seat command or acknowledged alert a table-command payload records
    (EventLogError for a command this hub does not know; ``open`` is not decoded here)."""
    command = payload.get("command")
    if command == "ack_alert":
        return AckAlert(int(payload["alert"]))
    try:
        op = SeatOp(str(command))
    except ValueError:
        raise EventLogError(f"unknown table command {command!r} in the event log") from None
    return SeatCommand(
        op,
        int(payload["seat"]),
        name=str(payload.get("name", "")),
        amount=int(payload.get("amount", 0)),
        wait=bool(payload.get("wait", False)),
    )
