"""A table's inputs on their way to the event log: written off the event loop, applied in
the order they were logged.

:class:`LogWriter` writes each batch of inputs in one transaction in the table's own
writer thread — one thread, so the table's batches are committed in the order they were
started, whoever started them (the reads' worker, the rules' tick, the dealer's console)
— and applies them on the event loop once they are on disk, in that same order: an input
is never applied before the inputs logged ahead of it. :meth:`LogWriter.apply_written`
is what an input applied at once (:meth:`hub.app.table_app.TableApp.record`) calls first.
A write whose waiter is cancelled (the table dropped or stopped while it was under way)
still finishes in the thread; when it fails, nobody awaits it any more, so the writer logs
and counts its error itself (``not_owned`` when another hub has the table, else
``log_failed``): a refusal is never silent.

>>> import asyncio
>>> from hub.app.records import InputKind, LogRecord
>>> def append(batch):
...     return [LogRecord("t1", i + 1, t, kind, data) for i, (kind, data, t, _) in enumerate(batch)]
>>> writer = LogWriter("t1", append, lambda rec, item: f"applied {rec.seq}", wall=lambda: 0.0)
>>> asyncio.run(writer.write_then_apply([(InputKind.TICK, {}, 1.0), (InputKind.TICK, {}, 2.0)]))
['applied 1', 'applied 2']
>>> writer.close()
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from hub.app.errors import TableNotOwned
from hub.app.intake import Item
from hub.app.ports import Clock
from hub.app.records import InputKind, LogRecord

__all__ = ["Batch", "LogWriter"]

log = logging.getLogger(__name__)

Batch = list[tuple[InputKind, dict[str, Any], float, float | None]]
"""Inputs to append in one transaction: (kind, payload, table time, wall time or None)."""


class _Written:
    """Inputs whose log write has started (or finished) but that are not applied yet;
    ``results``: what applying each returned, once applied."""

    __slots__ = ("items", "results", "written")

    def __init__(self, written: Future[list[LogRecord]], items: list[Item]) -> None:
        self.written, self.items = written, items
        self.results: list[object] = []


class LogWriter:
    """One table's writes to its event log (see the module's docs). ``append`` writes a
    batch in one transaction (in the writer thread) and returns its records; ``apply``
    applies one logged input (on the event loop) and returns what it gives."""

    def __init__(
        self,
        table: str,
        append: Callable[[Batch], list[LogRecord]],
        apply: Callable[[LogRecord, Item], object],
        *,
        wall: Clock,
        count: Callable[[str], None] | None = None,
    ) -> None:
        self.table = table
        self._count = count
        """Counts a write that failed after its waiter was cancelled (from the writer
        thread: the table's tasks are stopped by then)."""
        self._append = append
        self._apply = apply
        self._wall = wall
        self._pending: deque[_Written] = deque()
        self._thread: ThreadPoolExecutor | None = None
        """The writer thread, started at the first write."""

    async def write_then_apply(self, items: list[Item]) -> list[object]:
        """Write ``items`` in one transaction, then apply them after every input logged
        before them; what applying each returned. The store's error, when the write
        fails, is raised as it is (nothing of ``items`` applied)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix=f"event-log-{self.table}")
        wall = self._wall()
        batch: Batch = [(kind, data, now, wall) for kind, data, now in items]
        entry = _Written(self._thread.submit(self._append, batch), items)
        self._pending.append(entry)
        try:
            await asyncio.wrap_future(entry.written)
        except BaseException:
            if entry in self._pending:
                self._pending.remove(entry)
            if not entry.written.done():  # cancelled while the write goes on
                entry.written.add_done_callback(self._orphan_done)
            raise
        self.apply_written()
        return entry.results

    def _orphan_done(self, written: Future[list[LogRecord]]) -> None:
        """A write nobody awaits any more ended: its error, if any, logged and counted
        (the table serves no more: no alert goes to its feeds)."""
        if written.cancelled() or (exc := written.exception()) is None:
            return
        log.warning("table %s: an input on its way as the table stopped: %s", self.table, exc)
        if self._count is not None:
            self._count("not_owned" if isinstance(exc, TableNotOwned) else "log_failed")

    def apply_written(self) -> None:
        """Apply, in order, the inputs whose write has started (waiting for a write still
        going on)."""
        while self._pending:
            entry = self._pending.popleft()
            for rec, item in zip(entry.written.result(), entry.items, strict=True):
                entry.results.append(self._apply(rec, item))

    def close(self) -> None:
        """Finish the write under way and end the writer thread."""
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
