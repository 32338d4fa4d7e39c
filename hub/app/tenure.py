"""A table's lease as the hub's application sees it: may this hub still speak for the
table? (a card room of several hubs; the leases themselves are the database's,
:mod:`hub.adapters.eventlog.leases`).

The database fences every append by the lease, so a hub that lost its table can write
nothing. What the database cannot stop is what the hub says from memory: a frame to a
page, a light to the table, an answer to the console. So every such way out asks
:meth:`Tenure.holds` first, and that answer is kept on this hub's **monotonic** clock,
never later than the database's: a renewal asked at monotonic time ``a`` and granted for
``lease_s`` seconds lets the hub speak until ``a + margin × lease_s`` — the server's
expiry counts from when it *received* the renewal, which is after ``a``. A hub that was
paused (``SIGSTOP``, a frozen VM) wakes with its monotonic clock past that moment, so it
falls silent before it learns that another hub took the table, and says nothing from a
stale picture in between.

>>> mono = [100.0]
>>> tenure = Tenure("t1", epoch=3, monotonic=lambda: mono[0])
>>> tenure.holds()                  # nothing granted yet
False
>>> tenure.extend(asked_at=100.0, lease_s=6.0)
>>> tenure.holds(), tenure.left_s()
(True, 4.8)
>>> mono[0] = 105.0                 # no renewal for 5 s: silent, the table not lost yet
>>> tenure.holds(), tenure.lost
(False, False)
>>> tenure.extend(asked_at=104.0, lease_s=6.0)
>>> tenure.holds()
True
>>> tenure.lose("taken over")
>>> tenure.holds(), tenure.lost, tenure.why
(False, True, 'taken over')
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

__all__ = ["MARGIN", "Tenure"]

MARGIN = 0.8
"""The share of a lease's time this hub speaks for the table after asking for it (the
rest covers the renewal's way to the server and the two machines' clock rates)."""


class Tenure:
    """This hub's hold on ``table`` under lease ``epoch`` (see the module). Thread-safe:
    the lease keeper renews it from a thread of its own, so a busy event loop does not
    silence the tables."""

    def __init__(
        self,
        table: str,
        *,
        epoch: int,
        monotonic: Callable[[], float],
        margin: float = MARGIN,
    ) -> None:
        if not 0 < margin < 1:
            raise ValueError(f"margin is a share of the lease, between 0 and 1, not {margin}")
        self.table = table
        self.epoch = epoch
        self._monotonic = monotonic
        self._margin = margin
        self._until = -math.inf
        self._lock = threading.Lock()
        self.lost = False
        """True once the table is lost for good (expired in the database, or taken)."""
        self.why = ""
        """Why it was lost (for the log and the pages)."""

    def extend(self, asked_at: float, lease_s: float) -> None:
        """A renewal asked at monotonic ``asked_at`` was granted for ``lease_s``."""
        with self._lock:
            if not self.lost:
                self._until = max(self._until, asked_at + self._margin * lease_s)

    def holds(self) -> bool:
        """Whether this hub may speak for the table now."""
        return not self.lost and self._monotonic() < self._until

    def left_s(self) -> float:
        """Seconds this hub may still speak for the table without a renewal (0: none)."""
        return 0.0 if self.lost else max(0.0, round(self._until - self._monotonic(), 6))

    def lose(self, why: str) -> None:
        """The table is lost for good: silent from now on."""
        with self._lock:
            self.lost = True
            self.why = why
            self._until = -math.inf
