"""Clocks that stand still until the test moves them, for code that takes its clock by
injection (the hub service, the web's limits and sessions, the bridge)."""

from __future__ import annotations

import time
from dataclasses import dataclass


class FakeClock:
    """A clock that stands still until the test moves ``now``."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class MovableClock:
    """A clock that stands still until the test moves it: wall time by default, or a
    monotonic clock (``MovableClock(time.monotonic())``)."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now


@dataclass
class Clock:
    """A monotonic clock the test moves by hand."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
