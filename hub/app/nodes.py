"""What the hub knows of each node's message stream: sequence numbers, gaps, rate.

Every inventory a node sends carries ``seq``, the node's message counter: +1 per message,
over all its antennas (``docs/protocol.md``). The ingest drops a repeat per antenna
(``duplicate``, ``stale``); :class:`NodeWatch` looks at the stream of each node as a
whole and answers the questions a flood, a lossy broker or a forged message raise:

* **Is this sequence number plausible?** A node counts from its state file, or — with no
  state — from the wall clock in milliseconds when it starts; no node counts past "now in
  milliseconds" plus a day, nor jumps more than :data:`MAX_SEQ_JUMP` ahead of what it sent
  last unless it restarted on a fresh count. One message with ``seq = 2**63 - 1`` would
  otherwise make every later read of that antenna ``stale`` — the table stalls — so it is
  refused (``seq_jump``), counted and said.
* **In what order are the reads applied?** In the node's, by ``seq``. MQTT keeps the order
  of one topic only, and each antenna has its own: a read of one antenna can overtake an
  earlier read of another (a proxy, a broker's redelivery, a QoS 1 resend). A live message
  whose ``seq`` skips ahead of the node's next one is *held* (:meth:`NodeWatch.arrive`)
  until the gap fills — then the held ones follow in order — or until ``grace`` seconds
  pass (:meth:`NodeWatch.due`, on the hub's monotonic time). The hold goes by ``seq``
  alone, whatever the antenna.
* **Were reads lost?** Among live messages (not the retained ones the broker repeats when
  the hub subscribes), a step from ``n`` to ``n + k`` means ``k - 1`` messages never came:
  counted as lost — once the hold has given up on them — with the node and the sequence
  numbers, and an alert. A jump beyond :data:`MAX_GAP` is a node that restarted its count,
  not a loss (nor a gap to wait for).
* **Does a node flood the hub?** Each node gets a token bucket (``rate`` messages a second,
  ``burst`` at once); past it a message is refused (``rate_limited``), counted with its
  sequence number — never dropped without a trace.
* **Is a node stuck behind?** Live reads that keep arriving ``stale`` mean the node's count
  went back (a restored SD card) or someone sent a forged count: an alert tells the
  operator, who resets the node's sequence (``POST /api/admin/nodes/<node>/reset``).

Pure: the caller passes the time (the hub's monotonic time) and the wall clock's reading
in milliseconds for the plausibility bound.

>>> watch: NodeWatch[str] = NodeWatch(rate=10, burst=3, grace=0.5)
>>> watch.plausible("n1", 2**63 - 1, wall_ms=1_800_000_000_000)
'seq 9223372036854775807 is far ahead of any count a node can reach'
>>> [watch.admit("n1", seq, now=0.0) for seq in (1, 2, 3, 4)]
[True, True, True, False]
>>> watch.arrive("n1", 1, "one", now=0.0)
[Released(seq=1, item='one', lost=None)]
>>> watch.arrive("n1", 3, "three", now=0.0)  # 2 is not here yet: held
[]
>>> watch.arrive("n1", 2, "two", now=0.1)  # the gap fills: both, in order
[Released(seq=2, item='two', lost=None), Released(seq=3, item='three', lost=None)]
>>> watch.arrive("n1", 4, None, now=0.2)  # refused over the rate: it came, though
[Released(seq=4, item=None, lost=None)]
>>> watch.arrive("n1", 7, "seven", now=0.2), watch.next_due()
([], 0.7)
>>> watch.due(now=0.7)  # the grace is over: 5 and 6 are lost
[('n1', Released(seq=7, item='seven', lost=(5, 6)))]
>>> watch.stats()["n1"]["lost"], watch.stats()["n1"]["rate_limited"]
(2, 1)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

__all__ = [
    "MAX_GAP",
    "MAX_HELD",
    "MAX_NODES",
    "MAX_SEQ_JUMP",
    "STALE_STREAK",
    "NodeWatch",
    "Ranges",
    "Released",
]

T = TypeVar("T")

MAX_SEQ_JUMP = 100_000
"""The furthest a node's count may jump ahead of the last message the hub took from it
(unless the new count is a fresh start from the wall clock, see :meth:`NodeWatch.plausible`)."""
CLOCK_AHEAD_MS = 24 * 3600 * 1000
"""How far ahead of the hub's wall clock (in ms) a fresh count may start: clocks differ."""
MAX_GAP = 10_000
"""A larger step between two live messages is a node that restarted its count, not a loss."""
STALE_STREAK = 5
"""Live messages refused ``stale`` in a row before the hub says the node is stuck behind."""
MAX_NODES = 256
"""Nodes one table keeps accounts for; a message of a further node is refused as over the
rate (a flood of invented node ids cannot grow the hub without bound)."""
RANGES_KEPT = 1000
"""Sequence ranges kept per node and kind (lost, refused): the latest ones."""
MAX_HELD = 1000
"""Messages held per node at most while a gap fills; one more ends the wait at once (a
node cannot make the hub hold without bound)."""


class Ranges:
    """Sequence numbers as closed ranges, consecutive ones merged; the latest kept."""

    def __init__(self, keep: int = RANGES_KEPT) -> None:
        self._ranges: deque[list[int]] = deque(maxlen=keep)
        self.count = 0

    def add(self, first: int, last: int) -> None:
        """Add ``first..last`` (both included)."""
        self.count += last - first + 1
        if self._ranges and self._ranges[-1][1] + 1 == first:
            self._ranges[-1][1] = last
        else:
            self._ranges.append([first, last])

    def as_list(self) -> list[list[int]]:
        """The ranges kept, oldest first."""
        return [list(r) for r in self._ranges]


class Released(NamedTuple, Generic[T]):
    """A live message let through, in the node's sequence order: its ``seq``, what was
    held with it (None: a message that came but was refused, e.g. over the rate), and the
    sequence numbers lost right before it (None: none)."""

    seq: int
    item: T | None
    lost: tuple[int, int] | None


@dataclass
class _Node(Generic[T]):
    hi: int | None = None
    """The highest seq taken from the node (from the log or live)."""
    live_hi: int | None = None
    """The highest seq of a live message taken (where the next live one should follow)."""
    lost: Ranges = field(default_factory=Ranges)
    limited: Ranges = field(default_factory=Ranges)
    jumps: int = 0
    stale_streak: int = 0
    tokens: float = 0.0
    refilled: float | None = None
    held: dict[int, tuple[T | None, float]] = field(default_factory=dict)
    """Live messages that skipped ahead of the next seq: seq → (item, when the wait ends)."""


class NodeWatch(Generic[T]):
    """Per-node sequence, gap and rate accounting for one table (see the module doc);
    ``T`` is what the caller holds with a message while its gap fills (a read)."""

    def __init__(self, *, rate: float, burst: int, grace: float = 0.0) -> None:
        """``grace``: how long (seconds) a live message that skips ahead waits for the
        ones before it (0: not at all — a gap is lost at once)."""
        if rate <= 0 or burst < 1:
            raise ValueError("a node's rate limit needs rate > 0 and burst >= 1")
        if grace < 0:
            raise ValueError("the reorder grace cannot be negative")
        self.rate = rate
        self.burst = burst
        self.grace = grace
        self._nodes: dict[str, _Node[T]] = {}

    def _node(self, node: str) -> _Node[T]:
        found = self._nodes.get(node)
        if found is None:
            found = self._nodes[node] = _Node(tokens=float(self.burst))
        return found

    def plausible(self, node: str, seq: int, *, wall_ms: int) -> str | None:
        """None when ``seq`` is a count ``node`` can have reached; else why not."""
        n = self._nodes.get(node)
        fresh_start = seq <= wall_ms + CLOCK_AHEAD_MS
        if n is not None and n.hi is not None and seq <= n.hi + MAX_SEQ_JUMP:
            return None
        if fresh_start:
            return None
        if n is not None:
            n.jumps += 1
        return f"seq {seq} is far ahead of any count a node can reach"

    def admit(self, node: str, seq: int | None, now: float) -> bool:
        """Take one message of ``node`` from its token bucket at time ``now`` (seconds,
        monotonic): whether it may pass — not when the node is over its rate (counted,
        with ``seq`` when it has one). A refused live message still came: give it to
        :meth:`arrive` with no item, so the ones after it are not held for it."""
        if node not in self._nodes and len(self._nodes) >= MAX_NODES:
            return False
        n = self._node(node)
        if n.refilled is not None:
            n.tokens = min(float(self.burst), n.tokens + (now - n.refilled) * self.rate)
        n.refilled = now
        if n.tokens >= 1.0:
            n.tokens -= 1.0
            return True
        if seq is None:
            n.limited.count += 1
        else:
            n.limited.add(seq, seq)
        return False

    def taken(self, node: str, seq: int, *, live: bool) -> tuple[int, int] | None:
        """``node``'s message ``seq`` was taken at once (``live``: not a retained repeat,
        and not replayed from the log); the sequence range lost before it, if any. A live
        message the hub may hold goes through :meth:`arrive` instead."""
        n = self._node(node)
        return self._take(n, seq, live=live)

    def _take(self, n: _Node[T], seq: int, *, live: bool) -> tuple[int, int] | None:
        n.stale_streak = 0
        n.hi = seq if n.hi is None else max(n.hi, seq)
        return self._follow(n, seq) if live else None

    def held(self, node: str, seq: int) -> bool:
        """Whether ``node``'s message ``seq`` is held (waiting for the ones before it)
        with an item: another copy of it is a duplicate."""
        n = self._nodes.get(node)
        return n is not None and n.held.get(seq, (None, 0.0))[0] is not None

    def arrive(self, node: str, seq: int, item: T | None, now: float) -> list[Released[T]]:
        """A live message ``seq`` of ``node`` came at ``now`` with ``item`` (None: it came
        but was refused, e.g. over the rate). Returns what to apply now, in the node's
        sequence order: held messages whose wait is over, this one when it is the next
        (or follows no count: the first, or a count that restarted), and the held ones
        it lets through. A message that skips ahead is held instead — until the gap
        fills or ``grace`` seconds pass (:meth:`due`) — unless ``grace`` is 0."""
        n = self._node(node)
        out = self._drain(n, now)
        base = n.live_hi
        if seq in n.held:  # another copy of a held message: the item, if it had none
            if n.held[seq][0] is None and item is not None:
                n.held[seq] = (item, n.held[seq][1])
            return out
        ahead = base is not None and base + 1 < seq <= base + 1 + MAX_GAP
        if ahead and self.grace > 0:
            n.held[seq] = (item, now + self.grace)
            if len(n.held) > MAX_HELD:  # a wait without bound is no wait: give up now
                out += self._drain(n, now, upto=max(n.held))
            return out
        if base is not None and seq > base + 1 + MAX_GAP:
            out += self._drain(n, now, upto=max(n.held, default=0))  # the old count first
        out.append(self._release(n, seq, item))
        return out + self._drain(n, now)

    def due(self, now: float) -> list[tuple[str, Released[T]]]:
        """Held messages whose wait is over at ``now``, with their nodes, each node's in
        its sequence order: what is still missing before them is counted lost."""
        return [
            (node, released)
            for node, n in self._nodes.items()
            if n.held
            for released in self._drain(n, now)
        ]

    def next_due(self) -> float | None:
        """When the next held message's wait ends (None: none is held)."""
        ends = [end for n in self._nodes.values() for _, end in n.held.values()]
        return min(ends) if ends else None

    def _release(self, n: _Node[T], seq: int, item: T | None) -> Released[T]:
        """Let ``seq`` through: taken (an item) or only followed (one that was refused)."""
        lost = self._take(n, seq, live=True) if item is not None else self._follow(n, seq)
        return Released(seq, item, lost)

    def _drain(self, n: _Node[T], now: float, upto: int | None = None) -> list[Released[T]]:
        """Release ``n``'s held messages that may go: in seq order, each one that is next,
        is not ahead of the count (it restarted or was reset), or is at most the highest
        seq whose wait is over at ``now`` (or ``upto``) — what it skips is lost."""
        if not n.held:
            return []
        ends = [seq for seq, (_, end) in n.held.items() if end <= now]
        last_due = max(ends + ([] if upto is None else [upto]), default=None)
        out: list[Released[T]] = []
        for seq in sorted(n.held):
            base = n.live_hi
            if base is not None and seq > base + 1 and (last_due is None or seq > last_due):
                break
            item, _ = n.held.pop(seq)
            out.append(self._release(n, seq, item))
        return out

    def _follow(self, n: _Node[T], seq: int) -> tuple[int, int] | None:
        """A live message ``seq`` came: the range lost before it (counted), if any."""
        base = n.live_hi
        n.live_hi = seq if base is None else max(base, seq)
        if base is None or seq <= base + 1 or seq - base - 1 > MAX_GAP:
            return None
        n.lost.add(base + 1, seq - 1)
        return (base + 1, seq - 1)

    def resume(self) -> None:
        """The event log was replayed: each node's next live message should follow the
        last one the log holds (a gap from there is reads lost while the hub was away —
        acknowledged by the broker but never logged)."""
        for n in self._nodes.values():
            n.live_hi = n.hi

    def export_state(self) -> list[list[Any]]:
        """Each node's highest seq taken — all a replay of the event log rebuilds of a
        node's account (a table snapshot holds it), in the order the nodes came."""
        return [[node, n.hi] for node, n in self._nodes.items()]

    def import_state(self, state: list[list[Any]]) -> None:
        """Take back what :meth:`export_state` gave (at start, before :meth:`resume`)."""
        self._nodes = {}
        for node, hi in state:
            self._node(str(node)).hi = None if hi is None else int(hi)

    def stale(self, node: str, *, live: bool) -> bool:
        """A message of ``node`` was refused ``stale``; True when this makes
        :data:`STALE_STREAK` live ones in a row (time to tell the operator)."""
        if not live:
            return False
        n = self._node(node)
        n.stale_streak += 1
        return n.stale_streak == STALE_STREAK

    def reset(self, node: str) -> None:
        """Forget ``node``'s count (the operator reset it): its next message starts anew;
        what is held of it waits no more (it goes out first, see :meth:`due`)."""
        n = self._nodes.get(node)
        if n is not None:
            n.hi = n.live_hi = None
            n.stale_streak = 0
            n.held = {seq: (item, float("-inf")) for seq, (item, _) in n.held.items()}

    def stats(self) -> dict[str, dict[str, Any]]:
        """Per node: the last seq taken, reads lost and refused over the rate (counts and
        the latest ranges), implausible counts refused, messages held for a gap now."""
        return {
            node: {
                "last_seq": n.hi,
                "lost": n.lost.count,
                "lost_seqs": n.lost.as_list(),
                "rate_limited": n.limited.count,
                "rate_limited_seqs": n.limited.as_list(),
                "seq_jumps": n.jumps,
                "held": len(n.held),
            }
            for node, n in sorted(self._nodes.items())
        }
