"""The demo's way in to the dealer console: :class:`simulator.demo.HttpConsole` against a real
hub over real HTTP — what it sends, how it takes the hub's refusals, and what it does not
take."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from hub.bootstrap import HubRuntime
from hub.config import WebSettings
from hub.rules.alerts import AlertCode
from hub.rules.procedure import Act, ConsoleAction, DeclareMisdeal
from hub.web.auth import Role
from hub.web.server import KEEP_ALIVE_SECONDS
from simulator.demo import IDLE_S, ConsoleAnswer, ConsoleApiError, HttpConsole
from tests.support.room import room


@pytest.fixture
async def hub() -> AsyncIterator[HubRuntime]:
    """A hub with three players seated: hand 1 is running, its hole cards dealt by a
    simulated node (the button acts first)."""
    players = {s: (f"P{s}", 1000) for s in (1, 2, 3)}
    async with room(WebSettings(port=0), live_equity=False, players=players) as r:
        await r.deal()
        yield r.hub


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


async def test_an_idle_connection_is_let_go_before_the_hub_would_close_it(
    hub: HubRuntime,
) -> None:
    """The hub's server closes a connection idle for KEEP_ALIVE_SECONDS (5 s); a client
    keeping it as long sent a request now and then just as it closed, and got no answer
    (the dealer stopped). After an idle pause between IDLE_S and the hub's 5 s, the
    client's next request goes on a new connection."""
    assert IDLE_S + 1 < KEEP_ALIVE_SECONDS
    api = HttpConsole(hub.web_url, hub.token(Role.DEALER))

    def local_port() -> int:
        response = api.client.get("/api/console/state")
        assert response.status_code == 200
        port: int = response.extensions["network_stream"].get_extra_info("client_addr")[1]
        return port

    try:
        first = await asyncio.to_thread(local_port)
        assert await asyncio.to_thread(local_port) == first  # kept while in use
        await asyncio.sleep(IDLE_S + 0.5)  # the hub would keep it 5 s
        assert await asyncio.to_thread(local_port) != first
    finally:
        api.close()
