"""Issue 12, item 1: a wall-clock jump never shortens the overlay's delay.

An NTP step, ``date -s`` or a Pi without a real-time clock correcting itself moves the
wall clock by minutes at once. The hub measures every delay on its own time
(:class:`hub.app.table_time.TableTime`: anchored on the wall clock at start, then monotonic),
so the producer's overlay — which must hold every hole card back for 30 minutes — sends
nothing of a hand in progress when the wall clock jumps 31 minutes forward, nor when it
jumps back. Tested through the real hub: a node dealing over MQTT, the dealer's actions
over the console's HTTP route, the overlay over its WebSocket.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from hub.config import WebSettings
from hub.web.auth import Role
from tests.support.clocks import MovableClock
from tests.support.room import DECK, HOLE, Room, room

JUMP = 31 * 60.0
DELAY_MINUTES = 30


class JumpingWall:
    """The system's wall clock, plus the jumps the test makes (an NTP step, ``date -s``)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def overlay_url(r: Room) -> str:
    return (
        r.hub.web_url.replace("http", "ws", 1) + f"/ws/overlay?token={r.hub.token(Role.PRODUCER)}"
    )


async def frames_for(ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every frame the overlay feed sends within ``seconds``."""
    out: list[dict[str, Any]] = []
    deadline = asyncio.get_running_loop().time() + seconds
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        try:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), left)))
        except TimeoutError:
            break
    return out


def hole_cards_in(frames: list[dict[str, Any]]) -> list[str]:
    text = json.dumps(frames)
    return [card for card in HOLE if f'"{card}"' in text]


async def test_a_wall_clock_jump_forward_and_back_mid_hand_releases_nothing() -> None:
    wall = JumpingWall()
    web = WebSettings(port=0, overlay_delay_minutes=DELAY_MINUTES)
    async with room(web, clock=wall, live_equity=False) as r, connect(overlay_url(r)) as ws:
        snapshot = json.loads(await ws.recv())
        assert snapshot["type"] == "snapshot" and not hole_cards_in([snapshot])
        await r.deal()
        first, second, button = r.seats
        await r.act(button, "call")
        wall.offset += JUMP  # the wall clock steps 31 minutes forward, mid-hand
        await r.act(first, "call")
        await r.act(second, "check")  # the flop is due: the hand goes on after the jump
        forward = await frames_for(ws, 3.0)
        wall.offset -= 2 * JUMP  # ... and back, 31 minutes before the hand began
        for card in ("9h", "9d", "2c"):
            r.table.reader("board").place(DECK.uid_for(card))
            await r.sweep()
        back = await frames_for(ws, 3.0)
        assert not hole_cards_in(forward), f"released after the jump: {hole_cards_in(forward)}"
        assert not hole_cards_in(back), f"released after the jump back: {hole_cards_in(back)}"
        async with connect(overlay_url(r)) as late:  # a page opened now shows nothing either
            assert not hole_cards_in([json.loads(await late.recv())])
        assert r.hub.service.feeds.held > 0  # the hand is held back, not lost


async def test_the_delay_runs_on_the_monotonic_clock_whatever_the_wall_clock_says() -> None:
    wall, monotonic = JumpingWall(), MovableClock()
    web = WebSettings(port=0, overlay_delay_minutes=DELAY_MINUTES)
    async with (
        room(web, clock=wall, monotonic=monotonic, live_equity=False) as r,
        connect(overlay_url(r)) as ws,
    ):
        await ws.recv()  # the snapshot
        await r.deal()
        wall.offset += 2 * 3600  # two hours forward on the wall: nothing
        monotonic.now += DELAY_MINUTES * 60 - 1  # a second short of the delay: nothing
        r.hub.service.feeds.release_due()
        assert not hole_cards_in(await frames_for(ws, 1.0))
        monotonic.now += 1  # the delay has passed: the deal comes out, every card of it
        r.hub.service.feeds.release_due()
        released: list[dict[str, Any]] = []
        while hole_cards_in(released) != HOLE:
            released += await frames_for(ws, 5.0) or []
            assert released, "nothing released after the delay"
