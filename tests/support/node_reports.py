"""A node's antenna reports handed to a hub's table application as MQTT messages, with no
broker in between: :class:`NodeReports` numbers each inventory as a node numbers it,
:class:`Antennas` keeps what lies on each antenna and reports the full inventory of every
antenna a change touches (the clock a second on per report). Cards are named by their
codes; the tags are the simulator's deck (:data:`DECK`).

>>> reports = NodeReports()
>>> topic, payload = reports.read("seat3", "As")
>>> topic, json.loads(payload)["seq"]
('feltwire/v1/t1/node/n1/reader/seat3/tags', 1)
"""

from __future__ import annotations

import json

from feltwire.deck import simulated_deck
from feltwire.protocol import reader_tags_topic
from hub.app.table_app import TableApp
from tests.support.clocks import FakeClock

DECK = simulated_deck()


class NodeReports:
    """The inventories of node ``n1`` at ``table``, numbered one after the other."""

    def __init__(self, table: str = "t1") -> None:
        self.table = table
        self.seq = 0

    def read(self, reader: str, *cards: str) -> tuple[str, bytes]:
        """The next inventory of ``reader``: the topic and payload a node publishes."""
        return self.inventory(reader, *(DECK.uid_for(c) for c in cards))

    def inventory(self, reader: str, *uids: str) -> tuple[str, bytes]:
        """The next inventory of ``reader`` holding the tags ``uids`` (in their order)."""
        self.seq += 1
        body = {
            "v": 1,
            "node": "n1",
            "seq": self.seq,
            "ts": 0,
            "reader": reader,
            "uids": list(uids),
        }
        return reader_tags_topic(self.table, "n1", reader), json.dumps(body).encode()


class Antennas:
    """The antennas of table ``t1`` as its node reports them to ``hub``: a full inventory
    per change, each report moving ``clock`` one second on."""

    def __init__(self, hub: TableApp, clock: FakeClock) -> None:
        self.hub, self.clock = hub, clock
        self.on: dict[str, set[str]] = {}
        self.reports = NodeReports()

    @property
    def seq(self) -> int:
        """The number of the last report."""
        return self.reports.seq

    def report(self, reader: str) -> None:
        """Report what lies on ``reader`` now (its tags sorted)."""
        self.clock.now += 1
        uids = sorted(DECK.uid_for(c) for c in self.on.get(reader, set()))
        self.hub.handle_message(*self.reports.inventory(reader, *uids))

    def put(self, reader: str, card: str) -> None:
        """Lay ``card`` on ``reader``."""
        self.on.setdefault(reader, set()).add(card)
        self.report(reader)

    def move(self, cards: list[str], src: str, dst: str) -> None:
        """Slide ``cards`` from ``src`` to ``dst`` (two reports)."""
        self.on[src].difference_update(cards)
        self.report(src)
        self.on.setdefault(dst, set()).update(cards)
        self.report(dst)

    def clear(self) -> None:
        """Take every card off the table (a report per antenna that held one)."""
        for reader in sorted(r for r, cs in self.on.items() if cs):
            self.on[reader].clear()
            self.report(reader)
