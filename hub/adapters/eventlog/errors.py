"""The event log's errors, under the event store's :class:`~hub.app.errors.EventLogError`.

What the SQLite log can say beyond the port's error: a failed write, a bad seal (a damaged
log is :class:`~hub.adapters.eventlog.report.EventLogDamaged`, beside its report).
"""

from __future__ import annotations

from hub.app.errors import EventLogError


class EventLogWriteError(EventLogError):
    """A commit failed (the disk is full, an I/O error): nothing of it was written and
    the log is as it was, so the caller can refuse the input and go on."""


class SealDamaged(EventLogError):
    """The seal file exists but neither of its slots verifies (:func:`~hub.adapters.
    eventlog.check_log` turns it into the damage of its report)."""


def psycopg_missing() -> EventLogError:
    """An ``event_log_url`` asks for PostgreSQL and psycopg (the postgres extra) is not
    installed."""
    return EventLogError(
        "event_log_url is a PostgreSQL URL but psycopg is not installed: "
        "pip install 'feltwire[postgres]'"
    )


__all__ = ["EventLogError", "EventLogWriteError", "SealDamaged", "psycopg_missing"]
