"""Live equity in worker processes: the hub's event loop never waits for it.

The equity kernels are numpy, which releases the interpreter lock inside its loops; but
a figure is many small array operations with Python between them, and that Python holds
the lock. In threads of the hub's own process, every table's computation then made the
reads of every other table wait for the lock (issue 16's profile: a read's frame waited
up to tens of milliseconds behind equity). Here the figures are computed in
``equity_workers`` processes of their own (:class:`concurrent.futures.ProcessPoolExecutor`),
the loop only pickles the spot out and the frame back.

The workers run at a lower priority than the hub (niceness +10): a figure waits for a
read, never the other way round. They are forked from a ``forkserver`` that has imported
:mod:`hub.app.live_equity` and built the equity tables once
(:func:`hub.app.live_equity.warm_up`), so a worker starts in milliseconds and shares the
tables' pages with the others. The forkserver is
started when the hub starts, before its threads; the workers as the tables need them
(one per computation running at once, up to ``equity_workers``). Hole cards go to the
workers over the pool's pipes, inside the hub: no other process can reach them.

A worker that dies (killed by the kernel's OOM killer, say) breaks the pool: the next
computation starts a new pool and is computed there; the broken one is counted and logged.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from hub.app.live_equity import LiveSpot, warm_up

log = logging.getLogger(__name__)

DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
"""Worker processes when ``equity_workers`` is unset: one per core, at most two (a table
computes one figure at a time; two workers keep a slow pre-flop Omaha estimate from
holding up every other table's)."""

THREADS_UP_TO_TABLES = 2
"""A hub of at most this many tables computes live equity in threads of its own process
when ``equity_workers`` is unset: one or two tables leave the event loop idle enough
that the interpreter lock costs their reads nothing measurable, and the workers'
processes would cost a Pi's small memory about 150 MB more (the forkserver and each
worker hold the equity code and numpy)."""


def default_workers(tables: int) -> int:
    """Worker processes for a hub of ``tables`` tables when ``equity_workers`` is unset.

    >>> default_workers(1), default_workers(50) == DEFAULT_WORKERS
    (0, True)
    """
    return 0 if tables <= THREADS_UP_TO_TABLES else DEFAULT_WORKERS


WORKER_NICENESS = 10
"""How much lower the workers' scheduling priority is than the hub's: on a Pi's few cores
a figure waits for a read, never a read for a figure."""

PRELOAD = ["hub.adapters.equity_preload"]
"""What the forkserver imports before it forks a worker: the equity code, tables built."""


def _worker_start() -> None:
    """A worker's start: below the hub's priority (:data:`WORKER_NICENESS`), tables warm."""
    os.nice(WORKER_NICENESS)
    warm_up()


class EquityWorkers:
    """``workers`` processes computing live equity for every table of a hub."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if workers < 1:
            raise ValueError("equity worker processes: at least one")
        self.workers = workers
        self.broken = 0
        """How many times a worker died and its pool was replaced."""
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the forkserver now (before the hub starts its threads) and one worker."""
        self._pool = self._new_pool()
        self._pool.submit(warm_up).result()  # the first worker started: it has run _worker_start

    def _new_pool(self) -> ProcessPoolExecutor:
        context = self._context
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_worker_start)

    async def __call__(
        self, fn: Callable[[LiveSpot, int], dict[str, Any]], live: LiveSpot, rng: int
    ) -> dict[str, Any]:
        """``fn(live, rng)`` in a worker (an :class:`~hub.app.ports.EquityRunner`)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = self._new_pool()
            pool = self._pool
            try:
                return await loop.run_in_executor(pool, fn, live, rng)
            except BrokenProcessPool:
                self.broken += 1
                log.error("an equity worker died; starting new workers (attempt %d)", attempt)
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return sorted(int(pid) for pid in processes)

    def close(self) -> None:
        """Stop the workers (a computation under way is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
