"""Checking a log read-only: :func:`check_log` verifies every row's chain and the last
row against the seal, and says in a :class:`LogReport` what is lost and what to do."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from hub.adapters.eventlog.errors import EventLogError, SealDamaged
from hub.adapters.eventlog.files import (
    is_locked,
    locked_error,
    read_only,
    seal_path,
    sidecar,
    wal_state,
)
from hub.adapters.eventlog.schema import SCHEMA_VERSION, read_losses
from hub.adapters.eventlog.seal import Seal, read_seal
from hub.app.records import AcceptedLoss, local_time
from hub.security.chain import GENESIS, row_chain


def inputs_text(first: int, last: int) -> str:
    """``input 7`` or ``inputs 7..9 (3 inputs)``."""
    if first == last:
        return f"input {first}"
    return f"inputs {first}..{last} ({last - first + 1} inputs)"


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
        return inputs_text(first, last)

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

    if not path.exists() or (path.stat().st_size == 0 and not sidecar(path, "-wal").exists()):
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

    wal = wal_state(path)  # before SQLite opens (and may create) it
    try:
        with read_only(path) as db:
            report = _scan(db, base, wal)
    except sqlite3.Error as exc:
        if is_locked(exc):
            raise locked_error(path) from exc
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
        losses = read_losses(db)
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
                damage = (
                    f"{inputs_text(seq + 1, row_seq - 1)} are missing from the middle of the log"
                )
                break
            expected = row_chain(chain, base.table, row_seq, row_t, kind, payload, row_wall)
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
        if is_locked(exc):
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
                    f"write, {inputs_text(seq + 1, seal.seq)}, was torn"
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


class DamageReport(Protocol):
    """What a check of a log found, as :class:`EventLogDamaged` carries it: a SQLite
    log's :class:`LogReport`, a PostgreSQL log's :class:`~hub.adapters.eventlog.pg.
    PgReport`."""

    @property
    def table(self) -> str:
        """The table whose log was checked."""

    @property
    def inputs(self) -> int:
        """Inputs that verify (1..``inputs``)."""

    @property
    def damage(self) -> str | None:
        """What is wrong, in words (None: sound)."""

    @property
    def torn(self) -> bool:
        """Exactly the last write is missing (only a sealed SQLite log can tell)."""

    def message(self) -> str:
        """The operator's message."""


class EventLogDamaged(EventLogError):
    """The log is not what was committed to it: a row changed, rows missing at the end
    or in the middle, the seal missing or not matching, the file unreadable.

    The message names the log, what is lost and what to do; :attr:`report` holds the
    details (:func:`check_log`'s answer, or the PostgreSQL log's check).
    """

    def __init__(self, report: DamageReport) -> None:
        super().__init__(report.message())
        self.report = report
