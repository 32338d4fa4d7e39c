"""The hub's composition root: one validated config in, a running hub out.

:func:`start_hub` builds, for every table of the config, the deck, the event log and
the table's application (:class:`~hub.app.table_app.TableApp`, with its rules); then the
embedded broker (when no broker URL is configured; only then is amqtt, the ``broker``
extra, imported), ONE MQTT connection that serves every
table (:func:`hub.adapters.mqtt.run_mqtt`), each table's timed tasks and the web server
(every table behind ``?table=``); it returns a :class:`HubRuntime` to stop them again.
``feltwire hub``, the demo and the integration tests all start the hub this way.

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn

from feltwire.config import MqttUrl, broker_name
from feltwire.deck import Deck, load_deck, simulated_deck
from hub.adapters.equity_workers import EquityWorkers, default_workers
from hub.adapters.eventlog.backend import TableLog, open_event_log
from hub.adapters.eventlog.disk import MIB, LogDisk
from hub.adapters.eventlog.files import EVENT_LOG_FILE
from hub.adapters.eventlog.store import EventLog
from hub.adapters.hands.history import StoreHistory
from hub.adapters.hands.retention import EVERY_SECONDS as RETENTION_EVERY_S
from hub.adapters.hands.retention import apply_retention
from hub.adapters.hands.store import HANDS_FILE, HandStore, sqlite_url
from hub.adapters.mqtt import run_mqtt
from hub.app import tasks as table_tasks
from hub.app.errors import EventLogError, HandStoreError
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.app.table_time import TableTime
from hub.config import HandsSettings, HubConfig, ResolvedTable
from hub.web.app import create_app
from hub.web.auth import Role, WebAuth
from hub.web.metrics import HubMetrics
from hub.web.producer import TableBrand
from hub.web.server import server_config

if TYPE_CHECKING:  # amqtt (the `broker` extra) is imported only when the hub runs it
    from hub.adapters.broker import EmbeddedBroker

log = logging.getLogger(__name__)

STOP_WAIT_S = 5.0
"""How long :meth:`HubRuntime.stop` waits for a task to end before asking it again."""


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
    """A running hub: its tables' applications, where it listens, and how to stop it.

    ``service``, ``rules`` and ``log`` are the first table's (what a one-table hub has);
    ``services`` holds every table's application by table id, in the config's order.
    """

    config: HubConfig
    service: TableApp
    broker: MqttUrl
    web_url: str
    producer_token: str
    auth: WebAuth
    embedded: EmbeddedBroker | None
    _server: _Server
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    log: TableLog | None = None
    """The first table's event log (when the config has a ``state_dir`` or an
    ``event_log_url``)."""
    services: dict[str, TableApp] = field(default_factory=dict)
    """Every table's application, by table id (the first is :attr:`service`)."""
    logs: dict[str, TableLog] = field(default_factory=dict)
    """Every table's event log, by table id (when the config has a ``state_dir`` or an
    ``event_log_url``)."""
    metrics: HubMetrics = field(default_factory=HubMetrics)
    """This hub's figures (``/metrics``): a registry of its own."""
    equity_workers: EquityWorkers | None = None
    """The processes that compute live equity (None: threads of this process)."""
    hands: HandStore | None = None
    """The hands store every table's finished hands go to (None: none kept)."""

    def __post_init__(self) -> None:
        if not self.services:
            self.services = {self.service.table: self.service}
        if not self.logs and self.log is not None:
            self.logs = {self.service.table: self.log}

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
        """Stop the web server, the ingest and the embedded broker."""
        self._server.should_exit = True
        for task in self._tasks:
            task.cancel()
        pending = {t for t in self._tasks if not t.done()}
        for _ in range(3):  # a task that swallowed a cancellation is asked again
            if not pending:
                break
            _, pending = await asyncio.wait(pending, timeout=STOP_WAIT_S)
            for task in pending:
                log.warning("task %s did not stop yet; cancelling it again", task.get_name())
                task.cancel()
        if pending:
            log.error(
                "tasks %s did not stop: leaving them", ", ".join(t.get_name() for t in pending)
            )
        for task in self._tasks:
            if task.done() and not task.cancelled():
                with contextlib.suppress(Exception):
                    task.result()
        if self.embedded is not None:
            await self.embedded.stop()
        if self.equity_workers is not None:
            await asyncio.to_thread(self.equity_workers.close)
        for app in self.services.values():
            app.close()  # a log write or snapshot under way is finished first
        for event_log in self.logs.values():
            event_log.close()
        if self.hands is not None:
            self.hands.close()
        self.auth.close()


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
    ``deck``, when given, is every table's deck (the demo and tests).

    ``clock`` is the wall clock (display, records), ``monotonic`` the clock that measures
    time passing: the hub's time (:class:`~hub.app.table_time.TableTime`), on which every
    delay, expiry and timeout runs, is anchored on the wall clock once and then moves with
    ``monotonic`` only, never behind the last input of any table's log. ``access_log``
    logs every web request (``feltwire hub --access-log``). ``freeze_gc`` (a process
    that is the hub: ``feltwire hub``, the demo) collects what starting left behind and
    moves the rest out of the cyclic collector's sight (:func:`gc.freeze`): a full
    collection then no longer walks every object of the start — at 50 tables that walk
    held the event loop 70–110 ms, the largest pause a read's frame met (issue 16).
    """
    tables = config.table_configs()
    brands = {t.table: TableBrand.load(t.branding) for t in tables}  # before anything runs
    log_paths = (
        {
            t.table: event_log_path(config.state_dir, t.table, several=bool(config.tables))
            for t in tables
        }
        if config.state_dir is not None
        else {}
    )
    decks: dict[Path | None, Deck] = {}
    hands = hands_store(config)
    services: dict[str, TableApp] = {}
    logs: dict[str, TableLog] = {}
    now = TableTime(wall=clock, monotonic=monotonic)
    figures = HubMetrics()
    pg_url = config.event_log_url
    try:
        for table in tables:
            if pg_url is not None or table.table in log_paths:
                opened = open_event_log(
                    table.table,
                    url=pg_url,
                    path=log_paths.get(table.table),
                    sync=config.event_log_sync,
                    torn=config.event_log_torn,
                    clock=clock,
                )
                logs[table.table] = opened
                now.resume(opened.last_t)
        for table in tables:
            if deck is not None:
                table_deck = deck
            elif table.deck not in decks:
                table_deck = decks[table.deck] = (
                    load_deck(table.deck) if table.deck else simulated_deck()
                )
            else:
                table_deck = decks[table.deck]
            service = _table_app(config, table, table_deck, now, logs.get(table.table))
            service.timings = figures.timings(table.table)  # the /metrics histograms
            if pg_url is None and table.table in log_paths:  # /readyz asks the log's disk
                service.log_disk = LogDisk(
                    log_paths[table.table],
                    min_free_bytes=int(config.health.log_min_free_mb * MIB),
                    every_s=config.health.log_check_s,
                    clock=monotonic,
                )
            service.snapshots.enabled = config.event_log_snapshots
            if hands is not None:
                service.hand_book.attach(hands)
            services[table.table] = service
            service.open()
            service.hand_book.replay()  # the store's missing hands too (hub.app.hand_book)
    except BaseException:
        for opened in logs.values():
            opened.close()
        if hands is not None:
            hands.close()
        raise
    service = next(iter(services.values()))
    event_log = logs.get(service.table)
    embedded: EmbeddedBroker | None = None
    if config.mqtt.url is None:
        from hub.adapters.broker import EmbeddedBroker

        embedded = EmbeddedBroker.from_settings(config.mqtt, tables=[t.table for t in tables])
        await embedded.start()
        brokers = [embedded.hub_address]
    else:
        # the url's brokers (several: a cluster's, in turn), with password_file's password
        brokers = config.mqtt.addresses
    broker = brokers[0]

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
        services,
        auth=auth,
        max_body_bytes=config.web.max_body_bytes,
        figures=figures,
        metrics_token=metrics_token.get_secret_value() if metrics_token is not None else None,
        monotonic=monotonic,
        history=StoreHistory(hands) if hands is not None else None,
        history_unopened=hands is None and hands_url(config) is not None,
        brands=brands,
        state_dir=config.state_dir,
    )
    server = _Server(server_config(app, config.web, access_log=access_log))
    workers = _equity_workers(config, services)
    tasks: list[asyncio.Task[None]] = [
        asyncio.create_task(server.serve(), name="web"),
        asyncio.create_task(
            run_mqtt(
                services,
                brokers,
                keepalive=config.mqtt.keepalive,
                tls=config.mqtt.tls_files,
                max_batch=config.event_log_batch,
            ),
            name="mqtt",
        ),
    ]
    if workers is not None:  # forkserver and a first worker: tables built, off the loop
        tasks.append(asyncio.create_task(asyncio.to_thread(workers.start), name="equity-start"))
    tick_groups: dict[float, list[TableApp]] = {}
    for table in tables:
        table_app = services[table.table]
        name = table.table
        tasks += [
            asyncio.create_task(table_tasks.run_release(table_app), name=f"overlay-release-{name}"),
            asyncio.create_task(table_tasks.run_equity(table_app), name=f"equity-{name}"),
            asyncio.create_task(table_tasks.run_security(table_app), name=f"security-{name}"),
        ]
        if table.rules is not None and table.rules.tick_seconds > 0:
            tick_groups.setdefault(table.rules.tick_seconds, []).append(table_app)
    every_table = list(services.values())
    tasks.append(asyncio.create_task(table_tasks.run_health(every_table), name="health"))
    if hands is not None:
        tasks.append(
            asyncio.create_task(run_retention(hands, config.hands, clock), name="retention")
        )
    for interval, group in tick_groups.items():
        tick = table_tasks.run_ticks(group, interval)
        tasks.append(asyncio.create_task(tick, name=f"rules-tick-{interval}"))
    while not server.started:
        if tasks[0].done():
            tasks[0].result()
            raise RuntimeError(f"web server could not start on {config.web.host}:{config.web.port}")
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    host = config.web.host if config.web.host not in ("0.0.0.0", "::") else "127.0.0.1"
    runtime = HubRuntime(
        config=config,
        service=service,
        broker=broker,
        web_url=f"http://{host}:{port}",
        producer_token=token,
        auth=auth,
        embedded=embedded,
        _server=server,
        _tasks=tasks,
        log=event_log,
        services=services,
        logs=logs,
        metrics=figures,
        equity_workers=workers,
        hands=hands,
    )
    for name, table_app in services.items():
        table_log = logs.get(name)
        log.info(
            "hub for table %s: page %s/?table=%s, broker %s, event log %s (%d inputs replayed)",
            name,
            runtime.web_url,
            name,
            ", ".join(broker_name(b) for b in brokers),
            table_log.where if table_log is not None else "none",
            table_app.replayed,
        )
    if freeze_gc:
        gc.collect()
        gc.freeze()
    return runtime


def hands_url(config: HubConfig) -> str | None:
    """The hands store's URL: ``[hands] url``, else SQLite in the state directory (None:
    no store — ``[hands] enabled = false``, or no event log: neither a state directory
    nor an ``event_log_url``; or only the latter and no ``[hands] url``)."""
    if not config.hands.enabled or (config.state_dir is None and config.event_log_url is None):
        return None
    if config.hands.url is not None:
        return config.hands.url
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
    """The hands store of ``config`` (:func:`hands_url`), opened and migrated; None when
    there is none, or when it cannot be opened — the hub then runs without it (logged):
    the event log keeps every hand, and a later start writes them (hub.app.hand_book)."""
    url = hands_url(config)
    if url is None:
        return None
    try:
        return HandStore.open(url)
    except HandStoreError as exc:
        log.error("%s: the hub runs without it; a later start writes the hands it missed", exc)
        return None


def replay_table(config: HubConfig, table: ResolvedTable, event_log: EventLog) -> TableApp:
    """``table``'s application on ``event_log`` for a replay away from a running hub
    (``feltwire history import-log``): its deck, the hub's time resumed at the log's end,
    snapshots off (every input is replayed, none is written)."""
    deck = load_deck(table.deck) if table.deck else simulated_deck()
    now = TableTime(wall=time.time, monotonic=time.monotonic)
    now.resume(event_log.last_t)
    app = _table_app(config, table, deck, now, event_log)
    app.snapshots.enabled = False
    return app


def _equity_workers(config: HubConfig, services: dict[str, TableApp]) -> EquityWorkers | None:
    """The worker processes that compute every table's live equity (given to each
    table's :class:`~hub.app.equity_watch.EquityWatch`); None when no table shows
    equity or none are wanted — ``equity_workers = 0``, or unset on a hub of one or two
    tables (:func:`~hub.adapters.equity_workers.default_workers`) — threads of this
    process then."""
    count = config.equity_workers
    if count is None:
        count = default_workers(len(services))
    if count == 0 or not any(app.equity.enabled for app in services.values()):
        return None
    workers = EquityWorkers(count)
    for app in services.values():
        app.equity.runner = workers
    return workers


def _table_app(
    config: HubConfig,
    table: ResolvedTable,
    deck: Deck,
    now: TableTime,
    event_log: TableLog | None,
) -> TableApp:
    """One table's application with its rules (not replayed yet), on the hub's time
    ``now``, its event log ``event_log``."""
    return TableApp(
        table=table.table,
        readers=list(table.readers),
        deck=deck,
        max_payload_bytes=config.max_payload_bytes,
        overlay_delay_s=config.web.overlay_delay_minutes * 60,
        clock=now,
        wall=now.wall,
        game=table.game,
        live_equity=table.live_equity,
        log=event_log,
        doubled_after_s=table.rules.debounce_seconds if table.rules is not None else 0.5,
        node_rate=config.node_rate_limit,
        node_burst=config.node_burst,
        reader_silent_s=config.health.reader_silent_s,
        reorder_grace_s=config.health.reorder_grace_s,
        rules=table.rules,
        tournament=config.tournament,
    )
