"""This hub's tables in a card room of several hubs (``[cluster]``): which tables it
takes, keeping their leases, and letting a table go the moment its lease is lost
(:class:`LeaseKeeper`).

Every hub of the room lists the room's tables and shares one PostgreSQL database. A
table is served by the one hub holding its lease (:mod:`hub.adapters.eventlog.leases`):

* **Taking.** Every second (:data:`LOOK_S`) the keeper reads the room — every lease,
  every hub alive — and takes free tables (no live lease) up to its share, the room's
  tables divided among the hubs alive (:func:`tables_to_take`). A table it held before a
  restart it takes back at once; a starting hub waits ``settle_seconds`` for the hubs
  starting with it before taking free tables, so they share them; a table left free
  longer than a lease's time is taken by any hub, share or not (nobody is left without
  a hub). The hubs prefer different tables (a hash of hub and table orders them), and
  the database decides a race: one take wins, the other finds the table held. Taking a
  table opens its log on PostgreSQL with the new epoch, restores its newest snapshot and
  replays the inputs after it (off the event loop), then serves it (:class:`~hub.
  bootstrap.room.Room`): its MQTT link connects the table's persistent session and takes
  what the broker held for it meanwhile.
* **Keeping.** A thread of its own renews every lease the hub holds and says the hub is
  alive, every third of a lease's time, in one transaction — not the event loop, so a
  busy loop (a long replay) does not lose the tables. Each renewal moves the tables'
  :class:`~hub.app.tenure.Tenure` on, by the time it was asked at on this hub's
  monotonic clock: a table whose renewals stop is silent before its lease can pass to
  another hub.
* **Losing.** A renewal that finds a lease expired or taken, or an append the database
  refused under a stale epoch (:class:`~hub.adapters.eventlog.leases.LeaseLost`), drops
  the table at once: silent, its pages' sockets closed, its link disconnected (what it
  held unacknowledged goes back to the broker for the table's new hub), its work
  stopped, its log closed — said in the log as a WARNING.
* **Stopping.** A clean stop gives every lease back, so the other hubs take the tables at
  their next look rather than a lease's time later.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from feltwire.protocol import ReaderKind, reader_kind
from hub.adapters.eventlog.backend import TableLog, open_event_log
from hub.adapters.eventlog.errors import EventLogError
from hub.adapters.eventlog.leases import Lease, RoomView, TableLeases
from hub.app.table_app import TableApp
from hub.app.tenure import Tenure
from hub.bootstrap.builder import TableBuilder
from hub.bootstrap.room import Room
from hub.config import HubConfig, ResolvedTable
from hub.web.tables import TablePlace

log = logging.getLogger(__name__)

__all__ = ["LOOK_S", "LeaseKeeper", "between_hands", "table_to_hand_over", "tables_to_take"]

LOOK_S = 1.0
"""How often a hub reads the room for tables to take (at most; a third of a lease if
that is shorter): a dead hub's tables are taken this soon after its leases lapse."""


def _rank(hub: str, table: str) -> bytes:
    """The order in which ``hub`` prefers free tables (each hub its own)."""
    return hashlib.sha256(f"{hub}\0{table}".encode()).digest()


def tables_to_take(
    *,
    me: str,
    tables: Sequence[str],
    view: RoomView,
    mine: set[str],
    free_since: Mapping[str, float],
    now: float,
    patience_s: float,
    settled: bool,
) -> list[str]:
    """The tables hub ``me`` should try to take now, of the room's ``tables``: those it
    held before a restart (a live lease of its name it does not hold now); then, once
    ``settled``, free ones (no live lease) up to its share — the room's tables divided
    among the hubs alive —, in its own order; and any table free for ``patience_s`` or
    longer (``free_since``: when each free table was first seen free), share or not.

    >>> from hub.adapters.eventlog.leases import HubSeen, LeaseHolder
    >>> view = RoomView(
    ...     leases=[LeaseHolder("t1", "a", 1, True, 5.0), LeaseHolder("t2", "b", 1, False, 0)],
    ...     hubs=[HubSeen("a", "http://a", True), HubSeen("b", "http://b", False)],
    ... )
    >>> taken = tables_to_take(me="b", tables=["t1", "t2", "t3", "t4"], view=view,
    ...                        mine=set(), free_since={}, now=0.0, patience_s=6.0, settled=True)
    >>> len(taken), "t1" in taken  # its share of the four (two hubs alive); t1 is a's
    (2, False)
    """
    holders = {h.table: h for h in view.leases}
    alive = set(view.live_hubs()) | {me}
    share = math.ceil(len(tables) / len(alive))
    back: list[str] = []
    overdue: list[str] = []
    free: list[str] = []
    for table in tables:
        if table in mine:
            continue
        holder = holders.get(table)
        if holder is not None and holder.live:
            if holder.hub == me:
                back.append(table)  # this hub's before a restart
            continue
        if now - free_since.get(table, now) >= patience_s:
            overdue.append(table)
        elif settled:
            free.append(table)
    room_left = max(0, share - len(mine) - len(back) - len(overdue))
    free.sort(key=lambda t: _rank(me, t))
    return back + overdue + free[:room_left]


def table_to_hand_over(
    *,
    me: str,
    tables: int,
    view: RoomView,
    mine: Sequence[str],
    between_hands: set[str],
) -> str | None:
    """The table hub ``me`` should give back now to even out the room (None: none) — one
    of ``mine`` that is ``between_hands``, when ``me`` holds more than its share of the
    room's ``tables`` and at least two more than a hub alive that is below its share.

    >>> from hub.adapters.eventlog.leases import HubSeen, LeaseHolder
    >>> view = RoomView(
    ...     leases=[LeaseHolder(f"t{i}", "a", 1, True, 5.0) for i in range(4)],
    ...     hubs=[HubSeen("a", "http://a", True), HubSeen("b", "http://b", True)],
    ... )
    >>> table_to_hand_over(me="a", tables=4, view=view, mine=["t0", "t1", "t2", "t3"],
    ...                    between_hands={"t2"})
    't2'
    >>> table_to_hand_over(me="a", tables=4, view=view, mine=["t0", "t1", "t2", "t3"],
    ...                    between_hands=set())
    """
    alive = set(view.live_hubs()) | {me}
    share = math.ceil(tables / len(alive))
    held = Counter(h.hub for h in view.leases if h.live)
    held[me] = len(mine)
    fewest = min((held[h] for h in alive if h != me), default=None)
    if fewest is None or len(mine) <= share or fewest >= share or len(mine) - fewest < 2:
        return None
    return next((t for t in mine if t in between_hands), None)


def between_hands(app: TableApp) -> bool:
    """Whether ``app``'s table is between two hands: no card on any antenna (the last
    hand's collected; the next, if started, has no card dealt) — a table moves to
    another hub then with nothing of a hand to carry."""
    snapshot = app.intake.presence.snapshot()
    return not any(
        cards
        for reader, cards in snapshot.items()
        if reader_kind(reader) is not ReaderKind.REGISTER
    )


class LeaseKeeper:
    """This hub's leases and the tables it serves by them (see the module); what the web
    asks of the room (:class:`~hub.web.tables.RoomDirectory`)."""

    def __init__(
        self,
        *,
        leases: TableLeases,
        config: HubConfig,
        tables: list[ResolvedTable],
        build: TableBuilder,
        room: Room,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        cluster = config.cluster
        assert cluster is not None and config.event_log_url is not None
        self.leases = leases
        self.config = config
        self.url = config.event_log_url
        self.web_url = cluster.web_url
        self.lease_s = cluster.lease_seconds
        self.every_s = self.lease_s / 3
        self.settle_s = cluster.settle_s
        self.tables = {t.table: t for t in tables}
        self.build = build
        self.room = room
        self.monotonic = monotonic
        self.view = RoomView(leases=[], hubs=[])
        """The room as last read (every lease, every hub)."""
        self.taken_s: dict[str, float] = {}
        """How long each table's take took, from the decision to its first service."""
        self._lock = threading.Lock()
        self._held: dict[str, Lease] = {}
        self._tenures: dict[str, Tenure] = {}
        self._free_since: dict[str, float] = {}
        self._started = monotonic()
        self._renewed_at: float | None = None
        self._problem: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dropping: set[str] = set()

    @classmethod
    def open(
        cls,
        config: HubConfig,
        tables: list[ResolvedTable],
        build: TableBuilder,
        room: Room,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> LeaseKeeper:
        """The keeper of ``config``'s hub, connected to the room's database (the tables
        created there if missing); EventLogError when it cannot be reached."""
        cluster = config.cluster
        assert cluster is not None and config.event_log_url is not None
        leases = TableLeases(config.event_log_url, cluster.hub, lease_s=cluster.lease_seconds)
        return cls(
            leases=leases,
            config=config,
            tables=tables,
            build=build,
            room=room,
            monotonic=monotonic,
        )

    # ------------------------------------------------------------------ the web's directory

    @property
    def hub(self) -> str:
        """This hub's name in the room."""
        return self.leases.hub

    def place(self, table: str) -> TablePlace | None:
        """Where ``table`` is served now, as this hub knows it (None: not the room's)."""
        config = self.tables.get(table)
        if config is None:
            return None
        if table in self.room.services:
            return TablePlace(table, config.game, self.hub, self.web_url, here=True)
        owner = self.view.owner(table)
        if owner is None:
            return TablePlace(table, config.game, None, None, here=False)
        return TablePlace(table, config.game, owner.hub, owner.web_url, owner.hub == self.hub)

    def places(self) -> list[TablePlace]:
        """Every table of the room, in the config's order."""
        return [p for t in self.tables if (p := self.place(t)) is not None]

    def hubs(self) -> list[str]:
        """The web addresses of the room's hubs alive as last read, this hub's first."""
        others = [h.web_url for h in self.view.hubs if h.live and h.hub != self.hub]
        return [self.web_url, *others]

    def health(self) -> Mapping[str, Any]:
        """``/readyz``'s part of the room: ``ok`` while this hub's heartbeats reach the
        database in time."""
        renewed = self._renewed_at
        late = renewed is None or self.monotonic() - renewed > self.lease_s
        problem = self._problem or ("no heartbeat reached the database yet" if late else None)
        return {"ok": problem is None and not late, "hub": self.hub, "problem": problem}

    # ------------------------------------------------------------------ running

    async def run(self, tick_s: Callable[[ResolvedTable], float | None]) -> None:
        """Keep the leases (a thread) and take tables (this task), until cancelled."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(
            target=self._heartbeats, name=f"leases-{self.hub}", daemon=True
        )
        self._thread.start()
        while True:
            try:
                await self._look(tick_s)
            except EventLogError as exc:
                self._problem = str(exc)
                log.warning("hub %s: the room's database: %s", self.hub, exc)
            await asyncio.sleep(min(LOOK_S, self.every_s))

    async def _look(self, tick_s: Callable[[ResolvedTable], float | None]) -> None:
        """Read the room and take what this hub should (see :func:`tables_to_take`)."""
        view = await asyncio.to_thread(self.leases.room)
        self.view = view
        now = self.monotonic()
        settled = now - self._started >= self.settle_s
        live = {h.table for h in view.leases if h.live}
        for table in self.tables:
            if table in live or table in self._held:
                self._free_since.pop(table, None)
            elif settled:  # a table's patience runs from the end of the settling
                self._free_since.setdefault(table, now)
        wanted = tables_to_take(
            me=self.hub,
            tables=list(self.tables),
            view=view,
            mine=set(self._held) | self._dropping,
            free_since=self._free_since,
            now=now,
            patience_s=self.lease_s,
            settled=settled,
        )
        if wanted:
            await asyncio.gather(*(self._take(t, tick_s) for t in wanted))
        elif settled:
            await self._even_out(view)

    async def _even_out(self, view: RoomView) -> None:
        """Give one table back when this hub holds two or more than a hub alive that is
        below its share (:func:`table_to_hand_over`), between two of its hands: the
        other hub takes it at its next look (a hub started after the others gets its
        share this way, one table a second)."""
        served = {t: a for t, a in self.room.services.items() if t in self._held}
        table = table_to_hand_over(
            me=self.hub,
            tables=len(self.tables),
            view=view,
            mine=sorted(served),
            between_hands={t for t, a in served.items() if between_hands(a)},
        )
        if table is None:
            return
        with self._lock:
            lease = self._held.get(table)
            tenure = self._tenures.get(table)
        if lease is None or tenure is None:
            return
        tenure.lose("handed over to even out the room's hubs")
        await self._drop(table, "handed over to even out the room's hubs")
        await asyncio.to_thread(self.leases.give_back, lease)

    async def _take(self, table: str, tick_s: Callable[[ResolvedTable], float | None]) -> None:
        """Take ``table``'s lease and serve it (nothing when another hub was quicker)."""
        began = self.monotonic()
        lease = await asyncio.to_thread(self.leases.take, table)
        if lease is None:
            return
        tenure = Tenure(table, epoch=lease.epoch, monotonic=self.monotonic)
        tenure.extend(began, self.lease_s)
        with self._lock:
            self._held[table] = lease
            self._tenures[table] = tenure
        config = self.tables[table]
        try:
            app, event_log = await asyncio.to_thread(self._open, config, lease, tenure)
        except Exception:
            log.exception(
                "hub %s: table %s could not be opened; its lease given back", self.hub, table
            )
            with self._lock:
                self._held.pop(table, None)
                self._tenures.pop(table, None)
            await asyncio.to_thread(self.leases.give_back, lease)
            return
        if tenure.lost:  # lost while it was replayed
            await asyncio.to_thread(_close, app, event_log)
            return
        self.room.serve(app, event_log, tick_s(config))
        self.taken_s[table] = self.monotonic() - began
        log.warning(
            "hub %s took table %s (lease epoch %d): %d inputs replayed, serving after %.2f s",
            self.hub,
            table,
            lease.epoch,
            app.replayed,
            self.taken_s[table],
        )

    def _open(
        self, config: ResolvedTable, lease: Lease, tenure: Tenure
    ) -> tuple[TableApp, TableLog]:
        """``config``'s table on its PostgreSQL log under ``lease``, replayed (in a thread:
        nothing on the event loop knows the table yet)."""
        event_log = open_event_log(
            config.table,
            url=self.url,
            path=None,
            sync=self.config.event_log_sync,
            epoch=lease.epoch,
        )
        try:
            self.build.now.resume(event_log.last_t)
            app = self.build.build(config, event_log)
            app.feeds.hold(tenure, lambda why: self._lost_soon(config.table, why))
            app.open()
            app.hand_book.replay()
        except BaseException:
            event_log.close()
            raise
        return app, event_log

    def _heartbeats(self) -> None:
        """The keeping thread: renew every lease held and say this hub is alive, every
        third of a lease's time, until stopped."""
        while not self._stop.is_set():
            with self._lock:
                held = list(self._held.values())
            asked = self.monotonic()
            try:
                kept = self.leases.heartbeat(held, self.web_url)
            except EventLogError as exc:
                self._problem = str(exc)
                log.warning("hub %s: leases not renewed: %s", self.hub, exc)
            else:
                self._problem = None
                self._renewed_at = asked
                for lease in held:
                    renewed = kept.get(lease.table)
                    with self._lock:
                        tenure = self._tenures.get(lease.table)
                        if renewed is not None and lease.table in self._held:
                            self._held[lease.table] = renewed
                    if tenure is None:
                        continue
                    if renewed is not None:
                        tenure.extend(asked, self.lease_s)
                    else:
                        self._lost_soon(lease.table, "its lease expired or another hub took it")
            self._stop.wait(self.every_s)

    def _lost_soon(self, table: str, why: str) -> None:
        """``table`` is lost (any thread): silent at once, dropped on the event loop."""
        with self._lock:
            tenure = self._tenures.get(table)
        if tenure is not None:
            tenure.lose(why)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._drop_later, table, why)

    def _drop_later(self, table: str, why: str) -> None:
        if table in self._dropping:
            return
        self._dropping.add(table)
        asyncio.get_running_loop().create_task(self._drop(table, why), name=f"drop-{table}")

    async def _drop(self, table: str, why: str) -> None:
        """Stop serving ``table`` (lost: ``why``) and close its log."""
        try:
            app = self.room.services.get(table)
            if app is not None:
                app.feeds.lose(why)
            event_log = await self.room.drop(table, why)
            if event_log is not None:
                await asyncio.to_thread(event_log.close)
        finally:
            with self._lock:
                self._held.pop(table, None)
                self._tenures.pop(table, None)
            self._dropping.discard(table)
        log.warning("hub %s lost table %s: %s", self.hub, table, why)

    async def stop(self) -> None:
        """Stop renewing (the tables are stopped next, then :meth:`leave`)."""
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 10)

    def leave(self) -> None:
        """Give every lease back and say this hub is gone (a clean stop), then close."""
        with self._lock:
            held = list(self._held.values())
        try:
            self.leases.leave(held)
        except EventLogError as exc:
            log.warning("hub %s: leases not given back (they expire): %s", self.hub, exc)
        self.leases.close()


def _close(app: TableApp, event_log: TableLog) -> None:
    app.close()
    event_log.close()
