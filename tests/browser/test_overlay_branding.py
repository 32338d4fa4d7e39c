"""The overlay's branding, the producer's chip leaderboard, the players' flags and photos
and the cards' turn, in a real headless Chromium against the real hub (the rules running,
a node dealing through the embedded broker, no delay).

* ``[branding]``: the ticker names the room and shows the logo the hub serves (the image
  loaded, not broken); a player's record with a country shows its flag on the plate, one
  with a photo shows the photo (loaded from the hub); a plate without either is the plate
  as ever (same box, no flag, no image).
* The chip leaderboard: off until the producer turns it on — over the HTTP API or with the
  setup panel's checkbox — then every open overlay lists the players by stack, at once;
  off again, gone. The public may not turn it on.
* A card new on a plate turns over (a CSS animation); a viewer who asks for reduced
  motion gets it without one.

Screenshots ``test-artifacts/overlay-branding.png`` and ``overlay-leaderboard.png``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from hub.config import BrandingSettings, WebSettings
from tests.support.images import write_png
from tests.support.room import DECK, room

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
LIVE = WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)
PLAYERS = {1: ("Anna", 1000), 2: ("Bořivoj", 500), 3: ("Cyril", 800)}
RECORDS = {1: {"country": "CZ", "photo": "anna.png"}, 2: {"country": "de"}}

IMAGE = """(sel) => { const i = document.querySelector(sel);
  return i && !i.hidden && i.complete && i.naturalWidth > 0 ? i.naturalWidth : 0; }"""


def seat_sel(seat: int, name: str | None = None) -> str:
    base = f"#seats .seat[data-seat='{seat}']"
    return base if name is None else f"{base} [data-field={name}]"


async def set_leaderboard(url: str, token: str, on: bool) -> httpx.Response:
    """``POST /api/overlay/settings`` with ``token`` (a producer's, or none)."""
    query = f"?token={token}" if token else ""
    return await asyncio.to_thread(
        httpx.post, f"{url}/api/overlay/settings{query}", json={"leaderboard": on}, timeout=10
    )


async def leaders(page: Any) -> list[tuple[int, int]]:
    """The leaderboard's rows: (seat, stack), top first."""
    rows: list[tuple[int, int]] = await page.evaluate(
        """() => [...document.querySelectorAll('#leaderboard-list li')].map((li) =>
            [Number(li.dataset.seat),
             Number(li.querySelector('[data-field=stack]').dataset.value)])"""
    )
    return [(int(s), int(v)) for s, v in rows]


async def test_branding_flags_photos_and_the_leaderboard(browser: Any, tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    write_png(photos / "anna.png", 40, 40, (30, 120, 200))
    branding = BrandingSettings(
        name="Casino Praha — Table 1", logo=write_png(tmp_path / "logo.png"), photos_dir=photos
    )
    async with room(LIVE, players=PLAYERS, branding=branding, records=RECORDS) as r:
        url, producer = r.hub.web_url, r.hub.producer_token
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_selector(seat_sel(3), timeout=WAIT)
        # the room's name and its logo, loaded from the hub
        assert await page.inner_text("#ticker-table") == "CASINO PRAHA — TABLE 1"  # CSS caps
        assert await page.text_content("#ticker-table") == "Casino Praha — Table 1"
        assert await page.get_attribute("body", "data-table") == "t1"  # the id, for scenes
        await page.wait_for_function(IMAGE, arg="#ticker-logo", timeout=WAIT)
        assert await page.get_attribute("#ticker-logo", "src") == "/overlay/logo?table=t1"
        # flags and the photo from the players' records; the plate without them as ever
        assert await page.text_content(seat_sel(1, "flag")) == "🇨🇿"
        assert await page.text_content(seat_sel(2, "flag")) == "🇩🇪"
        assert await page.evaluate(IMAGE, seat_sel(1, "photo")) or await page.wait_for_function(
            IMAGE, arg=seat_sel(1, "photo"), timeout=WAIT
        )
        assert await page.locator(seat_sel(2, "photo")).is_hidden()
        assert await page.locator(seat_sel(3, "flag")).is_hidden()
        assert await page.locator(seat_sel(3, "photo")).is_hidden()
        assert await page.inner_text(seat_sel(3, "name")) == "Cyril"
        boxes = [await page.locator(seat_sel(s)).bounding_box() for s in (1, 2, 3)]
        assert {(b["width"], b["height"]) for b in boxes if b} == {(420, 118)}
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "overlay-branding.png"), animations="disabled")

        # the leaderboard: off, then on at the producer's word — at once, on every page
        assert await page.locator("#leaderboard").is_hidden()
        setup = await browser.new_page(viewport={"width": 1280, "height": 720})
        await setup.goto(r.hub.overlay_url + "&lang=en&setup=1")
        await setup.wait_for_selector(seat_sel(3), timeout=WAIT)
        assert (await set_leaderboard(url, "", True)).status_code == 401  # not the public's
        assert await page.locator("#leaderboard").is_hidden()
        answer = await set_leaderboard(url, producer, True)
        assert answer.status_code == 200 and answer.json()["settings"]["leaderboard"] is True
        await page.wait_for_selector("#leaderboard:not([hidden])", timeout=WAIT)
        stacks = {
            s: int(await page.get_attribute(seat_sel(s, "stack"), "data-value") or -1)
            for s in (1, 2, 3)
        }
        expected = sorted(stacks.items(), key=lambda kv: -kv[1])
        assert await leaders(page) == expected
        assert [s for s, _ in expected] == [1, 3, 2]  # 1000, 800, 500 less the blinds
        await setup.wait_for_selector("#leaderboard:not([hidden])", timeout=WAIT)
        assert await setup.is_checked("#leaderboard-on")
        await page.screenshot(
            path=str(ARTIFACTS / "overlay-leaderboard.png"), animations="disabled"
        )

        # off with the setup panel's checkbox: gone from the page on air too
        await setup.uncheck("#leaderboard-on")
        await page.wait_for_selector("#leaderboard", state="hidden", timeout=WAIT)
        got = await asyncio.to_thread(
            httpx.get, f"{url}/api/overlay/settings?token={producer}", timeout=10
        )
        assert got.json()["settings"] == {
            "name": "Casino Praha — Table 1",
            "logo": "/overlay/logo?table=t1",
            "leaderboard": False,
            "plate_stats": False,  # (the other switch, untouched)
        }
        # a photo that is not there is a 404, not a file from elsewhere
        for name in ("nobody.png", "..%2Flogo.png"):
            missing = await asyncio.to_thread(httpx.get, f"{url}/overlay/photo/{name}", timeout=10)
            assert missing.status_code == 404, name


async def test_a_hub_without_branding_shows_the_table_id_and_no_logo(browser: Any) -> None:
    async with room(LIVE) as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_selector(seat_sel(3), timeout=WAIT)
        assert await page.text_content("#ticker-table") == "t1"
        assert await page.locator("#ticker-logo").is_hidden()
        assert await page.locator(f"{seat_sel(1)} img[src]").count() == 0
        logo = await asyncio.to_thread(httpx.get, f"{r.hub.web_url}/overlay/logo", timeout=10)
        assert logo.status_code == 404


REVEAL = """(sel) => { const c = document.querySelector(sel);
  return c ? [c.classList.contains('reveal'), getComputedStyle(c).animationName] : null; }"""


async def test_a_card_turns_over_unless_the_viewer_wants_less_motion(browser: Any) -> None:
    async with room(LIVE) as r:
        moving = await browser.new_page(viewport={"width": 1920, "height": 1080})
        still = await browser.new_page(
            viewport={"width": 1920, "height": 1080}, reduced_motion="reduce"
        )
        for page in (moving, still):
            await page.goto(r.hub.overlay_url + "&lang=en")
            await page.wait_for_selector(seat_sel(3), timeout=WAIT)
        seat = r.seats[0]
        r.table.reader(f"seat{seat}").place(DECK.uid_for("As"))
        await r.sweep()
        card = f"{seat_sel(seat)} .card[data-card='As']"
        for page in (moving, still):
            await page.wait_for_selector(card, timeout=WAIT)
        assert await moving.evaluate(REVEAL, card) == [True, "reveal"]
        assert await still.evaluate(REVEAL, card) == [True, "none"]


TEN = {s: (f"Player {s}", 1000 - 10 * s) for s in range(1, 11)}
OVERLAPS = """() => {
  const b = document.querySelector('#leaderboard').getBoundingClientRect();
  return [...document.querySelectorAll('#seats .seat:not([hidden])')].filter((s) => {
    const p = s.getBoundingClientRect();
    return p.left < b.right && b.left < p.right && p.top < b.bottom && b.top < p.bottom;
  }).map((s) => s.dataset.seat);
}"""


async def test_the_leaderboard_of_ten_players_covers_no_plate(browser: Any) -> None:
    async with room(LIVE, players=TEN) as r:
        assert (await set_leaderboard(r.hub.web_url, r.hub.producer_token, True)).is_success
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        await page.wait_for_selector("#leaderboard:not([hidden])", timeout=WAIT)
        await page.wait_for_function(
            "document.querySelectorAll('#leaderboard-list li').length === 10", timeout=WAIT
        )
        stacks = [stack for _, stack in await leaders(page)]
        assert stacks == sorted(stacks, reverse=True)
        assert await page.evaluate(OVERLAPS) == []
        await page.screenshot(
            path=str(ARTIFACTS / "overlay-leaderboard-10p.png"), animations="disabled"
        )


async def sit(url: str, dealer: str, body: dict[str, Any]) -> httpx.Response:
    """``POST /api/console/seat`` as the dealer."""
    return await asyncio.to_thread(
        httpx.post, f"{url}/api/console/seat?token={dealer}", json=body, timeout=10
    )


async def test_a_player_seated_at_the_console_with_a_country_shows_its_flag(
    browser: Any, tmp_path: Path
) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    write_png(photos / "eva.png", 40, 40, (240, 200, 40))
    async with room(LIVE, branding=BrandingSettings(photos_dir=photos)) as r:
        url = r.hub.web_url
        console = await browser.new_page(viewport={"width": 1024, "height": 768})
        await console.goto(f"{url}/console?token={r.dealer}&lang=en")
        await console.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        await console.click("#seat-list li[data-seat='5'] button[data-op='sit']")
        await console.fill("#seat-name", "Eva")
        await console.fill("#seat-country", "sk")
        await console.click("#seat-submit")
        await console.wait_for_selector(
            ".seat[data-seat='5'] [data-field=name]:text-is('Eva')", timeout=WAIT
        )
        # the hand ends; a second player sits down with a photo, and the next hand deals
        # them both in: the overlay shows the flag and the photo
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.overlay_url + "&lang=en")
        sb, _bb, button = r.seats
        await r.act(button, "fold")
        await r.act(sb, "fold")
        # a photo at sit-down must be one of the folder's, a country an ISO code
        oto = {"op": "sit", "seat": 6, "name": "Oto", "amount": 500}
        bad = await sit(url, r.dealer, oto | {"photo": "nobody.png"})
        assert bad.status_code == 422, bad.text
        bad = await sit(url, r.dealer, oto | {"country": "QQ"})
        assert bad.status_code == 422 and "QQ" in bad.text, bad.text
        ok = await sit(url, r.dealer, oto | {"photo": "eva.png"})
        assert ok.status_code == 200, ok.text
        await page.wait_for_selector(seat_sel(5), timeout=WAIT)
        assert await page.text_content(seat_sel(5, "flag")) == "🇸🇰"
        assert await page.locator(seat_sel(5, "photo")).is_hidden()
        await page.wait_for_function(IMAGE, arg=seat_sel(6, "photo"), timeout=WAIT)
        assert await page.locator(seat_sel(6, "flag")).is_hidden()
