"""Log lines that a fault repeated many times a second cannot turn into a flood.

A full disk, a dead broker or a misbehaving node can make the same thing fail on every
input; logging each failure would fill the journal (and the disk) faster than the fault
itself. :class:`LogThrottle` lets one line per key through every ``every`` seconds, counts
the ones it held back and says how many with the next line it lets through. The clock
is monotonic: a wall-clock jump neither silences nor floods it.

>>> import logging
>>> lines = []
>>> class Keep(logging.Handler):
...     def emit(self, record): lines.append(record.getMessage())
>>> logger = logging.getLogger("throttle-example"); logger.addHandler(Keep())
>>> logger.propagate = False
>>> now = [0.0]
>>> throttle = LogThrottle(logger, every=10.0, clock=lambda: now[0])
>>> [throttle.warning("disk", "the event log cannot be written") for _ in range(5)]
[True, False, False, False, False]
>>> now[0] = 11.0
>>> throttle.warning("disk", "the event log cannot be written")
True
>>> lines
['the event log cannot be written', 'the event log cannot be written (4 more like it held back)']
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["LogThrottle"]

MAX_KEYS = 1000
"""Keys remembered at most (the oldest are forgotten): bounds what a flood of new keys costs."""


class LogThrottle:
    """At most one line per key every ``every`` seconds on ``logger``."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.every = every
        self._clock = clock
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def log(
        self, level: int, key: str, message: str, *args: object, exc_info: bool = False
    ) -> bool:
        """Log ``message % args`` at ``level`` unless a line of ``key`` went out less than
        ``every`` seconds ago (then it is only counted); True when it was logged."""
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            self._held[key] = self._held.get(key, 0) + 1
            return False
        if last is None and len(self._last) >= MAX_KEYS:
            oldest = min(self._last, key=self._last.__getitem__)
            del self._last[oldest]
            self._held.pop(oldest, None)
        self._last[key] = now
        held = self._held.pop(key, 0)
        if held:
            message += f" ({held} more like it held back)"
        self.logger.log(level, message, *args, exc_info=exc_info)
        return True

    def warning(self, key: str, message: str, *args: object) -> bool:
        """:meth:`log` at WARNING."""
        return self.log(logging.WARNING, key, message, *args)

    def error(self, key: str, message: str, *args: object, exc_info: bool = False) -> bool:
        """:meth:`log` at ERROR."""
        return self.log(logging.ERROR, key, message, *args, exc_info=exc_info)
