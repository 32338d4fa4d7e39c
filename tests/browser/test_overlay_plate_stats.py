"""The players' statistics on the overlay's plates (the producer's ``plate_stats``
switch), in a real headless Chromium against the real hub (the rules running, a node
dealing through the embedded broker, the hands kept in a real SQLite store).

* Off by default: the plates carry no statistics line. Turned on (over the HTTP API, or
  the setup panel's checkbox), every plate shows its player's figures from the hands
  store — what ``player_stats`` counts on the same store — and they follow as hands end.
  The public may not turn it on.
* Behind the default 30-minute delay (the hub's time is the test's): the live table has
  finished hand 2 and the store holds it, but the delayed picture is still in hand 2 —
  so the plates count hand 1 only. When the delayed picture reaches hand 2's end, they
  count it.

Screenshot ``test-artifacts/overlay-plate-stats.png``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from hub.adapters.hands.stats import PlayerStats, player_stats
from hub.adapters.hands.store import HandStore
from hub.app.hand_history import HandQuery
from hub.bootstrap import hands_url
from hub.config import WebSettings
from tests.support.clocks import FakeClock
from tests.support.room import DECK, Room, room

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
LIVE = WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
DELAY = 30 * 60
SHOWN = "#seats .seat:not([hidden]) [data-field=stats]:not([hidden])"


async def switch(url: str, token: str, on: bool) -> httpx.Response:
    """``POST /api/overlay/settings`` ``{"plate_stats": on}`` with ``token`` (or none)."""
    query = f"?token={token}" if token else ""
    return await asyncio.to_thread(
        httpx.post, f"{url}/api/overlay/settings{query}", json={"plate_stats": on}, timeout=10
    )


async def plates(page: Any) -> dict[str, dict[str, str]]:
    """Each plate's statistics line shown, by the player's name: its figures and text."""
    shown: dict[str, dict[str, str]] = await page.evaluate(
        """(sel) => Object.fromEntries([...document.querySelectorAll(sel)].map(e =>
            [e.dataset.name, {...e.dataset, text: e.textContent}]))""",
        SHOWN,
    )
    return shown


def store_stats(r: Room, ended_by: float | None = None) -> dict[str, PlayerStats]:
    """What the hands store counts for the table's players (hands ended by ``ended_by``)."""
    r.hub.service.hand_book.flush()
    url = hands_url(r.hub.config)
    assert url is not None
    store = HandStore.open(url)
    try:
        found = player_stats(store, HandQuery(table="t1", ended_by=ended_by))
    finally:
        store.close()
    return {s.player.name: s for s in found}


def same(shown: dict[str, dict[str, str]], counted: dict[str, PlayerStats]) -> None:
    """The plates show the store's figures, player by player."""
    assert sorted(shown) == sorted(counted)
    for name, s in counted.items():
        line = shown[name]
        assert int(line["hands"]) == s.hands, name
        for k in ("vpip", "pfr", "three_bet", "wtsd", "wsd", "aggression"):
            value = getattr(s, k)
            if value is None:
                assert line[k] == "", (name, k)
            else:
                assert float(line[k]) == value, (name, k)


async def fold_out(r: Room) -> None:
    """The hand's button and small blind fold: the big blind takes the blinds; then a
    card crosses the muck's antenna (a read at a clear table starts the next hand)."""
    sb, _bb, button = r.seats
    await r.act(button, "fold")
    await r.act(sb, "fold")
    muck = r.table.reader("muck")
    muck.place(DECK.uid_for("2c"))
    await r.sweep()
    muck.lift(DECK.uid_for("2c"))
    await r.sweep()


async def wait_hand(r: Room, number: int) -> None:
    rules = r.hub.rules
    assert rules is not None
    for _ in range(200):
        if rules.hand_number == number and rules.in_hand:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"hand {number} did not start (at {rules.hand_number})")


async def test_off_by_default_then_the_plates_show_the_stores_figures(
    browser: Any, tmp_path: Path
) -> None:
    async with room(LIVE, state_dir=tmp_path / "state") as r:
        url, producer = r.hub.web_url, r.hub.producer_token
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en&setup=1")
        await page.wait_for_selector("#seats .seat[data-seat='3']", timeout=WAIT)
        await fold_out(r)
        await wait_hand(r, 2)
        assert store_stats(r)["Anna"].hands == 1
        await page.wait_for_function(
            "document.querySelector('#ticker-hand').textContent.includes('#2')", timeout=WAIT
        )
        # off: no line on any plate
        assert await page.get_attribute("body", "data-plate-stats") == "false"
        assert await page.locator(SHOWN).count() == 0
        assert not await page.is_checked("#plate-stats-on")
        # the public may not turn it on
        assert (await switch(url, "", True)).status_code in (401, 403)

        # on: every plate shows its player's figures, as the store counts them
        ok = await switch(url, producer, True)
        assert ok.status_code == 200 and ok.json()["settings"]["plate_stats"] is True, ok.text
        await page.wait_for_function(
            f"document.querySelectorAll('{SHOWN}').length === 3", timeout=WAIT
        )
        same(await plates(page), store_stats(r))
        assert await page.is_checked("#plate-stats-on")
        anna = (await plates(page))["Anna"]["text"]
        assert anna.startswith("VPIP ") and anna.endswith(" · 1 hand"), anna

        # another hand ends: the figures follow
        await fold_out(r)
        await wait_hand(r, 3)
        await page.wait_for_function(
            f"[...document.querySelectorAll('{SHOWN}')].every(e => e.dataset.hands === '2')",
            timeout=WAIT,
        )
        same(await plates(page), store_stats(r))
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "overlay-plate-stats.png"))
        # in Czech
        await page.evaluate("FW.i18n.set('cs')")
        assert (await plates(page))["Anna"]["text"].endswith(" · 2 rozdání")

        # off again (the setup panel's checkbox): the lines go
        await page.uncheck("#plate-stats-on")
        await page.wait_for_function(
            f"document.querySelectorAll('{SHOWN}').length === 0", timeout=WAIT
        )
        assert await page.get_attribute("body", "data-plate-stats") == "false"


async def test_the_delayed_plates_count_no_hand_the_picture_has_not_finished(
    browser: Any, tmp_path: Path
) -> None:
    clock = FakeClock()
    async with room(WebSettings(port=0), monotonic=clock, state_dir=tmp_path / "state") as r:
        feeds = r.hub.service.feeds
        assert feeds.overlay_delay_s == DELAY
        ok = await switch(r.hub.web_url, r.hub.producer_token, True)
        assert ok.status_code == 200, ok.text
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_function("document.body.dataset.plateStats === 'true'", timeout=WAIT)

        # live: hand 1 ends, hand 2 starts, then ends too; the store holds both
        clock.now += 10
        await fold_out(r)
        end1 = feeds._clock()
        await wait_hand(r, 2)
        clock.now += 20
        await fold_out(r)
        end2 = feeds._clock()
        await wait_hand(r, 3)
        assert end2 > end1 + 5
        assert all(s.hands == 2 for s in store_stats(r).values())

        # the delayed picture reaches hand 1's end and hand 2's start — not hand 2's end
        clock.now += end1 + DELAY + 5 - feeds._clock()  # (the hub's time: the clock's moves)
        assert feeds.release_due() > 0
        await page.wait_for_selector(f"{SHOWN}[data-name='Anna']", timeout=WAIT)
        assert "#2" in (await page.text_content("#ticker-hand") or "")  # hand 2 on air
        shown = await plates(page)
        assert {n: p["hands"] for n, p in shown.items()} == {
            "Anna": "1",
            "Bořivoj": "1",
            "Cyril": "1",
        }
        same(shown, store_stats(r, ended_by=end1))
        # a page opened now gets the same in its snapshot
        late = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await late.goto(r.hub.overlay_url + "&lang=en")
        await late.wait_for_selector(f"{SHOWN}[data-name='Anna']", timeout=WAIT)
        assert {n: p["hands"] for n, p in (await plates(late)).items()} == {n: "1" for n in shown}

        # the delayed picture reaches hand 2's end: now it counts
        clock.now += end2 + DELAY + 1 - feeds._clock()
        assert feeds.release_due() > 0
        for p in (page, late):
            await p.wait_for_function(
                f"[...document.querySelectorAll('{SHOWN}')].every(e => e.dataset.hands === '2')",
                timeout=WAIT,
            )
        same(await plates(page), store_stats(r))
