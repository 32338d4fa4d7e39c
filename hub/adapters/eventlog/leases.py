"""Who owns a table: a lease per table in PostgreSQL, and the fencing of the event log by
it (issue 19). :class:`TableLeases` takes, renews and gives back the leases of one hub.

A lease is a row of ``table_leases`` — the table, the hub that holds it, its **epoch**
and its expiry — on the database server's clock (``now()``), so the hubs' own clocks
never decide who owns a table. Taking a table whose lease has expired (or that no hub
ever leased, or that this same hub held before a restart) raises its epoch by one; a
hub renews its leases well inside their time (:data:`LEASE_S`, renewed every third of
it) and loses a table the moment a renewal finds the lease expired or taken.

**Fencing, by the database itself**: every row a hub appends to ``event_inputs``
carries the epoch it holds (:class:`~hub.adapters.eventlog.pg.PgEventLog`'s ``epoch``),
and a trigger refuses the insert unless it is the epoch of the table's lease and the
lease has not expired — whatever the hub believes. A hub that was paused (a ``SIGSTOP``,
a VM frozen, a network away) and wakes after another hub took its table cannot write a
single input: its append fails with :class:`LeaseLost`. The trigger takes the lease row
``FOR SHARE``, so a takeover (an ``UPDATE`` of that row) waits for an append under way
to commit, and the new owner's replay, which starts after the takeover, reads it.
A table no hub ever leased (no row) takes any epoch: a single hub on PostgreSQL needs
no leases. A lost connection is replaced at the next statement, which runs once more on
the new one (each statement may run twice, see :meth:`TableLeases._run`).

Why rows and not PostgreSQL's advisory locks: an advisory lock belongs to a database
session, and a paused hub's session stays open — its TCP connection alive — until the
server gives up on it, minutes later, so no other hub could take the table within
seconds; and a lock carries no number that the log's rows could be checked against.
A row gives both: an expiry on the server's clock, and an epoch to fence by.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from hub.adapters.eventlog.errors import EventLogError, EventLogWriteError
from hub.adapters.eventlog.pg_schema import FENCED, LEASE_SCHEMA, connect, create_schema, safe_url
from hub.app.errors import TableNotOwned

if TYPE_CHECKING:  # psycopg (the `postgres` extra) is imported only by a hub that uses it
    import psycopg

log = logging.getLogger("hub.adapters.eventlog")

__all__ = [
    "FENCED",
    "LEASE_S",
    "LEASE_SCHEMA",
    "HubSeen",
    "Lease",
    "LeaseHolder",
    "LeaseLost",
    "RoomView",
    "TableLeases",
]

T = TypeVar("T")

LEASE_S = 6.0
"""How long a lease lasts unless renewed (seconds, the server's clock): a hub that stops
renewing loses its tables this long after its last renewal, and another hub takes them
at its next look (failover within 10 s)."""


class LeaseLost(EventLogWriteError, TableNotOwned):
    """An append refused by the fencing trigger: this hub's lease on the table expired
    or another hub took it. Nothing of the append was written; the hub must stop serving
    the table."""


@dataclass(frozen=True)
class Lease:
    """A lease this hub holds: its table, epoch, and the seconds it has left (as of the
    server's answer)."""

    table: str
    epoch: int
    left_s: float


@dataclass(frozen=True)
class LeaseHolder:
    """Who holds a table's lease, as the database says (``live``: not expired)."""

    table: str
    hub: str
    epoch: int
    live: bool
    left_s: float


@dataclass(frozen=True)
class HubSeen:
    """A hub of the room as the database knows it: its name, where browsers reach it,
    and whether it is alive — it announced itself (:meth:`TableLeases.heartbeat`) within
    its lease time."""

    hub: str
    web_url: str
    live: bool


@dataclass(frozen=True)
class RoomView:
    """Who holds which table and which hubs are alive, read in one transaction."""

    leases: list[LeaseHolder]
    hubs: list[HubSeen]

    def live_hubs(self) -> list[str]:
        """The names of the hubs alive now."""
        return [h.hub for h in self.hubs if h.live]

    def owner(self, table: str) -> HubSeen | None:
        """The live hub holding ``table``'s live lease (None: nobody serves it now)."""
        holder = next((h for h in self.leases if h.table == table and h.live), None)
        if holder is None:
            return None
        return next((h for h in self.hubs if h.hub == holder.hub), None)


_TAKE = """
INSERT INTO table_leases (table_id, hub, epoch, expires)
VALUES (%(table)s, %(hub)s, 1, now() + make_interval(secs => %(ttl)s))
ON CONFLICT (table_id) DO UPDATE
    SET hub = EXCLUDED.hub, epoch = table_leases.epoch + 1, expires = EXCLUDED.expires,
        taken = now()
    WHERE table_leases.expires <= now() OR table_leases.hub = EXCLUDED.hub
RETURNING epoch, extract(epoch FROM expires - now())
"""

_RENEW = """
UPDATE table_leases SET expires = now() + make_interval(secs => %(ttl)s)
WHERE table_id = %(table)s AND hub = %(hub)s AND epoch = %(epoch)s AND expires > now()
RETURNING extract(epoch FROM expires - now())
"""

_RENEW_ALL = """
UPDATE table_leases SET expires = now() + make_interval(secs => %(ttl)s)
WHERE hub = %(hub)s AND expires > now()
    AND (table_id, epoch) IN (SELECT * FROM unnest(%(tables)s::text[], %(epochs)s::bigint[]))
RETURNING table_id, epoch, extract(epoch FROM expires - now())
"""

_ANNOUNCE = """
INSERT INTO room_hubs (hub, web_url, expires) VALUES
    (%(hub)s, %(web)s, now() + make_interval(secs => %(ttl)s))
ON CONFLICT (hub) DO UPDATE SET web_url = EXCLUDED.web_url, expires = EXCLUDED.expires
"""

_GIVE_BACK = """
UPDATE table_leases SET expires = now()
WHERE table_id = %(table)s AND hub = %(hub)s AND epoch = %(epoch)s AND expires > now()
"""


class TableLeases:
    """One hub's leases (``hub``: its name, the same across its restarts) in the
    database at ``url``; its own connection, thread-safe. Creates the event log's
    tables when they are missing (:func:`~hub.adapters.eventlog.pg_schema.create_schema`)."""

    def __init__(self, url: str, hub: str, *, lease_s: float = LEASE_S) -> None:
        if not hub:
            raise ValueError("a hub that takes leases needs a name")
        if not 0 < lease_s <= 3600:
            raise ValueError(f"a lease lasts more than 0 and at most 3600 s, not {lease_s}")
        self.hub = hub
        self.lease_s = float(lease_s)
        self.where = safe_url(url)
        self._url = url
        self._closed = False
        self._lock = threading.Lock()
        self._db: psycopg.Connection[tuple[object, ...]] = connect(url, self.where)
        try:
            create_schema(self._db, self.where)
        except BaseException:
            self._db.close()
            raise

    def _run(self, sql: str, params: dict[str, object]) -> list[tuple[object, ...]]:
        return self._run_all((sql,), params)

    def take(self, table: str) -> Lease | None:
        """Take ``table`` when its lease is free — expired, never taken, or this hub's
        own (a restart: the epoch rises, fencing out the old process) — or None when
        another hub holds it."""
        rows = self._run(_TAKE, {"table": table, "hub": self.hub, "ttl": self.lease_s})
        if not rows:
            return None
        epoch, left = rows[0]
        lease = Lease(table, int(epoch), float(left))  # type: ignore[call-overload,arg-type]
        log.info("hub %s took table %s (lease epoch %d)", self.hub, table, lease.epoch)
        return lease

    def renew(self, lease: Lease) -> Lease | None:
        """``lease`` renewed for another :attr:`lease_s`, or None: it expired or another
        hub took the table (stop serving it)."""
        params = {"table": lease.table, "hub": self.hub, "epoch": lease.epoch, "ttl": self.lease_s}
        rows = self._run(_RENEW, params)
        if not rows:
            log.warning(
                "hub %s lost table %s (lease epoch %d expired or taken over)",
                self.hub,
                lease.table,
                lease.epoch,
            )
            return None
        return Lease(lease.table, lease.epoch, float(rows[0][0]))  # type: ignore[arg-type]

    def give_back(self, lease: Lease) -> None:
        """End ``lease`` now (a hub stopping cleanly): another hub may take the table at
        once instead of after the lease's time."""
        self._run(_GIVE_BACK, {"table": lease.table, "hub": self.hub, "epoch": lease.epoch})

    def heartbeat(self, held: Sequence[Lease], web_url: str) -> dict[str, Lease]:
        """Say this hub is alive (reached at ``web_url``) and renew every lease of
        ``held`` for another :attr:`lease_s`, in one transaction: the leases still held,
        by table — a table of ``held`` missing from the answer is lost (expired, or
        another hub took it: stop serving it)."""
        params: dict[str, object] = {
            "hub": self.hub,
            "ttl": self.lease_s,
            "web": web_url,
            "tables": [lease.table for lease in held],
            "epochs": [lease.epoch for lease in held],
        }
        rows = self._run_all((_ANNOUNCE, _RENEW_ALL), params)
        kept = {
            str(t): Lease(str(t), int(e), float(left))  # type: ignore[call-overload,arg-type]
            for t, e, left in rows
        }
        for lease in held:
            if lease.table not in kept:
                log.warning(
                    "hub %s lost table %s (lease epoch %d expired or taken over)",
                    self.hub,
                    lease.table,
                    lease.epoch,
                )
        return kept

    def leave(self, held: Sequence[Lease]) -> None:
        """A clean stop: give back every lease of ``held`` and say this hub is gone, so
        the other hubs take its tables at their next look, not a lease's time later."""
        params: dict[str, object] = {
            "hub": self.hub,
            "tables": [lease.table for lease in held],
            "epochs": [lease.epoch for lease in held],
        }
        self._run_all(
            (
                "UPDATE table_leases SET expires = now() WHERE hub = %(hub)s "
                "AND expires > now() AND (table_id, epoch) IN "
                "(SELECT * FROM unnest(%(tables)s::text[], %(epochs)s::bigint[]))",
                "UPDATE room_hubs SET expires = now() WHERE hub = %(hub)s",
            ),
            params,
        )

    def holders(self) -> list[LeaseHolder]:
        """Every table's lease, as the database holds them (by table)."""
        return self.room().leases

    def room(self) -> RoomView:
        """Every table's lease and every hub of the room, as the database holds them."""
        leases, hubs = self._read_all(
            (
                "SELECT table_id, hub, epoch, expires > now(), "
                "greatest(extract(epoch FROM expires - now()), 0) FROM table_leases "
                "ORDER BY table_id",
                "SELECT hub, web_url, expires > now() FROM room_hubs ORDER BY hub",
            )
        )
        return RoomView(
            leases=[
                LeaseHolder(str(t), str(h), int(e), bool(live), float(left))  # type: ignore[call-overload,arg-type]
                for t, h, e, live, left in leases
            ],
            hubs=[HubSeen(str(h), str(w), bool(live)) for h, w, live in hubs],
        )

    def _run_all(self, sqls: Sequence[str], params: dict[str, object]) -> list[tuple[object, ...]]:
        """Run ``sqls`` in one transaction; the last one's rows."""

        def run() -> list[tuple[object, ...]]:
            rows: list[tuple[object, ...]] = []
            for sql in sqls:
                cur = self._db.execute(sql, params)
                rows = cur.fetchall() if cur.description is not None else []
            return rows

        return self._transaction(run)

    def _read_all(self, sqls: Sequence[str]) -> list[list[tuple[object, ...]]]:
        """Each of ``sqls``' rows, read in one transaction."""
        return self._transaction(lambda: [self._db.execute(sql).fetchall() for sql in sqls])

    def _transaction(self, work: Callable[[], T]) -> T:
        """``work`` in one transaction on this hub's connection; a connection the server
        dropped (a restart of the server, a network away) is opened again and ``work``
        tried once more — every statement here may run twice: a heartbeat or a renewal
        renews again, a take raises the epoch once more (fencing out the first), a read
        reads again. :class:`EventLogError` when the server cannot be reached."""
        import psycopg

        with self._lock:
            for attempt in (1, 2):
                try:
                    if self._db.closed and not self._closed:
                        self._db = connect(self._url, self.where)
                        log.info("table leases %s: connected again", self.where)
                    with self._db.transaction():
                        return work()
                except psycopg.OperationalError as exc:
                    if attempt == 2 or not (self._db.closed or self._db.broken):
                        raise EventLogError(f"table leases {self.where}: {exc}") from exc
                    with contextlib.suppress(psycopg.Error):
                        self._db.close()
                    log.warning(
                        "table leases %s: the connection was lost; reconnecting", self.where
                    )
                except psycopg.Error as exc:
                    raise EventLogError(f"table leases {self.where}: {exc}") from exc
            raise AssertionError("unreachable")

    def close(self) -> None:
        """Close the connection (the leases stay until they expire or are given back)."""
        with self._lock:
            self._closed = True
            self._db.close()
