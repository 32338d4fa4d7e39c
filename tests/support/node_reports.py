"""A node's antenna reports handed to a hub's table application as MQTT messages, with no
broker in between: :class:`NodeReports` numbers each inventory as a node numbers it,
:class:`Antennas` keeps what lies on each antenna and reports the full inventory of every
antenna a change touches (the clock a second on per report, or per change). Cards are
named by their codes; the tags are the simulator's deck (:data:`DECK`).

>>> reports = NodeReports()
>>> topic, payload = reports.read("seat3", "As")
>>> topic, json.loads(payload)["seq"]
('feltwire/v1/t1/node/n1/reader/seat3/tags', 1)
"""

from __future__ import annotations

import json
from typing import Literal

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
    of each antenna a change touches. ``clock`` moves one second on per report, or with
    ``step_per="change"`` once per change (a :meth:`put`, :meth:`move` or :meth:`clear`,
    however many reports it makes)."""

    def __init__(
        self, hub: TableApp, clock: FakeClock, step_per: Literal["report", "change"] = "report"
    ) -> None:
        self.hub, self.clock, self.step_per = hub, clock, step_per
        self.on: dict[str, set[str]] = {}
        self.reports = NodeReports()

    @property
    def seq(self) -> int:
        """The number of the last report."""
        return self.reports.seq

    def _step(self, per: Literal["report", "change"]) -> None:
        if self.step_per == per:
            self.clock.now += 1

    def report(self, reader: str, extra: tuple[str, ...] = ()) -> None:
        """Report what lies on ``reader`` now (its tags sorted), then the tags ``extra``."""
        self._step("report")
        uids = sorted(DECK.uid_for(c) for c in self.on.get(reader, set())) + list(extra)
        self.hub.handle_message(*self.reports.inventory(reader, *uids))

    def put(self, reader: str, *cards: str, extra: tuple[str, ...] = ()) -> None:
        """Lay ``cards`` on ``reader``; its report also holds the tags ``extra`` (uids no
        card of the deck has), which stay off the antenna."""
        self._step("change")
        self.on.setdefault(reader, set()).update(cards)
        self.report(reader, extra)

    def move(self, cards: list[str], src: str, dst: str) -> None:
        """Slide ``cards`` from ``src`` to ``dst`` (two reports)."""
        self._step("change")
        self.on[src].difference_update(cards)
        self.report(src)
        self.on.setdefault(dst, set()).update(cards)
        self.report(dst)

    def clear(self) -> None:
        """Take every card off the table (a report per antenna that held one)."""
        self._step("change")
        for reader in sorted(r for r, cs in self.on.items() if cs):
            self.on[reader].clear()
            self.report(reader)
