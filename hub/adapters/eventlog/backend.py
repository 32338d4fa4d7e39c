"""Which event log a hub opens: :func:`open_event_log`, the one place that picks the
backend — SQLite files in the state directory (the default, :func:`~hub.adapters.
eventlog.repair.open_log`) or PostgreSQL (:class:`~hub.adapters.eventlog.pg.PgEventLog`,
``event_log_url = "postgresql://…"``) — and :class:`TableLog`, what the hub holds of
either: the application's port (:class:`hub.app.ports.EventStore`) and what the
composition root needs besides (where the log is, the time of its last input, closing).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from hub.adapters.eventlog.repair import TornPolicy, open_log
from hub.adapters.eventlog.store import Sync
from hub.app.ports import EventStore

PG_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
"""The URLs of a PostgreSQL event log."""


class TableLog(EventStore, Protocol):
    """A table's event log as the hub holds it (either backend)."""

    @property
    def where(self) -> str:
        """The log's place, for people (a file, or the database's URL without password)."""

    @property
    def last_t(self) -> float | None:
        """The table time of the last input (None: the log is empty)."""

    def close(self) -> None:
        """Close the log."""


def open_event_log(
    table: str,
    *,
    url: str | None,
    path: Path | None,
    sync: Sync = "full",
    torn: TornPolicy = "drop",
    epoch: int = 0,
    clock: Callable[[], float] = time.time,
) -> TableLog:
    """``table``'s event log: on PostgreSQL when ``url`` is one (``epoch``: the hub's
    lease epoch, recorded on each append), else the SQLite file at ``path`` as
    :func:`~hub.adapters.eventlog.repair.open_log` opens it (``torn``, ``clock``).
    Raises :class:`~hub.app.errors.EventLogError` (damage: ``EventLogDamaged``)."""
    if url is not None:
        if not url.startswith(PG_SCHEMES):
            raise ValueError(f"event_log_url: a postgresql://… URL, not {url!r}")
        from hub.adapters.eventlog.pg import PgEventLog  # psycopg only when it is used

        return PgEventLog(url, table, epoch=epoch, sync=sync)
    if path is None:
        raise ValueError("an event log needs a file (state_dir) or a PostgreSQL URL")
    return open_log(path, table, sync=sync, torn=torn, clock=clock)
