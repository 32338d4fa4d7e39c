"""The periodic work of one table in a running hub, each a task that runs forever
(:func:`hub.bootstrap.start_hub` starts them): the doubled-tag alert and the reads held
for their order (:func:`run_security`), the silent readers (:func:`run_health`), the
overlay's delay (:func:`run_release`), live equity (:func:`run_equity`) and the rules'
ticks (:func:`run_ticks`). A step that raises is counted and logged
(:meth:`~hub.app.table_app.TableApp.task_failed`) and the task goes on."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from hub.app.errors import LogUnavailable
from hub.app.table_app import TableApp
from hub.app.table_time import wait_event

__all__ = ["run_equity", "run_health", "run_release", "run_security", "run_ticks"]


async def run_security(app: TableApp) -> None:
    """Raise the doubled-tag alert on time, and release the reads held for the reads
    before them when their reorder grace ends (even if nothing else comes), forever
    (a task of the running hub)."""
    while True:
        now = app.clock()
        try:
            app.check_doubled(now)
        except Exception:
            app.task_failed("security")
        try:
            app.release_held()
        except LogUnavailable:
            pass  # counted, logged and told to the dealer
        except Exception:
            app.task_failed("read-hold")
        due = [t for t in (app.intake.next_doubled(), app.intake.next_due()) if t is not None]
        app.intake.timers_changed.clear()
        timeout = None if not due else max(0.01, min(due) - now)
        await wait_event(app.intake.timers_changed, timeout)


async def run_health(apps: Sequence[TableApp], poll_s: float = 1.0) -> None:
    """Say the readers that fall silent, on time, at every table of ``apps``, forever (a
    task of the running hub: one for all its tables; silence is measured in seconds, so
    a look every ``poll_s`` is soon enough)."""
    while True:
        await asyncio.sleep(poll_s)
        for app in apps:
            try:
                app.check_health(app.clock())
            except Exception:
                app.task_failed("health")


async def run_release(app: TableApp) -> None:
    """Release held overlay events on time, forever (a task of the running hub)."""
    while True:
        try:
            app.feeds.release_due()
        except Exception:
            app.task_failed("overlay-release")
            await asyncio.sleep(1.0)
        nxt = app.feeds.next_release()
        app.feeds.held_changed.clear()
        timeout = None if nxt is None else max(0.0, nxt - app.clock())
        await wait_event(app.feeds.held_changed, timeout)


async def run_equity(app: TableApp, settle_s: float = 0.05) -> None:
    """Recompute live equity when the cards change, forever (a task of the running hub;
    see :meth:`hub.app.equity_watch.EquityWatch.run`)."""
    await app.equity.run(app.task_failed, settle_s)


async def run_ticks(apps: Sequence[TableApp], interval: float) -> None:
    """Tick the rules of every table of ``apps`` every ``interval`` seconds, forever (a
    task of the running hub: one for all the tables that enforce rules with the same
    interval — one wake-up a tick, not one per table). A tick that changes a hand is
    logged off the event loop, then applied (:meth:`~hub.app.table_app.TableApp.tick`,
    a task of its own, so one table's slow write holds up no other table's tick; a
    table whose last tick is still being written skips this one); one that changes
    nothing is not logged."""
    writing: dict[str, asyncio.Task[None]] = {}
    try:
        while True:
            await asyncio.sleep(interval)
            for app in apps:
                if app.table in writing:
                    continue
                try:
                    due = app.tick_due()
                except Exception:
                    app.task_failed("rules-tick")
                    continue
                if due is not None:
                    writing[app.table] = asyncio.create_task(
                        _tick(app, due, writing), name=f"rules-tick-{app.table}"
                    )
    finally:  # the hub stops: the ticks being written stop with it
        for task in list(writing.values()):
            task.cancel()


async def _tick(app: TableApp, now: float, writing: dict[str, asyncio.Task[None]]) -> None:
    """Log and apply one tick of ``app`` that changes its hand (see :func:`run_ticks`)."""
    try:
        await app.tick(now)
    except LogUnavailable:
        pass  # counted, logged and told to the dealer; the next tick tries
    except Exception:
        app.task_failed("rules-tick")
    finally:
        writing.pop(app.table, None)
