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
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hub.views.frames import Event

__all__ = ["END", "Broadcaster", "DelayedRelease", "Event", "HeldFrames", "Subscription"]

END: Event = {"type": "end"}
"""Put in a subscription's queue, by identity, when the feed ended it: the page's socket
is closed (1013, try again later) and its page reconnects."""


class Subscription:
    """One client's queue of events; ``overflowed`` once it fell too far behind (or the
    feed ended it: the last event is then :data:`END`); ``label`` names the page's feed
    it serves (``public``, ``console``, ``overlay``)."""

    def __init__(self, maxsize: int, label: str = "") -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue(maxsize)
        self.overflowed = False
        self.label = label

    async def get(self) -> Event:
        """The next event (waits)."""
        return await self.queue.get()

    def end(self) -> None:
        """Drop what is queued and end the subscription (:data:`END` comes next)."""
        self.overflowed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(END)


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
        self._watchers: list[Callable[[Event], None]] = []
        self.sent = 0
        self.gate: Callable[[], bool] | None = None
        """Asked before every event (None: always open): while it says False nothing is
        published and every subscriber is ended — the hub may no longer speak for the
        table (:class:`~hub.app.tenure.Tenure`)."""
        self.muted = 0
        """Events not published because the gate was shut."""
        self.last_t: float | None = None
        """The time (``t``) of the latest event published that carries one (None: none
        yet) — on the overlay's feed, the delayed picture's time."""

    def watch(self, watcher: Callable[[Event], None]) -> None:
        """Hand every event published from now on to ``watcher`` too, before the
        subscribers get it (it must be quick: it runs on the event loop)."""
        self._watchers.append(watcher)

    @contextmanager
    def subscribe(self, label: str = "") -> Iterator[Subscription]:
        """Receive events while the ``with`` block runs (``label``: the page's feed)."""
        sub = Subscription(self._maxsize, label)
        self._subs.add(sub)
        try:
            yield sub
        finally:
            self._subs.discard(sub)

    def live(self) -> bool:
        """Whether the feed may send now (its gate is open)."""
        return self.gate is None or self.gate()

    def end_all(self) -> None:
        """End every subscription (each page's socket is closed; its page reconnects)."""
        for sub in self._subs:
            sub.end()
        self._subs.clear()

    def publish(self, event: Event) -> None:
        """Queue ``event`` for every subscriber (and hand it to the tap, if any); drop
        subscribers that are full. While the gate is shut nothing is published and the
        subscribers are ended."""
        if self.gate is not None and not self.gate():
            self.muted += 1
            self.end_all()
            return
        if self._tap is not None:
            self._tap(event)
        t = event.get("t")
        if isinstance(t, int | float) and (self.last_t is None or t > self.last_t):
            self.last_t = float(t)
        for watcher in self._watchers:
            watcher(event)
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


HELD_BLOCK = 64
"""How many held frames go into one compressed block (:class:`DelayedRelease`)."""

HELD_LEVEL = 6
"""The zlib level of a block of held frames."""


def _all(event: Event) -> bool:
    return True


@dataclass(order=True, frozen=True, slots=True)
class _Held:
    """One held event, as its compact JSON text (never the dict: see :class:`DelayedRelease`)."""

    release_at: float
    order: int
    text: str = field(compare=False)
    kept: bool = field(compare=False)
    """Whether a snapshot holds it (the ``keep`` of :class:`DelayedRelease`)."""

    @property
    def event(self) -> Event:
        """The event (decoded anew at each call)."""
        event: Event = json.loads(self.text)
        return event

    def as_json(self) -> str:
        """``[release_at, order, event]`` as JSON text (what :meth:`DelayedRelease.encode`
        writes)."""
        return f"[{self.release_at!r},{self.order},{self.text}]"

    def line(self) -> str:
        """The entry as one line of a block: kept flag, release time, order, event."""
        return f"{'1' if self.kept else '0'}{self.release_at!r} {self.order} {self.text}"


def _unline(line: str) -> _Held:
    at, order, text = line[1:].split(" ", 2)  # (the event's text may have spaces: not split)
    return _Held(float(at), int(order), text, line[0] == "1")


@dataclass(order=True, frozen=True, slots=True)
class _Block:
    """Held entries sealed together: their lines (:meth:`_Held.line`), zlib-compressed."""

    first: float
    """The earliest release time in the block."""
    order: int
    data: bytes = field(compare=False)
    count: int = field(compare=False)
    last: int = field(compare=False)
    """The greatest order in the block."""

    def lines(self) -> list[str]:
        return zlib.decompress(self.data).decode().split("\n")


@dataclass(frozen=True)
class HeldFrames:
    """What :meth:`DelayedRelease.held` took: immutable parts, to encode in another thread."""

    entries: list[_Held]
    blocks: list[_Block]

    def encode(self) -> str:
        """The held entries a snapshot keeps as one JSON array text of
        ``[release_at, order, event]`` (decompressing the blocks, parsing no event)."""
        parts = [h.as_json() for h in self.entries if h.kept]
        for block in self.blocks:
            for line in block.lines():
                if line[0] == "1":
                    at, order, text = line[1:].split(" ", 2)
                    parts.append(f"[{at},{order},{text}]")
        return "[" + ",".join(parts) + "]"

    def decoded(self) -> list[list[Any]]:
        """Every held entry (kept or not) as ``[release_at, order, event]``."""
        held = self.entries + [_unline(line) for b in self.blocks for line in b.lines()]
        return [[h.release_at, h.order, h.event] for h in held]

    def __len__(self) -> int:
        return len(self.entries) + sum(b.count for b in self.blocks)

    def last(self) -> int:
        """The greatest order held (-1: none)."""
        return max([h.order for h in self.entries] + [b.last for b in self.blocks], default=-1)


_decoder = json.JSONDecoder()
_space = re.compile(r"[ \t\n\r]*")


def _elements(text: str) -> Iterator[tuple[float, int, str, Event]]:
    """The entries of a JSON array of ``[release_at, order, event]`` (what
    :meth:`HeldFrames.encode` wrote), each with its event's JSON text as it stands in
    ``text`` (not encoded again); ValueError when it is not that."""

    def skip(i: int) -> int:
        match = _space.match(text, i)
        assert match is not None  # (the pattern matches the empty string)
        return match.end()

    i = skip(0)
    if text[i : i + 1] != "[":
        raise ValueError("not a JSON array")
    i = skip(i + 1)
    more = text[i : i + 1] != "]"
    while more:
        value, end = _decoder.raw_decode(text, i)
        if not (
            isinstance(value, list)
            and len(value) == 3
            and type(value[0]) in (int, float)
            and type(value[1]) is int
            and isinstance(value[2], dict)
        ):
            raise ValueError("an entry is not [release_at, order, event]")
        piece = text[i:end]  # "[at,order,event]": the numbers hold no comma
        event = piece[piece.index(",", piece.index(",") + 1) + 1 : -1]
        if "\n" in event or "\r" in event:  # not compact: a block holds one a line
            event = json.dumps(value[2], separators=(",", ":"))
        yield float(value[0]), value[1], event, value[2]
        i = skip(end)
        more = text[i : i + 1] == ","
        if more:
            i = skip(i + 1)
        elif text[i : i + 1] != "]":
            raise ValueError("the entries are not separated by commas")
    if skip(i + 1) != len(text):
        raise ValueError("text after the array")


class DelayedRelease:
    """Holds events until ``delay`` seconds after they happened, releasing them in order.

    A 30-minute delay holds half an hour of a table's overlay frames, pictures of the
    whole table among them, so they are held compactly: each event as its compact JSON
    text from the moment it is pushed (the dict is let go), and every
    :data:`HELD_BLOCK` of them sealed into one zlib-compressed block (consecutive frames
    are much alike: some 40 bytes a frame, against 2 KB as dicts). A block is opened
    when its earliest release time comes, its entries released each at its own time;
    an event is decoded as it is released — so what comes out, in what order and when,
    is what a heap of the events themselves would give. ``keep`` says, at the push,
    whether a snapshot holds the event (:meth:`HeldFrames.encode`).

    >>> d = DelayedRelease(delay=60)
    >>> d.push({"n": 1}, now=0.0)
    >>> d.due(now=59.9), d.due(now=60.0)
    ([], [{'n': 1}])
    """

    def __init__(
        self, delay: float, *, keep: Callable[[Event], bool] = _all, block: int = HELD_BLOCK
    ) -> None:
        if delay < 0:
            raise ValueError("delay must be >= 0")
        self.delay = delay
        self._keep = keep
        self._block = block
        self._ready: list[_Held] = []
        """A heap: entries out of their block (or never sealed) that are due soon."""
        self._open: list[_Held] = []
        """The entries pushed since the last block was sealed."""
        self._sealed: list[_Block] = []
        """A heap of the sealed blocks, earliest first."""
        self._count = 0
        self._counter = itertools.count()

    def push(self, event: Event, now: float) -> None:
        """Hold ``event`` (which happened at ``now``) until ``now + delay``."""
        text = json.dumps(event, separators=(",", ":"))
        self._hold(_Held(now + self.delay, next(self._counter), text, self._keep(event)))

    def _hold(self, held: _Held) -> None:
        self._open.append(held)
        self._count += 1
        if len(self._open) >= self._block:
            first = min(self._open)
            data = zlib.compress("\n".join(h.line() for h in self._open).encode(), HELD_LEVEL)
            last = max(h.order for h in self._open)
            block = _Block(first.release_at, first.order, data, len(self._open), last)
            heapq.heappush(self._sealed, block)
            self._open = []

    def due(self, now: float) -> list[Event]:
        """Every held event whose release time has come, oldest first."""
        while self._sealed and self._sealed[0].first <= now:
            for line in heapq.heappop(self._sealed).lines():
                heapq.heappush(self._ready, _unline(line))
        if self._open and min(h.release_at for h in self._open) <= now:
            for h in self._open:
                if h.release_at <= now:
                    heapq.heappush(self._ready, h)
            self._open = [h for h in self._open if h.release_at > now]
        out = []
        while self._ready and self._ready[0].release_at <= now:
            out.append(heapq.heappop(self._ready).event)
        self._count -= len(out)
        return out

    def next_release(self) -> float | None:
        """When the next held event is due, or None when nothing is held."""
        times = [h.release_at for h in self._open]
        if self._ready:
            times.append(self._ready[0].release_at)
        if self._sealed:
            times.append(self._sealed[0].first)
        return min(times, default=None)

    def held(self) -> HeldFrames:
        """The held entries as they are now (a table snapshot encodes them with
        :meth:`HeldFrames.encode`, off the event loop)."""
        return HeldFrames(self._ready + self._open, list(self._sealed))

    @staticmethod
    def encode(held: HeldFrames) -> str:
        """The held entries a snapshot keeps (``keep``) as one JSON array text."""
        return held.encode()

    def parse(self, text: str) -> HeldFrames:
        """The entries :meth:`encode` wrote (a JSON array of ``[release_at, order,
        event]``), held as this delay holds them, for :meth:`restore` (each event's text
        is taken as it stands, not encoded again); ValueError when ``text`` is not that."""
        staging = DelayedRelease(self.delay, keep=self._keep, block=self._block)
        for at, order, event_text, event in _elements(text):
            staging._hold(_Held(at, order, event_text, self._keep(event)))
        return staging.held()

    def restore(self, held: HeldFrames) -> None:
        """Hold ``held`` (:meth:`held` or :meth:`parse` gave it) as the only entries."""
        self._ready, self._open = list(held.entries), []
        heapq.heapify(self._ready)
        self._sealed = list(held.blocks)
        heapq.heapify(self._sealed)
        self._count = len(held)
        self._counter = itertools.count(held.last() + 1)

    def __len__(self) -> int:
        return self._count
