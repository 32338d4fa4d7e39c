"""The dealer console while a hand is dealt, in a real headless Chromium (issue 17): at
each step of a hold'em, a seven-card stud and a five-card draw hand the console names the
next card and where it goes — a seat's n-th card, the burn, the flop's cards, the turn,
a stud up card, a draw's discards and replacements — and lights that antenna on the page
(the seat, the burn, the board). A security alert raised mid-hand (one tag read on two
antennas: a copied tag) appears with its seats lit; taking the card back clears it, and
an acknowledged alert leaves the list. A card entered by hand is drawn on its seat; the
undo dialog names the action it takes back; the raise offers ½ pot / pot / min / all in;
the antenna picker names antennas as people do, in Czech too; the tournament clock
pauses and resumes from the console."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from hub.config import LevelSettings, TournamentSettings
from hub.web.auth import Role
from tests.support.console_rig import WAIT, Rig, rig, wait_acting

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
STUD = {"small_blind": 0, "big_blind": 0, "ante": 1, "small_bet": 10, "big_bet": 20}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def stub() -> Iterator[str]:
    """A fresh stub: every card once, in a fixed order."""
    return iter(DECK)


async def open_console(browser: Any, r: Rig, width: int = 1280, height: int = 800) -> Any:
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.goto(f"{r.hub.web_url}/console?token={r.hub.token(Role.DEALER)}&lang=en")
    await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
    return page


async def expect_next(page: Any, text: str, lit: str) -> None:
    """The console says ``text`` and lights ``lit`` (a selector), and only it."""
    await page.wait_for_selector(f"#turn[data-kind='deal'] .what:text-is(\"{text}\")", timeout=WAIT)
    await page.wait_for_selector(f"{lit}.next-card", timeout=WAIT)
    assert await page.locator(".next-card").count() == 1, text


async def deal_seat(
    page: Any, r: Rig, cards: Iterator[str], seat: int, nth: int, up: bool = False
) -> str:
    face = "face up" if up else "face down"
    await expect_next(
        page, f"Next: seat {seat}'s {ORDINALS[nth - 1]} card, {face}", f".seat[data-seat='{seat}']"
    )
    card = next(cards)
    await r.put(f"seat{seat}", card)
    return card


async def burn_and_board(page: Any, r: Rig, cards: Iterator[str], street: str, count: int) -> None:
    await expect_next(page, f"Next: the burn card ({street})", "#burn-spot")
    await r.put("burn", next(cards))
    for i in range(1, count + 1):
        text = f"Next: the flop, card {i} of 3" if count == 3 else f"Next: the {street} card"
        await expect_next(page, text, "#board")
        await r.put("board", next(cards))


async def bet_round(r: Rig, http: httpx.AsyncClient) -> None:
    """Everyone checks or calls (stud: the bring-in first) until the round closes."""
    headers = {"Authorization": f"Bearer {r.hub.token(Role.DEALER)}"}
    while (h := r.hand.actor) is not None and r.hand.phase.value == "betting":
        hand = r.hand
        act = "bring-in" if hand.can_bring_in(h) else "check" if hand.can_check(h) else "call"
        body = {"seat": r.seats[h], "act": act}
        answer = (await http.post("/api/console/action", json=body, headers=headers)).json()
        assert answer["accepted"], answer


async def test_the_next_card_is_named_and_lit_through_a_holdem_hand(browser: Any) -> None:
    async with rig() as r, httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        page = await open_console(browser, r)
        cards = stub()
        for nth in (1, 2):
            for seat in r.seats:
                if (nth, seat) == (2, r.seats[1]):  # the picture of a deal under way
                    await page.wait_for_selector(f".seat[data-seat='{seat}'].next-card")
                    await page.screenshot(path=str(ARTIFACTS / "console-next-card-holdem.png"))
                await deal_seat(page, r, cards, seat, nth)
        await wait_acting(page, r.seat_to_act())
        assert await page.locator(".next-card").count() == 0  # betting: nothing to deal
        await bet_round(r, http)
        await burn_and_board(page, r, cards, "flop", 3)
        await bet_round(r, http)
        await burn_and_board(page, r, cards, "turn", 1)
        await bet_round(r, http)
        await burn_and_board(page, r, cards, "river", 1)
        await page.wait_for_selector("#turn[data-kind='act']", timeout=WAIT)


async def test_the_next_card_in_stud_down_cards_up_cards_and_the_burn(browser: Any) -> None:
    async with (
        rig(game="F7S", stakes=STUD) as r,
        httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http,
    ):
        page = await open_console(browser, r)
        cards = stub()
        for nth, up in ((1, False), (2, False), (3, True)):
            for seat in r.seats:
                await deal_seat(page, r, cards, seat, nth, up)
        await page.screenshot(path=str(ARTIFACTS / "console-next-card-stud.png"))
        await bet_round(r, http)
        await expect_next(page, "Next: the burn card (4th street)", "#burn-spot")
        await r.put("burn", next(cards))
        for seat in r.seats:
            await deal_seat(page, r, cards, seat, 4, up=True)


async def test_the_next_card_in_a_draw_discards_burn_and_replacements(browser: Any) -> None:
    async with rig(game="F5D") as r, httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        page = await open_console(browser, r)
        cards = stub()
        held: dict[int, list[str]] = {s: [] for s in r.seats}
        for nth in range(1, 6):
            for seat in r.seats:
                held[seat].append(await deal_seat(page, r, cards, seat, nth))
        await bet_round(r, http)
        first, second = r.seats[0], r.seats[1]
        discard = f"Next: seat {first} throws the discards to the muck (or stands pat)"
        await expect_next(page, discard, f".seat[data-seat='{first}']")
        await r.move(held[first][0], f"seat{first}", "muck")
        await expect_next(page, "Next: the burn card (draw)", "#burn-spot")
        assert await page.locator(f".seat[data-seat='{first}'] .card.back").count() == 4
        await r.put("burn", next(cards))
        text = f"Next: seat {first}'s replacement card 1 of 1"
        await expect_next(page, text, f".seat[data-seat='{first}']")
        await page.screenshot(path=str(ARTIFACTS / "console-next-card-draw.png"))
        await r.put(f"seat{first}", next(cards))
        discard = f"Next: seat {second} throws the discards to the muck (or stands pat)"
        await expect_next(page, discard, f".seat[data-seat='{second}']")


async def test_a_security_alert_mid_hand_lights_its_seats_clears_and_is_acknowledged(
    browser: Any,
) -> None:
    async with rig() as r:
        page = await open_console(browser, r, 800, 1280)
        held = await r.deal_hole_cards()
        first, _, last = r.seats
        card = held[first][0]
        # the same tag is read on another seat's antenna too: a copied (cloned) tag
        await r.put(f"seat{last}", card)
        alert = page.locator("#alert-list li.alert.security[data-code='uid_on_two_antennas']")
        await alert.wait_for(timeout=WAIT)
        assert "cloned or spoofed" in await alert.inner_text()
        for seat in (first, last):
            await page.wait_for_selector(f".seat[data-seat='{seat}'].alerted", timeout=WAIT)
        assert card not in await alert.inner_text()  # a hidden card is never named
        await page.screenshot(path=str(ARTIFACTS / "console-security-alert-800x1280.png"))
        # the card taken back: the alert's cause is gone, it leaves the list, the seats go dark
        await r.lift(f"seat{last}", card)
        await alert.wait_for(state="detached", timeout=WAIT)
        await page.wait_for_selector(".seat.alerted", state="detached", timeout=WAIT)
        # again: this time the dealer acknowledges it
        await r.put(f"seat{last}", card)
        await alert.wait_for(timeout=WAIT)
        await alert.locator("button.ack").click()
        await alert.wait_for(state="detached", timeout=WAIT)
        codes = await page.locator("#alert-list li.alert").evaluate_all(
            "(items) => items.map((li) => li.dataset.code)"
        )
        assert "uid_on_two_antennas" not in codes


async def test_manual_card_undo_presets_picker_and_clock(browser: Any) -> None:
    levels = [LevelSettings(small_blind=5, big_blind=10, minutes=20)] * 2
    tournament = TournamentSettings(starting_stack=1000, levels=levels)
    async with rig(tournament=tournament) as r:
        page = await open_console(browser, r)
        sb, bb, button = r.seats
        # the antenna picker: people's names, the next card's antenna chosen
        options = await page.locator("#manual-reader option").all_inner_texts()
        assert options[:2] == ["Seat 1", "Seat 2"] and "Burn" in options and "Board" in options
        assert await page.input_value("#manual-reader") == f"seat{sb}"
        # the first card will not read: entered by hand, face down — drawn on its seat
        await page.click("#manual-enter")
        await page.wait_for_selector(f".seat[data-seat='{sb}'] .card.back", timeout=WAIT)
        await expect_next(
            page, f"Next: seat {bb}'s first card, face down", f".seat[data-seat='{bb}']"
        )
        cards = iter(["Kd", "7c", "Ah", "Kc", "2d"])
        for seat in (bb, button, sb, bb, button):
            await r.put(f"seat{seat}", next(cards))
        await wait_acting(page, button)
        # the raise: presets where no limit allows them; the minimum said, not imposed
        await page.click("#act-bet")
        presets = await page.locator("#amount-presets .preset").evaluate_all(
            "(bs) => bs.map((b) => [b.dataset.preset, b.dataset.amount])"
        )
        # pot 15, 10 to call: a pot raise to 10 + 25 = 35, ½ pot to 22, min 20, all in 1000
        assert presets == [["halfpot", "22"], ["pot", "35"], ["min", "20"], ["allin", "1000"]]
        await page.click("#amount-presets .preset[data-preset='pot']")
        assert await page.input_value("#amount-input") == "35"
        await page.click("#confirm-action")
        await wait_acting(page, sb)
        # undo names what it takes back
        await page.click("#undo")
        await page.wait_for_selector("#modal", state="visible", timeout=WAIT)
        assert await page.inner_text("#modal-text") == (
            f"Take back seat {button}'s action: Raise to 35?"
        )
        await page.click("#modal-no")
        # the clock: the level and the time, paused and resumed from the console
        await page.wait_for_selector("#clock", state="visible", timeout=WAIT)
        assert "Level 1" in await page.inner_text("#clock-level")
        await page.click("#clock-toggle")
        await page.wait_for_selector("#clock[data-paused='true']", timeout=WAIT)
        assert await page.inner_text("#clock-toggle") == "Resume"
        await page.click("#clock-toggle")
        await page.wait_for_selector("#clock[data-paused='false']", timeout=WAIT)
        # Czech: the picker speaks it too
        await page.click("button[data-lang='cs']")
        await page.wait_for_selector("#status:text-is('živě')", timeout=WAIT)
        options = await page.locator("#manual-reader option").all_inner_texts()
        assert options[0] == "Místo 1" and "Spálené karty" in options
        assert await page.inner_text("#clock-toggle") == "Pauza"
        await page.screenshot(path=str(ARTIFACTS / "console-cs-1280x800.png"))
