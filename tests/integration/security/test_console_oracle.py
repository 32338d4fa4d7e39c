"""Issue 12, item 2: the dealer console is no oracle for where a hidden card lies.

A card whose tag will not read is entered by hand (``POST /api/console/card``). Before,
entering a hole card's code "on the burn" answered "a card of seat 3 turned up on burn" —
52 requests located every hole card. Now a code already in play is refused with one
answer, whichever seat holds it (or the burn, the muck, the board), nothing reaches the
console's or the public feed, and each refusal is written to the audit trail. Through
the real hub: a node deals over MQTT, the dealer's requests go over HTTP.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from hub.config import WebSettings
from hub.messages import render
from hub.rules.procedure import MANUAL_CARD_IN_PLAY
from hub.web.auth import Role
from tests.support.room import HOLE, Room, room

READERS = ("burn", "board", "muck", "seat3")


def drain(sub: Any) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


async def post_card(r: Room, reader: str, card: str | None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        return await http.post(
            "/api/console/card",
            json={"reader": reader, "card": card},
            headers={"Authorization": f"Bearer {r.dealer}", "User-Agent": "probe"},
        )


async def test_a_hole_cards_code_gets_one_answer_wherever_it_lies() -> None:
    async with room(WebSettings(port=0), live_equity=False) as r:
        await r.deal()
        button = r.seats[-1]
        await r.act(button, "call")  # the hand goes on: a played card is in play too
        service = r.hub.service
        async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
            auth = {"Authorization": f"Bearer {r.dealer}"}
            before = (await http.get("/api/console/state", headers=auth)).json()
        with service.public.subscribe() as public:
            answers = set()
            for card in HOLE:  # two cards of each of the three seats
                for reader in READERS:
                    response = await post_card(r, reader, card)
                    answers.add((response.status_code, response.text))
            await asyncio.sleep(0.2)
            frames = drain(public)
        # one answer, whichever seat holds the card and wherever the dealer says it lies
        assert len(answers) == 1, answers
        ((code, text),) = answers
        assert code == 409 and json.loads(text) == {
            "detail": render(MANUAL_CARD_IN_PLAY, "en"),
            "text": MANUAL_CARD_IN_PLAY.as_json(),
        }
        # nothing reached the public feed (which the console's WebSocket carries too)
        assert frames == []
        async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
            after = (await http.get("/api/console/state", headers=auth)).json()
            assert after["alerts"] == before["alerts"] and after["players"] == before["players"]
            # every refusal is in the audit trail, with who and from where, never the card
            admin = {"Authorization": f"Bearer {r.hub.token(Role.ADMIN)}"}
            audit = (await http.get("/api/admin/audit?limit=200", headers=admin)).json()
        refusals = [e for e in audit["entries"] if e["route"] == "/api/console/card"]
        assert len(refusals) == len(HOLE) * len(READERS)
        assert {(e["outcome"], e["feed"], e["role"], e["user_agent"]) for e in refusals} == {
            ("refused", "console", "dealer", "probe")
        }
        assert not [e for e in refusals for c in HOLE if c in json.dumps(e)]


async def test_a_card_not_in_play_is_still_taken_by_hand() -> None:
    async with room(WebSettings(port=0), live_equity=False) as r:
        await r.deal()
        first, second, button = r.seats
        for seat, act in ((button, "call"), (first, "call"), (second, "check")):
            await r.act(seat, act)
        for card in ("9h", "9d", "2c"):  # the flop's tags will not read: entered by hand
            response = await post_card(r, "board", card)
            assert response.status_code == 200, response.text
        assert r.hub.rules is not None
        assert r.hub.rules.public_state()["board"] == ["9h", "9d", "2c"]
        again = await post_card(r, "board", "9h")  # the same card twice: refused alike
        assert again.status_code == 409 and again.json()["text"] == MANUAL_CARD_IN_PLAY.as_json()
