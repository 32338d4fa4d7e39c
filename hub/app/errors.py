"""The errors of the per-table application: one root, each also a builtin."""

from __future__ import annotations

from feltwire.errors import FeltwireError


class AppError(FeltwireError):
    """The root of the application's errors."""


class EventLogError(AppError, OSError):
    """The event store cannot be used: wrong table, unknown schema, locked, damaged, it
    contradicts the config, or it holds an input this hub cannot read.

    The port's error (:class:`hub.app.ports.EventStore`): the SQLite event log
    (:mod:`hub.adapters.eventlog`) raises it and the errors under it. It is an ``OSError``:
    the log is storage, and every caller catches it beside the storage failures it
    resembles (``feltwire hub`` refuses to start, ``feltwire event-log`` reports the table
    and goes on, the hub counts an input it could not write and tells the dealer)."""


class TableNotOwned(EventLogError):
    """This hub no longer owns the table: its lease expired or another hub took it
    (a card room of several hubs, :mod:`hub.adapters.eventlog.leases`). Nothing of the
    input was written; the hub stops serving the table at once — the hub that owns it
    now takes the input from the broker instead."""


class LogUnavailable(AppError, RuntimeError):
    """The event log cannot take an input (the disk is full, the file went away), so the
    input was not taken: nothing the hub acted on is lost, and the hub keeps running.
    The dealer console answers 503 with :attr:`reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the event log cannot be written ({reason}): the input was not taken")
        self.reason = reason


class HandStoreError(AppError, OSError):
    """The hands store cannot be opened, migrated or written (the port
    :class:`hub.app.ports.HandSink`; :mod:`hub.adapters.hands` raises it). A hand not
    written is no input lost: the event log holds it, and the next start writes it
    (:class:`hub.app.hand_book.HandBook`)."""
