"""The demo's way in to the dealer console: :class:`simulator.demo.HttpConsole` against a real
hub over real HTTP — what it sends, how it takes the hub's refusals, and what it does not
take."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import HubRuntime, start_hub
from hub.config import HubConfig, HubMqttSettings, PlayerSettings, RulesSettings, WebSettings
from hub.rules.alerts import AlertCode
from hub.rules.procedure import Act, ConsoleAction, DeclareMisdeal
from hub.web.auth import Role
from simulator.demo import ConsoleAnswer, ConsoleApiError, HttpConsole
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable

DECK = simulated_deck()
HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


@pytest.fixture
async def hub() -> AsyncIterator[HubRuntime]:
    """A hub with three players seated: hand 1 is running, its hole cards dealt by a
    simulated node (the button acts first)."""
    runtime = await start_hub(
        HubConfig(
            table="t1",
            live_equity=False,
            mqtt=HubMqttSettings(embedded_port=0),
            web=WebSettings(port=0),
            rules=RulesSettings(
                players=[PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
            ),
        )
    )
    table = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{runtime.broker.host}:{runtime.broker.port}"),
        table="t1",
        node="n",
    )
    publisher = InventoryPublisher(table="t1", node="n", transport=transport)
    node = Node(list(table.readers.values()), publisher)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        await asyncio.wait_for(runtime.service.subscribed.wait(), 10)
        assert runtime.rules is not None and runtime.rules.desk.setup is not None
        cards = iter(HOLE)
        for _ in range(2):
            for seat in runtime.rules.desk.setup.seats:
                table.reader(f"seat{seat}").place(DECK.uid_for(next(cards)))
                node.poll_once()
                assert await asyncio.to_thread(
                    runtime.service.wait_handled, publisher.published, 10
                )
        yield runtime
    finally:
        transport.close()
        await runtime.stop()


async def test_actions_go_in_over_http_and_a_refusal_is_an_answer(hub: HubRuntime) -> None:
    assert hub.rules is not None and hub.rules.desk.setup is not None
    sb, _, button = hub.rules.desk.setup.seats
    api = HttpConsole(hub.web_url, hub.token(Role.DEALER))
    try:
        # the small blind acts out of turn: the hub refuses and alerts, the dealer goes on
        out_of_turn = await asyncio.to_thread(api.enter, ConsoleAction(sb, Act.CALL, 0.0))
        assert not out_of_turn.accepted and out_of_turn.refused
        codes = [a.code for a in hub.rules.desk.alerts_by_hand[1]]
        assert codes == [AlertCode.ACTION_OUT_OF_TURN]
        # the button's call is in turn
        assert await asyncio.to_thread(
            api.enter, ConsoleAction(button, Act.CALL, 0.0)
        ) == ConsoleAnswer(True)
        hand = hub.rules.desk.monitor.hand if hub.rules.desk.monitor is not None else None
        assert hand is not None and hand.actor is not None
        assert hub.rules.desk.setup.seats[hand.actor] == sb  # the call was taken: sb's turn
        # a misdeal over its route voids the hand; an action then is refused (409)
        assert await asyncio.to_thread(api.enter, DeclareMisdeal(0.0)) == ConsoleAnswer(True)
        assert not hub.rules.in_hand
        late = await asyncio.to_thread(api.enter, ConsoleAction(sb, Act.FOLD, 0.0))
        assert late == ConsoleAnswer(False, "no hand is running")
        assert (api.sent, api.refused) == (4, 2)
    finally:
        api.close()


async def test_a_credential_the_console_refuses_stops_the_demo(hub: HubRuntime) -> None:
    for token in (hub.token(Role.PRODUCER), "fwt1.forged.token"):
        api = HttpConsole(hub.web_url, token)
        try:
            with pytest.raises(ConsoleApiError, match=r"answered 40[13]"):
                await asyncio.to_thread(api.enter, ConsoleAction(1, Act.CALL, 0.0))
        finally:
            api.close()
    assert hub.rules is not None and hub.rules.desk.alerts_by_hand[1] == []
