"""What the page tests share: a simulated node reading its antennas into a running hub, and
a room — a hub with rules, that node dealing, the dealer entering actions over HTTP."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.app.table_app import TableApp
from hub.bootstrap import HubRuntime, start_hub
from hub.config import (
    BrandingSettings,
    HealthSettings,
    HubConfig,
    HubMqttSettings,
    PlayerSettings,
    RulesSettings,
    TournamentSettings,
    WebSettings,
)
from hub.web.auth import Role
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable

DECK = simulated_deck()
NAMES = {1: "Anna", 2: "Bořivoj", 3: "Cyril"}
HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]
"""The hole cards :meth:`Room.deal` deals, in order."""


async def sweep_into(node: Node, publisher: InventoryPublisher, service: TableApp) -> None:
    """``node`` reads its antennas once; wait until ``service`` has handled every message
    that sweep published. Counted from what the hub had handled before the sweep, so a
    message another client sent the hub (a test's raw one) never stands in for the
    node's: the wait ends only once the node's own messages are taken."""
    handled, published = service.handled, publisher.published
    node.poll_once()
    sent = publisher.published - published
    assert await asyncio.to_thread(service.wait_handled, handled + sent, 10)


@dataclass
class SimulatedNode:
    """Antennas the test lays tags on, and the node that publishes them to the hub."""

    table: SimulatedTable
    node: Node
    publisher: InventoryPublisher


@asynccontextmanager
async def simulated_node(hub: HubRuntime, table: str = "t1") -> AsyncIterator[SimulatedNode]:
    """A node with the standard antennas, connected to ``hub``'s broker; yields once the
    node is connected and the hub subscribed, disconnects afterwards."""
    antennas = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table=table, node="n"
    )
    publisher = InventoryPublisher(table=table, node="n", transport=transport)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        yield SimulatedNode(antennas, Node(list(antennas.readers.values()), publisher), publisher)
    finally:
        transport.close()


@dataclass
class Room:
    """A running hub, a node dealing at its table, and the dealer's token."""

    hub: HubRuntime
    table: SimulatedTable
    node: Node
    publisher: InventoryPublisher
    dealer: str
    held: dict[int, list[str]] = field(default_factory=dict)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats of the hand in hand order: small blind, big blind, …, the button."""
        rules = self.hub.rules
        assert rules is not None and rules.desk.setup is not None
        return rules.desk.setup.seats

    async def sweep(self) -> None:
        """The node reads once; wait until the hub has taken what it sent."""
        await sweep_into(self.node, self.publisher, self.hub.service)

    async def deal(self) -> None:
        """Two cards to every seat of the hand, one at a time clockwise."""
        self.held = {s: [] for s in self.seats}
        cards = iter(HOLE)
        for _ in range(2):
            for seat in self.seats:
                card = next(cards)
                self.held[seat].append(card)
                self.table.reader(f"seat{seat}").place(DECK.uid_for(card))
                await self.sweep()

    async def act(self, seat: int, act: str, to: int = 0) -> dict[str, Any]:
        """An action entered at the dealer's console (its HTTP route)."""
        url = f"{self.hub.web_url}/api/console/action?token={self.dealer}"
        response = await asyncio.to_thread(
            httpx.post, url, json={"seat": seat, "act": act, "to": to}, timeout=10
        )
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        assert data["accepted"], data
        return data


@asynccontextmanager
async def room(
    web: WebSettings,
    *,
    clock: Callable[[], float] = time.time,
    monotonic: Callable[[], float] | None = None,
    live_equity: bool = True,
    state_dir: Path | None = None,
    players: dict[int, tuple[str, int]] | None = None,
    health: HealthSettings | None = None,
    tournament: TournamentSettings | None = None,
    branding: BrandingSettings | None = None,
    records: dict[int, dict[str, str]] | None = None,
) -> AsyncIterator[Room]:
    """A running hub with rules (three players: :data:`NAMES`), the node dealing at its
    table, and the dealer's token; ``clock`` and ``monotonic`` are the hub's wall and
    monotonic clocks (:func:`hub.bootstrap.start_hub`; None: the system's); with a
    ``state_dir`` the hub keeps its event log and audit trail there; ``players`` seats
    others instead (seat: (name, buy-in)); ``health`` its ``[health]`` settings;
    ``tournament`` its clock; ``branding`` the overlay's; ``records`` more of a seat's
    player record (``country``, ``photo``)."""
    seated = players or {s: (n, 1000) for s, n in NAMES.items()}
    more = records or {}
    settings = [
        PlayerSettings(seat=s, name=n, buy_in=b, **more.get(s, {})) for s, (n, b) in seated.items()
    ]
    config = HubConfig(
        table="t1",
        mqtt=HubMqttSettings(embedded_port=0),
        web=web,
        rules=RulesSettings(players=settings),
        live_equity=live_equity,
        state_dir=state_dir,
        health=health or HealthSettings(),
        tournament=tournament,
        branding=branding or BrandingSettings(),
    )
    hub = await start_hub(config, clock=clock, monotonic=monotonic or time.monotonic)
    try:
        async with simulated_node(hub) as sim:
            yield Room(hub, sim.table, sim.node, sim.publisher, hub.token(Role.DEALER))
    finally:
        await hub.stop()
