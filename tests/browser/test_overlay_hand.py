"""The broadcast overlay in a real headless Chromium, with the rules running: a node deals
through the embedded broker, the dealer enters actions through the console's HTTP route.

The overlay shows a raise entered at the console (the bet on the seat, its stack, the
pot), a folded seat dimmed and the exact equity of the seats still in; its board-sync
offset holds every frame back on the page; with the default 30-minute delay it shows
nothing of a hand dealt just now. Screenshots at 1920x1080 and 1024x768 are kept in
``test-artifacts/``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hub.config import WebSettings
from tests.support.clocks import FakeClock
from tests.support.room import HOLE, NAMES, room

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
"""Playwright's wait for a condition, in ms (generous: the machine is busy)."""
OFFSET_MS = 5000


class Watched:
    """A page and every WebSocket frame the hub sent it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(json.loads(payload))

    def pictures(self) -> list[dict[str, Any]]:
        """The overlay's pictures received so far (snapshot first)."""
        return [f.get("state") or {} for f in self.frames if f["type"] in ("snapshot", "state")]

    async def until(self, what: Callable[[dict[str, Any]], bool]) -> None:
        """Wait until a picture the page received satisfies ``what``."""
        async with asyncio.timeout(WAIT / 1000):
            while not any(what(p) for p in self.pictures()):
                await asyncio.sleep(0.05)


def seat_sel(seat: int, name: str | None = None) -> str:
    base = f"#seats .seat[data-seat='{seat}']"
    return base if name is None else f"{base} [data-field={name}]"


async def text_is(page: Any, selector: str, text: str) -> None:
    """Wait until the element's text is ``text``."""
    await page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.textContent === t; }",
        arg=[selector, text],
        timeout=WAIT,
    )


def bet_of(picture: dict[str, Any], seat: int) -> int | None:
    return next((p["bet"] for p in picture.get("players", ()) if p["seat"] == seat), None)


async def test_a_raise_entered_at_the_console_shows_on_the_overlay(browser: Any) -> None:
    web = WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
    async with room(web) as r:
        sb, bb, button = r.seats  # three-handed: the button acts first
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_function("document.body.dataset.status === 'live'", timeout=WAIT)
        await text_is(page, seat_sel(bb, "bet"), "10")
        await text_is(page, seat_sel(bb, "stack"), "990")
        # a second page, its clock in the test's hands, draws every frame 5 s late
        late = await browser.new_page(viewport={"width": 1024, "height": 768})
        watched = Watched(late)
        await late.clock.install(time=1_700_000_000)
        await late.goto(r.hub.overlay_url + f"&lang=en&offset_ms={OFFSET_MS}")
        await late.wait_for_function(  # the snapshot came (waiting or drawn already)
            "document.body.dataset.pending === '1' || document.body.dataset.frames === '1'",
            timeout=WAIT,
        )
        await late.clock.pause_at(1_700_000_060)  # every frame due by now is drawn; time stops
        assert await late.inner_text(seat_sel(bb, "bet")) == "10"

        await r.deal()
        for seat, cards in r.held.items():
            for card in cards:
                await page.wait_for_selector(
                    f"{seat_sel(seat)} .card[data-card='{card}']", timeout=WAIT
                )
        await page.wait_for_selector(f"{seat_sel(button)}.acting", timeout=WAIT)
        assert await page.locator("#seats .seat.acting").count() == 1

        await r.act(button, "raise", 60)
        await text_is(page, seat_sel(button, "bet"), "60")
        await text_is(page, seat_sel(button, "stack"), "940")
        await text_is(page, "#pot", "75")
        await text_is(page, "#action", f"{NAMES[button]} raises to 60")

        # the late page has the raise but has not drawn it: its offset holds it back
        await watched.until(lambda p: bet_of(p, button) == 60)
        assert int(await late.evaluate("document.body.dataset.pending")) > 0
        assert await late.inner_text(seat_sel(button, "bet")) == ""
        assert await late.locator(".card[data-card]").count() == 0
        await late.clock.run_for(OFFSET_MS)
        assert await late.inner_text(seat_sel(button, "bet")) == "60"
        assert await late.inner_text(seat_sel(button, "stack")) == "940"
        assert await late.inner_text("#pot") == "75"

        await r.act(sb, "fold")
        await page.wait_for_selector(f"{seat_sel(sb)}.folded", timeout=WAIT)
        assert await page.locator("#seats .seat.folded").count() == 1
        # the seats still in get their exact equity, heads-up now (the folded seat none)
        await page.wait_for_function(
            """sels => {
                const els = sels.map((s) => document.querySelector(s));
                const sum = els.reduce((a, e) => a + (parseFloat(e.dataset.equity) || 0), 0);
                return els.every((e) => e.dataset.exact === "true") && Math.abs(sum - 1) < 0.002;
            }""",
            arg=[seat_sel(bb, "equity"), seat_sel(button, "equity")],
            timeout=WAIT,
        )
        assert await page.inner_text(seat_sel(sb, "equity")) == ""
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "overlay-1920x1080.png"), animations="disabled")

        await watched.until(lambda p: any(x["folded"] for x in p.get("players", ())))
        await late.clock.run_for(OFFSET_MS)
        assert "folded" in (await late.get_attribute(seat_sel(sb), "class") or "")
        assert float(await late.evaluate("document.body.dataset.scale")) < 0.6
        await late.screenshot(path=str(ARTIFACTS / "overlay-1024x768.png"), animations="disabled")


async def test_with_the_default_delay_a_hand_dealt_now_is_not_on_the_overlay(
    browser: Any,
) -> None:
    clock = FakeClock()
    async with room(WebSettings(port=0), monotonic=clock) as r:
        assert r.hub.service.feeds.overlay_delay_s == 30 * 60
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        watched = Watched(page)
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_function("Number(document.body.dataset.frames) >= 1", timeout=WAIT)
        await r.deal()
        button = r.seats[-1]
        await r.act(button, "raise", 60)
        # nothing of the hand: not on the page, not in anything the hub sent it
        secret = [*HOLE, *NAMES.values()]
        snapshot = json.dumps(r.hub.service.overlay_snapshot(), ensure_ascii=False)
        assert not [s for s in secret if s in snapshot]
        received = json.dumps(watched.frames, ensure_ascii=False)
        assert watched.frames and not [s for s in secret if s in received]
        assert await page.locator("#seats .seat:not([hidden])").count() == 0
        assert await page.locator(".card[data-card]").count() == 0
        # thirty minutes later it is all there
        clock.now += 30 * 60
        assert r.hub.service.feeds.release_due() > 0
        await text_is(page, seat_sel(button, "bet"), "60")
        await text_is(page, seat_sel(button, "name"), NAMES[button])
        for card in r.held[button]:
            await page.wait_for_selector(
                f"{seat_sel(button)} .card[data-card='{card}']", timeout=WAIT
            )
