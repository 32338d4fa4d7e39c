"""Log lines that a fault repeated many times a second cannot turn into a flood.

A full disk, a flood of refused connections, a misbehaving node or a guesser at the
sign-in page can make the same thing fail on every request; logging each failure would
fill the journal (and the disk) faster than the fault itself. A :class:`ThrottledLog`
writes at most ``limit`` lines per ``window`` seconds for each key (one key: one kind of
line), counts the rest, says how many were left out with the next line it writes, and
says on the last line of a window that more are only counted. The clock is monotonic: a
wall-clock jump neither silences nor floods it. The counters elsewhere count every event;
only the journal is spared.

>>> now = [0.0]
>>> lines = ThrottledLog(logging.getLogger("doctest"), limit=2, window=60,
...                      monotonic=lambda: now[0])
>>> [lines.warning("refused %s", n) for n in range(4)], lines.suppressed
([True, True, False, False], 2)
>>> lines.warning("another kind", key="other")   # each key has its own budget
True
>>> now[0] = 61; lines.warning("refused again"), lines.suppressed
(True, 0)
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

from hub.security.limits import SlidingWindow

__all__ = ["ThrottledLog"]

MAX_KEYS = 1000
"""Keys remembered at most (the oldest are forgotten): bounds what a flood of keys costs."""


class ThrottledLog:
    """At most ``limit`` lines per ``window`` seconds and key on ``logger``; see the module
    docstring."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        limit: int = 5,
        window: float = 60.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.monotonic = monotonic
        self._window = SlidingWindow(limit, window, max_keys=MAX_KEYS)
        self._left_out: Counter[str] = Counter()
        self.suppressed_total = 0
        """Lines left out since this log was made (every key)."""

    @property
    def suppressed(self) -> int:
        """Lines left out since the last one written, over every key."""
        return sum(self._left_out.values())

    def log(
        self, level: int, msg: str, *args: object, key: str = "", exc_info: bool = False
    ) -> bool:
        """Write the line unless this window's lines of ``key`` are spent; True when
        written (``exc_info``: with the exception being handled)."""
        now = self.monotonic()
        if not self._window.hit(key, now):
            self._left_out[key] += 1
            self.suppressed_total += 1
            return False
        left_out = self._left_out.pop(key, 0)
        if left_out:
            msg += " (%d like it left out before this one)"
            args += (left_out,)
        if self._window.count(key, now) == self._window.limit:
            msg += "; more like it within %.0f s are only counted"
            args += (self._window.window,)
        self.logger.log(level, msg, *args, exc_info=exc_info)
        return True

    def info(self, msg: str, *args: object, key: str = "") -> bool:
        """:meth:`log` at INFO."""
        return self.log(logging.INFO, msg, *args, key=key)

    def warning(self, msg: str, *args: object, key: str = "") -> bool:
        """:meth:`log` at WARNING."""
        return self.log(logging.WARNING, msg, *args, key=key)

    def error(self, msg: str, *args: object, key: str = "", exc_info: bool = False) -> bool:
        """:meth:`log` at ERROR."""
        return self.log(logging.ERROR, msg, *args, key=key, exc_info=exc_info)
