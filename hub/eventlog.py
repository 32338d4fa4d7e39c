"""The hub's event log: every input the hub accepts, in order, before it is applied.

"The event log is the truth" (see ``ARCHITECTURE.md``): the hub appends each input —
an accepted reader inventory, a dealer button press, a console action, a dealer command,
a tick, a table command — with its time, *then* applies it. The hub's state after a
restart is the replay of the log through the same code paths, with the recorded times as
the clock (no MQTT, no wall clock during replay).

Storage: one SQLite file per table (``events.sqlite`` in the state directory, see
:func:`hub.runtime.event_log_path`) in WAL mode, one row
per input: table id, sequence number, ``t`` (the hub's table time: the clock of the
replay), kind, JSON payload, ``wall`` (the wall-clock time, for records; empty in rows
written before schema 2) and ``chain``. :meth:`EventLog.append_many` writes many inputs
in one transaction (one fsync), all or none; :meth:`EventLog.append` is one of them. The
table is append-only: triggers refuse ``UPDATE`` and ``DELETE``.

Damage is detected, never accepted silently:

* every row's ``chain`` is the SHA-256 of the previous row's chain and the row's own
  fields (:func:`chain_digest`, the audit trail's hash chain too), so a row changed
  behind the hub's back breaks the chain from that row on;
* the **seal**, ``<log>.seal`` beside the log (mode 0600, outside SQLite and its WAL),
  holds the last committed sequence number and its chain, and those of the commit
  before. It is written after each commit into one of two checksummed slots in turn, so
  a torn write of the seal leaves the other slot (the commit before) readable. With
  ``sync = "full"`` it is made durable (``fdatasync``) at most every
  :data:`SEAL_SYNC_S` and when the log closes: the commit it follows is already on disk
  when the seal is written, so the seal can never get ahead of the log — after a power
  cut it is at most that far behind (a log ahead of its seal verifies), and a
  busy table pays one extra fsync a second instead of one per commit.

The chain is not keyed: it catches damage (a failing SD card, a careless operator, an
edit with the ``sqlite3`` shell), not someone who rewrites the log *and* its seal
consistently — whoever may write the state directory can do that, so keep it 0700.

:func:`check_log` verifies a log read-only — every row's chain, and the last row against
the seal; a damaged log is left exactly as found, WAL included — and :class:`EventLog`
refuses to open a damaged one (:class:`EventLogDamaged`, naming the file, what was lost
— sequence numbers, how many inputs, the time of the last good one — and what to do). A
log shorter than its seal (a deleted or damaged WAL, bytes overwritten in it — SQLite
silently drops every WAL frame after a bad checksum — a truncated database, a torn final
write) is damage; when exactly the last commit is missing the message says that the last
write was torn. A log *ahead* of its seal (the hub died between a commit and the seal
write) is sound when its chain verifies: the seal is rewritten and an INFO line says so.
The operator accepts a loss explicitly with ``feltwire event-log accept-loss``
(:func:`accept_loss`): the verified prefix is kept, the damaged files are moved aside
for forensics, and the loss is recorded in the log (:attr:`EventLog.accepted_losses`). A
log of schema 1 (no chain, no seal) is migrated in place when it is opened.

Durability: ``synchronous = FULL`` by default — every commit is on disk (fsync of the
WAL) before the input is applied, so neither a crash of the process (``kill -9``) nor a
power cut loses an input the hub acted on. ``NORMAL`` survives a process crash as well
(the WAL is in the OS cache) but may lose the last inputs on a power cut; the seal is
not synced either then, so such a loss is reported only when the seal outlived the lost
frames. It is offered for slow SD cards (``event_log_sync = "normal"`` in ``hub.toml``).
A commit that fails (the disk is full) raises :class:`EventLogWriteError` and leaves the
log as it was.

**Secrecy**: the log holds every hole card (it is the truth). The file and its seal are
created with mode 0600 (SQLite gives its ``-wal`` and ``-shm`` files the same mode)
inside a state directory created 0700; keep it that way, back it up as secret material,
and never serve it.

>>> log = EventLog.memory("t1")
>>> log.append(InputKind.CONSOLE, {"type": "ConsoleAction", "seat": 3, "act": "call"}, 12.5)
LogRecord(table='t1', seq=1, t=12.5, kind=<InputKind.CONSOLE: 'console'>, payload={...})
>>> ticks = [(InputKind.TICK, {}, 13.0, None), (InputKind.TICK, {}, 14.0, 1.7e9)]
>>> [r.seq for r in log.append_many(ticks)]  # one transaction
[2, 3]
>>> [(r.seq, r.kind.value) for r in log.records(after=1)], log.last_t
([(2, 'tick'), (3, 'tick')], 14.0)
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import json
import logging
import math
import os
import sqlite3
import struct
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from feltwire.cards import card_code, card_index
from feltwire.files import private_file
from hub.ingest import InventoryRead
from hub.rules.errors import TableSeat
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    DeclareMisdeal,
    ManualCard,
    MuckHand,
    ShowHand,
    UndoAction,
)

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
EVENT_LOG_FILE = "events.sqlite"
"""The log's file name inside the hub's state directory."""

SEAL_SUFFIX = ".seal"
"""The seal's name is the log's with this added (``events.sqlite.seal``)."""

GENESIS = "0" * 64
"""The chain value before the first row (of the event log, of the audit trail)."""

Sync = Literal["full", "normal"]

ConsoleInput = ConsoleAction | ShowHand | MuckHand | ManualCard | DeclareMisdeal | UndoAction
"""What the dealer console may enter (actions and dealer commands)."""

Item = tuple["InputKind", Mapping[str, Any], float, float | None]
"""One input for :meth:`EventLog.append_many`: kind, payload, table time ``t``, wall time."""


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
    """The log cannot be used: wrong table, unknown schema, locked, damaged, or it
    contradicts the config."""


class EventLogDamaged(EventLogError):
    """The log on disk is not what was committed to it: a row changed, rows missing at
    the end or in the middle, the seal missing or not matching, the file unreadable.

    The message names the file, what is lost and what to do; :attr:`report` holds the
    details (:func:`check_log`'s answer).
    """

    def __init__(self, report: LogReport) -> None:
        super().__init__(report.message())
        self.report = report


class EventLogWriteError(EventLogError):
    """A commit failed (the disk is full, an I/O error): nothing of it was written and
    the log is as it was, so the caller can refuse the input and go on."""


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
    """The input's table time (seconds): the clock when it is replayed."""
    kind: InputKind
    payload: dict[str, Any]
    wall: float | None = None
    """The wall-clock time of the input (seconds since the epoch), for records; None in
    rows logged before schema 2, or when the hub gave none."""

    def __repr__(self) -> str:
        return (
            f"LogRecord(table={self.table!r}, seq={self.seq}, t={self.t}, "
            f"kind={self.kind!r}, payload={{...}})"
        )


@dataclass(frozen=True, slots=True)
class AcceptedLoss:
    """A loss the operator accepted with ``feltwire event-log accept-loss``, as recorded
    in the log: when, and what was dropped."""

    at: float
    """When the loss was accepted (seconds since the epoch)."""
    description: str
    """What was wrong, what was dropped, where the damaged files went."""

    def __str__(self) -> str:
        return f"{local_time(self.at)}: {self.description}"


def chain_digest(previous: str, values: Sequence[object]) -> str:
    """The hash chain's next value: SHA-256 (hex) of the previous value and one row's
    fields, as compact JSON. The event log's rows and the audit trail's are chained so.

    >>> chain_digest(GENESIS, ("t1", 1, 2.5)) == chain_digest(GENESIS, ["t1", 1, 2.5])
    True
    """
    text = json.dumps([previous, *values], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _row_chain(
    previous: str, table: str, seq: int, t: float, kind: str, payload: str, wall: float | None
) -> str:
    return chain_digest(previous, (table, seq, t, kind, payload, wall))


_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
)

_EVENTS = """
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

_INSERT = (
    "INSERT INTO events (table_id, seq, t, kind, payload, wall, chain) VALUES (?, ?, ?, ?, ?, ?, ?)"
)

_LOSS_KEY = "accepted_loss:"
"""Meta keys of the accepted losses: ``accepted_loss:1``, ``accepted_loss:2`` …"""


def _create_schema(db: sqlite3.Connection) -> None:
    """The schema-2 tables in the transaction ``db`` is in (no implicit commit)."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(_EVENTS.format(name="events"))
    for trigger in _TRIGGERS:
        db.execute(trigger)
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
    )


create_private = private_file
"""Create ``path`` (and its directory) for its owner only; tighten a looser one
(:func:`feltwire.files.private_file`)."""


def seal_path(path: Path) -> Path:
    """Where the seal of the log at ``path`` lies (``events.sqlite.seal``)."""
    return path.with_name(path.name + SEAL_SUFFIX)


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def local_time(t: float | None) -> str:
    """A time for a person: local, to the second, with its UTC offset (a message
    names the last good input by it)."""
    if t is None or not math.isfinite(t):
        return "an unknown time"
    try:
        return datetime.fromtimestamp(t, UTC).astimezone().isoformat(sep=" ", timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return f"t={t}"


def _inputs(first: int, last: int) -> str:
    """``input 7`` or ``inputs 7..9 (3 inputs)``."""
    if first == last:
        return f"input {first}"
    return f"inputs {first}..{last} ({last - first + 1} inputs)"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_datasync = getattr(os, "fdatasync", os.fsync)


# ------------------------------------------------------------------------------ the seal


@dataclass(frozen=True, slots=True)
class Seal:
    """What the seal says: the last commit (its last sequence number and chain, and the
    time of that input) and the commit before (``prev_…``; None when not known)."""

    seq: int
    chain: str
    t: float | None = None
    wall: float | None = None
    prev_seq: int | None = None
    prev_chain: str | None = None


SEAL_SYNC_S = 1.0
"""The seal is made durable at most this often (seconds, monotonic) and on close."""
SEAL_SLOT = 512
"""Bytes per slot of the seal file (two slots, written in turn)."""

_SEAL_MAGIC = b"feltwire event-log seal 1\n"


def _encode_slot(seal: Seal, n: int) -> bytes:
    body = json.dumps(
        {
            "n": n,
            "seq": seal.seq,
            "chain": seal.chain,
            "t": seal.t,
            "wall": seal.wall,
            "prev_seq": seal.prev_seq,
            "prev_chain": seal.prev_chain,
        },
        separators=(",", ":"),
    ).encode()
    text = _SEAL_MAGIC + body + b"\n"
    text += hashlib.sha256(text).hexdigest().encode() + b"\n"
    assert len(text) <= SEAL_SLOT
    return text.ljust(SEAL_SLOT, b"\0")


def _decode_slot(raw: bytes) -> tuple[int, Seal] | None:
    """A slot's generation and seal; None when it does not verify (torn, damaged)."""
    if not raw.startswith(_SEAL_MAGIC):
        return None
    parts = raw.rstrip(b"\0").split(b"\n")
    if len(parts) != 4 or parts[3] != b"":
        return None
    text = parts[0] + b"\n" + parts[1] + b"\n"
    if hashlib.sha256(text).hexdigest().encode() != parts[2]:
        return None
    try:
        data = json.loads(parts[1])
        seal = Seal(
            seq=int(data["seq"]),
            chain=str(data["chain"]),
            t=None if data["t"] is None else float(data["t"]),
            wall=None if data["wall"] is None else float(data["wall"]),
            prev_seq=None if data["prev_seq"] is None else int(data["prev_seq"]),
            prev_chain=None if data["prev_chain"] is None else str(data["prev_chain"]),
        )
        return int(data["n"]), seal
    except (ValueError, KeyError, TypeError):
        return None


class SealDamaged(Exception):
    """The seal file exists but neither of its slots verifies."""


def read_seal(path: Path) -> Seal | None:
    """The seal in the file at ``path`` (the newer of its two slots that verify); None
    when there is no such file; :class:`SealDamaged` when no slot verifies."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    slots = [_decode_slot(raw[i : i + SEAL_SLOT]) for i in (0, SEAL_SLOT)]
    valid = [s for s in slots if s is not None]
    if not valid:
        raise SealDamaged(f"{path}: neither slot of the seal verifies ({len(raw)} bytes)")
    return max(valid, key=lambda s: s[0])[1]


def _create_seal(path: Path, seal: Seal) -> None:
    """Write a new seal file whole (temp file, fsync, rename, directory fsync): a seal
    file is never seen half-created."""
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, _encode_slot(seal, 1) + _encode_slot(seal, 0))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class _SealWriter:
    """The open seal file of a log: each write goes to the slot the last one did not use."""

    def __init__(self, path: Path, seal: Seal, *, durable: bool, create: bool) -> None:
        self.path = path
        self.durable = durable
        if create:
            _create_seal(path, seal)
        self._fd = os.open(path, os.O_RDWR)
        if os.fstat(self._fd).st_mode & 0o077:
            os.fchmod(self._fd, 0o600)
        raw = os.pread(self._fd, 2 * SEAL_SLOT, 0)
        slots = [_decode_slot(raw[i : i + SEAL_SLOT]) for i in (0, SEAL_SLOT)]
        self._n = max((s[0] for s in slots if s is not None), default=0)
        self.failures = 0
        """Seal writes that failed (the log itself was committed; see :meth:`write`)."""
        self._synced: float | None = None
        self._unsynced = False

    def write(self, seal: Seal) -> None:
        """Write ``seal`` into the older slot (fdatasync when durable, at most every
        :data:`SEAL_SYNC_S`). A failure is logged, not raised: the commit it follows is in
        the log, and the next write tries again (until then the log is ahead of its seal,
        which a restart accepts)."""
        n = self._n + 1
        try:
            os.pwrite(self._fd, _encode_slot(seal, n), (n % 2) * SEAL_SLOT)
            self._unsynced = True
            now = time.monotonic()
            if self.durable and (self._synced is None or now - self._synced >= SEAL_SYNC_S):
                _datasync(self._fd)
                self._synced, self._unsynced = now, False
        except OSError as exc:
            self.failures += 1
            if self.failures == 1:
                log.error("event log seal %s could not be written: %s (retrying)", self.path, exc)
            return
        if self.failures:
            log.info("event log seal %s written again after %d failures", self.path, self.failures)
            self.failures = 0
        self._n = n

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.durable and self._unsynced:
                _datasync(self._fd)
            os.close(self._fd)


# --------------------------------------------------------------------- checking a log


@dataclass(frozen=True)
class LogReport:
    """What :func:`check_log` found: how much of the log verifies, what the seal says,
    and the damage (None: the log is sound)."""

    path: Path
    table: str
    schema: int | None
    """The log's schema (None: no log yet, or nothing in the file)."""
    inputs: int
    """Inputs that verify: 1..``inputs`` is the prefix ``accept-loss`` keeps."""
    last_chain: str
    last_t: float | None
    last_wall: float | None
    seal: Seal | None
    damage: str | None = None
    """What is wrong, in words (None: the log is sound)."""
    lost: tuple[int, int | None] | None = None
    """The sequence numbers lost (the last None: how many cannot be told)."""
    torn: bool = False
    """Exactly the last commit the seal names is missing: the last write was torn."""
    ahead: bool = False
    """The log is sound and goes on past its seal (the hub died between a commit and the
    seal's write): the seal is rewritten when the log is opened."""
    cause: str | None = None
    """What the files looked like, where it helps to tell why (the WAL's state)."""
    lost_note: str | None = None
    """What is lost, in words, when :attr:`lost` does not say it well."""
    losses: tuple[AcceptedLoss, ...] = ()
    """The losses accepted earlier, as recorded in the log."""

    @property
    def last_seq(self) -> int:
        """The last input that verifies (0: none)."""
        return self.inputs

    @property
    def last_time(self) -> float | None:
        """The wall time of the last input that verifies (its table time before schema 2)."""
        return self.last_wall if self.last_wall is not None else self.last_t

    def lost_text(self) -> str:
        """What is lost, for a person ("inputs 121..130 (10 inputs)")."""
        if self.lost_note is not None:
            return self.lost_note
        if self.lost is None:
            return "no input"
        first, last = self.lost
        if last is None:
            return f"any input after {self.inputs} (whether there was one cannot be told)"
        return _inputs(first, last)

    def message(self) -> str:
        """The operator's message: the file, what is wrong, what is lost, what to do."""
        if self.damage is None:
            return f"event log {self.path} (table {self.table}): OK, {self.inputs} inputs"
        kept = (
            f"inputs 1..{self.inputs} verify, the last of {local_time(self.last_time)}"
            if self.inputs
            else "no input verifies"
        )
        lines = [
            f"event log {self.path} (table {self.table}) is damaged: {self.damage}.",
            f"  lost: {self.lost_text()}; {kept}.",
            *([f"  found: {self.cause}."] if self.cause else []),
            "  The hub does not start on a damaged log: the table it rebuilt would not be "
            "the one the dealer saw.",
            f"  What to do: restore {self.path.name} and {seal_path(self.path).name} from a "
            "backup, or accept the loss with `feltwire event-log accept-loss --config "
            f"hub.toml --table {self.table}`, which keeps "
            + (f"inputs 1..{self.inputs}" if self.inputs else "no input")
            + " and moves the damaged files aside.",
        ]
        return "\n".join(lines)


def _seal_time(seal: Seal) -> float | None:
    return seal.wall if seal.wall is not None else seal.t


def _wal_state(path: Path) -> str:
    """What the WAL beside the log looks like, for a damage message."""
    wal = _sidecar(path, "-wal")
    try:
        with wal.open("rb") as f:
            head = f.read(32)
    except FileNotFoundError:
        return f"{wal.name} is missing"
    if not head:
        return f"{wal.name} is empty"
    if len(head) < 32:
        return f"the header of {wal.name} is damaged (it is {len(head)} bytes long)"
    magic = struct.unpack(">I", head[:4])[0]
    if magic not in (0x377F0682, 0x377F0683):
        return f"the header of {wal.name} is damaged"
    order = ">" if magic & 1 else "<"
    s0 = s1 = 0
    for x0, x1 in struct.iter_unpack(order + "II", head[:24]):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    if (s0, s1) != struct.unpack(">II", head[24:32]):
        return f"the header of {wal.name} is damaged (its checksum does not match)"
    return (
        f"{wal.name} has a sound header; SQLite stops reading a WAL at the first frame whose "
        "checksum fails (damaged bytes, a torn write) and drops every frame after it"
    )


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection: it never writes the database, never checkpoints or
    deletes the WAL (a damaged log stays as it was found, for forensics). The ``-wal``
    (empty) and ``-shm`` files SQLite creates for it are removed afterwards."""
    made = [p for p in (_sidecar(path, "-wal"), _sidecar(path, "-shm")) if not p.exists()]
    db = sqlite3.connect(
        path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=2.0
    )
    try:
        yield db
    finally:
        db.close()
        for p in made:
            with contextlib.suppress(OSError):
                if p.name.endswith("-shm") or p.stat().st_size == 0:
                    p.unlink()


def _locked(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_BUSY", "SQLITE_LOCKED")


def _read_losses(db: sqlite3.Connection) -> tuple[AcceptedLoss, ...]:
    rows = db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (_LOSS_KEY + "%",)).fetchall()
    out = []
    for _key, value in sorted(rows, key=lambda r: int(str(r[0])[len(_LOSS_KEY) :] or 0)):
        with contextlib.suppress(ValueError, KeyError, TypeError):
            data = json.loads(value)
            out.append(AcceptedLoss(float(data["at"]), str(data["description"])))
    return tuple(out)


def check_log(path: Path, table: str) -> LogReport:
    """Verify the log at ``path`` read-only: every row's chain and the last row against
    the seal. Damage is in the report's ``damage`` (never raised); EventLogError only
    for a log that cannot be looked at (locked by a running hub, another table's, a
    newer schema, a directory it may not read)."""
    sp = seal_path(path)
    seal: Seal | None = None
    seal_damage: str | None = None
    try:
        seal = read_seal(sp)
    except SealDamaged:
        seal_damage = f"its seal {sp.name} is damaged (neither of its slots verifies)"
    except OSError as exc:
        raise EventLogError(f"event log seal {sp}: {exc}") from exc
    base = LogReport(path, table, None, 0, GENESIS, None, None, seal)

    if not path.exists() or (path.stat().st_size == 0 and not _sidecar(path, "-wal").exists()):
        missing = "missing" if not path.exists() else "empty"
        if seal_damage is not None:
            return replace(
                base, damage=f"the log file is {missing} and {seal_damage}", lost=(1, None)
            )
        if seal is not None and seal.seq > 0:
            return replace(
                base,
                damage=(
                    f"the log file is {missing}, but its seal says inputs 1..{seal.seq} were "
                    f"committed, the last of {local_time(_seal_time(seal))}"
                ),
                lost=(1, seal.seq),
            )
        return base

    wal = _wal_state(path)  # before SQLite opens (and may create) it
    try:
        with _read_only(path) as db:
            report = _scan(db, base, wal)
    except sqlite3.Error as exc:
        if _locked(exc):
            raise EventLogError(
                f"event log {path} is locked: a running hub (or another feltwire command) "
                "uses it; stop it first"
            ) from exc
        if isinstance(exc, sqlite3.OperationalError) and "unable to open" in str(exc):
            raise EventLogError(f"event log {path}: {exc}") from exc
        report = replace(
            base, damage=f"the file cannot be read ({exc})", lost=(1, seal.seq if seal else None)
        )
    if report.damage is None and seal_damage is not None and report.schema != 1:
        report = replace(
            report,
            damage=(
                f"{seal_damage}, so whether inputs after {report.inputs} were lost cannot be told"
            ),
            lost=(report.inputs + 1, None),
        )
    return report


def _scan(db: sqlite3.Connection, base: LogReport, wal: str) -> LogReport:
    """The rows of ``base.table`` verified in order, then compared with the seal."""
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "events" not in tables:
        return _against_seal(base, wal)
    version = None
    losses: tuple[AcceptedLoss, ...] = ()
    if "meta" in tables:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        version = None if row is None else int(row[0])
        losses = _read_losses(db)
    schema = version if version is not None else 1
    if schema not in (1, SCHEMA_VERSION):
        raise EventLogError(
            f"event log {base.path}: schema {schema}; this hub reads {SCHEMA_VERSION} "
            "(a newer feltwire wrote it)"
        )
    other = db.execute(
        "SELECT table_id FROM events WHERE table_id != ? LIMIT 1", (base.table,)
    ).fetchone()
    if other is not None:
        raise EventLogError(
            f"{base.path} is the event log of table {other[0]!r}, not {base.table!r}: "
            "give each table its own state_dir"
        )
    report = replace(base, schema=schema, losses=losses)
    seal = base.seal
    columns = (
        "seq, t, kind, payload, wall, chain"
        if schema == SCHEMA_VERSION
        else "seq, t, kind, payload"
    )
    cursor = db.execute(
        f"SELECT {columns} FROM events WHERE table_id = ? ORDER BY seq", (base.table,)
    )
    chain, seq, t, wall = GENESIS, 0, None, None
    at_seal: str | None = GENESIS if seal is not None and seal.seq == 0 else None
    at_prev: str | None = None
    damage: str | None = None
    try:
        for row in cursor:
            row_seq, row_t, kind, payload = int(row[0]), float(row[1]), str(row[2]), str(row[3])
            row_wall = None if schema == 1 or row[4] is None else float(row[4])
            if row_seq != seq + 1:
                damage = f"{_inputs(seq + 1, row_seq - 1)} are missing from the middle of the log"
                break
            expected = _row_chain(chain, base.table, row_seq, row_t, kind, payload, row_wall)
            if schema == SCHEMA_VERSION and str(row[5]) != expected:
                damage = (
                    f"input {row_seq} was changed after it was written (its chain does not match)"
                )
                break
            chain, seq, t, wall = expected, row_seq, row_t, row_wall
            if seal is not None and seq == seal.seq:
                at_seal = chain
            if seal is not None and seq == seal.prev_seq:
                at_prev = chain
    except sqlite3.DatabaseError as exc:
        if _locked(exc):
            raise
        damage = f"the file cannot be read after input {seq} ({exc})"
    report = replace(report, inputs=seq, last_chain=chain, last_t=t, last_wall=wall)
    if damage is not None:
        try:
            (top,) = db.execute(
                "SELECT MAX(seq) FROM events WHERE table_id = ?", (base.table,)
            ).fetchone()
        except sqlite3.DatabaseError:
            top = None
        last = max(int(top or 0), seal.seq if seal is not None else 0)
        return replace(report, damage=damage, lost=(seq + 1, last if last > seq else None))
    return _against_seal(report, wal, at_seal, at_prev)


def _against_seal(
    report: LogReport, wal: str, at_seal: str | None = None, at_prev: str | None = None
) -> LogReport:
    """A log whose rows verify, compared with its seal (``wal``: what the WAL looked
    like, for the message)."""
    seal, seq = report.seal, report.inputs
    if seal is None:
        if seq > 0 and report.schema == SCHEMA_VERSION:
            return replace(
                report,
                damage=(
                    f"its seal {seal_path(report.path).name} is missing, so whether inputs "
                    f"after {seq} were lost cannot be told"
                ),
                lost=(seq + 1, None),
            )
        return report
    if seq < seal.seq:
        where = f"the log ends at input {seq}" if seq else "the log is empty"
        if seal.prev_seq is not None and seq == seal.prev_seq and at_prev == seal.prev_chain:
            return replace(
                report,
                damage=(
                    f"{where}, but its seal says {seal.seq} inputs were committed: the last "
                    f"write, {_inputs(seq + 1, seal.seq)}, was torn"
                ),
                lost=(seq + 1, seal.seq),
                torn=True,
                cause=wal,
            )
        return replace(
            report,
            damage=f"{where}, but its seal says {seal.seq} inputs were committed",
            cause=wal,
            lost=(seq + 1, seal.seq),
        )
    if at_seal != seal.chain:
        return replace(
            report,
            damage=(
                f"the log does not match its seal: input {seal.seq} is not the one sealed "
                "(the log was replaced or rewritten)"
            ),
            lost=(1, seal.seq),
            lost_note=(
                f"the sealed inputs 1..{seal.seq} (this log holds other inputs in their place)"
            ),
        )
    return replace(report, ahead=seq > seal.seq)


# ------------------------------------------------------------------------- the log


class EventLog:
    """An append-only log of one table's inputs in SQLite (see the module docstring).

    Opening a file verifies it (:func:`check_log`) and raises :class:`EventLogDamaged`
    for a damaged one; a schema-1 file is migrated, a seal that lags is rewritten.
    Thread-safe (one lock around the connection): the hub appends from its event loop
    and its disk thread, tests and the demo's dealer may call in from other threads.
    """

    def __init__(self, path: Path | str, table: str, *, sync: Sync = "full") -> None:
        self.path = None if str(path) == ":memory:" else Path(path)
        self.table = table
        self._lock = threading.Lock()
        self._seal: _SealWriter | None = None
        self._seq, self._chain = 0, GENESIS
        self._last_t: float | None = None
        self.accepted_losses: list[AcceptedLoss] = []
        """The losses the operator accepted on this log (``feltwire event-log
        accept-loss``), oldest first: the hub tells the dealer at start."""
        if self.path is None:
            self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            self._db.execute("BEGIN")
            _create_schema(self._db)
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
                if _locked(exc):
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
        durable = sync == "full"
        sealed = seal_path(path)
        db.execute("BEGIN EXCLUSIVE")
        try:
            if report.schema is None:
                _create_schema(db)
            elif report.schema == 1:
                self._migrate()
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
                self._seal = _SealWriter(sealed, here, durable=durable, create=True)
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
            self._seal = _SealWriter(sealed, report.seal, durable=durable, create=False)
            if report.ahead:
                old = report.seal
                self._seal.write(
                    Seal(seq, chain, report.last_t, report.last_wall, old.seq, old.chain)
                )
                log.info(
                    "event log %s: %s committed after the seal's last write (the hub stopped "
                    "in between); their chain verifies, the seal is rewritten",
                    path,
                    _inputs(old.seq + 1, seq),
                )

    def _migrate(self) -> None:
        """Schema 1 → 2, inside the open transaction: the rows with their chain (``wall``
        empty) in a new table that replaces the old one."""
        db = self._db
        rows = db.execute(
            "SELECT seq, t, kind, payload FROM events WHERE table_id = ? ORDER BY seq",
            (self.table,),
        ).fetchall()
        db.execute(_EVENTS.format(name="events_v2"))
        chain, out = GENESIS, []
        for seq, t, kind, payload in rows:
            chain = _row_chain(chain, self.table, int(seq), float(t), str(kind), str(payload), None)
            out.append((self.table, int(seq), float(t), str(kind), str(payload), None, chain))
        db.executemany(_INSERT.replace("INTO events ", "INTO events_v2 "), out)
        db.execute("DROP TABLE events")
        db.execute("ALTER TABLE events_v2 RENAME TO events")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for trigger in _TRIGGERS:
            db.execute(trigger)
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )

    @classmethod
    def memory(cls, table: str) -> EventLog:
        """A log that lives in memory only (tests, the demo): no file, no seal."""
        return cls(":memory:", table)

    @property
    def last_seq(self) -> int:
        """The sequence number of the last input appended (0: the log is empty)."""
        return self._seq

    @property
    def last_t(self) -> float | None:
        """The table time ``t`` of the last input appended (None: the log is empty)."""
        return self._last_t

    def append(
        self, kind: InputKind, payload: Mapping[str, Any], t: float, *, wall: float | None = None
    ) -> LogRecord:
        """Append one input (its own transaction, committed before this returns)."""
        return self.append_many([(kind, payload, t, wall)])[0]

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
                chain = _row_chain(chain, self.table, seq, t_, kind.value, text, wall_)
                rows.append((self.table, seq, t_, kind.value, text, wall_, chain))
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(_INSERT, rows)
                self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise EventLogWriteError(self._not_written(before_seq + 1, seq, exc)) from exc
                raise
            self._seq, self._chain, self._last_t = seq, chain, rows[-1][2]
            if self._seal is not None:
                self._seal.write(
                    Seal(seq, chain, rows[-1][2], rows[-1][5], before_seq, before_chain)
                )
        return [
            LogRecord(self.table, row[1], row[2], item[0], item[1], row[5])
            for row, item in zip(rows, prepared, strict=True)
        ]

    def _not_written(self, first: int, last: int, exc: sqlite3.Error) -> str:
        where = self.path if self.path is not None else "(in memory)"
        reason = str(exc)
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL":
            place = self.path.parent if self.path is not None else "memory"
            reason += f": the disk is full — free space on {place}"
        return (
            f"event log {where}: {_inputs(first, last)} not written ({reason}); "
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

    def close(self) -> None:
        """Close the file (appending afterwards is an error)."""
        with self._lock:
            self._db.close()
            if self._seal is not None:
                self._seal.close()


# ---------------------------------------------------------------- accepting a loss

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
    with _read_only(path) as db:
        if report.schema == SCHEMA_VERSION:
            rows = db.execute(
                "SELECT table_id, seq, t, kind, payload, wall, chain FROM events "
                "WHERE table_id = ? AND seq <= ? ORDER BY seq",
                (table, report.inputs),
            ).fetchall()
        else:
            chain, rows = GENESIS, []
            for seq, t, kind, payload in db.execute(
                "SELECT seq, t, kind, payload FROM events WHERE table_id = ? AND seq <= ? "
                "ORDER BY seq",
                (table, report.inputs),
            ):
                chain = _row_chain(chain, table, int(seq), float(t), kind, payload, None)
                rows.append((table, int(seq), float(t), kind, payload, None, chain))
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
        _create_schema(db)
        db.executemany(_INSERT, rows)
        db.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [
                (f"{_LOSS_KEY}{n}", json.dumps({"at": loss.at, "description": loss.description}))
                for n, loss in enumerate(losses, 1)
            ],
        )
        db.execute("COMMIT")
    finally:
        db.close()
    if rows:
        last = rows[-1]
        seal = Seal(int(last[1]), str(last[6]), float(last[2]), last[5])
    else:
        seal = Seal(0, GENESIS)
    _create_seal(seal_path(target), seal)


def _swap(path: Path, rebuilt: Path, aside: Path) -> None:
    """Move the damaged files aside and the rebuilt log in: the database first, its seal
    last (the seal of a rebuilt log in place is what marks the swap done)."""
    if rebuilt.exists():
        for suffix in ("-wal", "-shm", ""):
            damaged = _sidecar(path, suffix)
            if damaged.exists():
                os.replace(damaged, _sidecar(aside, suffix))
        os.replace(rebuilt, path)
        _fsync_dir(path.parent)
    if seal_path(path).exists():
        os.replace(seal_path(path), seal_path(aside))
    os.replace(seal_path(rebuilt), seal_path(path))
    _fsync_dir(path.parent)


def _last_loss(path: Path, table: str) -> AcceptedLoss | None:
    report = check_log(path, table)
    return report.losses[-1] if report.losses else None


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
        if isinstance(inp, ShowHand) and inp.cards:  # part of the hand (R-SHOW-3)
            out["cards"] = [card_code(c) for c in inp.cards]
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
        return ConsoleAction(
            TableSeat(int(payload["seat"])), Act(payload["act"]), now, int(payload["to"])
        )
    if kind == "ShowHand":
        part = tuple(card_index(str(c)) for c in payload.get("cards", ()))
        return ShowHand(TableSeat(int(payload["seat"])), now, part)
    if kind == "MuckHand":
        return MuckHand(TableSeat(int(payload["seat"])), now)
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
