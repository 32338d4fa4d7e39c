"""A table's inputs are written to the event log off the event loop and applied in the
order they were logged, whoever started them: the reads' worker, the rules' tick, the
dealer at the console.

The log here is a real (in-memory) :class:`EventLog` whose writes wait at a gate the
test opens, as a slow fsync would: while one write waits, the event loop goes on, the
next input started waits behind it, and each is applied only once it is on disk.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence

import pytest

from hub.adapters.eventlog.leases import LeaseLost
from hub.adapters.eventlog.store import EventLog
from hub.app.records import InputKind, Item, LogRecord
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from hub.rules.procedure import DeclareMisdeal, Step
from tests.support.clocks import FakeClock
from tests.support.service import hub_service


class SlowLog(EventLog):
    """An in-memory event log whose every write waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__(":memory:", "t1")
        self.gate = threading.Semaphore(0)
        self.started = threading.Event()

    def append_many(self, items: Sequence[Item]) -> list[LogRecord]:
        self.started.set()
        assert self.gate.acquire(timeout=10), "the test never let the write go"
        return super().append_many(items)


def table(log: EventLog, clock: FakeClock) -> TableApp:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
    return hub_service(clock, log=log, rules=RulesSettings(players=players))


async def test_inputs_started_together_are_logged_and_applied_in_the_order_started() -> None:
    clock, log = FakeClock(), SlowLog()
    log.gate.release()  # the table's opening
    app = table(log, clock)
    try:
        before = log.last_seq
        first = asyncio.create_task(
            app.record_async(InputKind.BUTTON, {"node": "n", "button": "a"}, clock.now)
        )
        await asyncio.to_thread(log.started.wait, 5)
        second = asyncio.create_task(
            app.record_async(InputKind.BUTTON, {"node": "n", "button": "b"}, clock.now)
        )
        await asyncio.sleep(0.05)  # the loop goes on while the first write waits
        assert app.counters.get("button.a", 0) == 0  # nothing applied before it is logged
        log.gate.release()
        log.gate.release()
        await asyncio.gather(first, second)
        logged = [r.payload["button"] for r in log.records(after=before)]
        assert logged == ["a", "b"]
        assert app.counters["button.a"] == 1 and app.counters["button.b"] == 1
    finally:
        app.close()
        log.close()


async def test_a_console_input_waits_for_its_write_off_the_loop_and_answers_its_step() -> None:
    clock, log = FakeClock(), SlowLog()
    for _ in range(20):
        log.gate.release()  # the opening goes through
    app = table(log, clock)
    while log.gate.acquire(blocking=False):  # the writes from here on wait at the gate
        pass
    console = app.rules
    assert console is not None and console.in_hand
    try:
        log.started.clear()
        entering = asyncio.create_task(console.enter(DeclareMisdeal(0.0)))
        ticks = 0
        while not log.started.is_set() or ticks < 5:  # the loop runs while it is written
            await asyncio.sleep(0.01)
            ticks += 1
        assert not entering.done()
        log.gate.release()
        step = await entering
        assert isinstance(step, Step) and step.refused is None
        assert not console.in_hand and app.hands["voided"] == 1  # applied once logged
        (last,) = log.records(after=log.last_seq - 1)
        assert last.kind is InputKind.DEALER and last.payload["type"] == "DeclareMisdeal"
    finally:
        app.close()
        log.close()


class FencedSlowLog(SlowLog):
    """A log whose writes, once let go, are refused as a fenced database refuses a hub
    that lost its lease."""

    def append_many(self, items: Sequence[Item]) -> list[LogRecord]:
        self.started.set()
        assert self.gate.acquire(timeout=10), "the test never let the write go"
        raise LeaseLost(
            "event log pg: input 57 of table t1 not written (this hub's lease on table t1 "
            "(epoch 1) expired or another hub took the table); the log is unchanged"
        )


async def test_a_write_refused_after_the_table_was_dropped_is_still_said(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The hub drops a table (its lease found lost) while an input's write is under way:
    the waiting task is cancelled, the write goes on in the writer thread and is refused —
    the refusal is logged and counted, not lost with the cancelled task."""
    clock, log = FakeClock(), FencedSlowLog()
    app = table(EventLog(":memory:", "t1"), clock)
    app.log = log
    try:
        waiting = asyncio.create_task(
            app.record_async(InputKind.BUTTON, {"node": "n", "button": "a"}, clock.now)
        )
        await asyncio.to_thread(log.started.wait, 5)
        waiting.cancel()  # the table dropped
        with pytest.raises(asyncio.CancelledError):
            await waiting
        log.gate.release()
        with caplog.at_level(logging.WARNING, logger="hub.app.log_writer"):
            app.close()  # waits for the write under way
        said = caplog.text
        assert "input 57 of table t1 not written (this hub's lease on table t1" in said, said
        assert app.counters.get("not_owned") == 1
        assert app.counters.get("button.a", 0) == 0  # refused: not applied
    finally:
        log.close()
