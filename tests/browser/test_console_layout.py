"""The dealer console's layout in a real headless Chromium (issue 17) at a phone
(390x844), a portrait tablet (800x1280, the usual dealer device), a laptop (1280x800) and
a wide screen (1920x1080): no two seat boxes overlap, nothing overflows sideways, every
name is shown whole (no "Playe…"), and nothing moves when the amount panel, the confirm
panel or the sit-down form opens — the boxes are measured before and after, in page
coordinates — while the sit-down form lies wholly on the screen. A table of six seat
antennas shows six seats. Screenshots of each size go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.web.auth import Role
from tests.support.console_rig import WAIT, rig, wait_acting

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
VIEWPORTS = ((390, 844), (800, 1280), (1280, 800), (1920, 1080))
NAMES = {1: "Player 1", 3: "Bořivoj Novák-Kašpárek", 4: "Player 10"}

MEASURE = """() => {
  const page = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left + scrollX, b.top + scrollY, b.width, b.height].map((v) => Math.round(v));
  };
  const boxes = {};
  const keep = (name, e) => { if (e) boxes[name] = page(e); };
  document.querySelectorAll('.seat').forEach((s) => keep('seat' + s.dataset.seat, s));
  document.querySelectorAll('.side .panel').forEach((p, i) => keep('panel' + i, p));
  for (const sel of ['#turn', '.middle', '#actions', '.dealer-cmds', '#message', 'header',
                     '#seat-list', '#alert-list'])
    keep(sel, document.querySelector(sel));
  const seats = [...document.querySelectorAll('.seat')].map((s) => s.getBoundingClientRect());
  const overlaps = [];
  seats.forEach((a, i) => seats.forEach((b, j) => {
    if (j > i && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
        && b.top < a.bottom - 0.5) overlaps.push([i + 1, j + 1]);
  }));
  const wide = [...document.querySelectorAll('body *')].filter((e) => {
    const b = e.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && (b.right > innerWidth + 0.5 || b.left < -0.5);
  }).map((e) => e.id || e.className || e.tagName);
  const names = [...document.querySelectorAll('.seat .name')].map((n) => ({
    text: n.textContent,
    cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,
    ellipsis: getComputedStyle(n).textOverflow === 'ellipsis',
  }));
  return { boxes, overlaps, wide, names, scrollWidth: document.documentElement.scrollWidth,
           innerWidth };
}"""

ON_SCREEN = """(sel) => {
  const b = document.querySelector(sel).getBoundingClientRect();
  return b.width > 0 && b.left >= 0 && b.top >= 0 && b.right <= innerWidth
    && b.bottom <= innerHeight;
}"""


async def measure(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(MEASURE)
    return result


def moved(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The boxes whose place or size changed between two measures."""
    return {
        name: (box, after["boxes"].get(name))
        for name, box in before["boxes"].items()
        if after["boxes"].get(name) != box
    }


async def test_console_layout_at_a_phone_a_tablet_a_laptop_and_a_wide_screen(browser: Any) -> None:
    async with rig(names=NAMES) as r:
        token = r.hub.token(Role.DEALER)
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(f"{r.hub.web_url}/console?token={token}&lang=en")
        await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        await r.deal_hole_cards()
        await wait_acting(page, r.seat_to_act())  # the button: call, raise, fold
        ARTIFACTS.mkdir(exist_ok=True)
        for width, height in VIEWPORTS:
            size = f"{width}x{height}"
            await page.set_viewport_size({"width": width, "height": height})
            await page.wait_for_function(f"window.innerWidth === {width}", timeout=WAIT)
            await page.evaluate("window.scrollTo(0, 0)")
            before = await measure(page)
            assert len([k for k in before["boxes"] if k.startswith("seat")]) == 10, size
            assert before["overlaps"] == [], (size, before["overlaps"])
            assert before["scrollWidth"] <= width and before["wide"] == [], (size, before["wide"])
            shown = {n["text"] for n in before["names"]}
            assert set(NAMES.values()) <= shown, (size, shown)
            assert not [n for n in before["names"] if n["cut"] or n["ellipsis"]], (size, before)

            # the amount panel and the confirm panel open: nothing else moves
            await page.click("#act-bet")
            await page.wait_for_selector("#amount", state="visible", timeout=WAIT)
            await page.wait_for_selector("#pending", state="visible", timeout=WAIT)
            with_amount = await measure(page)
            assert moved(before, with_amount) == {}, (size, moved(before, with_amount))
            assert with_amount["scrollWidth"] <= width, size
            await page.screenshot(path=str(ARTIFACTS / f"console-{size}.png"), full_page=True)
            await page.keyboard.press("Escape")
            await page.wait_for_selector("#amount", state="hidden", timeout=WAIT)
            await page.click("#act-call")
            await page.wait_for_selector("#pending", state="visible", timeout=WAIT)
            assert moved(before, await measure(page)) == {}, size
            await page.keyboard.press("Escape")

            # the sit-down form: over the page, wholly on the screen, and nothing moves
            await page.click("#seat-list li[data-seat='7'] button[data-op='sit']")
            await page.wait_for_selector("#seat-form", state="visible", timeout=WAIT)
            assert await page.evaluate(ON_SCREEN, "#seat-form"), size
            assert await page.evaluate(ON_SCREEN, "#seat-submit"), size
            with_form = await measure(page)
            assert moved(before, with_form) == {}, (size, moved(before, with_form))
            await page.screenshot(path=str(ARTIFACTS / f"console-{size}-sit-down.png"))
            await page.click("#seat-cancel")
            await page.wait_for_selector("#seat-form", state="hidden", timeout=WAIT)


async def test_a_six_seat_table_shows_six_seats(browser: Any) -> None:
    readers = [f"seat{n}" for n in range(1, 7)] + ["board", "burn", "muck"]
    async with rig(readers=readers) as r:
        token = r.hub.token(Role.DEALER)
        page = await browser.new_page(viewport={"width": 800, "height": 1280})
        await page.goto(f"{r.hub.web_url}/console?token={token}&lang=en")
        await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        await page.wait_for_selector(".seat[data-seat='6']", timeout=WAIT)
        assert await page.locator(".seat").count() == 6
        assert await page.locator("#seat-list li").count() == 6
        layout = await measure(page)
        assert layout["overlaps"] == [] and layout["wide"] == []
        rows = {box[1] for name, box in layout["boxes"].items() if name.startswith("seat")}
        assert len(rows) == 2  # three seats a row, two rows
        await page.screenshot(path=str(ARTIFACTS / "console-6-seats-800x1280.png"))
