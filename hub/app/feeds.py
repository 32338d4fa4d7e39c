"""Live feeds to web clients: fan-out to subscribers, and the delayed release of card data.

A :class:`Broadcaster` hands every event to each subscriber's bounded queue; a subscriber
that falls too far behind is cut off rather than slowing the table. Each subscription
carries a label (the page's feed: ``public``, ``console`` — both read the public
feed — or ``overlay``), so :meth:`Broadcaster.subscribers` says who is listening.
:class:`DelayedRelease` holds card-bearing events back until their release time (pure:
the caller supplies the clock), which is what keeps hole cards off a broadcast until the
configured delay passed.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hub.views.frames import Event

__all__ = ["Broadcaster", "DelayedRelease", "Event", "Subscription"]


class Subscription:
    """One client's queue of events; ``overflowed`` once it fell too far behind;
    ``label`` names the page's feed it serves (``public``, ``console``, ``overlay``)."""

    def __init__(self, maxsize: int, label: str = "") -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue(maxsize)
        self.overflowed = False
        self.label = label

    async def get(self) -> Event:
        """The next event (waits)."""
        return await self.queue.get()


class Broadcaster:
    """Fan-out of events to every current subscriber.

    >>> feed = Broadcaster()
    >>> with feed.subscribe("console") as sub:
    ...     feed.publish({"type": "x"})
    ...     dict(feed.subscribers()), sub.queue.qsize()
    ({'console': 1}, 1)
    >>> len(feed)
    0
    """

    def __init__(self, maxsize: int = 1000, *, tap: Callable[[Event], None] | None = None) -> None:
        self._subs: set[Subscription] = set()
        self._maxsize = maxsize
        self._tap = tap
        self.sent = 0

    @contextmanager
    def subscribe(self, label: str = "") -> Iterator[Subscription]:
        """Receive events while the ``with`` block runs (``label``: the page's feed)."""
        sub = Subscription(self._maxsize, label)
        self._subs.add(sub)
        try:
            yield sub
        finally:
            self._subs.discard(sub)

    def publish(self, event: Event) -> None:
        """Queue ``event`` for every subscriber (and hand it to the tap, if any); drop
        subscribers that are full."""
        if self._tap is not None:
            self._tap(event)
        for sub in list(self._subs):
            try:
                sub.queue.put_nowait(event)
                self.sent += 1
            except asyncio.QueueFull:
                sub.overflowed = True
                self._subs.discard(sub)

    def subscribers(self) -> Counter[str]:
        """How many subscribers there are now, by label."""
        return Counter(sub.label for sub in self._subs)

    def __len__(self) -> int:
        return len(self._subs)


@dataclass(order=True)
class _Held:
    release_at: float
    order: int
    event: Event = field(compare=False)
    text: str | None = field(default=None, compare=False)
    """The entry as JSON text, once a snapshot encoded it (:meth:`DelayedRelease.held`)."""

    def as_json(self) -> str:
        """``[release_at, order, event]`` as JSON text (encoded once, then kept)."""
        if self.text is None:
            self.text = json.dumps([self.release_at, self.order, self.event], separators=(",", ":"))
        return self.text


class DelayedRelease:
    """Holds events until ``delay`` seconds after they happened, releasing them in order.

    >>> d = DelayedRelease(delay=60)
    >>> d.push({"n": 1}, now=0.0)
    >>> d.due(now=59.9), d.due(now=60.0)
    ([], [{'n': 1}])
    """

    def __init__(self, delay: float) -> None:
        if delay < 0:
            raise ValueError("delay must be >= 0")
        self.delay = delay
        self._heap: list[_Held] = []
        self._counter = itertools.count()

    def push(self, event: Event, now: float) -> None:
        """Hold ``event`` (which happened at ``now``) until ``now + delay``."""
        heapq.heappush(self._heap, _Held(now + self.delay, next(self._counter), event))

    def due(self, now: float) -> list[Event]:
        """Every held event whose release time has come, oldest first."""
        out = []
        while self._heap and self._heap[0].release_at <= now:
            out.append(heapq.heappop(self._heap).event)
        return out

    def next_release(self) -> float | None:
        """When the next held event is due, or None when nothing is held."""
        return self._heap[0].release_at if self._heap else None

    def held(self) -> list[_Held]:
        """The held entries, a copy of the list (a table snapshot encodes them with
        :meth:`encode`, off the event loop)."""
        return list(self._heap)

    @staticmethod
    def encode(held: list[_Held], keep: Callable[[Event], bool]) -> str:
        """The held entries whose event ``keep`` accepts as one JSON array text (each
        entry encoded once and kept: a later snapshot only encodes what was held since)."""
        return "[" + ",".join(h.as_json() for h in held if keep(h.event)) + "]"

    def restore(self, entries: list[list[Any]]) -> None:
        """Hold the entries :meth:`encode` wrote (``[release_at, order, event]``), in
        their order, as the only ones."""
        self._heap = [_Held(float(at), int(order), event) for at, order, event in entries]
        heapq.heapify(self._heap)
        last = max((h.order for h in self._heap), default=-1)
        self._counter = itertools.count(last + 1)

    def __len__(self) -> int:
        return len(self._heap)
