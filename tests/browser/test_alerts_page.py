"""The public page in a real headless Chromium: whose turn it is, the dealer's alerts and
the pot award — and still no hole card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.config import WebSettings
from hub.rules.procedure import Act, ConsoleAction
from tests.support.room import DECK, HOLE, room

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


async def test_public_page_shows_the_acting_seat_an_alert_and_the_pot_award(browser: Any) -> None:
    players = {s: (f"P{s}", 1000) for s in (1, 2, 3)}
    async with room(WebSettings(port=0), live_equity=False, players=players) as r:
        hub, table = r.hub, r.table
        assert hub.rules is not None
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]")
        sb, bb, button = r.seats
        await r.deal()
        await page.wait_for_selector(f"#seats .seat[data-seat='{button}'].acting")
        assert await page.locator("#seats .seat.acting").count() == 1
        # the small blind's call entered out of turn: refused, and the page says why
        step = hub.rules.console(ConsoleAction(sb, Act.CALL, 0.0))
        assert step is not None and step.refused
        alert = page.locator("#alert-list li.alert[data-code='action_out_of_turn']")
        await alert.wait_for()
        text = await alert.inner_text()
        assert f"seat {sb}" in text and "R-BET-10" in text and "let seat" in text
        assert "warning" in (await alert.get_attribute("class") or "")
        # the button and the small blind fold at the muck: the big blind takes the pot
        for seat in (button, sb):
            for card in r.held[seat]:
                table.move(DECK.uid_for(card), f"seat{seat}", "muck")
            await r.sweep()
        award = page.locator("#awards .award")
        await award.first.wait_for()
        assert f"P{bb} wins" in await award.first.inner_text()  # the TV names the winner
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "public-alerts-1280x900.png"))
        html = await page.content()
        assert await page.locator(".card[data-card]").count() == 0
        assert not [c for c in HOLE if f'data-card="{c}"' in html or f">{c}<" in html]
