"""The dealer console names seats by the table's numbers (issue 13, item 2): at a table
with seats 2, 5 and 7 a refusal for seat 5 says "seat 5", never the engine's index —
over real HTTP against a running hub with a node dealing."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from hub.config import WebSettings
from tests.support.room import Room, room

PLAYERS = {2: ("Anna", 1000), 5: ("Bořivoj", 500), 7: ("Cyril", 1000)}


async def post(r: Room, body: dict[str, Any]) -> httpx.Response:
    url = f"{r.hub.web_url}/api/console/action?token={r.dealer}"
    return await asyncio.to_thread(httpx.post, url, json=body, timeout=10)


async def test_refusals_at_seats_2_5_7_name_the_table_seats() -> None:
    """Seat 5 has 500. The console asks seat 5 to bet 600 (refused: it has only 500) and
    to check facing a raise; an action for seat 2 out of turn names the seat to act."""
    async with room(WebSettings(port=0), players=PLAYERS) as r:
        assert sorted(r.seats) == [2, 5, 7]
        await r.deal()
        said: list[str] = []
        # everyone before seat 5 calls, so that seat 5 is to act
        order = list(r.seats[2:]) + list(r.seats[:2])  # pre-flop: left of the big blind first
        for seat in order[: order.index(5)]:
            if seat != 5:
                await r.act(seat, "call")
        wrong = next(s for s in (2, 7) if s != 5 and s not in order[: order.index(5)])
        out_of_turn = (await post(r, {"seat": wrong, "act": "fold", "to": 0})).json()
        said.append(out_of_turn["refused"])
        assert out_of_turn["refused"] == "seat 5 is to act"
        too_much = (await post(r, {"seat": 5, "act": "raise", "to": 600})).json()
        said.append(too_much["refused"])
        assert too_much["accepted"] is False
        assert too_much["refused"] == "R-BUY-5: seat 5 has only 500 in play; it cannot bet to 600"
        numbers = {int(n) for t in said for n in re.findall(r"\bseat (\d+)", t)}
        assert numbers <= {2, 5, 7}, said
