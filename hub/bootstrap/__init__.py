"""The hub's composition root: one validated config in, a running hub out.

:func:`start_hub` builds, for every table of the config, the deck, the event log and
the table's application (:class:`~hub.app.table_app.TableApp`, with its rules); then the
embedded broker (when no broker URL is configured; only then is amqtt, the ``broker``
extra, imported), the web server (every table behind ``?table=``) and, for each table
(:class:`~hub.bootstrap.room.Room`), its MQTT link — a hub alone links all of its tables
over one connection (:class:`hub.adapters.mqtt.HubLink`), a hub of a card room each table
on its own persistent session (:func:`hub.adapters.mqtt.run_table_link`) — and its timed
tasks; it returns a
:class:`HubRuntime` to stop them again. ``feltwire hub``, the demo and the integration
tests all start the hub this way. A hub of a card room (``[cluster]``) opens no table
at start: its :class:`~hub.bootstrap.keeper.LeaseKeeper` takes its share of the room's
tables as it runs, and serves each in the same way.

Event logs: with ``event_log_url`` every table's log is in that PostgreSQL database
(:mod:`hub.adapters.eventlog.pg`; :func:`~hub.adapters.eventlog.backend.open_event_log`
picks the backend); otherwise a one-table hub keeps its log at
``state_dir/events.sqlite`` (as it always did); a hub with ``[[tables]]`` keeps each
table's at ``state_dir/<table>/events.sqlite`` — except a table whose log already lies
at ``state_dir/events.sqlite`` (the hub served only that table before), which keeps it
there (:func:`event_log_path`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

from feltwire.config import MqttUrl, broker_name
from feltwire.deck import Deck, load_deck, simulated_deck
from feltwire.protocol import hub_client_id
from hub.adapters.equity_workers import EquityWorkers, default_workers
from hub.adapters.eventlog.backend import TableLog, open_event_log
from hub.adapters.eventlog.files import EVENT_LOG_FILE
from hub.adapters.hands.history import StoreHistory
from hub.adapters.hands.retention import EVERY_SECONDS as RETENTION_EVERY_S
from hub.adapters.hands.retention import apply_retention
from hub.adapters.hands.store import HANDS_FILE, HandStore, sqlite_url
from hub.adapters.malloc import pin_mmap_threshold
from hub.adapters.mqtt import HubLink, run_table_link
from hub.app import tasks as table_tasks
from hub.app.errors import EventLogError, HandStoreError
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.app.table_time import TableTime
from hub.bootstrap.builder import TableBuilder, table_app
from hub.bootstrap.keeper import LeaseKeeper
from hub.bootstrap.room import Room, stop_tasks
from hub.config import HandsSettings, HubConfig, ResolvedTable
from hub.web.app import create_app
from hub.web.auth import Role, WebAuth
from hub.web.metrics import HubMetrics
from hub.web.producer import TableBrand
from hub.web.server import server_config

if TYPE_CHECKING:  # amqtt (the `broker` extra) is imported only when the hub runs it
    from hub.adapters.broker import EmbeddedBroker

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    """uvicorn without its own signal handlers: the process's entry point owns signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _logged_table(path: Path) -> str | None:
    """The table whose inputs the event log at ``path`` holds (None: no input yet)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT table_id FROM events LIMIT 1").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise EventLogError(f"event log {path}: {exc}") from exc
    return None if row is None else str(row[0])


def event_log_path(state_dir: Path, table: str, *, several: bool) -> Path:
    """Where ``table``'s event log lies in ``state_dir``.

    A one-table hub (``several`` false) uses ``state_dir/events.sqlite`` unless only
    ``state_dir/<table>/events.sqlite`` exists; a hub of several tables uses
    ``state_dir/<table>/events.sqlite`` unless ``state_dir/events.sqlite`` holds this
    table's inputs (the log of the one-table hub it was before).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> event_log_path(d, "t1", several=False).relative_to(d).as_posix()
    'events.sqlite'
    >>> event_log_path(d, "t1", several=True).relative_to(d).as_posix()
    't1/events.sqlite'
    """
    shared = state_dir / EVENT_LOG_FILE
    own = state_dir / table / EVENT_LOG_FILE
    if not several:
        return own if own.exists() and not shared.exists() else shared
    if not own.exists() and shared.exists() and _logged_table(shared) == table:
        return shared
    return own


@dataclass
class HubRuntime:
    """A running hub: the tables it serves, where it listens, and how to stop it.

    ``services`` holds every table served now by table id, in the config's order (in a
    card room of several hubs, those this hub holds: :attr:`keeper`); ``service``,
    ``rules`` and ``log`` are the first one's (what a one-table hub has).
    """

    config: HubConfig
    room: Room
    broker: MqttUrl
    web_url: str
    producer_token: str
    auth: WebAuth
    embedded: EmbeddedBroker | None
    _server: _Server
    _own_tasks: list[asyncio.Task[None]] = field(default_factory=list)
    metrics: HubMetrics = field(default_factory=HubMetrics)
    """This hub's figures (``/metrics``): a registry of its own."""
    equity_workers: EquityWorkers | None = None
    """The processes that compute live equity (None: threads of this process)."""
    hands: HandStore | None = None
    """The hands store every table's finished hands go to (None: none kept)."""
    keeper: LeaseKeeper | None = None
    """This hub's leases in a card room of several hubs (None: it serves its tables
    alone)."""

    @property
    def services(self) -> dict[str, TableApp]:
        """Every table served now, by table id."""
        return self.room.services

    @property
    def logs(self) -> dict[str, TableLog]:
        """Their event logs, by table id (when the hub keeps them)."""
        return self.room.logs

    @property
    def service(self) -> TableApp:
        """The first table served (a one-table hub's table)."""
        return next(iter(self.services.values()))

    @property
    def log(self) -> TableLog | None:
        """The first table's event log (when the config has a ``state_dir`` or an
        ``event_log_url``)."""
        return self.logs.get(self.service.table)

    @property
    def _tasks(self) -> list[asyncio.Task[None]]:
        """Every task of the hub: its own and its tables'."""
        return self._own_tasks + self.room.tasks()

    @property
    def rules(self) -> TableConsole | None:
        """The first table's rules (when the config has a ``[rules]`` section)."""
        return self.service.rules

    @property
    def overlay_url(self) -> str:
        """The producer's overlay page, token included."""
        return f"{self.web_url}/overlay?token={self.producer_token}"

    def token(self, role: Role, name: str | None = None, *, seconds: float = 12 * 3600) -> str:
        """An access token for ``role`` on this hub (see :mod:`hub.web.auth`)."""
        return self.auth.issue(role, name or role.value, seconds=seconds)

    async def stop(self) -> None:
        """Stop the web server, the tables, the leases and the embedded broker."""
        self._server.should_exit = True
        await stop_tasks(self._own_tasks)
        # the web task is cancelled before uvicorn's own shutdown closes its listening
        # sockets (there since the start: a runtime exists once its server started):
        # closed here, or the port stays bound — taking connections nobody serves —
        # until the collector frees them
        for listener in self._server.servers:
            listener.close()
        if self.keeper is not None:
            await self.keeper.stop()  # no lease renewed from now on
        await self.room.stop()  # every table's writes under way finished
        if self.keeper is not None:
            await asyncio.to_thread(self.keeper.leave)  # the others take them at once
        if self.embedded is not None:
            await self.embedded.stop()
        if self.equity_workers is not None:
            await asyncio.to_thread(self.equity_workers.close)
        for event_log in self.logs.values():
            event_log.close()
        if self.hands is not None:
            self.hands.close()
        self.auth.close()


GC_THRESHOLDS = (10_000, 10, 10)
"""The cyclic collector's thresholds in a hub's process (Python's default: 700, 10, 10):
a young collection every 10,000 objects made, so a full one is considered 14 times less
often. What 200 tables build as they run (each table's tasks, coroutines, feeds and
hand: some 240,000 objects the collector tracks besides those frozen at start) made a
full collection every few seconds, 30–80 ms each with the event loop stopped; read →
overlay p99 at 200 tables 538 / 716 ms → 351 / 349 ms with these (issue 16,
docs/benchmarks.md; 50,000, 50, 100 gave no more, 321 / 460, and held cycles longer).
Garbage without cycles is freed at once as always; only cycles wait longer."""


async def start_hub(
    config: HubConfig,
    *,
    deck: Deck | None = None,
    clock: Callable[[], float] = time.time,
    monotonic: Callable[[], float] = time.monotonic,
    access_log: bool = False,
    freeze_gc: bool = False,
) -> HubRuntime:
    """Start every part of the hub described by ``config`` (every table it lists).

    With a ``state_dir`` each table's event log there is replayed first (the table, the
    hand, the lights and the feeds' snapshots are as they were), then the hub goes live.
    ``deck``, when given, is every table's deck (the demo and tests). With ``[cluster]``
    the hub serves only the tables it holds a lease on (:mod:`hub.bootstrap.keeper`): it
    starts serving none, and takes its share of the room's tables as it runs.

    ``clock`` is the wall clock (display, records), ``monotonic`` the clock that measures
    time passing: the hub's time (:class:`~hub.app.table_time.TableTime`), on which every
    delay, expiry and timeout runs, is anchored on the wall clock once and then moves with
    ``monotonic`` only, never behind the last input of any table's log. ``access_log``
    logs every web request (``feltwire hub --access-log``). ``freeze_gc`` (a process
    that is the hub: ``feltwire hub``, the demo) collects what starting left behind and
    moves the rest out of the cyclic collector's sight (:func:`gc.freeze`): a full
    collection then no longer walks every object of the start — at 50 tables that walk
    held the event loop 70–110 ms, the largest pause a read's frame met (issue 16) —,
    collects less often from then on (:data:`GC_THRESHOLDS`), and holds the C
    allocator's mmap threshold (:mod:`hub.adapters.malloc`), so live equity's large
    temporaries go back to the system when freed.
    """
    if freeze_gc:
        pin_mmap_threshold()
    tables = config.table_configs()
    brands = {t.table: TableBrand.load(t.branding) for t in tables}  # before anything runs
    log_paths = (
        {
            t.table: event_log_path(config.state_dir, t.table, several=bool(config.tables))
            for t in tables
        }
        if config.state_dir is not None and config.event_log_url is None
        else {}
    )
    hands = hands_store(config)
    now = TableTime(wall=clock, monotonic=monotonic)
    figures = HubMetrics()
    build = TableBuilder(
        config,
        deck=deck,
        now=now,
        monotonic=monotonic,
        figures=figures,
        hands=hands,
        log_paths=log_paths,
    )
    embedded: EmbeddedBroker | None = None
    # the url's brokers (several: a cluster's, in turn), with password_file's password
    brokers: list[MqttUrl] = config.mqtt.addresses if config.mqtt.url is not None else []
    if not brokers:
        from hub.adapters.broker import EmbeddedBroker

        embedded = EmbeddedBroker.from_settings(config.mqtt, tables=[t.table for t in tables])

    hub_link: HubLink | None = None

    def link(app: TableApp) -> Coroutine[Any, Any, None]:
        nonlocal hub_link
        assert brokers  # the embedded one is up before any table is linked
        if config.cluster is None:  # a hub alone: one connection for all of its tables
            if hub_link is None:
                hub_link = HubLink(
                    brokers,
                    session=hub_client_id(tables[0].table, alone=True),
                    keepalive=config.mqtt.keepalive,
                    tls=config.mqtt.tls_files,
                    max_batch=config.event_log_batch,
                )
            return hub_link.run_table(app)
        return run_table_link(  # a room of several hubs: the table's own session
            app,
            brokers,
            keepalive=config.mqtt.keepalive,
            tls=config.mqtt.tls_files,
            max_batch=config.event_log_batch,
        )

    room = Room(link)
    keeper: LeaseKeeper | None = None
    try:
        if config.cluster is None:
            _open_tables(config, tables, build, room, clock)
        else:
            keeper = LeaseKeeper.open(config, tables, build, room, monotonic=monotonic)
    except BaseException:
        for opened in room.logs.values():
            opened.close()
        if hands is not None:
            hands.close()
        raise
    if embedded is not None:
        await embedded.start()
        brokers = [embedded.hub_address]

    token = (
        config.web.producer_token.get_secret_value()
        if config.web.producer_token
        else secrets.token_urlsafe(16)
    )
    auth = WebAuth.from_settings(
        config.web,
        producer_token=token,
        state_dir=config.state_dir,
        clock=clock,
        monotonic=monotonic,
    )
    metrics_token = config.web.metrics_token
    app = create_app(
        room.services,
        auth=auth,
        max_body_bytes=config.web.max_body_bytes,
        figures=figures,
        metrics_token=metrics_token.get_secret_value() if metrics_token is not None else None,
        monotonic=monotonic,
        history=StoreHistory(hands) if hands is not None else None,
        history_unopened=hands is None and hands_url(config) is not None,
        brands=brands,
        state_dir=config.state_dir,
        room=keeper,
    )
    room.web = app
    server = _Server(server_config(app, config.web, access_log=access_log))
    build.workers = workers = _equity_workers(config, room.services, len(tables))
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(server.serve(), name="web")]
    # the web server first: a port it cannot bind stops the start before any table's
    # link or work runs (nothing to wind down but the web task)
    while not server.started:
        if tasks[0].done():
            tasks[0].result()
            raise RuntimeError(f"web server could not start on {config.web.host}:{config.web.port}")
        await asyncio.sleep(0.01)
    if workers is not None:  # forkserver and a first worker: tables built, off the loop
        tasks.append(asyncio.create_task(asyncio.to_thread(workers.start), name="equity-start"))
    for table in tables:
        if table.table in room.services:
            room.start(room.services[table.table], _tick_s(table))
    tasks.append(asyncio.create_task(table_tasks.run_health(room.every), name="health"))
    if hands is not None:
        tasks.append(
            asyncio.create_task(run_retention(hands, config.hands, clock), name="retention")
        )
    port = server.servers[0].sockets[0].getsockname()[1]
    host = config.web.host if config.web.host not in ("0.0.0.0", "::") else "127.0.0.1"
    if keeper is not None:
        tasks.append(asyncio.create_task(keeper.run(_tick_s), name="leases"))
    runtime = HubRuntime(
        config=config,
        room=room,
        broker=brokers[0],
        web_url=f"http://{host}:{port}",
        producer_token=token,
        auth=auth,
        embedded=embedded,
        _server=server,
        _own_tasks=tasks,
        metrics=figures,
        equity_workers=workers,
        hands=hands,
        keeper=keeper,
    )
    for name, served in room.services.items():
        table_log = room.logs.get(name)
        log.info(
            "hub for table %s: page %s/?table=%s, broker %s, event log %s (%d inputs replayed)",
            name,
            runtime.web_url,
            name,
            ", ".join(broker_name(b) for b in brokers),
            table_log.where if table_log is not None else "none",
            served.replayed,
        )
    if freeze_gc:
        settle_collector()
    return runtime


def settle_collector() -> None:
    """What the process built so far collected and frozen out of the cyclic collector's
    sight (:func:`gc.freeze`), and the collector run at :data:`GC_THRESHOLDS` from now
    on (a hub once started; the benches' own process once its tables are set up)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _tick_s(table: ResolvedTable) -> float | None:
    """How often ``table``'s rules tick (None: it runs no rules)."""
    return table.rules.tick_seconds if table.rules is not None else None


def _open_tables(
    config: HubConfig,
    tables: list[ResolvedTable],
    build: TableBuilder,
    room: Room,
    clock: Callable[[], float],
) -> None:
    """Open every table of a hub that serves them alone: each log opened (all of them
    first: the hub's time never behind any), each table built and replayed, into
    ``room``."""
    logs: dict[str, TableLog] = {}
    try:
        for table in tables:
            if config.event_log_url is not None or table.table in build.log_paths:
                opened = open_event_log(
                    table.table,
                    url=config.event_log_url,
                    path=build.log_paths.get(table.table),
                    sync=config.event_log_sync,
                    torn=config.event_log_torn,
                    clock=clock,
                )
                logs[table.table] = opened
                build.now.resume(opened.last_t)
        for table in tables:
            service = build.build(table, logs.get(table.table))
            room.add(service, logs.get(table.table))
            service.open()
            service.hand_book.replay()  # the store's missing hands too (hub.app.hand_book)
    except BaseException:
        for opened in logs.values():
            if opened not in room.logs.values():
                opened.close()
        raise


def hands_url(config: HubConfig) -> str | None:
    """The hands store's URL: ``[hands] url``; else, for a hub of a card room
    (``[cluster]``), the room's database (``event_log_url``: every hub writes the hands
    of the tables it serves to one store, and a hub that takes a table finds the hands
    already written); else SQLite in the state directory (None: no store — ``[hands]
    enabled = false``, or no event log: neither a state directory nor an
    ``event_log_url``; or only the latter and no ``[hands] url``)."""
    if not config.hands.enabled or (config.state_dir is None and config.event_log_url is None):
        return None
    if config.hands.url is not None:
        return config.hands.url
    if config.cluster is not None:
        return config.event_log_url
    return None if config.state_dir is None else sqlite_url(config.state_dir / HANDS_FILE)


async def run_retention(
    store: HandStore, settings: HandsSettings, clock: Callable[[], float]
) -> None:
    """Apply the store's retention settings now and every hour, forever (a task of the
    running hub; :mod:`hub.adapters.hands.retention`). A failure is logged; the next
    hour tries again."""
    while True:
        try:
            done = await asyncio.to_thread(apply_retention, store, settings, clock())
        except Exception:
            log.exception("hands store: the retention settings could not be applied")
        else:
            if done.erased_cards or done.deleted_hands:
                log.info(
                    "hands store: %d hidden cards erased, %d hands deleted (retention)",
                    done.erased_cards,
                    done.deleted_hands,
                )
        await asyncio.sleep(RETENTION_EVERY_S)


def hands_store(config: HubConfig) -> HandStore | None:
    """The hands store of ``config`` (:func:`hands_url`), opened and migrated (in a child
    process, :mod:`hub.adapters.hands.migrate`: Alembic never loads in the hub); None when
    there is none, or when it cannot be opened — the hub then runs without it (logged):
    the event log keeps every hand, and a later start writes them (hub.app.hand_book)."""
    url = hands_url(config)
    if url is None:
        return None
    try:
        return HandStore.open(url, migrate_apart=True)
    except HandStoreError as exc:
        log.error("%s: the hub runs without it; a later start writes the hands it missed", exc)
        return None


def replay_table(config: HubConfig, table: ResolvedTable, event_log: TableLog) -> TableApp:
    """``table``'s application on ``event_log`` for a replay away from a running hub
    (``feltwire history import-log``): its deck, the hub's time resumed at the log's end,
    snapshots off (every input is replayed, none is written)."""
    deck = load_deck(table.deck) if table.deck else simulated_deck()
    now = TableTime(wall=time.time, monotonic=time.monotonic)
    now.resume(event_log.last_t)
    app = table_app(config, table, deck, now, event_log)
    app.snapshots.enabled = False
    return app


def _equity_workers(
    config: HubConfig, services: dict[str, TableApp], tables: int
) -> EquityWorkers | None:
    """The worker processes that compute every table's live equity (given to each
    table's :class:`~hub.app.equity_watch.EquityWatch`); None when no table shows
    equity or none are wanted — ``equity_workers = 0``, or unset on a hub of one or two
    tables of ``tables`` (:func:`~hub.adapters.equity_workers.default_workers`) — threads
    of this process then."""
    count = config.equity_workers
    if count is None:
        count = default_workers(tables)
    if count == 0 or not any(t.live_equity for t in config.table_configs()):
        return None
    workers = EquityWorkers(count)
    for app in services.values():
        app.equity.runner = workers
    return workers
