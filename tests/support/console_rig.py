"""A rig for the dealer console's browser tests: a running hub with rules (embedded broker,
a node reading simulated antennas) whose antennas the test lays cards on, and the page
steps the tests share — waiting for the acting seat, choosing an action by keyboard."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.app.table_console import TableConsole
from hub.bootstrap import HubRuntime, start_hub
from hub.config import (
    HubConfig,
    HubMqttSettings,
    PlayerSettings,
    RulesSettings,
    TournamentSettings,
    WebSettings,
    default_readers,
)
from hub.rules.hand import Hand
from table_node.node import Node
from table_node.simulated import SimulatedTable
from tests.support.room import HOLE, sweep_into

__all__ = ["HOLE", "SEATS", "WAIT", "Rig", "choose_and_confirm", "rig", "wait_acting"]

DECK = simulated_deck()
SEATS = (1, 3, 4)
WAIT = 20_000  # ms: Chromium is slow on a busy two-core machine


@dataclass
class Rig:
    """A running hub with rules and a node whose antennas the test lays cards on."""

    hub: HubRuntime
    table: SimulatedTable
    node: Node
    publisher: InventoryPublisher

    @property
    def rules(self) -> TableConsole:
        assert self.hub.rules is not None
        return self.hub.rules

    @property
    def hand(self) -> Hand:
        assert self.rules.desk.monitor is not None
        return self.rules.desk.monitor.hand

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats of the hand in hand order: the small blind, the big blind, the button."""
        assert self.rules.desk.setup is not None
        return self.rules.desk.setup.seats

    async def put(self, reader: str, card: str) -> None:
        """Lay a card on an antenna; wait until the hub has taken the read."""
        self.table.reader(reader).place(DECK.uid_for(card))
        await self.sweep()

    async def lift(self, reader: str, card: str) -> None:
        """Take a card off an antenna (it stays wherever else it lies); wait until the hub
        has taken the read."""
        self.table.reader(reader).lift(DECK.uid_for(card))
        await self.sweep()

    async def move(self, card: str, src: str, dst: str) -> None:
        """Slide a card from one antenna to another; wait until the hub has taken it."""
        self.table.move(DECK.uid_for(card), src, dst)
        await self.sweep()

    async def sweep(self) -> None:
        """The node reads its antennas; wait until the hub has taken what it published."""
        await sweep_into(self.node, self.publisher, self.hub.service)

    async def deal_hole_cards(self) -> dict[int, list[str]]:
        """Deal :data:`HOLE` on the seats' antennas, two to each seat of the hand one at a
        time in hand order; the cards each seat got."""
        held: dict[int, list[str]] = {s: [] for s in self.seats}
        cards = iter(HOLE)
        for _ in range(2):
            for seat in self.seats:
                held[seat].append(card := next(cards))
                await self.put(f"seat{seat}", card)
        return held

    def bet(self, seat: int) -> int:
        """What ``seat`` has bet on this street of the running hand."""
        return self.hand.bets[self.seats.index(seat)]

    def seat_to_act(self) -> int:
        assert self.hand.actor is not None
        return self.seats[self.hand.actor]


@asynccontextmanager
async def rig(
    *,
    live: bool = False,
    game: str = "NT",
    names: Mapping[int, str] | None = None,
    readers: Sequence[str] | None = None,
    stakes: Mapping[str, int] | None = None,
    tournament: TournamentSettings | None = None,
) -> AsyncIterator[Rig]:
    """A running hub with rules (players ``P1``, ``P3``, ``P4`` in :data:`SEATS`, or
    ``names`` by seat) playing ``game`` and a node dealing at its table; ``live`` lets
    the overlay show hole cards at once; ``readers`` the table's antennas (a standard
    10-seat table by default), ``stakes`` fields of the rules (``ante``, ``small_bet`` …),
    ``tournament`` a tournament clock."""
    web = (
        WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
        if live
        else WebSettings(port=0)
    )
    seated = names if names is not None else {s: f"P{s}" for s in SEATS}
    players = [PlayerSettings(seat=s, name=n, buy_in=1000) for s, n in sorted(seated.items())]
    antennas = list(readers) if readers is not None else default_readers()
    hub = await start_hub(
        HubConfig(
            table="t1",
            live_equity=False,
            game=game,
            readers=antennas,
            mqtt=HubMqttSettings(embedded_port=0),
            web=web,
            rules=RulesSettings(players=players, **dict(stakes or {})),
            tournament=tournament,
        )
    )
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table="t1", node="n"
    )
    try:
        publisher = InventoryPublisher(table="t1", node="n", transport=transport)
        assert await asyncio.to_thread(transport.wait_connected, 10)
        await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        table = SimulatedTable(antennas)
        yield Rig(hub, table, Node(list(table.readers.values()), publisher), publisher)
    finally:
        transport.close()
        await hub.stop()


async def wait_acting(page: Any, seat: int) -> None:
    """Wait until the console page shows ``seat`` as the one to act."""
    await page.wait_for_selector(f".seat[data-seat='{seat}'].acting", timeout=WAIT)
    await page.wait_for_selector(f"#turn:has-text('{seat}')", timeout=WAIT)


async def choose_and_confirm(page: Any, key: str, amount: int | None = None) -> None:
    """An action by keyboard: its key, the amount for a bet or raise, Enter."""
    await page.keyboard.press(key)
    if amount is not None:
        box = page.locator("#amount-input")
        await box.wait_for(timeout=WAIT)
        await box.fill(str(amount))
        await box.press("Enter")
    else:
        await page.wait_for_selector("#pending", state="visible", timeout=WAIT)
        await page.keyboard.press("Enter")
