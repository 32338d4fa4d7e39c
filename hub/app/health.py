"""Which of a table's nodes are online and which readers still sweep.

A node is known once it has said something: its availability (``…/node/<node>/
availability``, retained; ``offline`` is also its last will, which the broker publishes
when the node's connection dies) or an inventory. A reader belongs to the node whose
topic its last inventory came on. The readers of an offline node count as *unknown*: the
hub keeps what they last said for the rules (a node going away must not look like cards
leaving the table) but the pages show them as unknown.

A reader is watched for silence once an inventory of it said how often its node re-sends
it unchanged (``refresh_s``, :class:`~feltwire.protocol.ReaderInventory`): it is silent
when nothing of it came for ``max(reader_silent_s, 2 × refresh_s)`` while its node is
online. A node coming back online gives its readers a fresh window.

A node whose link is cut goes quiet all at once, and the hub learns it only when the
broker publishes the node's will — up to 1.5 × its MQTT keep-alive after the node's last
packet, longer than a reader's window with the defaults (15 s of keep-alive: 22.5 s).
So when the inventory also said the node's keep-alive (``keepalive_s``) and nothing at
all came from the node after the reader's re-send fell due (``refresh_s`` and
:data:`SLACK_S` after its last inventory), the reader's silence waits until the will
could have come: :func:`will_s` after the node's last message and its next re-send —
the node is then said offline instead, and a node that still answers its broker's pings
but sends nothing is said silent then. Another reader of the node heard after that point
shows the node alive, and a reader silent alone is said at the end of its own window.

Pure: the caller passes the time (the hub's monotonic clock) and gets back what changed
(:class:`HealthChange`), which the application turns into alerts.

>>> h = TableHealth(reader_silent_s=10)
>>> h.read("pi-north", "seat1", 5.0, now=0.0)
[]
>>> h.due(now=9.0), [c.kind.value for c in h.due(now=10.0)]
([], ['reader_silent'])
>>> [c.kind.value for c in h.read("pi-north", "seat1", 5.0, now=11.0)]
['reader_back']
>>> [(c.kind.value, c.readers) for c in h.availability("pi-north", False, now=12.0)]
[('node_offline', ('seat1',))]
>>> sorted(h.unknown_readers()), h.nodes()
(['seat1'], {'pi-north': 'offline'})
>>> [c.kind.value for c in h.availability("pi-north", True, now=30.0)], h.due(now=39.0)
(['node_online'], [])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

__all__ = ["SLACK_S", "HealthChange", "HealthKind", "TableHealth", "will_s"]

SLACK_S: Final = 2.0
"""How late a node's re-send may come after it fell due (its sweeps over its readers)."""


def will_s(keepalive_s: int) -> float:
    """How long after a node's last packet its will surely reached the hub: the broker
    gives up on it after 1.5 × its keep-alive; one keep-alive more for the broker's check
    and the message's way.

    >>> will_s(15), will_s(5)
    (37.5, 12.5)
    """
    return 2.5 * keepalive_s


class HealthKind(enum.StrEnum):
    """What changed about a node or a reader (the codes of the hub's alerts)."""

    NODE_OFFLINE = "node_offline"
    NODE_ONLINE = "node_online"
    """A node that was offline is back (not said of a node first heard online)."""
    READER_SILENT = "reader_silent"
    READER_BACK = "reader_back"


CLEARS: dict[HealthKind, HealthKind] = {
    HealthKind.NODE_ONLINE: HealthKind.NODE_OFFLINE,
    HealthKind.READER_BACK: HealthKind.READER_SILENT,
}
"""Which change ends which."""


@dataclass(frozen=True, slots=True)
class HealthChange:
    """One change: what, the node, and the readers it concerns (an offline node's: every
    reader it last reported)."""

    kind: HealthKind
    node: str
    readers: tuple[str, ...]


@dataclass(slots=True)
class _Reader:
    node: str
    heard: float | None = None
    """When an inventory of it last came (None: only replayed from the log)."""
    refresh_s: float | None = None
    """How often its node re-sends it unchanged (None: changes only, not watched)."""
    keepalive_s: int | None = None
    """Its node's MQTT keep-alive, as its last inventory said (None: not said)."""
    silent: bool = False


class TableHealth:
    """The nodes' availability and the readers' last inventories (see the module)."""

    def __init__(self, *, reader_silent_s: float) -> None:
        if reader_silent_s <= 0:
            raise ValueError("reader_silent_s must be > 0")
        self.reader_silent_s = reader_silent_s
        self._online: dict[str, bool] = {}
        self._readers: dict[str, _Reader] = {}
        self._node_heard: dict[str, float] = {}
        """When anything last came from each node (an inventory, ``online``)."""

    def placements(self) -> list[list[str]]:
        """Which node each reader's last applied inventory came from — all of its state
        a replay of the event log rebuilds (a table snapshot holds it)."""
        return [[r, s.node] for r, s in self._readers.items()]

    def place_all(self, placements: list[list[str]]) -> None:
        """Take back what :meth:`placements` gave (at start, before anything is heard)."""
        self._readers = {}
        for reader, node in placements:
            self.placed(str(node), str(reader))

    def nodes(self) -> dict[str, str]:
        """Every node known, ``online`` or ``offline``."""
        return {n: "online" if up else "offline" for n, up in sorted(self._online.items())}

    def readers_of(self, node: str) -> tuple[str, ...]:
        """The readers whose last inventory came from ``node``."""
        return tuple(sorted(r for r, s in self._readers.items() if s.node == node))

    def unknown_readers(self) -> frozenset[str]:
        """The readers of the nodes that are offline: what lies there is not known."""
        return frozenset(
            r for r, s in self._readers.items() if self._online.get(s.node, True) is False
        )

    def silent_readers(self) -> frozenset[str]:
        """The readers told silent and not back yet."""
        return frozenset(r for r, s in self._readers.items() if s.silent)

    def placed(self, node: str, reader: str) -> None:
        """An inventory of ``reader`` from ``node`` was applied (live or replayed from the
        log): the reader is ``node``'s. Says nothing of its health."""
        found = self._readers.get(reader)
        if found is None:
            self._readers[reader] = _Reader(node)
        else:
            found.node = node

    def read(
        self,
        node: str,
        reader: str,
        refresh_s: float | None,
        *,
        now: float,
        keepalive_s: int | None = None,
    ) -> list[HealthChange]:
        """An inventory of ``reader`` came from ``node`` (live, or retained by the broker)
        at ``now``, its node re-sending it every ``refresh_s`` (None: changes only) and
        keeping its MQTT connection alive every ``keepalive_s`` (None: not said)."""
        self.placed(node, reader)
        self._online.setdefault(node, True)  # heard from: known
        self._node_heard[node] = now
        state = self._readers[reader]
        state.heard = now
        state.refresh_s = refresh_s
        state.keepalive_s = keepalive_s
        if state.silent:
            state.silent = False
            return [HealthChange(HealthKind.READER_BACK, node, (reader,))]
        return []

    def availability(self, node: str, online: bool, *, now: float) -> list[HealthChange]:
        """``node`` said it is ``online`` (or it, or its last will, said offline)."""
        before = self._online.get(node)
        self._online[node] = online
        if online == before:
            return []
        if not online:
            return [HealthChange(HealthKind.NODE_OFFLINE, node, self.readers_of(node))]
        self._node_heard[node] = now
        for reader in self.readers_of(node):  # a fresh window to report in
            state = self._readers[reader]
            if state.heard is not None:
                state.heard = now
        if before is None:
            return []
        return [HealthChange(HealthKind.NODE_ONLINE, node, self.readers_of(node))]

    def due(self, *, now: float) -> list[HealthChange]:
        """The readers of online nodes that fell silent by ``now`` (each told once, until
        it reports again)."""
        out: list[HealthChange] = []
        for reader, state in sorted(self._readers.items()):
            if state.silent or not self._online.get(state.node, True):
                continue  # told already, or its node is offline: that alert says it
            deadline = self._deadline(state)
            if deadline is not None and now >= deadline:
                state.silent = True
                out.append(HealthChange(HealthKind.READER_SILENT, state.node, (reader,)))
        return out

    def next_due(self) -> float | None:
        """When the next reader falls silent if nothing comes (None: none is watched)."""
        times = [
            t
            for s in self._readers.values()
            if not s.silent and self._online.get(s.node, True)
            and (t := self._deadline(s)) is not None
        ]  # fmt: skip
        return min(times) if times else None

    def _deadline(self, state: _Reader) -> float | None:
        """When ``state``'s reader is said silent if nothing more comes (see the module:
        the end of its window, ``max(reader_silent_s, 2 × refresh_s)``, or later while its
        whole node is quiet); None when it is not watched (changes only, or only replayed)."""
        heard, refresh = state.heard, state.refresh_s
        if heard is None or refresh is None:
            return None
        end = heard + max(self.reader_silent_s, 2 * refresh)
        if state.keepalive_s is None:
            return end
        node_heard = self._node_heard.get(state.node, heard)
        if node_heard > heard + refresh + SLACK_S:
            return end  # the node sent after this reader's re-send fell due: it is alive
        return max(end, node_heard + refresh + will_s(state.keepalive_s))
