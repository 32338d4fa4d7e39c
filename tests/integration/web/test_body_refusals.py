"""A console request whose body does not pass its checks is refused with a catalog text
(issue 14: refusals are texts, English and Czech), over real HTTP against a running hub:
the body's own check says what it needs; FastAPI's checks (a type, an unknown field)
name the fields at fault. ``detail`` stays FastAPI's list of problems."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from feltwire.text import Text
from hub.config import WebSettings
from hub.messages import render
from tests.support.room import Room, room

PLAYERS = {2: ("Anna", 1000), 5: ("Bořivoj", 500)}


async def post(r: Room, path: str, body: dict[str, Any]) -> httpx.Response:
    url = f"{r.hub.web_url}/api/console/{path}?token={r.dealer}"
    return await asyncio.to_thread(httpx.post, url, json=body, timeout=10)


def said(answer: httpx.Response) -> tuple[str, str]:
    """The refusal's text in English and Czech, as the console renders it."""
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert isinstance(body["detail"], list) and body["detail"]
    text = Text(body["text"]["key"], body["text"]["params"])
    return render(text, "en"), render(text, "cs")


async def test_a_body_that_fails_its_checks_is_refused_in_either_language() -> None:
    async with room(WebSettings(port=0), players=PLAYERS) as r:
        sit = await post(r, "seat", {"op": "sit", "seat": 3})
        assert said(sit) == (
            "sit needs the player's name and the buy-in amount",
            "sit potřebuje jméno hráče a výši vstupného",
        )
        leave = await post(r, "seat", {"op": "leave", "seat": 5, "amount": 100})
        assert said(leave) == ("leave takes no amount", "leave nebere částku")
        typed = await post(r, "action", {"seat": 5, "act": "raise", "to": "lots"})
        assert said(typed) == (
            "the request body cannot be taken: to",
            "tělo požadavku nelze přijmout: to",
        )
        unknown = await post(r, "card", {"seat": 5, "card": "As", "face": "up"})
        assert said(unknown)[0] == "the request body cannot be taken: face"
