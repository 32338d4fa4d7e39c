"""The antennas of a table reported straight to a hub's table application, as a node would
publish them, with no broker in between: the surface a simulated dealer deals on in the
hub's unit tests (the hole-card scan, the overlay scene)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from feltwire.cards import card_code
from feltwire.deck import simulated_deck
from feltwire.publisher import InventoryPublisher
from hub.app.records import ConsoleInput
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.rules.hand import Hand
from hub.rules.procedure import Input
from simulator.monitor_table import MOTION
from tests.support.clocks import FakeClock

DECK = simulated_deck()
BOGUS_UID = "04DEADBEEF0000"


class ServiceSurface:
    """The antennas of a table, reported straight to a hub service as a node would:
    each motion publishes the full inventory of every antenna it changed."""

    def __init__(self, service: TableApp, rules: TableConsole, clock: FakeClock) -> None:
        self.service = service
        self.rules = rules
        self.clock = clock
        self.on: dict[str, set[int]] = {}
        self.extra: dict[str, set[str]] = {}
        self.publisher = InventoryPublisher(table="t1", node="n1", transport=self, clock=clock)
        self.motions: list[str] = []
        self.after_motion: list[Any] = []

    # the transport the publisher sends through
    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        self.service.handle_message(topic, payload)

    @property
    def now(self) -> float:
        return self.clock()

    @property
    def hand(self) -> Hand:
        assert self.rules.desk.monitor is not None
        return self.rules.desk.monitor.hand

    def _report(self, readers: Sequence[str]) -> None:
        for reader in readers:
            uids = {DECK.uid_for(card_code(c)) for c in self.on.get(reader, set())}
            self.publisher.update(reader, frozenset(uids | self.extra.get(reader, set())))
        for hook in self.after_motion:
            hook()

    def put(self, reader: str, *cards: int) -> None:
        self.clock.now += MOTION
        self.on.setdefault(reader, set()).update(cards)
        self._report([reader])

    def take(self, reader: str, *cards: int) -> None:
        self.clock.now += MOTION
        self.on.setdefault(reader, set()).difference_update(cards)
        self._report([reader])

    def move(self, cards: Sequence[int], dst: str) -> None:
        self.clock.now += MOTION
        touched = [dst]
        for card in cards:
            for src in self.where(card):
                if src != dst:
                    self.on[src].discard(card)
                    touched.insert(0, src)
        self.on.setdefault(dst, set()).update(cards)
        self._report(list(dict.fromkeys(touched)))

    def console(self, inp: Input) -> object:
        assert isinstance(inp, ConsoleInput)
        self.clock.now += MOTION
        step = self.rules.console(inp)
        for hook in self.after_motion:
            hook()
        return step

    def tick(self) -> object:
        self.clock.now += MOTION
        step = self.rules.tick()
        for hook in self.after_motion:
            hook()
        return step

    def unknown_tag(self, reader: str) -> None:
        self.clock.now += MOTION
        self.extra[reader] = {BOGUS_UID}
        self._report([reader])
        self.clock.now += MOTION
        self.extra[reader] = set()
        self._report([reader])

    def clear(self) -> None:
        self.clock.now += MOTION
        readers = [r for r, cards in self.on.items() if cards]
        for reader in readers:
            self.on[reader].clear()
        self._report(readers)

    def where(self, card: int) -> list[str]:
        return sorted(r for r, cs in self.on.items() if card in cs)
