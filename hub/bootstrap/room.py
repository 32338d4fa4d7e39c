"""The tables a running hub serves, and how a table starts and stops being served while
the hub runs (:class:`Room`).

A hub alone serves every table of its config from its start to its stop. In a card room
of several hubs (``[cluster]``, :mod:`hub.bootstrap.keeper`) a hub serves the tables it
holds a lease on: it takes one while it runs — another hub died — and drops one the
moment it learns it lost it. Serving a table means: the web answers for it (the table is
in the web app's live map of tables), its MQTT link takes its reads and sends its lights
(:func:`~hub.adapters.mqtt.run_table_link`), and its periodic work runs (the overlay's
delay, live equity, the doubled-tag watch, the rules' ticks, the silent readers).
Dropping it undoes all of that at once, pages first: the web stops answering for it and
every page's socket is closed (its page reconnects and finds the table's new hub).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import FastAPI

from hub.adapters.eventlog.backend import TableLog
from hub.app import tasks as table_tasks
from hub.app.table_app import TableApp
from hub.web.app import serve_table, unserve_table

log = logging.getLogger(__name__)

STOP_WAIT_S = 5.0
"""How long stopping waits for a task to end before asking it again."""

Link = Callable[[TableApp], Coroutine[Any, Any, None]]
"""A table's MQTT link (:func:`~hub.adapters.mqtt.run_table_link` with the hub's broker)."""


class Room:
    """The tables this hub serves now (see the module). ``link`` runs a table's MQTT
    link; :attr:`services` is the live map the web app and ``/metrics`` read."""

    def __init__(self, link: Link) -> None:
        self._link = link
        self.services: dict[str, TableApp] = {}
        """The tables served now, by id — the very dict the web app reads."""
        self.logs: dict[str, TableLog] = {}
        """Their event logs (when the hub keeps them)."""
        self.web: FastAPI | None = None
        """The web app, once it exists (:meth:`serve` then tells it)."""
        self.every: list[TableApp] = []
        """Every table served, for the tasks that look at all of them at once."""
        self._tasks: dict[str, list[asyncio.Task[None]]] = {}
        self._ticks: dict[float, list[TableApp]] = {}
        self._tick_tasks: dict[float, asyncio.Task[None]] = {}

    def add(self, app: TableApp, event_log: TableLog | None) -> None:
        """Count ``app`` among the tables served (its work not started yet: a hub's
        start adds its tables before its web app and broker exist)."""
        self.services[app.table] = app
        self.every.append(app)
        if event_log is not None:
            self.logs[app.table] = event_log
        if self.web is not None:
            serve_table(self.web, app)

    def start(self, app: TableApp, tick_s: float | None) -> None:
        """Start ``app``'s work: its MQTT link, the overlay's delay, live equity, the
        doubled-tag watch and, every ``tick_s`` (None: no rules' ticks), its rules' ticks."""
        name = app.table
        self._tasks[name] = [
            asyncio.create_task(self._link(app), name=f"mqtt-{name}"),
            asyncio.create_task(table_tasks.run_release(app), name=f"overlay-release-{name}"),
            asyncio.create_task(table_tasks.run_equity(app), name=f"equity-{name}"),
            asyncio.create_task(table_tasks.run_security(app), name=f"security-{name}"),
        ]
        if tick_s is not None and tick_s > 0:
            group = self._ticks.setdefault(tick_s, [])
            group.append(app)
            if tick_s not in self._tick_tasks:
                self._tick_tasks[tick_s] = asyncio.create_task(
                    table_tasks.run_ticks(group, tick_s), name=f"rules-tick-{tick_s}"
                )

    def serve(self, app: TableApp, event_log: TableLog | None, tick_s: float | None) -> None:
        """Serve ``app`` from now on (a table taken while the hub runs)."""
        self.add(app, event_log)
        self.start(app, tick_s)

    def tasks(self) -> list[asyncio.Task[None]]:
        """Every task of the tables served (and their ticks)."""
        return [t for ts in self._tasks.values() for t in ts] + list(self._tick_tasks.values())

    async def drop(self, table: str, why: str) -> TableLog | None:
        """Stop serving ``table`` at once: the web forgets it and its pages' sockets are
        closed, then its work stops and its writes under way finish (its log is left
        open: the caller closes it — returned)."""
        app = self.services.pop(table, None)
        if app is None:
            return None
        if self.web is not None:
            unserve_table(self.web, table)
        app.public.end_all()
        app.overlay.end_all()
        with contextlib.suppress(ValueError):
            self.every.remove(app)
        for group in self._ticks.values():
            with contextlib.suppress(ValueError):
                group.remove(app)
        await stop_tasks(self._tasks.pop(table, []))
        await asyncio.to_thread(app.close)  # a log write or snapshot under way finishes
        log.warning("table %s: no longer served by this hub (%s)", table, why)
        return self.logs.pop(table, None)

    async def stop(self) -> None:
        """Stop every table's work (the hub stops); their logs stay open (the caller's)."""
        await stop_tasks(self.tasks())
        self._tasks.clear()
        self._tick_tasks.clear()
        for app in self.services.values():
            app.close()  # a log write or snapshot under way is finished first


async def stop_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them to end (a task that swallowed a cancellation is
    asked again, up to three times; what still runs then is left, logged)."""
    for task in tasks:
        task.cancel()
    pending = {t for t in tasks if not t.done()}
    for _ in range(3):
        if not pending:
            break
        _, pending = await asyncio.wait(pending, timeout=STOP_WAIT_S)
        for task in pending:
            log.warning("task %s did not stop yet; cancelling it again", task.get_name())
            task.cancel()
    if pending:
        log.error("tasks %s did not stop: leaving them", ", ".join(t.get_name() for t in pending))
    for task in tasks:
        if task.done() and not task.cancelled():
            with contextlib.suppress(Exception):
                task.result()
