"""Issue 14, acceptance 4, in headless Chromium: the console, the public view and the
overlay render the hub's alerts, pot awards and refusals from the message catalog
(``static/messages/<lang>.json``), and switching the language turns them Czech — the
catalog's Czech, not a translation matched against the English. The pages' renderer
says exactly what ``hub.messages.render`` says, for every alert and award entry."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from feltwire.text import Param, Seat, Text
from hub.messages import antenna, joined, load_catalog, phase, render, street
from hub.messages.keys import PARAM_KINDS, Kind, check
from hub.web.auth import Role
from tests.support.console_rig import HOLE, WAIT, rig

SAMPLE: dict[str, Param] = {
    "street": street("4th street"),
    "reader": antenna("up3"),
    "reader_a": antenna("board"),
    "reader_b": antenna("seat10"),
    "readers": joined([antenna("flop2"), antenna("muck"), antenna("seat4")]),
    "phase": phase("drawing"),
    "half": Text("half.low"),
    "pot_name": Text("award.pot.side", {"pot": 2}),
    "shares": joined(
        [
            Text("award.share.half_odd_chip",
                 {"seat": Seat(3), "amount": 12501, "half": Text("half.high")}),
            Text("award.share.plain", {"seat": Seat(10), "amount": 7}),
        ],
        "list.semicolon",
    ),
}  # fmt: skip
"""Nested values for the parameters that take a text."""


def sample(key: str) -> Text:
    """``key`` with a value for each of its parameters (seats, nested texts, a number
    Czech groups, identifiers)."""
    params: dict[str, Param] = {}
    for name in load_catalog().params_of(key):
        kind = PARAM_KINDS[name]
        if kind is Kind.SEAT:
            params[name] = Seat(7)
        elif kind is Kind.INT:
            params[name] = 12345
        elif kind is Kind.TEXT:
            params[name] = SAMPLE[name]
        else:
            params[name] = "n-1" if name != "card" else "Qh"
    text = Text(key, params)
    check(text)
    return text


async def post(url: str, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    response = await asyncio.to_thread(
        httpx.post, f"{url}{path}?token={token}", json=body, timeout=10
    )
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


async def to_czech(page: Any, switch: bool = True) -> None:
    if switch:
        await page.click(".fw-lang button[data-lang='cs']")
    else:
        await page.evaluate("FW.i18n.set('cs')")
    await page.wait_for_function("document.documentElement.lang === 'cs'", timeout=WAIT)


async def test_the_pages_render_every_alert_and_award_text_as_the_hub_does(browser: Any) -> None:
    texts = [sample(k) for k in load_catalog() if k.startswith(("alert.", "award."))]
    assert len(texts) > 70
    async with rig() as r:
        page = await browser.new_page()
        await page.goto(f"{r.hub.web_url}/?lang=en")
        await page.wait_for_selector("#status[data-state=live]", timeout=WAIT)
        for lang in ("en", "cs"):
            await page.evaluate("(lang) => FW.i18n.set(lang)", lang)
            shown = await page.evaluate(
                "texts => texts.map(t => FW.i18n.text(t))", [t.as_json() for t in texts]
            )
            assert shown == [render(t, lang) for t in texts], lang
        assert "12\u00a0345" in " ".join(shown)  # Czech groups digits, as Intl cs-CZ does
        # a frame without a text (an old hub) shows its English
        old = {"code": "missing_burn", "message": "english", "remedy": "do this"}
        assert await page.evaluate("a => FW.i18n.alertParts(a)", old) == {
            "message": "english",
            "remedy": "do this",
        }


async def test_the_language_switch_turns_an_alert_and_an_award_czech_on_the_three_pages(
    browser: Any,
) -> None:
    async with rig(live=True) as r:
        sb, bb, button = r.seats
        url, dealer = r.hub.web_url, r.hub.token(Role.DEALER)
        context = await browser.new_context(viewport={"width": 1920, "height": 1080})
        console, public, overlay = [await context.new_page() for _ in range(3)]
        await console.goto(f"{url}/console?token={dealer}&lang=en")
        await public.goto(f"{url}/?lang=en")
        await overlay.goto(f"{r.hub.overlay_url}&lang=en")
        for page in (console, public):
            await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        await r.deal_hole_cards()
        # a card entered by hand that is already in play: the console's refusal, in English
        await console.select_option("#manual-reader", "board")
        await console.fill("#manual-card", HOLE[0])
        await console.click("#manual-enter")
        await console.wait_for_selector("#message[data-kind='refused']", timeout=WAIT)
        in_play = Text("refusal.console.card_in_play")
        refusal_en = "Refused: " + render(in_play, "en")
        refusal_cs = "Odmítnuto: " + render(in_play, "cs")
        assert await console.text_content("#message") == refusal_en
        # the small blind's call out of turn: refused, and the dealer is told why
        said = await post(url, "/api/console/action", dealer, {"seat": sb, "act": "call"})
        assert not said["accepted"]
        for seat in (button, sb):
            folded = await post(url, "/api/console/action", dealer, {"seat": seat, "act": "fold"})
            assert folded["accepted"]
        mucked = await post(url, "/api/console/muck", dealer, {"seat": bb})  # R-SHOW-3
        assert not mucked["in_hand"]
        alert_en = f"seat {sb} acted out of turn; seat {button} is to act"
        alert_cs = f"místo {sb} jedná mimo pořadí; na řadě je místo {button}"
        award_en = rf"main pot (\d+): seat {bb} takes \1"
        award_cs = rf"hlavní bank (\d+): místo {bb} bere \1"
        alert = "#alert-list li.alert[data-code='action_out_of_turn'] .what"
        award = "#awards p.award:not(.top-up)"
        # the TV names the winner (its result.share.* text), the console reads the pot out
        named = {console: (award_en, award_cs), public: (rf"P{bb} wins \d+", rf"P{bb} bere \d+")}
        for page in (console, public):
            await page.wait_for_selector(alert, timeout=WAIT)
            await page.wait_for_selector(award, timeout=WAIT)
            assert await page.text_content(alert) == alert_en
            assert re.fullmatch(named[page][0], await page.text_content(award) or "")
        await overlay.wait_for_selector("#awards .award[data-key='award.line.plain']", timeout=WAIT)
        overlay_en = await overlay.text_content("#awards .award") or ""
        assert f"P{bb} wins" in overlay_en
        # Czech: the console's and the public view's switch, the overlay's i18n (OBS has none)
        await to_czech(console)
        await to_czech(public)
        await to_czech(overlay, switch=False)
        assert await console.text_content("#message") == refusal_cs  # said again, in Czech
        for page in (console, public):
            assert await page.text_content(alert) == alert_cs
            assert re.fullmatch(named[page][1], await page.text_content(award) or "")
            remedy = await page.text_content(
                "#alert-list li.alert[data-code='action_out_of_turn'] .remedy"
            )
            assert remedy == f"akce se nepřijímá; nechte nejdřív jednat: místo {button}"
        overlay_cs = await overlay.text_content("#awards .award") or ""
        assert overlay_cs != overlay_en and f"P{bb} vyhrává" in overlay_cs
        # the overlay's award read-out from the catalog: the line the picture carries
        lines = r.hub.service.feeds.overlay_picture["awards"]
        czech = await overlay.evaluate("a => FW.i18n.awardText(a)", lines[0])
        assert czech == render(Text.from_json(lines[0]["text"]), "cs")
        assert re.fullmatch(award_cs, czech)
        await context.close()
