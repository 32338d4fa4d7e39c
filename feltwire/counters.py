"""A node's or a bridge's counters, where the operator can see them.

:class:`CounterExport` takes a function that reads the process's counters (the bridge's
:meth:`~firmware_bridge.bridge.Bridge.stats`, the node's sweeps and reads published) and,
as ``[counters]`` (:class:`~feltwire.config.CountersSettings`) says:

* serves them on a Prometheus ``/metrics`` endpoint of the process's own
  (``metrics_port``; ``prometheus_client``'s small HTTP server, a registry of its own),
  read at scrape time: every counter as a sample of ``feltwire_<process>_events_total``
  with the label ``event`` (its name), every gauge (``online``, ``unacknowledged``) as
  ``feltwire_<process>_<name>``;
* logs them, one line, every ``log_seconds`` and once more when the process stops.

>>> export = CounterExport("bridge", lambda: {"frames": 12, "dropped.crc": 1, "online": 1})
>>> samples = {(s.name, s.labels.get("event")): s.value for m in export.collect()
...            for s in m.samples}
>>> samples[("feltwire_bridge_events_total", "dropped.crc")]
1
>>> samples[("feltwire_bridge_online", None)]
1
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from feltwire.config import CountersSettings

__all__ = ["GAUGES", "CounterExport"]

log = logging.getLogger(__name__)

GAUGES = frozenset({"online", "connected", "unacknowledged", "readers"})
"""Names among the counters that say how things are now (gauges), not how often."""


class CounterExport(Collector):
    """One process's counters on ``/metrics`` and in its log (see the module's docs)."""

    def __init__(
        self,
        process: str,
        counters: Callable[[], Mapping[str, int]],
        settings: CountersSettings | None = None,
    ) -> None:
        self.process = process
        self.counters = counters
        self.settings = settings or CountersSettings()
        self.port: int | None = None
        """Where ``/metrics`` listens once started (None: no endpoint)."""
        self._server: Any = None
        self._stop = threading.Event()
        self._logger: threading.Thread | None = None

    def collect(self) -> Iterator[Metric]:
        """The counters now, as Prometheus metric families (a custom collector)."""
        events = CounterMetricFamily(
            f"feltwire_{self.process}_events",
            f"The {self.process}'s counters, by name.",
            labels=["event"],
        )
        gauges = []
        for name, value in sorted(self.counters().items()):
            if name in GAUGES:
                gauges.append(
                    GaugeMetricFamily(
                        f"feltwire_{self.process}_{name}", f"The {self.process}'s {name}.", value
                    )
                )
            else:
                events.add_metric([name], value)
        yield events
        yield from gauges

    def start(self) -> CounterExport:
        """Open ``/metrics`` (when ``metrics_port`` is set) and start the periodic log
        line (when ``log_seconds`` > 0); returns itself."""
        settings = self.settings
        if settings.metrics_port is not None:
            registry = CollectorRegistry()
            registry.register(self)
            server, _ = start_http_server(
                settings.metrics_port, addr=settings.metrics_host, registry=registry
            )
            self._server = server
            self.port = int(server.server_address[1])
            log.info(
                "%s counters on http://%s:%d/metrics",
                self.process,
                settings.metrics_host,
                self.port,
            )
        if settings.log_seconds > 0:
            self._logger = threading.Thread(
                target=self._log_every, name=f"{self.process}-counters", daemon=True
            )
            self._logger.start()
        return self

    def log_now(self, when: str = "") -> None:
        """Log the counters, one line (``when``: what the line is about, e.g. stopped)."""
        counters = dict(sorted(self.counters().items()))
        log.info(
            "%s counters%s: %s",
            self.process,
            f" ({when})" if when else "",
            ", ".join(f"{k}={v}" for k, v in counters.items()),
            extra={"counters": counters},
        )

    def _log_every(self) -> None:
        while not self._stop.wait(self.settings.log_seconds):
            try:
                self.log_now()
            except Exception:  # reading the counters must not end the process
                log.exception("%s counters could not be read", self.process)

    def close(self) -> None:
        """Stop the periodic log line and close ``/metrics``; log the counters once more."""
        self._stop.set()
        if self._logger is not None:
            self._logger.join(timeout=2)
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        self.log_now("stopped")
