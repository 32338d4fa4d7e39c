"""How one table's reads come in: MQTT payloads screened, presence kept, tags watched.

:class:`ReadIntake` owns the table's :class:`~hub.app.ingest.Ingest` (every MQTT message
checked: size, schema, node, sequence, rate; refusals counted), the presence picture
(:class:`~hub.app.presence.TablePresence`: which cards lie on which antenna) and two
watches a copied or forged tag trips:

* a uid that is not in the registered deck, new on an antenna (:meth:`ReadIntake.take`
  says how many are new; the application decides who raises the alert);
* one registered card read on two antennas at once for longer than ``doubled_after_s``
  (a card moved between antennas is read on both for a moment):
  :meth:`ReadIntake.due_doubled` names the cards whose time has come.

It raises nothing and publishes nothing itself: it answers what it saw, and the
application (:class:`~hub.app.table_app.TableApp`) records, applies and publishes.

>>> from feltwire.deck import simulated_deck
>>> intake = ReadIntake(table="t1", readers=["seat1", "board"], deck=simulated_deck(),
...                     max_payload_bytes=4096)
>>> intake.screen("feltwire/v1/t1/node/n1/reader/seat9/tags", b"{}", False, 0.0)
[]
>>> intake.counters["received"]
1
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from feltwire.deck import Deck
from hub.app.codec import encode_read
from hub.app.health import HealthChange, TableHealth
from hub.app.ingest import (
    DEFAULT_NODE_BURST,
    DEFAULT_NODE_RATE,
    DEFAULT_REORDER_GRACE_S,
    Ingest,
    InventoryRead,
)
from hub.app.node_alerts import NODE_ALERT_EVERY_S, node_alert
from hub.app.presence import AntennaChange, TablePresence
from hub.app.records import InputKind
from hub.views.frames import Event

DEFAULT_READER_SILENT_S = 15.0
"""How long a reader whose node re-sends its inventory may stay silent (``[health]``)."""

Item = tuple[InputKind, dict[str, Any], float]
"""An input as the application applies it: kind, payload, the hub's time."""


@dataclass(frozen=True)
class ReadTaken:
    """What one accepted inventory changed: the uids not in the deck that are new on
    its antenna, and the antenna's change (None: the same cards as before)."""

    fresh_unknown: int
    change: AntennaChange | None


class ReadIntake:
    """One table's reads: screening, presence and the tag watches (see the module)."""

    def __init__(
        self,
        *,
        table: str,
        readers: list[str],
        deck: Deck,
        max_payload_bytes: int,
        clock: Callable[[], float] = time.time,
        wall: Callable[[], float] = time.time,
        doubled_after_s: float = 0.5,
        node_rate: float = DEFAULT_NODE_RATE,
        node_burst: int = DEFAULT_NODE_BURST,
        reader_silent_s: float = DEFAULT_READER_SILENT_S,
        reorder_grace_s: float = DEFAULT_REORDER_GRACE_S,
    ) -> None:
        self.ingest = Ingest(
            table=table,
            readers=readers,
            deck=deck,
            max_payload_bytes=max_payload_bytes,
            node_rate=node_rate,
            node_burst=node_burst,
            reorder_grace_s=reorder_grace_s,
            clock=clock,
            wall=wall,
        )
        self.presence = TablePresence()
        self.health = TableHealth(reader_silent_s=reader_silent_s)
        """Which nodes are online, which readers still report."""
        self.health_changes: list[HealthChange] = []
        """What changed about the nodes and readers, in order (the application takes
        them and says them: node_offline, reader_back …)."""
        self.changes = 0
        """How many antenna changes the table has taken."""
        self.doubled_after_s = doubled_after_s
        """How long one card (one registered uid) must lie on two antennas at once before
        the ``uid_on_two_antennas`` security alert."""
        self.timers_changed = asyncio.Event()
        """Set when a card starts lying on two antennas or a read is held until the reads
        before it come (the security task looks again when its timer falls due)."""
        self._where: dict[str, set[str]] = {}
        self._unknown_on: dict[str, frozenset[str]] = {}
        """Per antenna, the uids not in the deck it reported last (an alert per new one)."""
        self._doubled: dict[str, tuple[float, bool]] = {}
        self._node_alerted: dict[tuple[str, str], float] = {}
        self._due_told: float | None = None

    @property
    def counters(self) -> Counter[str]:
        """The table's counters: messages received, accepted, refused by reason …"""
        return self.ingest.counters

    def node_stats(self) -> dict[str, dict[str, Any]]:
        """Per node heard from: its stream (``last_seq``, reads lost and refused …)."""
        return self.ingest.nodes.stats()

    def export_state(self) -> dict[str, Any]:
        """What a replay of the event log rebuilds of the intake — presence, which node
        each reader is on, the change count, where each card lies, the uids not in the
        deck per antenna, the doubled cards' spells, the nodes' sequences — as JSON
        values (a table snapshot, :mod:`hub.app.snapshot`)."""
        return {
            "presence": self.presence.export_state(),
            "placements": self.health.placements(),
            "changes": self.changes,
            "where": [[c, sorted(r)] for c, r in self._where.items()],
            "unknown_on": [[r, sorted(u)] for r, u in self._unknown_on.items()],
            "doubled": [[c, since, told] for c, (since, told) in self._doubled.items()],
            "ingest": self.ingest.export_state(),
        }

    def import_state(self, state: dict[str, Any]) -> None:
        """Take back what :meth:`export_state` gave (at start, before any message)."""
        self.presence.import_state(state["presence"])
        self.health.place_all(state["placements"])
        self.changes = int(state["changes"])
        self._where = {str(c): set(r) for c, r in state["where"]}
        self._unknown_on = {str(r): frozenset(u) for r, u in state["unknown_on"]}
        self._doubled = {str(c): (float(s), bool(t)) for c, s, t in state["doubled"]}
        self.ingest.import_state(state["ingest"])

    def screen(self, topic: str, payload: bytes, retained: bool, now: float) -> list[Item]:
        """One message through the ingest's checks: the inputs to apply now, in order —
        none when it is refused, seen, held (until the reads before it come) or a node's
        availability (no input: it changes :attr:`health` only); more than one when it
        lets held reads through."""
        if topic.endswith("/availability"):
            self.availability(topic, payload, now)
            return []
        if topic.endswith("/button"):
            press = self.ingest.handle_button(topic, payload)
            if press is None:
                return []
            return [(InputKind.BUTTON, {"node": press.node, "button": press.button}, now)]
        return self._inputs(self.ingest.handle(topic, payload, retained=retained), now)

    def due_reads(self, now: float) -> list[Item]:
        """The held reads whose reorder grace is over by now (what is still missing before
        them counted lost), as inputs in their nodes' order."""
        return self._inputs(self.ingest.due(), now)

    def next_due(self) -> float | None:
        """When the next held read's reorder grace ends (None: no read is held)."""
        return self.ingest.next_due()

    def _inputs(self, reads: list[InventoryRead], now: float) -> list[Item]:
        due = self.ingest.next_due()
        if due is not None and due != self._due_told:
            self.timers_changed.set()  # a read is held: the task's timer changes
        self._due_told = due
        for read in reads:
            self.heard(read, now)
        return [(InputKind.INVENTORY, encode_read(read), now) for read in reads]

    def availability(self, topic: str, payload: bytes, now: float) -> None:
        """A node's availability message: its state in :attr:`health`."""
        said = self.ingest.handle_availability(topic, payload)
        if said is not None:
            self.health_changes += self.health.availability(*said, now=now)

    def heard(self, read: InventoryRead, now: float) -> None:
        """An inventory came from a node (live or retained, not replayed): its reader
        reported at ``now``."""
        self.health_changes += self.health.read(
            read.node, read.reader, read.refresh_s, now=now, keepalive_s=read.keepalive_s
        )

    def due_silent(self, now: float) -> None:
        """Note the readers that fell silent by ``now`` (in :attr:`health_changes`)."""
        self.health_changes += self.health.due(now=now)

    def node_alerts(self, now: float) -> list[tuple[Event, str]]:
        """The alerts (with the node each is about) of what the ingest noticed about
        nodes — reads lost, a flood, a sequence stuck or implausible: one per node and
        kind a minute at most."""
        notices, self.ingest.notices = self.ingest.notices, []
        out: list[tuple[Event, str]] = []
        for notice in notices:
            key = (notice.kind.value, notice.node)
            last = self._node_alerted.get(key)
            if last is not None and now - last < NODE_ALERT_EVERY_S:
                continue
            self._node_alerted[key] = now
            stats = self.ingest.nodes.stats().get(notice.node)
            out.append((node_alert(notice, stats, now), notice.node))
        return out

    def reset_node(self, node: str) -> None:
        """Take ``node``'s next message whatever its sequence number."""
        self.ingest.reset_node(node)

    def take(self, read: InventoryRead, now: float) -> ReadTaken:
        """Take one accepted inventory (live or replayed): its sequence number, the new
        unknown uids on its antenna, the presence change and where each card lies."""
        self.ingest.restore_seq(read)
        self.health.placed(read.node, read.reader)
        unknown = frozenset(read.unknown_uids)
        fresh = unknown - self._unknown_on.get(read.reader, frozenset())
        self._unknown_on[read.reader] = unknown
        change = self.presence.apply(read.reader, read.cards)
        if change is not None:
            self.changes += 1
            self._track_places(change, now)
        return ReadTaken(len(fresh), change)

    def _track_places(self, change: AntennaChange, now: float) -> None:
        """Keep where each card lies; a card now on two antennas starts a doubled spell."""
        for card in change.left:
            places = self._where.get(card)
            if places is not None:
                places.discard(change.reader)
                if len(places) < 2:
                    self._doubled.pop(card, None)
        for card in change.arrived:
            places = self._where.setdefault(card, set())
            places.add(change.reader)
            if len(places) >= 2 and card not in self._doubled:
                self._doubled[card] = (now, False)
                self.timers_changed.set()

    def due_doubled(self, now: float) -> list[tuple[str, list[str]]]:
        """Every card that has lain on two antennas at once for ``doubled_after_s`` and
        was not told yet, with its antennas (each is told once per spell)."""
        due: list[tuple[str, list[str]]] = []
        for card, (since, told) in list(self._doubled.items()):
            if not told and now - since >= self.doubled_after_s:
                self._doubled[card] = (since, True)
                due.append((card, sorted(self._where[card])))
        return due

    def next_doubled(self) -> float | None:
        """When the next doubled card's alert falls due (None: none is pending)."""
        due = [since + self.doubled_after_s for since, told in self._doubled.values() if not told]
        return min(due) if due else None


class HandledCount:
    """How many of a table's MQTT messages were handled — reader and button topics,
    accepted or not; a node's availability is not counted: it is no message of the
    node's stream —, which another thread (a test, a bench) may wait for."""

    def __init__(self) -> None:
        self.value = 0
        self._cv = threading.Condition()

    def add(self, count: int) -> None:
        """``count`` more messages were handled."""
        with self._cv:
            self.value += count
            self._cv.notify_all()

    def wait(self, count: int, timeout: float) -> bool:
        """Block until ``count`` messages were handled, at most ``timeout`` seconds."""
        with self._cv:
            return self._cv.wait_for(lambda: self.value >= count, timeout)
