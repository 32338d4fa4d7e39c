"""The history page's player statistics (``#stats``) in a real headless Chromium against
the real hub, its hands store (real SQLite) holding two nights of real hands: the table
shows, for a known player, the figures ``GET /api/history/stats`` answers — formatted for
the reader's locale, "—" where a figure is null — follows the search's filters and the
sessions toggle, speaks Czech, and is usable on a phone (390×844: the page does not
scroll sideways, the table scrolls in its box) and on a desktop (every column in view).
Screenshots ``test-artifacts/history-stats-*.png``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.support.kept_hands import kept_night
from tests.support.web_hub import running_hub

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
PERCENTS = ("vpip", "pfr", "three_bet", "wtsd", "wsd")
FIELDS = ("hands", *PERCENTS, "aggression", "net", "chips_per_hour", "hands_per_hour")


async def api(url: str, **params: Any) -> dict[str, Any]:
    r = await asyncio.to_thread(httpx.get, f"{url}/api/history/stats", params=params, timeout=30)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def table_rows(page: Any) -> list[dict[str, Any]]:
    """Each row of the stats table: its name, and each cell's raw value and text."""
    rows: list[dict[str, Any]] = await page.evaluate(
        """() => [...document.querySelectorAll('#stats-body tr')].map(tr => ({
            name: tr.dataset.name, table: tr.dataset.table || null,
            cells: Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map(
                td => [td.dataset.field, [td.dataset.value, td.textContent]]))}))"""
    )
    return rows


async def stats_ready(page: Any, rows: int) -> None:
    await page.wait_for_function(
        f"""document.getElementById('stats').dataset.stats === 'ready'
            && document.querySelectorAll('#stats-body tr').length === {rows}""",
        timeout=WAIT,
    )


def percent_shown(text: str, lang: str) -> float:
    """The number a percentage cell shows ("33.3%", "33,3 %")."""
    number = text.replace("\xa0", "").replace("\u202f", "").rstrip("%").strip()
    if lang == "cs":
        assert "." not in number, text
        number = number.replace(",", ".")
    return float(number)


def check_row(row: dict[str, Any], want: dict[str, Any], lang: str) -> None:
    """The page's row shows the API's row ``want``: the raw figures, the texts."""
    for field in FIELDS:
        value, text = row["cells"][field]
        if want[field] is None:
            assert (value, text) == ("", "—"), (field, text)
            continue
        assert float(value) == want[field], field
        if field in PERCENTS:
            assert text.endswith("%"), text
            assert abs(percent_shown(text, lang) - want[field]) <= 0.05, (field, text)
    assert row["cells"]["hands"][1] == str(want["hands"])


async def test_the_stats_table_shows_the_apis_figures(browser: Any, tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=10, t2=5)
    state = tmp_path / "hub"
    state.mkdir()
    async with running_hub(state, hands=settings) as hub:
        url = hub.web_url
        everyone = (await api(url))["players"]
        p2 = next(p for p in everyone if p["name"] == "P2")
        assert p2["vpip"] is not None and p2["hands"] >= 10
        nulls = [(p["name"], k) for p in everyone for k in FIELDS if p[k] is None]

        context = await browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"{url}/history?lang=en", timeout=WAIT)  # the public role
        await page.wait_for_selector("body[data-ready='true']", timeout=WAIT)
        await stats_ready(page, len(everyone))
        rows = {r["name"]: r for r in await table_rows(page)}
        assert list(rows) == [p["name"] for p in everyone]
        for p in everyone:
            check_row(rows[p["name"]], p, "en")
        for name, field in nulls:  # "—" where nothing could count
            assert rows[name]["cells"][field][1] == "—"
        assert rows["P2"]["cells"]["net"][1].startswith("+" if p2["net"] > 0 else "")
        # a phone: the page does not scroll sideways; the table scrolls in its box
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        box = await page.evaluate(
            """() => { const s = document.querySelector('.stats-scroll');
                       return [s.scrollWidth, s.clientWidth]; }"""
        )
        assert box[1] <= 390 and box[0] >= box[1], box
        await page.locator("#stats").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "history-stats-390x844.png"), full_page=True)

        # the search's filters apply: table t2
        t2 = (await api(url, table="t2"))["players"]
        await page.fill("#f-table", "t2")
        await page.click("#search")
        await stats_ready(page, len(t2))
        rows = {r["name"]: r for r in await table_rows(page)}
        assert sorted(rows) == sorted(p["name"] for p in t2) == ["Q2", "Q5", "Q7"]
        for p in t2:
            check_row(rows[p["name"]], p, "en")

        # per session
        sessions = (await api(url, table="t2", sessions=1))["sessions"]
        await page.check("#stats-sessions")
        await stats_ready(page, len(sessions))
        shown = await table_rows(page)
        assert [(r["name"], r["table"]) for r in shown] == [(s["name"], "t2") for s in sessions]
        for row, want in zip(shown, sessions, strict=True):
            check_row(row, want, "en")

        # Czech: the same figures, the Czech way ("33,3 %")
        await page.uncheck("#stats-sessions")
        await stats_ready(page, len(t2))
        await page.click("[data-lang='cs']")
        await page.wait_for_function("document.documentElement.lang === 'cs'", timeout=WAIT)
        assert await page.inner_text("#stats-title span") == "Statistiky hráčů"
        rows = {r["name"]: r for r in await table_rows(page)}
        for p in t2:
            check_row(rows[p["name"]], p, "cs")
        assert await page.evaluate("window.FW.i18n.missing('cs')") == []
        await context.close()

        # a desktop: every column in view
        wide = await browser.new_page(viewport={"width": 1280, "height": 900})
        await wide.goto(f"{url}/history?lang=en", timeout=WAIT)
        await wide.wait_for_selector("body[data-ready='true']", timeout=WAIT)
        await stats_ready(wide, len(everyone))
        fits = await wide.evaluate(
            """() => { const s = document.querySelector('.stats-scroll');
                       return s.scrollWidth <= s.clientWidth; }"""
        )
        assert fits
        check_row({r["name"]: r for r in await table_rows(wide)}["P2"], p2, "en")
        await wide.locator("#stats").scroll_into_view_if_needed()
        await wide.screenshot(path=str(ARTIFACTS / "history-stats-1280x900.png"), full_page=True)
        await wide.close()
        assert errors == []
