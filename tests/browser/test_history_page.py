"""The hand history page (``/history``) in a real headless Chromium against the real hub,
its hands store (real SQLite) holding two nights of real hands played through the rules
(table t1, and table t2 two days later with other players).

A dealer signs in, searches table t2, steps through one hand street by street — the page
shows each street's name, the board and every seat's cards as they were after it, the
street's actions and the pot, the pots' awards on the last street — and downloads the
selection as PokerStars text: the file holds exactly the hands the search found. Anyone
without a sign-in (the public role) sees the same hand with every card the table never
saw face down: no such card is in the page, nor in anything the hub sent it. Phone and
desktop screenshots are kept in ``test-artifacts/``; the page speaks Czech too."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.support.kept_hands import hidden_from_table, kept_night, stored_hands
from tests.support.web_hub import PASSWORD, running_hub

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
"""Playwright's wait for a condition, in ms (generous: the machine is busy)."""


def pick(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """A hand to step through: it reached the river and a showdown, and someone folded
    (so it holds cards the table never saw)."""
    for h in hands:
        shown = any(c["visibility"] == "shown" for c in h["cards"])
        folded = any(a["kind"] == "fold" for a in h["actions"])
        if len(h["board"]) == 10 and shown and folded:
            return h
    for h in hands:
        if len(h["board"]) == 10 and hidden_from_table(h):
            return h
    raise AssertionError("the night had no hand to the river with a hidden card")


def streets_of(h: dict[str, Any]) -> list[dict[str, Any]]:
    """What the page must show after each street of hold'em hand ``h``, from the store's
    rows: the board so far, each seat's hole cards, the street's actions, the pot."""
    final = h["pot_total"]
    out, put_in = [], 0
    for n in range(4):
        acts = [a for a in h["actions"] if a["street"] == n]
        put_in += sum(a["amount"] for a in acts)
        out.append(
            {
                "board": [
                    c["card"] for c in h["cards"] if c["kind"] == "board" and c["street"] <= n
                ],
                "holes": {
                    seat: [
                        c
                        for c in h["cards"]
                        if c["kind"] == "hole" and c["seat"] == seat and c["street"] <= n
                    ]
                    for seat in sorted({c["seat"] for c in h["cards"] if c["kind"] == "hole"})
                },
                "actions": [[a["kind"], str(a["seat"])] for a in acts],
                "pot": min(put_in, final),
            }
        )
    return out


async def shown_street(page: Any) -> dict[str, Any]:
    """What the page shows of the current street."""
    return dict(
        await page.evaluate(
            """() => ({
              name: document.getElementById('street-name').textContent,
              board: [...document.querySelectorAll('#board .card')].map(c => c.dataset.card || ''),
              holes: Object.fromEntries([...document.querySelectorAll('#seats .seat')].map(s =>
                [s.dataset.seat, [...s.querySelectorAll('.card')].map(c => c.dataset.card || '')])),
              actions: [...document.querySelectorAll('#actions li.action')].map(
                a => [a.dataset.kind, a.dataset.seat]),
              pot: Number(document.getElementById('street-pot').dataset.pot),
              awards: document.getElementById('awards-box').hidden ? null :
                [...document.querySelectorAll('#awards li')].map(a => a.textContent),
              cards: [...document.querySelectorAll('[data-card]')].map(c => c.dataset.card),
            })"""
        )
    )


async def open_hand(page: Any, hand_id: int) -> None:
    await page.click(f"#hand-list li[data-hand='{hand_id}'] button")
    await page.wait_for_function(
        f"document.getElementById('hand').dataset.hand === '{hand_id}'", timeout=WAIT
    )


async def test_search_step_through_a_hand_and_download(browser: Any, tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=6, t2=8)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    t2 = [h for h in kept if h["table_id"] == "t2"]
    hand = pick(t2)
    expected = streets_of(hand)
    state = tmp_path / "hub"
    state.mkdir()
    async with running_hub(state, hands=settings) as hub:
        context = await browser.new_context(
            viewport={"width": 1280, "height": 900}, accept_downloads=True
        )
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"{hub.web_url}/login?next=/history&lang=en", timeout=WAIT)
        await page.wait_for_selector("#login-form:not([hidden])", timeout=WAIT)
        await page.fill("#name", "dealer-user")
        await page.fill("#password", PASSWORD)
        await page.click("#submit")
        await page.wait_for_url("**/history", timeout=WAIT)
        await page.wait_for_selector("body[data-ready='true']", timeout=WAIT)
        assert await page.get_attribute("#role", "data-role") == "dealer"
        rows = await page.locator("#hand-list li[data-hand]").count()
        assert rows == len(kept)  # no filter: every kept hand

        # the search: table t2
        await page.fill("#f-table", "t2")
        await page.click("#search")
        await page.wait_for_function(
            f"document.querySelectorAll('#hand-list li[data-hand]').length === {len(t2)}",
            timeout=WAIT,
        )
        listed = await page.eval_on_selector_all(
            "#hand-list li[data-hand]", "els => els.map(e => Number(e.dataset.number))"
        )
        assert listed == [h["number"] for h in t2]

        # one hand, street by street
        await open_hand(page, hand["id"])
        names = []
        for n, want in enumerate(expected):
            if n:
                await page.click("#step-next")
                await page.wait_for_function(
                    f"document.getElementById('hand').dataset.step === '{n}'", timeout=WAIT
                )
            seen = await shown_street(page)
            names.append(seen["name"])
            assert seen["board"] == want["board"], n
            for seat, cards in want["holes"].items():
                assert seen["holes"][str(seat)] == [c["card"] for c in cards], (n, seat)
            assert seen["actions"] == want["actions"], n
            assert seen["pot"] == want["pot"], n
            assert (seen["awards"] is None) == (n < 3)
        assert names == ["pre-flop", "flop", "turn", "river"]
        assert await page.is_disabled("#step-next")
        award_lines = (await shown_street(page))["awards"]
        assert award_lines and all("takes" in line for line in award_lines)
        await page.screenshot(path=str(ARTIFACTS / "history-dealer-1280x900.png"), full_page=True)
        await page.click("#step-prev")
        await page.wait_for_function(
            "document.getElementById('hand').dataset.step === '2'", timeout=WAIT
        )
        assert (await shown_street(page))["name"] == "turn"

        # the download: the hands the search found
        async with page.expect_download(timeout=WAIT) as caught:
            await page.click("#dl-pokerstars")
        download = await caught.value
        assert download.suggested_filename == "hands-t2.txt"
        text = await asyncio.to_thread(Path(await download.path()).read_text, encoding="utf-8")
        assert re.findall(r"PokerStars Hand #(\d+)", text) == [str(h["number"]) for h in t2]
        assert all("Table 't2'" in chunk for chunk in text.split("\n\n\n"))

        # Czech
        await page.click("[data-lang='cs']")
        assert await page.inner_text("#search") == "Hledat"
        assert await page.inner_text("#street-of") == "kolo 3 z 4"
        missing = await page.evaluate("window.FW.i18n.missing('cs')")
        assert missing == []
        assert errors == []
        await context.close()


async def test_the_public_sees_no_card_the_table_did_not(browser: Any, tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=8)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    hidden = {h["id"]: hidden_from_table(h) for h in kept}
    every_hidden = set().union(*hidden.values())
    assert every_hidden
    hand = pick(kept)
    state = tmp_path / "hub"
    state.mkdir()
    async with running_hub(state, hands=settings) as hub:
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        page = await context.new_page()
        bodies: list[tuple[str, str]] = []

        async def keep(response: Any) -> None:
            if "/api/" in response.url:
                bodies.append((response.url, await response.text()))

        page.on("response", keep)
        await page.goto(f"{hub.web_url}/history?lang=en", timeout=WAIT)
        await page.wait_for_selector("body[data-ready='true']", timeout=WAIT)
        assert await page.get_attribute("#role", "data-role") == "public"
        assert await page.is_visible("#sign-in")
        for h in kept:  # every hand, every street
            await open_hand(page, h["id"])
            for n in range(10):
                seen = await shown_street(page)
                assert not set(seen["cards"]) & hidden[h["id"]], (h["number"], n)
                if await page.is_disabled("#step-next"):
                    break
                await page.click("#step-next")
                await page.wait_for_function(
                    f"document.getElementById('hand').dataset.step === '{n + 1}'", timeout=WAIT
                )
            if h["id"] == hand["id"]:
                await page.screenshot(
                    path=str(ARTIFACTS / "history-public-390x844.png"), full_page=True
                )
                # the cards it may not see are there, face down
                holes = [c for c in h["cards"] if c["kind"] == "hole"]
                backs = await page.locator("#seats .card.back").count()
                assert backs == sum(1 for c in holes if c["visibility"] in ("mucked", "dealer"))
        html = await page.content()
        page_cards = set(re.findall(r'data-card="([2-9TJQKA][cdhs])"', html))
        assert page_cards and not page_cards & hidden[kept[-1]["id"]]  # the hand open last
        # nothing the hub sent the page names a card of a hand that hid it
        for url, body in bodies:
            m = re.search(r"/api/history/hands/(\d+)", url)
            if m:
                for code in hidden[int(m.group(1))]:
                    assert f'"{code}"' not in body, (url, code)
        assert any("/api/history/hands/" in url for url, _ in bodies)
        await context.close()
