"""The FastAPI app: pages, their WebSockets and a small JSON API, for every table.

Built by :func:`create_app` from the tables it serves (each a running
:class:`~hub.app.table_app.TableApp`, or anything with the :class:`~hub.web.tables.TableDesk`
methods), so tests get the real app over real HTTP and WebSocket connections. Routes name
their table with ``?table=<id>`` (default: the first table); each route declares the
roles allowed to use it (:func:`hub.web.auth.allow`).

The app is one ``APIRouter`` per page or area, each in its own module, included here and
importing nothing of this module (:mod:`hub.web.dependencies` is what they share):

* :mod:`hub.web.public` — ``/``, ``/ws/public``, ``/api/public``, ``/api/tables``,
  ``/api/stats``, ``/healthz``, ``/openapi.json`` (no sign-in);
* :mod:`hub.web.clock` — the tournament clock's pause and resume;
* :mod:`hub.web.console` — the dealer console (``/console``, ``/api/console/*``,
  ``/ws/console``);
* :mod:`hub.web.session` — signing in and out (``/login``, ``/api/session``);
* :mod:`hub.web.admin` — the admin's audit trail and node resets;
* :mod:`hub.web.overlay` — the producer's overlay (``/overlay``, ``/ws/overlay``);
* :mod:`hub.web.history` — the hand history (``/history``, ``/api/history/*``): the kept
  hands searched, stepped through and downloaded, each role seeing what it may;
* :mod:`hub.web.producer` — the overlay's branding (``/overlay/logo``,
  ``/overlay/photo/<name>``) and the producer's switches (``/api/overlay/settings``;
  the plates' statistics of each table, :class:`~hub.app.plate_stats.PlateStats`, in
  ``app.state.plates``);
* :mod:`hub.web.metrics` — ``/metrics``, the hub's figures for Prometheus (an admin or
  the configured metrics token).

Every request meets the body cap first (:mod:`hub.web.guard`, before any access rule);
its refusals and the server's (:mod:`hub.web.server`) are counted in
``app.state.web_refusals``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from hub.app.errors import LogUnavailable
from hub.app.hand_history import HandHistory
from hub.app.plate_stats import PlateStats
from hub.web import admin, clock, console, history, metrics, overlay, producer, public, session
from hub.web.auth import WebAuth
from hub.web.errors import AccessRefused
from hub.web.guard import BodyLimit
from hub.web.metrics import HubMetrics
from hub.web.pages import STATIC
from hub.web.refusal import Refusal, invalid_body, refused
from hub.web.tables import RoomDirectory, TableDesk

DEFAULT_MAX_BODY_BYTES = 64 * 1024
"""The body cap when none is given (``[web] max_body_bytes``' default)."""

ROUTERS = (
    public.router,
    clock.router,
    console.router,
    session.router,
    admin.router,
    overlay.router,
    history.router,
    producer.router,
    metrics.router,
)
"""The app's routers, in the order they are included."""

Served = TableDesk
"""A table the app serves: the hub's table application, or anything with its methods."""


def create_app(
    tables: Mapping[str, Served] | Served,
    *,
    auth: WebAuth,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    figures: HubMetrics | None = None,
    metrics_token: str | None = None,
    monotonic: Callable[[], float] = time.monotonic,
    history: HandHistory | None = None,
    history_unopened: bool = False,
    brands: Mapping[str, producer.TableBrand] | None = None,
    state_dir: Path | None = None,
    room: RoomDirectory | None = None,
) -> FastAPI:
    """The hub's web app for ``tables`` (one or several, by table id); request bodies
    over ``max_body_bytes`` are refused (413) before anything reads them. ``figures``
    are the hub's ``/metrics`` (None: a registry of the app's own, without the tables'
    timings), ``metrics_token`` the bearer token a Prometheus scrape may send instead of
    an admin's credential; ``monotonic`` measures ``/healthz``'s uptime; ``history`` is
    where the history page reads the kept hands (None: the hub keeps none — or, with
    ``history_unopened``, its store could not be opened at start); ``brands``
    each table's overlay branding (:class:`~hub.web.producer.TableBrand`; None: none),
    and the producer's switches are kept in ``state_dir`` (None: in memory).

    ``tables`` given as a ``dict`` is used as it is, not copied: a hub that takes and
    drops tables while it runs (a card room of several hubs: ``room``, which says where
    every table of the room is served) changes it through :func:`serve_table` and
    :func:`unserve_table`; such a hub may serve no table at all for a while."""
    if isinstance(tables, dict):
        served = tables
    else:
        served = dict(tables) if isinstance(tables, Mapping) else {tables.table: tables}
    if not served and room is None:
        raise ValueError("a hub serves at least one table")
    app = FastAPI(
        title="feltwire hub",
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.tables = served
    app.state.room = room
    app.state.auth = auth
    app.state.web_refusals = Counter[str]()
    app.state.metrics = figures if figures is not None else HubMetrics()
    app.state.metrics.watch(served)
    app.state.metrics_token = metrics_token
    app.state.monotonic = monotonic
    app.state.started = monotonic()
    app.state.history = history
    app.state.history_unopened = history_unopened
    app.state.brands = dict(brands or {})
    app.state.switches = producer.ProducerSwitches(state_dir)
    app.state.plates = {}
    for service in served.values():
        _watch_plates(app, service)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, counts=app.state.web_refusals)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_exception_handler(LogUnavailable, console.log_unavailable)
    app.add_exception_handler(AccessRefused, session.refused)
    app.add_exception_handler(Refusal, refused)
    app.add_exception_handler(RequestValidationError, invalid_body)
    for router in ROUTERS:
        # the routers' routes themselves go into the app's route table, as routes of the
        # app (FastAPI >= 0.137's include_router would nest each router as one opaque
        # node): whatever walks ``app.routes`` — the access test, which checks that every
        # route carries exactly one access rule — sees every route and its dependencies
        app.router.routes.extend(router.routes)
    return app


def _watch_plates(app: FastAPI, service: Served) -> None:
    """The plates' statistics of ``service``'s overlay (the producer's switch as kept)."""
    plates = PlateStats(service.table, app.state.history, service.overlay)
    plates.enabled = app.state.switches.get(service.table).plate_stats
    app.state.plates[service.table] = plates


def serve_table(app: FastAPI, service: Served) -> None:
    """Serve ``service`` from now on (a table this hub took while it runs)."""
    app.state.tables[service.table] = service
    _watch_plates(app, service)


def unserve_table(app: FastAPI, table: str) -> None:
    """Serve ``table`` no more (this hub lost it): requests for it go to its new hub."""
    app.state.tables.pop(table, None)
    app.state.plates.pop(table, None)


__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "ROUTERS",
    "STATIC",
    "Served",
    "create_app",
    "serve_table",
    "unserve_table",
]
