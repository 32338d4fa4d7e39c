"""Live equity on the overlay: each seat's chance to win, recomputed when the cards change.

:class:`EquityWatch` is told when the cards on the table changed (:meth:`EquityWatch.mark`)
and, in its task (:meth:`EquityWatch.run`), computes the figures of the spot the
application gives it (:mod:`hub.app.live_equity`: the rules' hand, or the antennas on a hub
that runs no rules) and hands each figure to the overlay with the delay of the cards it
was computed from. It knows neither the reads nor the rules: ``spot`` and ``publish`` are
what the application passes it.

>>> watch = EquityWatch(game="NT", enabled=False, spot=lambda: None,
...                     publish=lambda frame, t: None, clock=lambda: 0.0, with_rules=False)
>>> watch.mark(); watch.now() is None
True
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hub.app.live_equity import (
    LiveSpot,
    equity_event,
    final_equity,
    final_frame,
    no_equity,
    quick_frame,
)
from hub.app.ports import Clock, EquityRunner
from hub.equity import EquityError
from hub.views.frames import Event

log = logging.getLogger(__name__)

EQUITY_THREADS = max(1, min(4, os.cpu_count() or 1))
"""Threads that compute live equity for every table of a hub that runs no worker
processes (``equity_workers = 0``; the tests and the demo): numpy releases the GIL, but
the Python between its kernels holds it, so the reads wait behind it."""
_pool: ThreadPoolExecutor | None = None


async def in_threads(
    fn: Callable[[LiveSpot, int], dict[str, Any]], live: LiveSpot, rng: int
) -> dict[str, Any]:
    """``fn(live, rng)`` in the hub's equity threads (started at the first use): the
    default :class:`~hub.app.ports.EquityRunner`."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(EQUITY_THREADS, thread_name_prefix="equity")
    return await asyncio.get_running_loop().run_in_executor(_pool, fn, live, rng)


class EquityWatch:
    """One table's live equity (see the module's docs)."""

    def __init__(
        self,
        *,
        game: str,
        enabled: bool,
        spot: Callable[[], LiveSpot | None],
        publish: Callable[[Event, float], None],
        clock: Clock,
        with_rules: bool,
    ) -> None:
        self.game = game
        self.enabled = enabled
        self.updates = 0
        """Figures computed so far (each seeds the next estimate's random stream)."""
        self._spot = spot
        self._publish = publish
        self._clock = clock
        self._with_rules = with_rules
        self._due = asyncio.Event()
        self.runner: EquityRunner = in_threads
        """Where the figures are computed (the running hub gives its worker processes)."""

    def mark(self) -> None:
        """The cards on the table changed: compute again (when live equity is on)."""
        if self.enabled:
            self._due.set()

    def now(self) -> Event | None:
        """The overlay's final equity event for the cards on the table now (None: nothing
        to say); blocks while it computes."""
        live = self._spot()
        if live is None:
            return None
        return equity_event(live, final_equity(live, self.updates))

    def _changed(self, key: tuple[object, ...] | None) -> bool:
        """Whether the cards differ from ``key`` now: only when something was marked
        since the pass began (the spot is not projected again for nothing)."""
        return self._due.is_set() and self._key() != key

    def _key(self) -> tuple[object, ...] | None:
        try:
            live = self._spot()
        except EquityError:
            return None
        return None if live is None else live.key

    async def run(self, task_failed: Callable[[str], None], settle_s: float = 0.05) -> None:
        """Recompute each seat's equity when the cards change (a task of the running hub).

        Changes that come in a burst are taken together. A quick estimate goes out at
        once (the exact figure, when that costs no more:
        :func:`hub.app.live_equity.quick_equity`), then the exact figure (or a finer
        estimate, see :func:`hub.app.live_equity.final_equity`) — not computed when the
        cards changed after the estimate, and not sent when they changed while it was
        computed: the next pass takes the new cards. One computation at a time per
        table; each runs in :attr:`runner` (the hub's equity worker processes) so reads
        keep flowing, and goes out with the delay of the cards it was computed from. With
        the rules running, the application also marks every input the rules take (a fold
        entered at the console moves no card). A pass that raises is told to
        ``task_failed`` and the task goes on.
        """
        last: tuple[object, ...] | None = None
        while True:
            try:
                last = await self._pass(last, settle_s)
            except Exception:
                task_failed("equity")
                await asyncio.sleep(1.0)

    async def _pass(
        self, last: tuple[object, ...] | None, settle_s: float
    ) -> tuple[object, ...] | None:
        """One pass of :meth:`run`: wait for a change, compute, send; the key of the
        cards it computed (or ``last`` when it computed nothing)."""
        await self._due.wait()
        await asyncio.sleep(settle_s)
        self._due.clear()
        if not self.enabled:
            return last
        happened = self._clock()
        try:
            live = self._spot()
        except EquityError as exc:
            log.warning("no equity for the cards on the table: %s", exc)
            return last
        key = None if live is None else live.key
        if key == last:
            return last
        last = key
        if live is None:
            if not self._with_rules:  # with rules, the next hand clears the figures
                self._publish(no_equity() | {"t": happened}, happened)
            return last
        try:
            quick = await self.runner(quick_frame, live, self.updates)
            self.updates += 1
            self._publish(quick | {"t": happened}, happened)
            if quick["exact"]:
                return last
            if self._changed(key):
                return last  # superseded: the cards changed meanwhile, the next pass
            final = await self.runner(final_frame, live, self.updates)
        except EquityError as exc:
            log.warning("no equity for the cards on the table: %s", exc)
            return last
        if self._changed(key):
            return last  # the cards changed meanwhile: the next pass computes those
        self.updates += 1
        self._publish(final | {"t": happened}, happened)
        return last
