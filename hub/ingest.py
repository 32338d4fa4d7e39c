"""Reader inventories in, cards out: validation, deduplication and the tag → card map.

Every message is checked in this order, and a refusal is counted under its reason and
logged — the hub never stops for bad input:

``oversized`` → ``bad_topic`` (not a reader topic of this table) → ``unknown_reader``
(not an antenna of this table) → ``malformed`` (not JSON / off-schema / reader differs
from the topic) → ``schema_version`` → ``node_mismatch`` (the payload's ``node`` is not
the node whose topic it came on: the broker's ACL binds that topic to the node's
credential, so a payload naming another node is a forgery). Accepted messages are then
deduplicated per
(node, reader) by sequence number (``duplicate``, ``stale``), and each uid that is not in
the registered deck is refused on its own (``unknown_tag``) while the rest of the
inventory is applied.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from feltwire.deck import Deck
from feltwire.errors import ProtocolError
from feltwire.protocol import TopicKind, decode_inventory, parse_topic

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class InventoryRead:
    """An accepted inventory: which cards lie on ``reader`` now."""

    reader: str
    node: str
    seq: int
    cards: frozenset[str]
    unknown_uids: tuple[str, ...]


class Ingest:
    """Turns raw MQTT messages into :class:`InventoryRead`s, counting every refusal."""

    def __init__(
        self, *, table: str, readers: Iterable[str], deck: Deck, max_payload_bytes: int
    ) -> None:
        self.table = table
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

    def _refuse(self, reason: str, topic: str, message: str) -> None:
        self.counters["rejected"] += 1
        self.counters[f"rejected.{reason}"] += 1
        log.warning("refused message on %s: %s (%s)", topic, message, reason)

    def handle(self, topic: str, payload: bytes) -> InventoryRead | None:
        """Validate one message; the read, or None when refused or already seen. The
        caller counts it ``accepted`` once the event log holds it (``failed`` if not)."""
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
            if inv.node != parsed.node:
                raise ProtocolError(
                    "node_mismatch",
                    f"payload names node {inv.node!r} on node {parsed.node!r}'s topic: "
                    f"a forgery or a misconfigured node; check the credential of {parsed.node!r}",
                )
        except ProtocolError as exc:
            self._refuse(exc.reason, topic, str(exc))
            return None

        key = (inv.node, inv.reader)
        last = self._last_seq.get(key)
        if last is not None and inv.seq <= last:
            kind = "duplicate" if inv.seq == last else "stale"
            self.counters[kind] += 1
            log.info("dropped %s message from %s seq %d (last %d)", kind, inv.node, inv.seq, last)
            return None
        self._last_seq[key] = inv.seq

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
            log.warning(
                "tags %s on %s are not in deck %r: ignored",
                ", ".join(unknown),
                inv.reader,
                self.deck.name,
            )
        return InventoryRead(inv.reader, inv.node, inv.seq, frozenset(cards), tuple(unknown))
