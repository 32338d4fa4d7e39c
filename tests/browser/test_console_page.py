"""The dealer console in a real headless Chromium against a real hub (embedded broker, a
node reading simulated antennas): it offers only the engine's legal actions and amounts,
undo takes back the last action, a misdeal restores the stacks, the layout holds at
1920x1080 and 1024x768 (screenshots in test-artifacts/), and no frame the console
receives names a hole card. Its HTTP routes over real HTTP: roles, strict bodies, 409
refusals that name the rule."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.routing import APIRoute, APIWebSocketRoute

from hub.web.app import create_app
from hub.web.auth import Access, Role
from tests.support.console_rig import HOLE, SEATS, WAIT, Rig, choose_and_confirm, rig, wait_acting
from tests.support.pages import STATIC

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


async def assert_offers_the_engines_actions(page: Any, r: Rig) -> None:
    """The buttons shown are exactly the engine's legal actions, and the amount control's
    bounds are the engine's minimum and maximum."""
    hand = r.hand
    h = hand.actor
    assert h is not None
    legal = hand.legal_actions()
    await wait_acting(page, r.seat_to_act())
    offered = {
        name: await page.locator(f"#act-{name}").count()
        for name in ("fold", "check", "call", "bet", "all-in")
    }
    assert offered == {
        "fold": int(hand.can_fold(h)),
        "check": int(hand.can_check(h)),
        "call": int(hand.can_call(h)),
        "bet": int(legal.can_bet_or_raise),
        "all-in": int(hand.can_all_in(h)),
    }
    if hand.can_call(h):
        assert str(legal.call_amount) in await page.inner_text("#act-call")
    if legal.can_bet_or_raise:
        await page.click("#act-bet")
        amount = page.locator("#amount-input")
        await amount.wait_for(timeout=WAIT)
        assert await amount.get_attribute("min") == str(legal.min_to)
        assert await amount.get_attribute("max") == str(legal.max_to)
        slider = page.locator("#amount-range")
        assert await slider.get_attribute("min") == str(legal.min_to)
        assert await slider.get_attribute("max") == str(legal.max_to)
        # too much is cut to the maximum, and the page says so
        await amount.fill(str(legal.max_to + 5000))
        assert await amount.input_value() == str(legal.max_to)
        assert "maximum" in await page.inner_text("#amount-note")
        # too little is not raised behind the dealer's back: it stays, said, and unsent
        low = str(max(0, legal.min_to - 1))
        await amount.fill(low)
        await amount.press("Tab")
        assert await amount.input_value() == low
        note = await page.inner_text("#amount-note")
        assert "below the minimum" in note and f"{legal.min_to:,}" in note
        bets = list(hand.bets)
        await page.click("#confirm-action")
        assert await page.locator("#amount").is_visible() and list(hand.bets) == bets
        await page.keyboard.press("Escape")
        await page.wait_for_selector("#amount", state="hidden", timeout=WAIT)


def no_hole_card(frames: list[str], hole: list[str]) -> list[str]:
    text = "\n".join(frames)
    return [c for c in hole if f'"{c}"' in text]


async def test_console_offers_legal_amounts_undo_and_misdeal_and_never_a_hole_card(
    browser: Any,
) -> None:
    async with rig(live=True) as r:
        sb, bb, button = r.seats
        token = r.hub.token(Role.DEALER)
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        frames: list[str] = []
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived",
                lambda payload: frames.append(
                    payload if isinstance(payload, str) else payload.decode()
                ),
            ),
        )
        await page.goto(f"{r.hub.web_url}/console?token={token}&lang=en")
        await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        # the overlay shows hole cards live here: the console says so in red
        assert await page.locator("#live-warning").is_visible()
        before = {s: 1000 for s in SEATS}  # the buy-ins: stacks before hand 1
        await r.deal_hole_cards()
        # pre-flop, the button faces the big blind
        await assert_offers_the_engines_actions(page, r)
        await choose_and_confirm(page, "r", 30)
        await wait_acting(page, sb)
        assert r.bet(button) == 30
        await assert_offers_the_engines_actions(page, r)
        await choose_and_confirm(page, "c")
        await wait_acting(page, bb)
        await assert_offers_the_engines_actions(page, r)
        await page.click("#act-call")
        await page.click("#confirm-action")
        await page.wait_for_selector("#turn:has-text('the burn card (flop)')", timeout=WAIT)
        await r.put("burn", "3h")
        for card in ("Qs", "Jh", "4c"):
            await r.put("board", card)
        await page.wait_for_selector("#board .card[data-card='4c']", timeout=WAIT)
        # the flop: nothing to call, a bet from one big blind to the stack
        await assert_offers_the_engines_actions(page, r)
        assert await page.locator("#act-check").count() == 1
        await page.click("#act-bet")
        await page.fill("#amount-input", "20")
        await page.click("#confirm-action")
        await wait_acting(page, bb)
        assert await page.inner_text("#pot") == "110"
        assert await page.inner_text(f".seat[data-seat='{sb}'] [data-field=bet]") == "20"

        # undo takes back the bet: the small blind acts again, the pot is as it was
        await page.keyboard.press("u")
        await page.wait_for_selector("#modal", state="visible", timeout=WAIT)
        await page.keyboard.press("Enter")
        await wait_acting(page, sb)
        await page.wait_for_selector("#pot:text-is('90')", timeout=WAIT)
        assert await page.inner_text(f".seat[data-seat='{sb}'] [data-field=bet]") == ""
        assert r.hand.bets == [0, 0, 0]

        # the layout at both sizes, with the raise control open
        await page.click("#act-bet")
        for width, height in ((1920, 1080), (1024, 768)):
            await page.set_viewport_size({"width": width, "height": height})
            await page.wait_for_function(f"window.innerWidth === {width}", timeout=WAIT)
            fits = await page.evaluate(
                """() => {
                  const inside = (sel) => {
                    const b = document.querySelector(sel).getBoundingClientRect();
                    return b.left >= 0 && b.right <= innerWidth && b.top >= 0
                      && b.bottom <= innerHeight;
                  };
                  return {
                    noSideScroll: document.documentElement.scrollWidth <= innerWidth,
                    actions: inside('#actions'), amount: inside('#amount'),
                    confirm: inside('#confirm-action'), undo: inside('#undo'),
                    seats: [...document.querySelectorAll('.seat')].every((s) => {
                      const b = s.getBoundingClientRect(); return b.right <= innerWidth; }),
                  };
                }"""
            )
            assert all(fits.values()), (width, height, fits)
            ARTIFACTS.mkdir(exist_ok=True)
            await page.screenshot(path=str(ARTIFACTS / f"console-{width}x{height}.png"))
        await page.keyboard.press("Escape")

        # a misdeal (confirmed) voids the hand: the stacks are those of before the hand
        await page.click("#misdeal")
        await page.wait_for_selector("#modal", state="visible", timeout=WAIT)
        await page.click("#modal-yes")
        await page.wait_for_selector("#awards .award.void", timeout=WAIT)
        for seat, stack in before.items():
            box = page.locator(f".seat[data-seat='{seat}']")
            assert await box.locator("[data-field=stack]").inner_text() == f"{stack:,}"
            assert await box.locator("[data-field=bet]").inner_text() == ""
            assert await box.locator("[data-field=name]").inner_text() == f"P{seat}"
        assert {s: p.stack for s, p in r.rules.desk.table.players.items()} == before
        assert await page.locator("#act-fold").count() == 0  # no hand, no action

        # the dealer never saw a hole card: not in any frame, not on the page
        assert len(frames) > 10 and all(json.loads(f)["type"] for f in frames)
        assert any(json.loads(f)["type"] == "console" for f in frames)
        assert no_hole_card(frames, HOLE) == []
        html = await page.content()
        assert not [c for c in HOLE if f'data-card="{c}"' in html]


async def test_console_switches_to_czech_and_manages_seats_and_alerts(browser: Any) -> None:
    async with rig() as r:
        sb, _bb, button = r.seats
        token = r.hub.token(Role.DEALER)
        page = await browser.new_page(viewport={"width": 1024, "height": 768})
        await page.goto(f"{r.hub.web_url}/console?token={token}&lang=en")
        await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        assert not await page.locator("#live-warning").is_visible()
        # an empty seat: a player sits down with a buy-in the rules allow
        row = page.locator("#seat-list li[data-seat='7']")
        await row.locator("button[data-op='sit']").click()
        assert await page.get_attribute("#seat-amount", "min") == "400"
        assert await page.get_attribute("#seat-amount", "max") == "1000"
        await page.fill("#seat-name", "Eva")
        await page.fill("#seat-amount", "5000")  # over the maximum: clamped on submit
        await page.click("#seat-submit")
        await page.wait_for_selector(
            ".seat[data-seat='7'] [data-field=name]:text-is('Eva')", timeout=WAIT
        )
        assert await page.inner_text(".seat[data-seat='7'] [data-field=stack]") == "1,000"
        assert r.rules.desk.table.players[7].stack == 1000
        # the first card of the deal will not read: entered by hand, face down
        await page.select_option("#manual-reader", f"seat{sb}")
        await page.click("#manual-enter")
        await page.wait_for_selector("#message[data-kind='ok']", timeout=WAIT)
        # the "ok" may still be the sit-down's: wait for the entry itself to reach the hand
        for _ in range(WAIT // 50):
            if r.hand.hole[0]:
                break
            await asyncio.sleep(0.05)
        assert len(r.hand.hole[0]) == 1 and r.hand.hole[0][0] < 0  # dealt, not known
        # an action entered while the cards are still being dealt raises an alert (from
        # another console); this dealer acknowledges it
        async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
            response = await http.post(
                "/api/console/action",
                json={"seat": sb, "act": "call"},
                headers={"Authorization": f"Bearer {token}"},
            )
        assert response.status_code == 200 and not response.json()["accepted"]
        alert = page.locator("#alert-list li.alert[data-code='action_out_of_turn']").first
        await alert.wait_for(timeout=WAIT)
        english = await alert.locator(".what").inner_text()
        assert f"seat {sb}" in english and "R-BET-10" in await alert.inner_text()
        del button
        # Czech: the labels change, the seats keep their contract
        await page.click("button[data-lang='cs']")
        await page.wait_for_selector("#status:text-is('živě')", timeout=WAIT)
        assert await page.inner_text("#misdeal") == "Misdeal"
        assert "Zpět" in await page.inner_text("#undo")
        assert await page.locator(".seat[data-seat='7'] [data-field=stack]").count() == 1
        czech = await alert.locator(".what").inner_text()
        assert czech != english and "mimo pořadí" in czech  # the catalog's Czech (messages/cs.json)
        await page.screenshot(path=str(ARTIFACTS / "console-cs-1024x768.png"))
        # acknowledged, the alert leaves the list
        await alert.locator("button.ack").click()
        await alert.wait_for(state="detached", timeout=WAIT)
        assert r.rules.desk.acknowledged == {1}


async def test_console_routes_need_the_dealer_role_strict_bodies_and_name_the_rule() -> None:
    async with rig() as r:
        assert r.rules.desk.setup is not None
        url = r.hub.web_url
        dealer = {"Authorization": f"Bearer {r.hub.token(Role.DEALER)}"}
        routes = [
            route
            for route in create_app(r.hub.service, auth=r.hub.auth).routes
            if getattr(route, "path", "").startswith(("/console", "/api/console", "/ws/console"))
        ]
        assert len(routes) == 12
        for route in routes:
            assert isinstance(route, APIRoute | APIWebSocketRoute), route
            calls = [d.call for d in route.dependant.dependencies]
            assert any(isinstance(c, Access) and Role.DEALER in c.roles for c in calls), route
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            assert (await http.get("/api/console/state")).status_code == 401
            producer = {"Authorization": f"Bearer {r.hub.producer_token}"}
            assert (await http.get("/api/console/state", headers=producer)).status_code == 403
            assert (await http.get("/console", headers=dealer)).status_code == 200
            state = (await http.get("/api/console/state", headers=dealer)).json()
            assert state["type"] == "console" and state["live_hole_cards"] is False
            post = http.post
            # bad bodies: 422
            for path, body in (
                ("/api/console/action", {"seat": 1, "act": "fold", "extra": 1}),
                ("/api/console/action", {"seat": 11, "act": "fold"}),
                ("/api/console/card", {"seat": 1, "card": "Zz"}),
                ("/api/console/card", {"card": "As"}),
                ("/api/console/card", {"reader": "up3"}),
                ("/api/console/seat", {"op": "sit", "seat": 7}),
                ("/api/console/seat", {"op": "leave", "seat": 1, "amount": 5}),
                ("/api/console/show", {"seat": "x"}),
                ("/api/console/undo", {"please": True}),
            ):
                response = await post(path, json=body, headers=dealer)
                assert response.status_code == 422, (path, body, response.text)
            # refusals: 409 with the engine's message
            response = await post("/api/console/undo", json={}, headers=dealer)
            assert response.status_code == 409
            assert response.json()["detail"] == "there is no action to undo"
            body = {"op": "sit", "seat": 7, "name": "Bo", "amount": 100}
            response = await post("/api/console/seat", json=body, headers=dealer)
            assert response.status_code == 409 and "R-BUY-2" in response.json()["detail"]
            body = {"op": "leave", "seat": 1}
            response = await post("/api/console/seat", json=body, headers=dealer)
            assert response.status_code == 409 and "R-BUY-5" in response.json()["detail"]
            body = {"op": "top_up", "seat": 1, "amount": 100}  # 1000 is the maximum
            response = await post("/api/console/seat", json=body, headers=dealer)
            assert response.status_code == 409 and response.json()["detail"] == (
                "R-BUY-4: adding chips is not possible: seat 1 has 1000 and the maximum is 1000"
            )
            response = await post("/api/console/alerts/99/ack", headers=dealer)
            assert response.status_code == 404
            # a card that will not read, face down, for the first seat of the deal
            first = r.rules.desk.setup.seats[0]
            response = await post("/api/console/card", json={"seat": first}, headers=dealer)
            assert response.status_code == 200 and response.json()["accepted"]
            assert json.dumps(response.json()).count('"card"') == 0
            stats = (await http.get("/api/stats")).json()["counters"]
            assert stats["console_refused"] >= 3
            response = await post("/api/console/misdeal", headers=dealer)
            assert response.status_code == 200 and not response.json()["in_hand"]
            response = await post("/api/console/misdeal", headers=dealer)
            assert response.status_code == 409 and response.json()["detail"] == "no hand is running"
        ws_url = url.replace("http", "ws", 1) + "/ws/console"
        with pytest.raises(websockets.exceptions.InvalidStatus):
            async with websockets.connect(ws_url):
                pass
        token = r.hub.token(Role.DEALER)
        async with websockets.connect(f"{ws_url}?token={token}") as ws:
            first_frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first_frame["type"] == "console" and first_frame["hand"] == 1


def test_every_console_string_has_a_czech_text() -> None:
    js = (STATIC / "console" / "strings.js").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^ {2}(en|cs): \{\n(.*?)\n {2}\},", js, re.M | re.S))
    keys = {
        lang: set(re.findall(r'^\s+"([\w. -]+)":', body, re.M)) for lang, body in blocks.items()
    }
    assert len(keys["en"]) > 50 and keys["en"] == keys["cs"], keys["en"] ^ keys["cs"]
    html = (STATIC / "console.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-i18n="([\w.]+)"', html)) <= keys["en"]


async def test_uncalled_winner_shows_one_card_on_the_console_and_the_public_view() -> None:
    """R-SHOW-3 over real HTTP (blinds 5/10): the button raises to 30 and both blinds fold.
    The 20 nobody called goes back and the pot of 25 is the button's at once (+15); the
    console asks the button to show or muck, and it shows one card alone. The console
    and the public view say one card was shown; the console names that card only, the
    public view none; then the hand closes."""
    async with rig() as r:
        sb, bb, button = r.seats
        dealer = {"Authorization": f"Bearer {r.hub.token(Role.DEALER)}"}
        held = await r.deal_hole_cards()
        async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
            post = http.post
            for body in (
                {"seat": button, "act": "raise", "to": 30},
                {"seat": sb, "act": "fold"},
                {"seat": bb, "act": "fold"},
            ):
                response = await post("/api/console/action", json=body, headers=dealer)
                assert response.status_code == 200 and response.json()["accepted"], body
            answer = response.json()
            assert answer["in_hand"] and [e["event"] for e in answer["events"]][-1] == "PotAwarded"
            state = answer["state"]
            assert state["phase"] == "complete" and state["acting"] == button
            assert state["showdown"] == {
                "next": button, "show": [button], "muck": [button], "part": True, "uncalled": True
            }  # fmt: skip
            assert not state["can_undo"] and not state["can_misdeal"]
            assert no_hole_card([json.dumps(state)], HOLE) == []
            public = (await http.get("/api/public")).json()
            assert no_hole_card([json.dumps(public)], HOLE) == []
            # a card the winner does not hold is refused, and the refusal names no card
            other = held[sb][0]
            response = await post(
                "/api/console/show", json={"seat": button, "cards": [other]}, headers=dealer
            )
            assert response.status_code == 409 and other not in response.json()["detail"]
            shown, hidden = held[button]
            response = await post(
                "/api/console/show", json={"seat": button, "cards": [shown]}, headers=dealer
            )
            assert response.status_code == 200, response.text
            answer = response.json()
            assert [e for e in answer["events"] if e["event"] == "HandShown"] == [
                {"type": "event", "event": "HandShown", "seat": button, "whole": False}
            ]
            assert not answer["in_hand"] and answer["state"]["last_hand"]["awards"][0][
                "message"
            ] == (f"main pot 25: seat {button} takes 25")
            state = (await http.get("/api/console/state", headers=dealer)).json()
            assert state["shown"] == [{"seat": button, "cards": [shown], "whole": False}]
            assert no_hole_card([json.dumps(state)], [hidden]) == []
            public = (await http.get("/api/public")).json()
            assert no_hole_card([json.dumps(public)], HOLE) == []
            assert public["rules"]["shown"] == [{"seat": button, "count": 1, "whole": False}]
            stacks = {p["seat"]: p["stack"] for p in state["players"]}
            assert stacks == {sb: 995, bb: 990, button: 1015}
