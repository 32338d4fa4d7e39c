"""The hands store: :class:`HandStore`, finished hands in SQLite or PostgreSQL.

One SQLAlchemy engine, the schema of :mod:`~hub.adapters.hands.schema` brought up to date
by the Alembic migrations when the store opens. :meth:`HandStore.write` stores one
:class:`~hub.app.hand_record.HandRecord` in one transaction — the hand, its seats,
actions, cards, pots, awards and alerts, all or none — and is idempotent on the hand's
key (table, ``origin``, number): a hand already stored with the same log position is
left as it is; one stored from another position (the log lost its tail, ``feltwire
event-log accept-loss``, and the table played the number again) is replaced, since the
log is the truth. So a hub killed at any moment, restarted, writes no hand twice and,
with :class:`hub.app.hand_book.HandBook`'s catch-up, misses none.

URLs: ``sqlite:///PATH`` (the default, ``hands.sqlite`` in the hub's state directory,
created 0600: it holds hole cards; WAL, foreign keys on) or ``postgresql://…`` (psycopg
3, the ``postgres`` extra; written as ``postgresql+psycopg://`` or plain
``postgresql://``). Several hubs may share one PostgreSQL database: a migration there
runs under an advisory lock, and the people (``players``) are inserted with
``ON CONFLICT DO NOTHING``. A URL of several hosts — a primary and its standbys,
``postgresql://db1:5432,db2:5432/feltwire?target_session_attrs=read-write`` — goes to
libpq whole, as the event log's does (SQLAlchemy's URL takes one host): each host is
tried in turn, and only the one that takes writes is kept.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    inspect,
    or_,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from hub.adapters.hands import schema
from hub.adapters.hands.migrations import HEAD, VERSION_TABLE, alembic_config
from hub.app.errors import HandStoreError
from hub.app.hand_record import HandRecord

log = logging.getLogger(__name__)

__all__ = ["HANDS_FILE", "HandStore", "sqlite_url"]

HANDS_FILE = "hands.sqlite"
"""The default store's file in the hub's state directory."""
PG_TIMEOUTS = "-c lock_timeout=15s -c statement_timeout=60s"
"""A PostgreSQL store's session limits: a write waits at most this long."""
MIGRATION_LOCK = 0x66656C74
"""PostgreSQL advisory lock key held while the schema is migrated (``felt``)."""
_CHILDREN = (
    schema.hand_seats,
    schema.actions,
    schema.cards,
    schema.pots,
    schema.awards,
    schema.alerts,
)


def sqlite_url(path: Path) -> str:
    """The URL of a SQLite store at ``path``."""
    return f"sqlite:///{path}"


def _driver_url(url: str) -> str:
    """``postgresql://`` (and ``postgres://``) as psycopg 3's URL; others as given."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


def _several_hosts(driver: str) -> str | None:
    """The libpq URL of a ``postgresql+psycopg://`` URL that names several hosts
    (``h1:5432,h2:5432``) — SQLAlchemy's URL parser takes one ``host:port``, libpq a list
    —; None for any other URL.

    >>> _several_hosts("postgresql+psycopg://hub@db1:5432,db2:5432/felt?target_session_attrs=read-write")
    'postgresql://hub@db1:5432,db2:5432/felt?target_session_attrs=read-write'
    >>> _several_hosts("postgresql+psycopg://hub:p,w@db1:5432/felt") is None
    True
    """
    prefix = "postgresql+psycopg://"
    if not driver.startswith(prefix):
        return None
    rest = driver[len(prefix) :]
    netloc = re.split(r"[/?]", rest, maxsplit=1)[0]
    if "," not in netloc.rpartition("@")[2]:
        return None
    return "postgresql://" + rest


def _without_password(url: str) -> str:
    """``url`` with no password (for messages): the user's ``:password`` dropped, and a
    ``password=`` parameter.

    >>> _without_password("postgresql://hub:secret@db1,db2/felt?password=x&sslmode=require")
    'postgresql://hub@db1,db2/felt?sslmode=require'
    """
    scheme, sep, rest = url.partition("://")
    auth, at, hosts = rest.rpartition("@")
    if at:
        rest = f"{auth.partition(':')[0]}@{hosts}"
    rest = re.sub(r"(?<=[?&])password=[^&]*(&|$)", "", rest).rstrip("?&")
    return f"{scheme}{sep}{rest}"


def _sqlite_pragmas(dbapi: Any, _record: Any) -> None:
    cursor = dbapi.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=FULL")
    finally:
        cursor.close()


class HandStore:
    """Finished hands in a database (see the module). Thread-safe: SQLAlchemy's engine
    hands each call a connection of its pool; the hub writes from one thread per table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name

    @classmethod
    def open(cls, url: str, *, migrate_apart: bool = False) -> HandStore:
        """Open (create) the store at ``url`` and migrate its schema to the newest — in a
        child process with ``migrate_apart`` (:mod:`hub.adapters.hands.migrate`: a hub's
        process never holds Alembic). :class:`~hub.app.errors.HandStoreError` when it
        cannot be reached or migrated."""
        driver = _driver_url(url)
        several = _several_hosts(driver)
        connect_args: dict[str, Any] = {}
        try:
            if several is not None:  # libpq parses it; SQLAlchemy's URL names only the driver
                from psycopg.conninfo import conninfo_to_dict

                driver, connect_args = "postgresql+psycopg://", conninfo_to_dict(several)
            parsed = make_url(driver)
        except ImportError as exc:  # psycopg without the postgres extra
            raise HandStoreError(f"hands store {_without_password(url)}: {exc}") from exc
        except Exception as exc:
            raise HandStoreError(
                f"hands store: {_without_password(url)!r} is no database URL ({exc})"
            ) from exc
        where = repr(parsed) if several is None else _without_password(several)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            path = Path(parsed.database or "")
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                if not path.exists():
                    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
                else:
                    path.chmod(0o600)  # a looser file is tightened: it holds hole cards
            except OSError as exc:  # a file where the directory should be, no permission
                raise HandStoreError(f"hands store {path}: {exc}") from exc
        if parsed.get_backend_name() == "postgresql":
            # a server that hangs or a lock held elsewhere fails a write (tried again
            # later) instead of holding the table's writer, or a stopping hub, forever;
            # a connect_timeout of the URL's own (each host's, with several) is kept
            limits: dict[str, Any] = {"options": PG_TIMEOUTS}
            if "connect_timeout" not in connect_args and "connect_timeout" not in parsed.query:
                limits["connect_timeout"] = 10
            connect_args |= limits
        try:
            engine = create_engine(driver, pool_pre_ping=True, connect_args=connect_args)
        except Exception as exc:  # a driver missing (psycopg without the postgres extra)
            raise HandStoreError(f"hands store {where}: {exc}") from exc
        store = cls(engine)
        try:
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)
                with engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            if migrate_apart and store.revision != HEAD:
                _migrate_in_child(url, where)
            store.migrate()
        except HandStoreError:
            engine.dispose()
            raise
        except SQLAlchemyError as exc:
            engine.dispose()
            raise HandStoreError(f"hands store {where}: {exc}") from exc
        return store

    def migrate(self) -> None:
        """Bring the schema up to :data:`~hub.adapters.hands.migrations.HEAD` (a new
        database gets every table; one of an older hub is migrated; one already there is
        left alone)."""
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":  # a migration may take long: no session limits
                conn.exec_driver_sql("SET LOCAL lock_timeout = 0")
                conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            current = _revision(conn)
            if current != HEAD:  # Alembic is imported only to migrate (a hub starts faster)
                from alembic import command

                try:
                    command.upgrade(alembic_config(conn), "head")
                except SQLAlchemyError:
                    raise
                except Exception as exc:  # Alembic's own: a revision this hub does not know
                    raise HandStoreError(
                        f"hands store {self.engine.url!r}: not migrated from {current}: "
                        f"{type(exc).__name__}: {exc}"
                    ) from exc
                log.info("hands store: schema migrated from %s to %s", current or "none", HEAD)

    @property
    def revision(self) -> str | None:
        """The schema revision the database is at."""
        with self.engine.connect() as conn:
            return _revision(conn)

    # ------------------------------------------------------------------ writing

    def write(self, hand: HandRecord) -> bool:
        """Store ``hand`` in one transaction; False when it was stored already (the same
        table, origin, number and log position). HandStoreError when it cannot be written
        (nothing of it is)."""
        try:
            return self._write(hand)
        except IntegrityError:
            # another writer stored the same hand (or person) meanwhile: try once more
            try:
                return self._write(hand)
            except SQLAlchemyError as exc:
                raise HandStoreError(self._not_written(hand, exc)) from exc
        except SQLAlchemyError as exc:
            raise HandStoreError(self._not_written(hand, exc)) from exc

    @staticmethod
    def _not_written(hand: HandRecord, exc: BaseException) -> str:
        return f"hands store: hand {hand.number} of table {hand.table} not written ({exc})"

    def _write(self, hand: HandRecord) -> bool:
        h = schema.hands
        with self.engine.begin() as conn:
            row = conn.execute(
                select(h.c.id, h.c.end_seq).where(
                    h.c.table_id == hand.table, h.c.origin == hand.origin, h.c.number == hand.number
                )
            ).first()
            if row is not None:
                if int(row.end_seq) == hand.end_seq:
                    return False
                log.warning(
                    "hands store: hand %d of table %s was stored from input %d, the log ends it "
                    "at input %d: replaced",
                    hand.number,
                    hand.table,
                    row.end_seq,
                    hand.end_seq,
                )
                for child in _CHILDREN:
                    conn.execute(delete(child).where(child.c.hand_id == row.id))
                conn.execute(delete(h).where(h.c.id == row.id))
            hand = _after_the_last(conn, hand)
            hand_id = conn.execute(
                h.insert().values(**_hand_row(hand)).returning(h.c.id)
            ).scalar_one()
            people = self._people(conn, hand)
            self._children(conn, int(hand_id), hand, people)
        return True

    def _people(self, conn: Connection, hand: HandRecord) -> dict[int, int]:
        """Each seat's person (``players.id``), inserted when new: by club id when one was
        given, else by name among the people without one. Three statements for the whole
        table (the new people, every seat's person, their first and last seen), not three
        a seat: a hand is written while the hub's event loop waits for the interpreter."""
        p = schema.players
        seen = hand.ended_at if hand.ended_at is not None else hand.ended_t
        seats = hand.seats
        if not seats:
            return {}
        insert = postgresql.insert(p) if self.dialect == "postgresql" else sqlite.insert(p)
        conn.execute(
            insert.on_conflict_do_nothing(),
            [
                {"name": s.name, "club_id": s.club_id, "first_seen": seen, "last_seen": seen}
                for s in seats
            ],
        )
        club_ids = sorted({s.club_id for s in seats if s.club_id})
        names = sorted({s.name for s in seats if not s.club_id})
        rows = conn.execute(
            select(p.c.id, p.c.name, p.c.club_id, p.c.first_seen, p.c.last_seen).where(
                or_(p.c.club_id.in_(club_ids), p.c.club_id.is_(None) & p.c.name.in_(names))
            )
        ).all()
        by_club = {r.club_id: r for r in rows if r.club_id is not None}
        by_name = {r.name: r for r in rows if r.club_id is None}
        out: dict[int, int] = {}
        changes: dict[int, dict[str, Any]] = {}
        for s in seats:
            row = by_club[s.club_id] if s.club_id else by_name[s.name]
            pid, first, last = int(row.id), row.first_seen, row.last_seen
            out[s.seat] = pid
            newest = last is None or seen >= last  # an import may write older hands later
            if (newest or first is None or seen < first) and pid not in changes:
                changes[pid] = {
                    "pid": pid,
                    "first": seen if first is None else min(first, seen),
                    "last": seen if last is None else max(last, seen),
                    # a club member's latest name
                    "new_name": s.name if newest else row.name,
                }
        if changes:
            conn.execute(
                p.update()
                .where(p.c.id == bindparam("pid"))
                .values(
                    first_seen=bindparam("first"),
                    last_seen=bindparam("last"),
                    name=bindparam("new_name"),
                ),
                list(changes.values()),
            )
        return out

    @staticmethod
    def _children(
        conn: Connection, hand_id: int, hand: HandRecord, people: Mapping[int, int]
    ) -> None:
        seats = [
            {
                "hand_id": hand_id,
                "seat": s.seat,
                "position": s.position,
                "player_id": people[s.seat],
                "name": s.name,
                "starting_stack": s.starting_stack,
                "finishing_stack": s.finishing_stack,
                "net": s.net,
                "rake": s.rake,
            }
            for s in hand.seats
        ]
        acts = [
            {
                "hand_id": hand_id,
                "n": n,
                "at": a.at,
                "street": a.street,
                "seat": a.seat,
                "kind": a.kind,
                "amount": a.amount,
                "to_amount": a.to_amount,
                "all_in": a.all_in,
                "cards": a.cards,
            }
            for n, a in enumerate(hand.actions)
        ]
        cards = [
            {
                "hand_id": hand_id,
                "n": n,
                "at": c.at,
                "street": c.street,
                "seat": c.seat,
                "kind": c.kind,
                "card": c.card,
                "up": c.up,
                "visibility": c.visibility,
            }
            for n, c in enumerate(hand.cards)
        ]
        pots = [
            {
                "hand_id": hand_id,
                "pot": p.pot,
                "amount": p.amount,
                "eligible": list(p.eligible),
                "uncontested": p.uncontested,
                "no_low": p.no_low,
            }
            for p in hand.pots
        ]
        numbered: dict[int, int] = {}
        awards = []
        for w in hand.awards:
            n = numbered[w.pot] = numbered.get(w.pot, -1) + 1
            awards.append(
                {
                    "hand_id": hand_id,
                    "pot": w.pot,
                    "n": n,
                    "seat": w.seat,
                    "amount": w.amount,
                    "half": w.half,
                    "odd_chip": w.odd_chip,
                }
            )
        alerts = [
            {
                "hand_id": hand_id,
                "n": n,
                "code": a.code,
                "severity": a.severity,
                "seat": a.seat,
                "rule": a.rule,
                "text": a.text,
                "remedy": a.remedy,
            }
            for n, a in enumerate(hand.alerts)
        ]
        for table, rows in (
            (schema.hand_seats, seats),
            (schema.actions, acts),
            (schema.cards, cards),
            (schema.pots, pots),
            (schema.awards, awards),
            (schema.alerts, alerts),
        ):
            if rows:
                conn.execute(table.insert(), rows)

    # ------------------------------------------------------------------ reading

    def count(self, table: str, origin: str) -> int:
        """How many hands of ``table`` from the event log ``origin`` are stored."""
        h = schema.hands
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count()).where(h.c.table_id == table, h.c.origin == origin)
            ).scalar_one()
        return int(n)

    def numbers(self, table: str, origin: str | None = None) -> list[int]:
        """The numbers of the stored hands of ``table`` (of one log, or of all), in order."""
        h = schema.hands
        query = select(h.c.number).where(h.c.table_id == table).order_by(h.c.number)
        if origin is not None:
            query = query.where(h.c.origin == origin)
        with self.engine.connect() as conn:
            return [int(n) for n in conn.execute(query).scalars()]

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        """A connection for reading (the exports, the history page, tests)."""
        with self.engine.connect() as conn:
            yield conn

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _after_the_last(conn: Connection, hand: HandRecord) -> HandRecord:
    """``hand`` starting no earlier than the table's previous hand ended (nor after its
    own end). Its start is counted back from its end by its length in table time; where
    table time runs faster than the wall clock (the demo's dealer clock) that put hand 7
    before hand 1. The previous hand's start was kept after its own predecessor's end,
    so a table's starts keep their order. Taken from the store, not from the writer's
    memory, the start is the same whether the hub wrote the hand live, after a restart,
    or import-log did."""
    if hand.started_at is None:
        return hand
    h = schema.hands
    before = conn.execute(  # the hand before it (the hand's key is an index: one row read)
        select(h.c.ended_at)
        .where(h.c.table_id == hand.table, h.c.origin == hand.origin, h.c.number < hand.number)
        .order_by(h.c.number.desc())
        .limit(1)
    ).scalar()
    if before is None or hand.started_at >= before:
        return hand
    end = hand.ended_at if hand.ended_at is not None else before
    return dataclasses.replace(hand, started_at=min(float(before), end))


def _migrate_in_child(url: str, where: str) -> None:
    """Migrate the store at ``url`` in a child process (:mod:`hub.adapters.hands.migrate`;
    the URL on its stdin); HandStoreError with the child's reason when it could not."""
    log.info("hands store %s: migrating the schema to %s in a child process", where, HEAD)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hub.adapters.hands.migrate"],
            input=url + "\n",
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise HandStoreError(f"hands store {where}: the migration did not start: {exc}") from exc
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        named = why.startswith("hands store")  # the child's HandStoreError names the store
        raise HandStoreError(why if named else f"hands store {where}: {why}")


def _revision(conn: Connection) -> str | None:
    """The schema revision Alembic recorded (None: a database without the store)."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if found is None else str(found)


def _hand_row(hand: HandRecord) -> dict[str, Any]:
    return {
        "table_id": hand.table,
        "origin": hand.origin,
        "number": hand.number,
        "start_seq": hand.start_seq,
        "end_seq": hand.end_seq,
        "voided": hand.voided,
        "game": hand.game,
        "game_name": hand.game_name,
        "structure": hand.structure,
        "button": hand.button,
        "small_blind_seat": hand.small_blind_seat,
        "big_blind_seat": hand.big_blind_seat,
        "small_blind": hand.small_blind,
        "big_blind": hand.big_blind,
        "ante": hand.ante,
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "bring_in": hand.bring_in,
        "chip_unit": hand.chip_unit,
        "stakes": hand.stakes,
        "rules": hand.rules,
        "seats": len(hand.seats),
        "pot_total": hand.pot_total,
        "rake": hand.rake,
        "board": hand.board,
        "started_t": hand.started_t,
        "ended_t": hand.ended_t,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
    }
