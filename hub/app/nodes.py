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
* **Were reads lost?** Among live messages (not the retained ones the broker repeats when
  the hub subscribes), a step from ``n`` to ``n + k`` means ``k - 1`` messages never came:
  counted as lost, with the node and the sequence numbers, and an alert. A jump beyond
  :data:`MAX_GAP` is a node that restarted its count, not a loss.
* **Does a node flood the hub?** Each node gets a token bucket (``rate`` messages a second,
  ``burst`` at once); past it a message is refused (``rate_limited``), counted with its
  sequence number — never dropped without a trace.
* **Is a node stuck behind?** Live reads that keep arriving ``stale`` mean the node's count
  went back (a restored SD card) or someone sent a forged count: an alert tells the
  operator, who resets the node's sequence (``POST /api/admin/nodes/<node>/reset``).

Pure: the caller passes the time (the hub's monotonic time) and the wall clock's reading
in milliseconds for the plausibility bound.

>>> watch = NodeWatch(rate=10, burst=3)
>>> watch.plausible("n1", 2**63 - 1, wall_ms=1_800_000_000_000)
'seq 9223372036854775807 is far ahead of any count a node can reach'
>>> [watch.admit("n1", seq, now=0.0)[0] for seq in (1, 2, 3, 4)]
[True, True, True, False]
>>> watch.taken("n1", 1, live=True), watch.taken("n1", 6, live=True)  # 4 came, refused
(None, (5, 5))
>>> watch.stats()["n1"]["lost"], watch.stats()["n1"]["rate_limited"]
(1, 1)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_GAP", "MAX_NODES", "MAX_SEQ_JUMP", "STALE_STREAK", "NodeWatch", "Ranges"]

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


@dataclass
class _Node:
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


class NodeWatch:
    """Per-node sequence, gap and rate accounting for one table (see the module doc)."""

    def __init__(self, *, rate: float, burst: int) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a node's rate limit needs rate > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._nodes: dict[str, _Node] = {}

    def _node(self, node: str) -> _Node:
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

    def admit(
        self, node: str, seq: int | None, now: float, *, live: bool = True
    ) -> tuple[bool, tuple[int, int] | None]:
        """Take one message of ``node`` from its token bucket at time ``now`` (seconds,
        monotonic): whether it may pass — not when the node is over its rate (counted,
        with ``seq`` when it has one) — and the sequence range lost before a refused
        live one (it came, so what it follows is known; see :meth:`taken`)."""
        if node not in self._nodes and len(self._nodes) >= MAX_NODES:
            return False, None
        n = self._node(node)
        if n.refilled is not None:
            n.tokens = min(float(self.burst), n.tokens + (now - n.refilled) * self.rate)
        n.refilled = now
        if n.tokens >= 1.0:
            n.tokens -= 1.0
            return True, None
        if seq is None:
            n.limited.count += 1
            return False, None
        n.limited.add(seq, seq)
        return False, self._follow(n, seq) if live else None

    def taken(self, node: str, seq: int, *, live: bool) -> tuple[int, int] | None:
        """``node``'s message ``seq`` was taken (``live``: not a retained repeat, and not
        replayed from the log); the sequence range lost before it, if any."""
        n = self._node(node)
        n.stale_streak = 0
        n.hi = seq if n.hi is None else max(n.hi, seq)
        return self._follow(n, seq) if live else None

    def _follow(self, n: _Node, seq: int) -> tuple[int, int] | None:
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

    def stale(self, node: str, *, live: bool) -> bool:
        """A message of ``node`` was refused ``stale``; True when this makes
        :data:`STALE_STREAK` live ones in a row (time to tell the operator)."""
        if not live:
            return False
        n = self._node(node)
        n.stale_streak += 1
        return n.stale_streak == STALE_STREAK

    def reset(self, node: str) -> None:
        """Forget ``node``'s count (the operator reset it): its next message starts anew."""
        n = self._nodes.get(node)
        if n is not None:
            n.hi = n.live_hi = None
            n.stale_streak = 0

    def stats(self) -> dict[str, dict[str, Any]]:
        """Per node: the last seq taken, reads lost and refused over the rate (counts and
        the latest ranges), implausible counts refused."""
        return {
            node: {
                "last_seq": n.hi,
                "lost": n.lost.count,
                "lost_seqs": n.lost.as_list(),
                "rate_limited": n.limited.count,
                "rate_limited_seqs": n.limited.as_list(),
                "seq_jumps": n.jumps,
            }
            for node, n in sorted(self._nodes.items())
        }
