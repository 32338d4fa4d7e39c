"""The broadcast overlay as a producer airs it, in a real headless Chromium against the
real hub with the rules running (a node dealing through the embedded broker, the dealer
entering actions through the console's HTTP routes).

* The plates at 2, 6 and 9 players stand where ``docs/overlay.md`` ("Plate layout") says,
  read from the doc's own table; no two overlap, none covers the board; the SB and BB
  plates are marked, the ticker names the table, hand and blinds; a name does not move as
  its hole cards arrive; a folded plate keeps its dark ground. Screenshots
  ``test-artifacts/overlay-layout-<n>p.png``.
* A short stack all in: each plate's equity at showdown is its share of the pots won (the
  side-pot winner is not 0 %), the pots are labelled and name the winning hands, a banner
  names the winner (``overlay-showdown.png``).
* With the real 30-minute delay the producer's preview (``?preview=1``) says what it
  waits for and when the first hand appears; the page on air never does.
* A link with a wrong token, or a dealer's, gets a page saying so with a sign-in link;
  ``/overlay`` without a token goes to sign in.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx

from hub.config import WebSettings
from hub.web.auth import Role
from tests.support.clocks import FakeClock
from tests.support.room import DECK, Room, room

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 30_000
"""Playwright's wait for a condition, in ms (generous: the machine is busy)."""
LIVE = WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
NAMES = ["Anna", "Bořivoj", "Cyril", "Dana", "Emil", "Františka", "Gustav", "Hana", "Ivan"]
CARDS = [f"{r}{s}" for s in "shdc" for r in "AKQJT98765432"]


def layout_spec() -> dict[int, list[tuple[int, int]]]:
    """The plate positions docs/overlay.md gives, by the number of players."""
    text = (ROOT / "docs" / "overlay.md").read_text(encoding="utf-8")
    spec = {}
    for n, cells in re.findall(r"^\| (\d+) \| \d+ \+ \d+ \| (.+?) \|$", text, re.M):
        spots = [tuple(int(v) for v in c.strip().split(",")) for c in cells.split("·")]
        spec[int(n)] = [(x, y) for x, y in spots]
    assert set(spec) == set(range(2, 11)), spec
    return spec


def seat_sel(seat: int, name: str | None = None) -> str:
    base = f"#seats .seat[data-seat='{seat}']"
    return base if name is None else f"{base} [data-field={name}]"


async def text_is(page: Any, selector: str, text: str) -> None:
    await page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.textContent === t; }",
        arg=[selector, text],
        timeout=WAIT,
    )


async def plates(page: Any) -> list[dict[str, Any]]:
    """Every plate shown, in seat order: its seat and box (stage pixels at scale 1)."""
    found: list[dict[str, Any]] = await page.eval_on_selector_all(
        "#seats .seat:not([hidden])",
        """els => els.map(e => { const r = e.getBoundingClientRect();
            return {seat: Number(e.dataset.seat), x: r.x, y: r.y, w: r.width, h: r.height}; })""",
    )
    return sorted(found, key=lambda p: p["seat"])


async def plates_shown(page: Any, n: int) -> None:
    """Wait until the overlay shows ``n`` plates."""
    await page.wait_for_function(
        "n => document.querySelectorAll('#seats .seat:not([hidden])').length === n",
        arg=n,
        timeout=WAIT,
    )


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )


async def deal(r: Room, hands: dict[int, list[str]]) -> None:
    """Each seat's hole cards, one at a time round the table in hand order."""
    r.held = {s: [] for s in r.seats}
    for i in range(2):
        for seat in r.seats:
            card = hands[seat][i]
            r.held[seat].append(card)
            r.table.reader(f"seat{seat}").place(DECK.uid_for(card))
            await r.sweep()


async def lay(r: Room, reader: str, cards: list[str]) -> None:
    for card in cards:
        r.table.reader(reader).place(DECK.uid_for(card))
        await r.sweep()


async def console(r: Room, route: str, body: dict[str, Any]) -> None:
    url = f"{r.hub.web_url}/api/console/{route}?token={r.dealer}"
    response = await asyncio.to_thread(httpx.post, url, json=body, timeout=10)
    assert response.status_code == 200, response.text


async def check_layout(browser: Any, n: int) -> None:
    players = {s: (NAMES[s - 1], 1000) for s in range(1, n + 1)}
    async with room(LIVE, players=players) as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await plates_shown(page, n)
        assert await page.evaluate("document.body.dataset.scale") == "1.0000"
        names_before = {
            p["seat"]: await page.eval_on_selector(
                seat_sel(p["seat"], "name"), "e => e.getBoundingClientRect().x"
            )
            for p in await plates(page)
        }
        hands = {seat: [CARDS[2 * i], CARDS[2 * i + 1]] for i, seat in enumerate(r.seats)}
        await deal(r, hands)
        for seat, cards in hands.items():
            await page.wait_for_selector(f"{seat_sel(seat)} .card[data-card='{cards[1]}']")
        # the plates stand where the spec says, in seat order
        shown = await plates(page)
        assert [p["seat"] for p in shown] == list(range(1, n + 1))
        assert [(round(p["x"]), round(p["y"])) for p in shown] == layout_spec()[n]
        board = await page.eval_on_selector(
            ".board-row",
            "e => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y, w: r.width, h: r.height}; }",
        )
        for i, a in enumerate(shown):
            assert not overlap(a, board), a
            for b in shown[i + 1 :]:
                assert not overlap(a, b), (a, b)
        # hold'em: no hi-lo figures on any plate
        hilo = await page.eval_on_selector_all(
            "#seats [data-field=hilo]", "els => els.map((e) => e.textContent)"
        )
        assert set(hilo) == {""}, hilo
        # the names did not move as the cards came
        for seat, x in names_before.items():
            after = await page.eval_on_selector(
                seat_sel(seat, "name"), "e => e.getBoundingClientRect().x"
            )
            assert after == x, (seat, x, after)
        # the blinds are marked; the ticker names the table, the hand, the blinds
        if n > 2:
            assert await page.inner_text(seat_sel(r.seats[0], "blind")) == "SB"
            assert await page.inner_text(seat_sel(r.seats[1], "blind")) == "BB"
        assert await page.locator("#seats [data-field=blind]:not([hidden])").count() == 2
        assert await page.text_content("#ticker-table") == "t1"  # shown in capitals
        assert await page.inner_text("#ticker-hand") == "Hand #1 · Blinds 5/10"
        ARTIFACTS.mkdir(exist_ok=True)
        if n == 2:  # a fold would end the hand
            await page.screenshot(
                path=str(ARTIFACTS / f"overlay-layout-{n}p.png"), animations="disabled"
            )
            return
        # the first to act folds: the plate is marked and keeps its dark ground
        first = r.seats[2]
        await r.act(first, "fold")
        await page.wait_for_selector(f"{seat_sel(first)}.folded", timeout=WAIT)
        style = await page.eval_on_selector(
            seat_sel(first),
            "e => { const s = getComputedStyle(e);"
            " return {opacity: s.opacity, background: s.backgroundColor}; }",
        )
        assert style["opacity"] == "1", style
        alpha = re.fullmatch(r"rgba\(\d+, \d+, \d+, ([\d.]+)\)", style["background"])
        assert alpha is not None and float(alpha.group(1)) >= 0.9, style
        assert await page.inner_text(seat_sel(first, "name")) == NAMES[first - 1]
        await page.screenshot(
            path=str(ARTIFACTS / f"overlay-layout-{n}p.png"), animations="disabled"
        )


async def test_two_players_sit_in_the_lower_corners(browser: Any) -> None:
    await check_layout(browser, 2)


async def test_six_players_stand_three_and_three(browser: Any) -> None:
    await check_layout(browser, 6)


async def test_nine_players_stand_five_and_four(browser: Any) -> None:
    await check_layout(browser, 9)


async def test_at_showdown_equity_is_the_share_of_the_pots_won(browser: Any) -> None:
    # seat 1 all in short with the best hand: a main pot of 1200 (seat 1), a side pot of
    # 1200 between seats 2 and 3 (seat 2 has the better hand)
    players = {1: ("Anna", 400), 2: ("Bořivoj", 1000), 3: ("Cyril", 1000)}
    async with room(LIVE, players=players) as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await plates_shown(page, 3)
        await deal(r, {1: ["As", "Ah"], 2: ["Ks", "Kh"], 3: ["Qs", "Qh"]})
        for seat in (r.seats[-1], r.seats[0], r.seats[1]):  # the button first
            await r.act(seat, "all-in")
        await lay(r, "burn", ["3d"])
        await lay(r, "board", ["2c", "7d", "9h"])
        # on the flop the side pot counts: seat 2 is far from 0 %
        await page.wait_for_function(
            "s => { const e = document.querySelector(s);"
            " return e && e.dataset.exact === 'true' && parseFloat(e.dataset.equity) > 0.4; }",
            arg=seat_sel(2, "equity"),
            timeout=WAIT,
        )
        assert await page.inner_text("#pots") == "Main pot 1,200\nSide pot 1 1,200"
        await lay(r, "burn", ["5d"])
        await lay(r, "board", ["3s"])
        await lay(r, "burn", ["6d"])
        await lay(r, "board", ["4c"])
        for seat in r.seats:
            await console(r, "show", {"seat": seat})
        await page.wait_for_selector("#banner:not([hidden])", timeout=WAIT)
        for seat, won, equity in ((1, "1,200", "50.0%"), (2, "1,200", "50.0%"), (3, None, "0.0%")):
            await text_is(page, seat_sel(seat, "equity"), equity)
            chip = page.locator(f"{seat_sel(seat)} .won-chip")
            if won is None:
                assert await chip.is_hidden()
            else:
                assert await chip.inner_text() == f"+{won}"
        lines = await page.eval_on_selector_all(
            "#awards .award", "els => els.map(e => e.innerText)"
        )
        assert lines == [
            "MAIN POT 1,200 Anna wins 1,200 with Pair of Aces",
            "SIDE POT 1 1,200 Bořivoj wins 1,200 with Pair of Kings",
        ]
        assert await page.inner_text("#banner-title") == "Anna wins 1,200"
        assert await page.inner_text("#banner-hand") == "Pair of Aces"
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "overlay-showdown.png"), animations="disabled")


async def test_the_preview_says_what_the_delayed_feed_waits_for(browser: Any) -> None:
    clock = FakeClock()
    async with room(WebSettings(port=0), monotonic=clock) as r:
        assert r.hub.service.feeds.overlay_delay_s == 30 * 60
        preview = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await preview.goto(r.hub.overlay_url + "&lang=en&preview=1")
        await preview.wait_for_selector("#preview:not([hidden])", timeout=WAIT)
        status = await preview.inner_text("#preview-status")
        assert re.fullmatch(
            r"Delayed feed \(30:00\): the first hand appears in (30:00|29:[0-5]\d)", status
        ), status
        assert await preview.inner_text(".preview-title") == "PRODUCER'S PREVIEW — NOT ON AIR"
        ARTIFACTS.mkdir(exist_ok=True)
        await preview.screenshot(path=str(ARTIFACTS / "overlay-preview-delay.png"))
        # the page on air never shows it
        on_air = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await on_air.goto(r.hub.overlay_url + "&lang=en")
        await on_air.wait_for_function("Number(document.body.dataset.frames) >= 1", timeout=WAIT)
        assert await on_air.locator("#preview").is_hidden()
        # the status route answers the producer, no card in it
        url = f"{r.hub.web_url}/api/overlay/delay?token={r.hub.producer_token}"
        answer = (await asyncio.to_thread(httpx.get, url, timeout=10)).json()
        assert answer["delay_s"] == 1800 and answer["held"] > 0
        assert answer["next_release_s"] == 1800
        # thirty minutes later the first hand is there, and the status is gone
        clock.now += 30 * 60
        assert r.hub.service.feeds.release_due() > 0
        await preview.wait_for_function("document.body.dataset.hand === '1'", timeout=WAIT)
        await preview.wait_for_selector("#preview", state="hidden", timeout=WAIT)
        assert await preview.locator("#seats .seat:not([hidden])").count() == 3
        assert await on_air.locator("#preview").is_hidden()


async def test_a_wrong_token_gets_a_page_and_no_token_offers_sign_in(browser: Any) -> None:
    async with room(LIVE, live_equity=False) as r:
        page = await browser.new_page()
        answer = await page.goto(r.hub.web_url + "/overlay?token=not-a-token&lang=en")
        assert answer is not None and answer.status == 401
        assert await page.inner_text("h1") == "This overlay link does not work"
        assert "not valid" in await page.inner_text("#why")
        link = await page.get_attribute("#sign-in", "href")
        assert link == "/login?next=%2Foverlay%3Flang%3Den"  # the refused token left out
        # a dealer's token: the wrong role, said so
        dealer = r.hub.token(Role.DEALER)

        async def late(route: Any) -> None:  # the catalogs arrive after the page's load
            await asyncio.sleep(1.0)
            await route.continue_()

        await page.route("**/messages/*.json", late)
        answer = await page.goto(r.hub.web_url + f"/overlay?token={dealer}&lang=cs")
        assert answer is not None and answer.status == 403
        # the page's module waits for the catalogs (a top-level await), which the load
        # event does not: the page turns Czech when they come, not by goto's return
        await page.wait_for_function(
            "t => document.querySelector('h1').textContent === t",
            arg="Tento odkaz na overlay nefunguje",
            timeout=WAIT,
        )
        assert "producenta" in await page.inner_text("#why")
        await page.screenshot(path=str(ARTIFACTS / "overlay-refused.png"))
        # a client that does not ask for a page still gets the JSON refusal
        url = r.hub.web_url + "/overlay?token=not-a-token"
        plain = await asyncio.to_thread(httpx.get, url, timeout=10)
        assert plain.status_code == 401 and "detail" in plain.json()
        # no token at all: the sign-in page, coming back to the overlay
        await page.goto(r.hub.web_url + "/overlay?lang=en")
        await page.wait_for_url(re.compile(r"/login\?next=%2Foverlay"), timeout=WAIT)
        await page.wait_for_selector("#login-form:not([hidden])", timeout=WAIT)
