"""``GET /metrics``: the hub's figures in Prometheus' text format, for the operator.

Every hub keeps its own :class:`HubMetrics` — one ``CollectorRegistry`` of its own, not
``prometheus_client``'s global one, so several hubs in one process (the tests, a demo)
never mix their figures. What it serves, each with the ``table`` label:

========================================  ===============================================
``feltwire_messages_received_total``      MQTT messages from the nodes (reads, buttons)
``feltwire_reads_accepted_total``         inventories taken (in the event log, applied)
``feltwire_messages_refused_total``       messages not taken, by ``reason`` (the ingest's:
                                          ``malformed``, ``unknown_reader``, ``seq_jump``,
                                          ``rate_limited`` …; ``duplicate``, ``stale``;
                                          ``event_log_failed``: the log could not hold it)
``feltwire_reads_lost_total``             reads a node sent that never came (seq gaps)
``feltwire_tags_refused_total``           uids in a read that are not in the deck
                                          (``reason="unknown_tag"``; the read is taken)
``feltwire_alerts_total``                 alerts sent, by ``code`` (the rules' and the
                                          hub's own: security, event log, nodes)
``feltwire_hands_total``                  hands played, by ``outcome`` (``finished``,
                                          ``voided``) — since the event log began
``feltwire_hands_stored_total``           finished hands handed to the hands store, by
                                          ``result``: ``written``, ``already`` (stored
                                          before: a replay's), ``failed`` (a write that
                                          failed; each is tried again later)
``feltwire_nodes_online``                 nodes the table hears (:func:`nodes_online`)
``feltwire_websocket_clients``            open pages, by ``feed`` (public, console,
                                          overlay)
``feltwire_mqtt_outgoing_waiting``        the table's messages for the broker (lights,
                                          alerts, the public topic) not acknowledged
                                          yet: queued in the hub or in flight — a
                                          broker, or a hub's loop, falling behind
``feltwire_read_to_frame_seconds``        histogram: an inventory's receipt → its frame
                                          on the feeds (the hub's monotonic time)
``feltwire_event_log_append_seconds``     histogram: one write to the event log
``feltwire_event_log_batch_inputs``       histogram: the inputs one such write (one
                                          transaction, one fsync) held — group commit
========================================  ===============================================

The counters and gauges are read from the tables at scrape time (:class:`TableFigures`,
a custom collector over the counters the tables keep anyway); the histograms are fed
by the tables' applications through their :class:`~hub.app.timings.Timings` port
(:meth:`HubMetrics.timings`). The counters count since the process started, except the
hands (rebuilt from the event log at every start). A restart starts them again at zero,
which Prometheus' ``rate()`` and ``increase()`` take as a counter reset.

Access: the figures say what the room does, not which cards lie where, but the hub
serves on the network — ``/metrics`` needs an admin's token or session, or the
configured ``[web] metrics_token`` sent as ``Authorization: Bearer <token>``
(:class:`MetricsAccess`).

>>> from feltwire.deck import simulated_deck
>>> from hub.app.table_app import TableApp
>>> app = TableApp(table="t1", readers=["seat1"], deck=simulated_deck(),
...                max_payload_bytes=4096, overlay_delay_s=0)
>>> metrics = HubMetrics()
>>> metrics.watch({"t1": app})
>>> app.count("accepted", 4)
>>> 'feltwire_reads_accepted_total{table="t1"} 4.0' in metrics.render().decode()
True
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Mapping
from typing import Annotated, Protocol, runtime_checkable

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.requests import HTTPConnection

from hub.app.timings import Timings
from hub.web.auth import Access, Principal, Role, current_principal
from hub.web.tables import TableReader

__all__ = [
    "BATCH_BUCKETS",
    "FEEDS",
    "LATENCY_BUCKETS",
    "HubMetrics",
    "MeteredTable",
    "MetricsAccess",
    "MetricsDep",
    "Outbox",
    "TableFigures",
    "nodes_online",
    "router",
]

FEEDS = ("public", "console", "overlay")
"""The pages' feeds whose WebSocket clients are counted."""
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""The histograms' buckets (seconds): the read→frame target is 50 ms at p99."""
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096)
"""The buckets of the inputs one event-log transaction held (``event_log_batch``: 256 by
default)."""
REFUSED_AS = {"duplicate": "duplicate", "stale": "stale", "failed": "event_log_failed"}
"""Counters of messages not taken that are not ``rejected.<reason>``, and their reason."""


@runtime_checkable
class MeteredTable(Protocol):
    """What a table offers beyond :class:`~hub.web.tables.TableReader` for the figures
    (:class:`~hub.app.table_app.TableApp` does): its hands played by outcome, and its
    messages for the broker."""

    @property
    def hands(self) -> Mapping[str, int]:
        """Hands played since the event log began, by outcome (finished, voided)."""
        ...

    @property
    def feeds(self) -> Outbox:
        """What the table sends: its messages for the broker among it."""
        ...


class Outbox(Protocol):
    """A table's messages for the broker as the figures read them
    (:class:`~hub.app.publisher.TablePublisher`)."""

    def waiting(self) -> int:
        """Those the broker has not acknowledged yet: queued, or in flight."""
        ...


@runtime_checkable
class StoreCounts(Protocol):
    """A table's hand book as the figures read it (:class:`~hub.app.hand_book.HandBook`)."""

    written: int
    already: int
    failed: int


def stored(table: object) -> StoreCounts | None:
    """``table``'s hand book, when it keeps one (:class:`~hub.app.table_app.TableApp`)."""
    book = getattr(table, "hand_book", None)
    return book if isinstance(book, StoreCounts) else None


def nodes_online(table: TableReader) -> int:
    """How many of ``table``'s nodes are online: every node heard from or announced,
    but those whose availability is ``offline`` (their will fired, or they said so)."""
    states = table.health()["nodes"]
    known = set(table.node_stats()) | set(states)
    return sum(1 for node in known if states.get(node) != "offline")


FIGURES: dict[str, tuple[type[CounterMetricFamily | GaugeMetricFamily], str, tuple[str, ...]]] = {
    "feltwire_messages_received": (
        CounterMetricFamily,
        "MQTT messages from the table's nodes (inventories, button presses, availability).",
        (),
    ),
    "feltwire_reads_accepted": (
        CounterMetricFamily,
        "Inventories taken: in the event log and applied.",
        (),
    ),
    "feltwire_messages_refused": (
        CounterMetricFamily,
        "Messages from nodes not taken, by reason.",
        ("reason",),
    ),
    "feltwire_reads_lost": (
        CounterMetricFamily,
        "Reads a node sent that never reached the hub (gaps in its sequence).",
        (),
    ),
    "feltwire_tags_refused": (
        CounterMetricFamily,
        "Tag uids in an accepted read that are not in the table's deck (ignored).",
        ("reason",),
    ),
    "feltwire_alerts": (
        CounterMetricFamily,
        "Alerts sent to the dealer and the alerts topic, by code.",
        ("code",),
    ),
    "feltwire_hands": (
        CounterMetricFamily,
        "Hands played since the event log began, by outcome.",
        ("outcome",),
    ),
    "feltwire_hands_stored": (
        CounterMetricFamily,
        "Finished hands handed to the hands store, by result (written, already, failed).",
        ("result",),
    ),
    "feltwire_nodes_online": (
        GaugeMetricFamily,
        "The table's nodes online (heard from or announced, and not offline).",
        (),
    ),
    "feltwire_websocket_clients": (
        GaugeMetricFamily,
        "Pages connected to a live feed, by feed.",
        ("feed",),
    ),
    "feltwire_mqtt_outgoing_waiting": (
        GaugeMetricFamily,
        "Messages for the broker (lights, alerts, the public topic) it has not "
        "acknowledged yet: queued in the hub or in flight.",
        (),
    ),
}
"""The tables' figures read at scrape time: name → (kind, help, labels after ``table``)."""


class TableFigures(Collector):
    """The tables' counters and gauges, read at scrape time (see the module's docs)."""

    def __init__(self, tables: Mapping[str, TableReader]) -> None:
        self.tables = tables

    def collect(self) -> Iterator[Metric]:
        family = {
            name: kind(name, text, labels=["table", *more])
            for name, (kind, text, more) in FIGURES.items()
        }
        received, accepted = family["feltwire_messages_received"], family["feltwire_reads_accepted"]
        refused, lost = family["feltwire_messages_refused"], family["feltwire_reads_lost"]
        tags, alerts = family["feltwire_tags_refused"], family["feltwire_alerts"]
        hands, online = family["feltwire_hands"], family["feltwire_nodes_online"]
        clients, kept = family["feltwire_websocket_clients"], family["feltwire_hands_stored"]
        waiting = family["feltwire_mqtt_outgoing_waiting"]
        for name, table in self.tables.items():
            counters = table.counters
            received.add_metric([name], counters.get("received", 0))
            accepted.add_metric([name], counters.get("accepted", 0))
            lost.add_metric([name], counters.get("lost", 0))
            tags.add_metric([name, "unknown_tag"], counters.get("unknown_tag", 0))
            for key, value in sorted(counters.items()):
                if key.startswith("rejected."):
                    refused.add_metric([name, key.removeprefix("rejected.")], value)
                elif key in REFUSED_AS:
                    refused.add_metric([name, REFUSED_AS[key]], value)
                elif key.startswith("alert."):
                    alerts.add_metric([name, key.removeprefix("alert.")], value)
            if isinstance(table, MeteredTable):
                for outcome, count in table.hands.items():
                    hands.add_metric([name, outcome], count)
                waiting.add_metric([name], table.feeds.waiting())
            book = stored(table)
            if book is not None:
                for result in ("written", "already", "failed"):
                    kept.add_metric([name, result], getattr(book, result))
            online.add_metric([name], nodes_online(table))
            by_label = {
                "public": table.public.subscribers(),
                "overlay": table.overlay.subscribers(),
            }
            for feed in FEEDS:
                source = by_label["overlay" if feed == "overlay" else "public"]
                clients.add_metric([name, feed], source.get(feed, 0))
        yield from family.values()


class _TableTimings:
    """One table's :class:`~hub.app.timings.Timings`, into the hub's histograms."""

    def __init__(self, metrics: HubMetrics, table: str) -> None:
        self._read = metrics.read_to_frame.labels(table=table)
        self._append = metrics.log_append.labels(table=table)
        self._batch = metrics.log_batch.labels(table=table)

    def read_to_frame(self, seconds: float) -> None:
        self._read.observe(max(0.0, seconds))

    def log_append(self, seconds: float, inputs: int = 1) -> None:
        self._append.observe(max(0.0, seconds))
        self._batch.observe(inputs)


class HubMetrics:
    """One hub's figures: its own registry, the histograms, the tables' collector."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        """This hub's registry (never the process-wide default one)."""
        self.read_to_frame = Histogram(
            "feltwire_read_to_frame_seconds",
            "From an inventory's receipt to its frame published on the feeds.",
            ["table"],
            registry=self.registry,
            buckets=LATENCY_BUCKETS,
        )
        self.log_append = Histogram(
            "feltwire_event_log_append_seconds",
            "One write to the event log (an input, or a batch in one transaction).",
            ["table"],
            registry=self.registry,
            buckets=LATENCY_BUCKETS,
        )
        self.log_batch = Histogram(
            "feltwire_event_log_batch_inputs",
            "The inputs one write to the event log held (one transaction, one fsync).",
            ["table"],
            registry=self.registry,
            buckets=BATCH_BUCKETS,
        )
        self._figures: TableFigures | None = None

    def timings(self, table: str) -> Timings:
        """Where ``table``'s application reports its durations."""
        return _TableTimings(self, table)

    def watch(self, tables: Mapping[str, TableReader]) -> None:
        """Serve the counters and gauges of ``tables`` (once; a second call re-points)."""
        if self._figures is None:
            self._figures = TableFigures(tables)
            self.registry.register(self._figures)
        else:
            self._figures.tables = tables

    def render(self) -> bytes:
        """Every figure now, in Prometheus' text format."""
        return generate_latest(self.registry)


class MetricsAccess(Access):
    """The access rule of ``/metrics``: an admin (token or session), or the configured
    ``[web] metrics_token`` as ``Authorization: Bearer <token>`` — what a Prometheus
    scrape job sends (``authorization: {credentials: …}``)."""

    def __init__(self) -> None:
        super().__init__([Role.ADMIN])

    async def __call__(self, conn: HTTPConnection) -> Principal:
        expected: str | None = getattr(conn.app.state, "metrics_token", None)
        scheme, _, sent = conn.headers.get("authorization", "").partition(" ")
        if (
            expected
            and scheme.lower() == "bearer"
            and hmac.compare_digest(sent.strip().encode(), expected.encode())
        ):
            source = conn.client.host if conn.client is not None else ""
            who = Principal("metrics-token", Role.PUBLIC, "token", source)
            current_principal.set(who)
            return who
        return await super().__call__(conn)


MetricsDep = Annotated[Principal, Depends(MetricsAccess())]
"""A route parameter: the access rule of ``/metrics``."""

router = APIRouter()


def metrics_of(request: Request) -> HubMetrics:
    """The hub's figures (``app.state.metrics``, made by :func:`hub.web.app.create_app`)."""
    metrics: HubMetrics = request.app.state.metrics
    return metrics


@router.get("/metrics", response_class=Response)
async def metrics(request: Request, _: MetricsDep) -> Response:
    """Every figure of the hub in Prometheus' text format (see the module's docs)."""
    return Response(metrics_of(request).render(), media_type=CONTENT_TYPE_LATEST)
