"""What the two event-log backends share (:class:`~hub.adapters.eventlog.store.EventLog`,
SQLite; :class:`~hub.adapters.eventlog.pg.PgEventLog`, PostgreSQL): the last input's
number, time and the log's identity, and one input appended as a batch of one."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from hub.app.records import InputKind, Item, LogRecord

__all__ = ["LogBasics"]


class LogBasics(ABC):
    """The part of a table's event log that does not depend on where it is kept."""

    _lock: threading.Lock
    _seq: int
    _chain: str
    _last_t: float | None

    @abstractmethod
    def _stored_chain(self, seq: int) -> str | None:
        """The chain value the database holds for input ``seq`` (None: no such input);
        the lock held."""

    def _chain_at(self, seq: int) -> str | None:
        """The chain value of input ``seq`` (None: no such input): the last input's from
        memory, any other from the database; the lock held."""
        if seq == self._seq and seq > 0:
            return self._chain
        return self._stored_chain(seq)

    @abstractmethod
    def append_many(self, items: Sequence[Item]) -> list[LogRecord]:
        """Append inputs — (kind, payload, table time ``t``, wall time or None) — in one
        transaction, all or none, durable before this returns."""

    @property
    def last_seq(self) -> int:
        """The sequence number of the last input appended (0: the log is empty)."""
        return self._seq

    @property
    def origin(self) -> str | None:
        """The log's identity: the chain of its first input (None: the log is empty) —
        the hands store keeps a table's hands of different logs apart by it."""
        with self._lock:
            return self._chain_at(1)

    @property
    def last_t(self) -> float | None:
        """The table time ``t`` of the last input appended (None: the log is empty)."""
        return self._last_t

    def append(
        self, kind: InputKind, payload: Mapping[str, Any], t: float, *, wall: float | None = None
    ) -> LogRecord:
        """Append one input (its own transaction, committed before this returns)."""
        return self.append_many([(kind, payload, t, wall)])[0]
