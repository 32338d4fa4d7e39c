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
:mod:`hub.app.live_equity` — and no protocol model or pydantic, which a worker never uses
(a contract in ``pyproject.toml`` keeps it so) — and built the equity tables once
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
import contextlib
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from hub.app.live_equity import LiveSpot, warm_up
from hub.equity import EquityError

log = logging.getLogger(__name__)

DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
"""Worker processes when ``equity_workers`` is unset: one per core, at most two (a table
computes one figure at a time; two workers keep a slow pre-flop Omaha estimate from
holding up every other table's)."""

THREADS_UP_TO_TABLES = 2
"""A hub of at most this many tables computes live equity in threads of its own process
when ``equity_workers`` is unset: one or two tables leave the event loop idle enough
that the interpreter lock costs their reads nothing measurable, and the workers'
processes would cost a Pi's small memory over 100 MB more (the forkserver and each
worker hold numpy, the equity code and its tables: ~55 MB resident each, most of it
shared; multiprocessing's resource tracker 13 MB)."""


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


def _worker_start(hub: int) -> None:
    """A worker's start: below the hub's priority (:data:`WORKER_NICENESS`), ended with
    the hub (:func:`_end_with`), tables warm."""
    os.nice(WORKER_NICENESS)
    _end_with(hub)
    warm_up()


def _end_with(hub: int) -> None:
    """End this worker the moment process ``hub`` ends, however it ends (SIGKILL too): a
    worker waits on its call queue, whose writing end it holds itself, and the
    forkserver lives as long as a worker does — without this, a killed hub's workers
    would stay forever (a daemon thread waits on a pidfd of the hub)."""
    try:
        fd = os.pidfd_open(hub)
    except (OSError, AttributeError):  # not Linux ≥ 5.3: poll instead
        fd = -1

    def watch() -> None:
        if fd >= 0:
            select.select([fd], [], [])
        else:
            while os.getppid() != 1 and _alive(hub):
                time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="equity-hub-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> None:
        """Start the forkserver and one worker now (the hub's start runs this in a
        thread: the tables are built there, not on the loop); nothing once closed."""
        pool = self._get_pool()
        if pool is not None:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):  # closed meanwhile
                pool.submit(warm_up).result()

    def _get_pool(self) -> ProcessPoolExecutor | None:
        """The pool, started if none runs; None once :meth:`close` ran."""
        with self._lock:
            if self._closed:
                return None
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=self._context,
                    initializer=_worker_start,
                    initargs=(os.getpid(),),
                )
            return self._pool

    async def __call__(
        self, fn: Callable[[LiveSpot, int], dict[str, Any]], live: LiveSpot, rng: int
    ) -> dict[str, Any]:
        """``fn(live, rng)`` in a worker (an :class:`~hub.app.ports.EquityRunner`)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._get_pool()
            if pool is None:
                raise EquityError("the hub is stopping: no equity workers")
            try:
                return await loop.run_in_executor(pool, fn, live, rng)
            except BrokenProcessPool:
                self.broken += 1
                log.error("an equity worker died; starting new workers (attempt %d)", attempt)
                with self._lock:
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
        """Stop the workers at once (a computation under way is dropped): they are
        terminated, not waited for, so a hub stops promptly even while a worker is still
        starting."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(timeout=5)
