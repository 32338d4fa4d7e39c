"""The hub's time: what every delay, expiry and timeout of a table is measured on.

A hub needs two clocks. The **wall clock** (``time.time``) says what time it is — for
display and for records (the event log keeps it beside each input). It is not fit to
measure how much time has passed: NTP steps it, ``date -s`` sets it, a Raspberry Pi
without a real-time clock boots with a stale time and corrects it minutes later. If the
overlay's 30-minute delay were measured on it, a forward step of 31 minutes would release
every hole card of the hand in progress at once.

:class:`TableTime` is the clock everything else runs on: the overlay delay, the dealing
monitor's debounce, the tournament clock's levels, the rules' ticks. It starts at the
wall clock's reading when the hub starts, and from then on it moves only with the
**monotonic** clock (``time.monotonic``), so a wall-clock jump, forward or back, changes
nothing. It never runs behind the inputs already logged: after a restart it continues
from the last logged time when the wall clock is behind it (a Pi that booted with a
stale clock), and from the wall clock when that is ahead (the hub was down that long).

What a wall-clock step can still do (and only across a restart): a hub that was down
while the wall clock jumped forward counts the jump as time it was away. The delay of
what was held when it stopped is then shortened by the jump — never while it runs.

>>> wall = [1000.0]; mono = [5.0]
>>> now = TableTime(wall=lambda: wall[0], monotonic=lambda: mono[0])
>>> now()
1000.0
>>> wall[0] += 31 * 60        # NTP steps the wall clock 31 minutes forward ...
>>> now(), now.wall()         # ... and the table's time does not move
(1000.0, 2860.0)
>>> mono[0] += 2.5            # 2.5 s pass
>>> now()
1002.5
>>> now.resume(after=5000.0)  # the event log's last input is later: never behind it
>>> now()
5000.0
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

__all__ = ["TableTime", "wait_event"]


class TableTime:
    """The hub's time in seconds: anchored on the wall clock once, then monotonic.

    Call it for the time now. ``wall`` and ``monotonic`` are the two clocks it reads
    (the system's by default; tests and the demo pass their own).
    """

    def __init__(
        self,
        *,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._base = wall()
        self._start = monotonic()

    def __call__(self) -> float:
        """The table's time now (seconds; close to the epoch time the hub started at)."""
        return self._base + (self._monotonic() - self._start)

    def wall(self) -> float:
        """The wall clock now (seconds since the epoch): for display and records only."""
        return self._wall()

    def resume(self, after: float | None) -> None:
        """Never run behind ``after`` (the time of the last input the event log holds):
        the time jumps forward to it when it is ahead, and is left alone otherwise."""
        if after is not None and after > self():
            self._base += after - self()


async def wait_event(event: asyncio.Event, limit: float | None) -> None:
    """Wait until ``event`` is set, at most ``limit`` seconds (None: no limit).

    Unlike ``asyncio.wait_for`` on Python 3.11 — which drops a cancellation that arrives
    in the moment the event is set, so a task told to stop waits on for ever — a
    cancellation always gets through: the hub's tasks stop when told."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(limit):
            await event.wait()
