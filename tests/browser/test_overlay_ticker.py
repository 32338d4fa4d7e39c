"""The overlay's ticker in a real headless Chromium, at a tournament table behind the
default 30-minute delay: it shows the hand, its blinds, the level and the time left as of
the delayed picture — not the live clock — counting down between frames, and a paused
clock as paused, on a page open all along and on one opened afterwards (the snapshot).
The hub's time is the test's (a monotonic clock it moves). A screenshot goes to
``test-artifacts/``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx

from hub.config import LevelSettings, TournamentSettings, WebSettings
from tests.support.clocks import FakeClock
from tests.support.room import Room, room

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
LEVELS = [
    LevelSettings(small_blind=10, big_blind=20, minutes=15),
    LevelSettings(small_blind=15, big_blind=30, ante=5, minutes=15),
]
CLOCK = "#ticker-clock"


async def pause_clock(r: Room) -> dict[str, Any]:
    """The dealer pauses the tournament clock (its HTTP route); the clock's state after."""
    url = f"{r.hub.web_url}/api/clock/pause?token={r.dealer}"
    response = await asyncio.to_thread(httpx.post, url, json={}, timeout=10)
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


async def clock_shown(page: Any) -> dict[str, str]:
    """What the ticker's clock shows: its level and time texts, its data attributes."""
    shown: dict[str, str] = await page.evaluate(
        """() => {
            const c = document.querySelector('#ticker-clock');
            return { hidden: String(c.hidden), level: c.dataset.level || '',
                     paused: c.dataset.paused || '', left: c.dataset.left || '',
                     levelText: document.querySelector('#ticker-level').textContent,
                     time: document.querySelector('#ticker-time').textContent,
                     hand: document.querySelector('#ticker-hand').textContent };
        }"""
    )
    return shown


async def test_the_ticker_shows_the_clock_of_the_delayed_picture(browser: Any) -> None:
    clock = FakeClock()
    tournament = TournamentSettings(starting_stack=1000, levels=LEVELS)
    async with room(WebSettings(port=0), monotonic=clock, tournament=tournament) as r:
        feeds = r.hub.service.feeds
        assert feeds.overlay_delay_s == 30 * 60
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.clock.install()
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_function("Number(document.body.dataset.frames) >= 1", timeout=WAIT)
        assert await page.locator(CLOCK).is_hidden()  # the table opened less than 30 min ago

        # live, twenty minutes on: level 2, and the dealer pauses the clock there
        clock.now += 20 * 60
        live = await pause_clock(r)
        assert (live["level"], live["paused"]) == (2, True)

        # ten minutes later the overlay shows the table as it was when it opened: level 1,
        # its whole fifteen minutes left, running — not the live level 2, paused
        clock.now += 10 * 60
        assert feeds.release_due() > 0
        await page.wait_for_selector(f"{CLOCK}[data-level='1']", timeout=WAIT)
        shown = await clock_shown(page)
        assert shown["paused"] == "false" and shown["levelText"] == "Level 1"
        assert re.fullmatch(r"1[45]:\d\d", shown["time"]), shown
        assert 890 <= int(shown["left"]) <= 900, shown
        assert shown["hand"] == "Hand #1 · Blinds 10/20"
        # the page counts the level down between frames
        await page.clock.pause_at(await page.evaluate("(Date.now() + 1000) / 1000"))
        before = int((await clock_shown(page))["left"])
        await page.clock.run_for(60_000)
        after = await clock_shown(page)
        assert before - int(after["left"]) == 60, (before, after)
        await page.clock.resume()

        # a page opened now gets the same clock in its snapshot, as of the delayed picture
        late = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await late.goto(r.hub.overlay_url + "&lang=en")
        await late.wait_for_selector(f"{CLOCK}[data-level='1']", timeout=WAIT)
        assert (await clock_shown(late))["time"] == "15:00"  # the hub's time stands still

        # thirty minutes after the pause the overlay has it: level 2, paused, 10:00 left
        clock.now += 20 * 60
        assert feeds.release_due() > 0
        for p in (page, late):
            await p.wait_for_selector(f"{CLOCK}[data-paused='true']", timeout=WAIT)
            shown = await clock_shown(p)
            assert shown["levelText"] == "Level 2" and shown["time"] == "Paused 10:00", shown
        await page.clock.pause_at(await page.evaluate("(Date.now() + 1000) / 1000"))
        await page.clock.run_for(60_000)
        assert (await clock_shown(page))["time"] == "Paused 10:00"  # a paused clock stands
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(
            path=str(ARTIFACTS / "overlay-ticker-clock.png"), animations="disabled"
        )

        # in Czech
        await late.goto(r.hub.overlay_url + "&lang=cs")
        await late.wait_for_selector(f"{CLOCK}[data-paused='true']", timeout=WAIT)
        shown = await clock_shown(late)
        assert shown["levelText"] == "Úroveň 2" and shown["time"] == "Pozastaveno 10:00", shown


async def test_a_cash_table_shows_no_clock(browser: Any) -> None:
    web = WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
    async with room(web) as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_function(
            "document.querySelector('#ticker-hand').textContent.startsWith('Hand #')",
            timeout=WAIT,
        )
        assert await page.locator(CLOCK).is_hidden()
        assert await page.inner_text("#ticker-hand") == "Hand #1 · Blinds 5/10"
