"""What a table's application measures of itself: how long its work takes.

:class:`Timings` is the port the application reports durations to (seconds on the hub's
monotonic time, :class:`~hub.app.table_time.TableTime`): the time from an inventory's
receipt to its frame on the feeds, and the time one write to the event log takes (with
how many inputs that one transaction held: group commit at work). The
hub's composition gives each table one that feeds the ``/metrics`` histograms
(:mod:`hub.web.metrics`); without one nothing is measured (:data:`NO_TIMINGS`).

>>> NO_TIMINGS.read_to_frame(0.002), NO_TIMINGS.log_append(0.001)
(None, None)
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["NO_TIMINGS", "NoTimings", "Timings"]


class Timings(Protocol):
    """Where a table's application reports how long its work took (seconds)."""

    def read_to_frame(self, seconds: float) -> None:
        """An inventory that changed an antenna, from its receipt (when the hub took the
        MQTT message) to its frame published on the feeds."""
        ...

    def log_append(self, seconds: float, inputs: int = 1) -> None:
        """One write of ``inputs`` inputs to the event log (one input, or a batch in one
        transaction)."""
        ...


class NoTimings:
    """Timings that go nowhere (a table built without metrics: tests, tools)."""

    def read_to_frame(self, seconds: float) -> None:
        """Nothing."""

    def log_append(self, seconds: float, inputs: int = 1) -> None:
        """Nothing."""


NO_TIMINGS: Timings = NoTimings()
"""The timings of a table without metrics."""
