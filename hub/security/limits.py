"""Rate limits: how many times something may happen per key within a sliding window.

The limits are pure: every call takes the time (``now``) from the caller — a monotonic
clock in the hub, so a wall-clock jump (NTP, ``date -s``) never lifts or extends one —
and a test moves a fake clock instead of sleeping. :class:`SignInLimiter` is the web
sign-in's guard against password guessing (per name *and* client address, and per
address); :class:`SlidingWindow` is the building block (the audit trail throttles
refusals with two); :class:`ThrottledLog` puts one in front of a logger, so a flood of
refusals writes a bounded number of lines to the journal and counts the rest.

>>> limiter = SignInLimiter(per_name_and_address=2, per_address=3, window=60)
>>> limiter.failed("ann", "10.0.0.9", now=0); limiter.failed("ann", "10.0.0.9", now=1)
>>> limiter.retry_after("ann", "10.0.0.9", now=2), limiter.retry_after("bo", "10.0.0.9", now=2)
(58.0, 0.0)
>>> limiter.retry_after("ann", "10.0.0.7", now=2)  # the same name from elsewhere
0.0
>>> limiter.retry_after("ann", "10.0.0.9", now=59)
1.0
"""

from __future__ import annotations

from collections import deque

MAX_KEYS = 10_000
"""Keys a window remembers at most (the oldest are forgotten first): bounds the memory a
client can make the hub spend by inventing names."""


class SlidingWindow:
    """At most ``limit`` events per key in any ``window`` seconds.

    >>> w = SlidingWindow(limit=2, window=10)
    >>> w.hit("a", 0), w.hit("a", 1), w.hit("a", 2), w.hit("a", 10.5)
    (True, True, False, True)
    """

    def __init__(self, limit: int, window: float, *, max_keys: int = MAX_KEYS) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a rate limit needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._events: dict[str, deque[float]] = {}

    def _live(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        while events and events[0] <= now - self.window:
            events.popleft()
        if not events:
            del self._events[key]
            return None
        return events

    def count(self, key: str, now: float) -> int:
        """Events of ``key`` within the window ending at ``now``."""
        events = self._live(key, now)
        return 0 if events is None else len(events)

    def retry_after(self, key: str, now: float) -> float:
        """Seconds until ``key`` may have another event (0: now)."""
        events = self._live(key, now)
        if events is None or len(events) < self.limit:
            return 0.0
        # (the event - now) first: exact for times that close, so a full window is the
        # window to the last bit (the other order once said 300.00000000000006: 301 s)
        return float((events[-self.limit] - now) + self.window)

    def add(self, key: str, now: float) -> None:
        """Count one event of ``key`` at ``now`` (whether or not it was within the limit)."""
        events = self._live(key, now)
        if events is None:
            if len(self._events) >= self.max_keys:
                self._forget(now)
            events = self._events[key] = deque()
        events.append(now)
        while len(events) > self.limit:  # older ones no longer decide anything
            events.popleft()

    def hit(self, key: str, now: float) -> bool:
        """Count an event of ``key`` if the limit allows it; False (not counted) if not."""
        if self.retry_after(key, now) > 0:
            return False
        self.add(key, now)
        return True

    def clear(self, key: str) -> None:
        """Forget every event of ``key``."""
        self._events.pop(key, None)

    def _forget(self, now: float) -> None:
        for key in list(self._events):
            self._live(key, now)
        while len(self._events) >= self.max_keys:
            del self._events[next(iter(self._events))]

    def __len__(self) -> int:
        return len(self._events)


class SignInLimiter:
    """Failed sign-ins allowed per (name, client address) and per client address within
    ``window`` seconds.

    Once a budget is spent, sign-in for that name from that address (or for any name from
    that address) is refused (429) until the oldest failure leaves the window — before the
    password is even checked, so a locked-out guesser learns nothing. The name's budget is
    per address: someone guessing the dealer's password from one address cannot keep the
    dealer out everywhere else. A success clears that name's failures from that address
    only: the address's budget is never reset, so an attacker who knows one password
    cannot use it to buy more guesses at others.
    """

    def __init__(
        self, *, per_name_and_address: int = 5, per_address: int = 20, window: float = 300
    ) -> None:
        self.by_name = SlidingWindow(per_name_and_address, window)
        self.by_address = SlidingWindow(per_address, window)

    @staticmethod
    def _name_key(name: str, address: str) -> str:
        return f"{name.casefold()}\x00{address}"

    def retry_after(self, name: str, address: str, now: float) -> float:
        """Seconds until this name may try from this address again (0: now)."""
        return max(
            self.by_name.retry_after(self._name_key(name, address), now),
            self.by_address.retry_after(address, now),
        )

    def failed(self, name: str, address: str, now: float) -> None:
        """Count a failed sign-in."""
        self.by_name.add(self._name_key(name, address), now)
        self.by_address.add(address, now)

    def succeeded(self, name: str, address: str) -> None:
        """A sign-in for ``name`` from ``address`` succeeded: those failures are forgotten."""
        self.by_name.clear(self._name_key(name, address))


__all__ = ["MAX_KEYS", "SignInLimiter", "SlidingWindow"]
