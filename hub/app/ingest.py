"""Reader inventories in, cards out: validation, deduplication and the tag → card map.

Every message is checked in this order, and a refusal is counted under its reason and
logged — the hub never stops for bad input:

``oversized`` → ``bad_topic`` (not a reader topic of this table) → ``unknown_reader``
(not an antenna of this table) → ``malformed`` (not JSON / off-schema / reader differs
from the topic) → ``schema_version`` → ``node_mismatch`` (the payload's ``node`` is not
the node whose topic it came on: the broker's ACL binds that topic to the node's
credential, so a payload naming another node is a forgery). Accepted messages are then
checked against the node's whole stream (:class:`hub.app.nodes.NodeWatch`): a sequence
number no node can have reached is refused (``seq_jump``), a node over its rate is refused
(``rate_limited``, with its sequence number kept); then deduplicated per (node, reader)
by sequence number (``duplicate``, ``stale``; a copy of a read still held is a
``duplicate`` too). A live read whose ``seq`` skips ahead of its node's next one is held
until the reads before it come — then all go out in the node's order — or the reorder
grace passes (:meth:`Ingest.due`); only then are the sequence numbers still missing
counted as lost, with the node and the numbers. Each uid that is not in the
registered deck is refused on its own (``unknown_tag``) while the rest of the inventory
is applied. Button presses (``…/node/<node>/button``) get the same checks but the
sequence ones (they carry no ``seq``).

What the hub should tell the dealer about a node (reads lost, a flood, a count stuck
behind or implausible) is queued as a :class:`NodeNotice` in :attr:`Ingest.notices`.
Log lines go through a :class:`~hub.app.throttle.ThrottledLog`: a flood of refusals does not
flood the journal (the counters count every one).
"""

from __future__ import annotations

import enum
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from feltwire.deck import Deck
from feltwire.errors import ProtocolError
from feltwire.protocol import (
    AVAILABILITY_OFFLINE,
    AVAILABILITY_ONLINE,
    ButtonPress,
    ReaderInventory,
    TopicKind,
    decode_button_press,
    decode_inventory,
    parse_topic,
)
from hub.app.nodes import NodeWatch, Released
from hub.app.throttle import ThrottledLog

log = logging.getLogger(__name__)

DEFAULT_NODE_RATE = 100.0
"""Messages a second one node may send, sustained (a dealing table sends a few)."""
DEFAULT_NODE_BURST = 500
"""Messages one node may send at once before its rate applies."""
DEFAULT_REORDER_GRACE_S = 0.5
"""How long a live read that skips ahead of its node's count waits for the reads before
it (``[health] reorder_grace_s``): MQTT orders one topic only, one antenna's."""


class NoticeKind(enum.StrEnum):
    """What the hub tells the dealer about a node's message stream."""

    LOST = "reads_lost"
    """Sequence numbers skipped: reads that never reached the hub."""
    FLOOD = "node_flooding"
    """The node sends faster than its rate limit: messages refused."""
    SEQUENCE = "node_sequence"
    """The node's count is implausible, or its reads keep arriving older than ones taken."""


@dataclass(frozen=True, slots=True)
class NodeNotice:
    """Something about one node's stream worth an alert: what, which node, which
    sequence numbers (``first``..``last``), on which antenna if one."""

    kind: NoticeKind
    node: str
    first: int | None
    last: int | None
    reader: str | None = None


@dataclass(frozen=True, slots=True)
class InventoryRead:
    """An accepted inventory: which cards lie on ``reader`` now."""

    reader: str
    node: str
    seq: int
    cards: frozenset[str]
    unknown_uids: tuple[str, ...]
    refresh_s: float | None = None
    """How often the node re-sends this antenna's inventory unchanged (None: it sends
    changes only); not logged — it concerns the reader's health, not the table."""
    keepalive_s: int | None = None
    """The node's MQTT keep-alive, as the inventory said (None: not said); not logged."""


def _same_node(named: str, topic_node: str | None) -> None:
    """Refuse (``node_mismatch``) a payload naming another node than its topic's: the
    broker's ACL binds the topic to the node's credential, so that is a forgery."""
    if named != topic_node:
        raise ProtocolError(
            "node_mismatch",
            f"payload names node {named!r} on node {topic_node!r}'s topic: "
            f"a forgery or a misconfigured node; check the credential of {topic_node!r}",
        )


class Ingest:
    """Turns raw MQTT messages into :class:`InventoryRead`s, counting every refusal."""

    def __init__(
        self,
        *,
        table: str,
        readers: Iterable[str],
        deck: Deck,
        max_payload_bytes: int,
        node_rate: float = DEFAULT_NODE_RATE,
        node_burst: int = DEFAULT_NODE_BURST,
        reorder_grace_s: float = DEFAULT_REORDER_GRACE_S,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """``clock`` measures the rate limit and the reorder grace (the hub's monotonic
        time), ``wall`` bounds a plausible sequence number (a fresh count starts at the
        wall clock in ms)."""
        self.table = table
        self.nodes: NodeWatch[InventoryRead] = NodeWatch(
            rate=node_rate, burst=node_burst, grace=reorder_grace_s
        )
        """Every node's stream: last seq, reads lost, refused over the rate, reads held."""
        self.notices: list[NodeNotice] = []
        """What to tell the dealer about nodes, in order (the service takes them)."""
        self._clock = clock
        self._wall = wall
        self._log = ThrottledLog(log)
        self.readers = frozenset(readers)
        self.deck = deck
        self.max_payload_bytes = max_payload_bytes
        self.counters: Counter[str] = Counter()
        self._last_seq: dict[tuple[str, str], int] = {}

    def restore_seq(self, read: InventoryRead) -> None:
        """Remember ``read``'s sequence number as seen (a read replayed from the event
        log: the same message arriving again afterwards is a duplicate)."""
        key = (read.node, read.reader)
        self._last_seq[key] = max(read.seq, self._last_seq.get(key, read.seq))
        self.nodes.taken(read.node, read.seq, live=False)

    def export_state(self) -> dict[str, Any]:
        """What a replay of the event log rebuilds here — each antenna's last seq, each
        node's highest — as JSON values (a table snapshot, :mod:`hub.app.snapshot`)."""
        return {
            "last_seq": [[n, r, s] for (n, r), s in self._last_seq.items()],
            "nodes": self.nodes.export_state(),
        }

    def import_state(self, state: dict[str, Any]) -> None:
        """Take back what :meth:`export_state` gave."""
        self._last_seq = {(str(n), str(r)): int(s) for n, r, s in state["last_seq"]}
        self.nodes.import_state(state["nodes"])

    def reset_node(self, node: str) -> None:
        """Forget every sequence number of ``node`` (the operator reset it: its count went
        back, or a forged message set it far ahead); its next message is taken."""
        for key in [k for k in self._last_seq if k[0] == node]:
            del self._last_seq[key]
        self.nodes.reset(node)

    def _refuse(self, reason: str, topic: str, message: str) -> None:
        self.counters["rejected"] += 1
        self.counters[f"rejected.{reason}"] += 1
        self._log.warning(
            "refused message on %s: %s (%s)", topic, message, reason, key=f"refused-{reason}"
        )

    def _lost(self, node: str, lost: tuple[int, int] | None) -> None:
        """Count, log and note reads of ``node`` that never came (``first``..``last``)."""
        if lost is None:
            return
        self.counters["lost"] += lost[1] - lost[0] + 1
        self._log.warning(
            "node %s: reads seq %d..%d never reached the hub", node, *lost, key=f"lost-{node}"
        )
        self.notices.append(NodeNotice(NoticeKind.LOST, node, lost[0], lost[1]))

    def handle_button(self, topic: str, payload: bytes) -> ButtonPress | None:
        """Validate a button press; None when refused (counted under its reason)."""
        self.counters["received"] += 1
        try:
            parsed = parse_topic(topic)
            if parsed.kind is not TopicKind.BUTTON or parsed.table != self.table:
                raise ProtocolError("bad_topic", f"not a button topic of table {self.table!r}")
            press = decode_button_press(payload, self.max_payload_bytes)
            _same_node(press.node, parsed.node)
        except ProtocolError as exc:
            self._refuse(exc.reason, topic, str(exc))
            return None
        if not self.nodes.admit(press.node, None, self._clock()):
            self._refuse("rate_limited", topic, f"node {press.node!r} is over its rate")
            self.notices.append(NodeNotice(NoticeKind.FLOOD, press.node, None, None))
            return None
        return press

    def handle(self, topic: str, payload: bytes, *, retained: bool = False) -> list[InventoryRead]:
        """Validate one message; the reads to apply now, in the node's sequence order:
        this one — unless refused, already seen, or held until the reads before it come
        — and the held ones it lets through. The caller counts each ``accepted`` once the
        event log holds it (``failed`` if not). ``retained``: the broker repeats a
        retained message (when the hub subscribes), which says nothing of what the node
        sent since (no gap is counted from it, it is never held)."""
        self.counters["received"] += 1
        try:
            if len(payload) > self.max_payload_bytes:
                raise ProtocolError(
                    "oversized",
                    f"payload of {len(payload)} bytes exceeds the limit "
                    f"of {self.max_payload_bytes}",
                )
            parsed = parse_topic(topic)
            if parsed.kind is not TopicKind.READER_TAGS or parsed.table != self.table:
                raise ProtocolError("bad_topic", f"not a reader topic of table {self.table!r}")
            assert parsed.target is not None
            if parsed.target not in self.readers:
                raise ProtocolError(
                    "unknown_reader", f"table {self.table!r} has no antenna {parsed.target!r}"
                )
            inv = decode_inventory(payload, self.max_payload_bytes)
            if inv.reader != parsed.target:
                raise ProtocolError(
                    "malformed", f"payload names reader {inv.reader!r} on {parsed.target!r}'s topic"
                )
            _same_node(inv.node, parsed.node)
        except ProtocolError as exc:
            self._refuse(exc.reason, topic, str(exc))
            return []

        node, seq, live = inv.node, inv.seq, not retained
        now = self._clock()
        why = self.nodes.plausible(node, seq, wall_ms=int(self._wall() * 1000))
        if why is not None:
            self._refuse("seq_jump", topic, f"node {node!r}: {why}")
            self.notices.append(NodeNotice(NoticeKind.SEQUENCE, node, seq, seq, inv.reader))
            return []
        if not self.nodes.admit(node, seq, now):
            self._refuse("rate_limited", topic, f"node {node!r} is over its rate (seq {seq})")
            self.notices.append(NodeNotice(NoticeKind.FLOOD, node, seq, seq, inv.reader))
            # it came: the reads after it do not wait for it
            return self._released(node, self.nodes.arrive(node, seq, None, now)) if live else []
        if self._seen(node, inv.reader, seq, live=live):
            # a live copy of a read taken already (its retained repeat came first when the
            # hub subscribed): it came, so the reads after it do not wait for it
            return self._released(node, self.nodes.arrive(node, seq, None, now)) if live else []
        read = self._read(inv, seq)
        if not live:
            self._last_seq[(node, inv.reader)] = seq
            self.nodes.taken(node, seq, live=False)
            return [read]
        return self._released(node, self.nodes.arrive(node, seq, read, now))

    def due(self) -> list[InventoryRead]:
        """Held reads whose reorder grace is over (the hub's time now), each node's in its
        sequence order; what is still missing before them is counted lost."""
        out: list[InventoryRead] = []
        for node, released in self.nodes.due(self._clock()):
            out += self._released(node, [released])
        return out

    def next_due(self) -> float | None:
        """When the next held read's grace ends, on the hub's time (None: none held)."""
        return self.nodes.next_due()

    def _released(self, node: str, released: list[Released[InventoryRead]]) -> list[InventoryRead]:
        """The reads the node's watch let through, in order: losses before them counted,
        each checked again against its antenna's last (a retained read may have overtaken
        a held one: the older is then ``stale``)."""
        out: list[InventoryRead] = []
        for seq, read, lost in released:
            self._lost(node, lost)
            if read is None or self._seen(node, read.reader, seq, live=True):
                continue
            self._last_seq[(node, read.reader)] = seq
            out.append(read)
        return out

    def _seen(self, node: str, reader: str, seq: int, *, live: bool) -> bool:
        """Whether ``seq`` was already taken on ``reader`` (``duplicate``, also when it is
        held) or a later one was (``stale``): counted and logged."""
        last = self._last_seq.get((node, reader))
        if self.nodes.held(node, seq):
            kind, last = "duplicate", seq
        elif last is not None and seq <= last:
            kind = "duplicate" if seq == last else "stale"
        else:
            return False
        self.counters[kind] += 1
        self._log.log(
            logging.INFO,
            "dropped %s message from %s seq %d on %s (last %d)",
            kind,
            node,
            seq,
            reader,
            last,
            key=f"{kind}-{node}",
        )
        if kind == "stale" and self.nodes.stale(node, live=live):
            self.notices.append(NodeNotice(NoticeKind.SEQUENCE, node, seq, last, reader))
        return True

    def _read(self, inv: ReaderInventory, seq: int) -> InventoryRead:
        """The inventory as cards; each uid not in the deck counted and logged."""
        reader = inv.reader
        cards = set()
        unknown = []
        for uid in inv.uids:
            card = self.deck.card_for(uid)
            if card is None:
                unknown.append(uid)
            else:
                cards.add(card)
        if unknown:
            self.counters["unknown_tag"] += len(unknown)
            self._log.warning(
                "tags %s on %s are not in deck %r: ignored",
                ", ".join(unknown),
                reader,
                self.deck.name,
                key=f"unknown-{reader}",
            )
        return InventoryRead(
            reader, inv.node, seq, frozenset(cards), tuple(unknown), inv.refresh_s, inv.keepalive_s
        )

    def handle_availability(self, topic: str, payload: bytes) -> tuple[str, bool] | None:
        """A node's availability (``…/node/<node>/availability``: ``online`` or
        ``offline``, its last will): the node and whether it is online; None when refused
        (counted under its reason). Each is one of ``received``; one taken is also one of
        ``availability`` (it is no read: ``accepted`` counts reads)."""
        self.counters["received"] += 1
        try:
            parsed = parse_topic(topic)
            if parsed.kind is not TopicKind.AVAILABILITY or parsed.table != self.table:
                raise ProtocolError("bad_topic", f"not an availability topic of {self.table!r}")
            if payload not in (AVAILABILITY_ONLINE, AVAILABILITY_OFFLINE):
                raise ProtocolError("malformed", "availability is neither online nor offline")
        except ProtocolError as exc:
            self._refuse(exc.reason, topic, str(exc))
            return None
        assert parsed.node is not None
        self.counters["availability"] += 1
        return parsed.node, payload == AVAILABILITY_ONLINE
