"""Issue 17, the public TV view, in a real headless Chromium against the real hub (a node
deals through the embedded broker, the dealer's inputs go through the console's HTTP
routes), as the room sees it:

* the board in the order it was dealt — T♠ 9♠ 2♥ K♣ 8♥, not by rank — on the page and
  in ``/api/public``;
* the alerts the TV lists: the current hand's only (hand 1's are gone in hand 2), at
  most three, the newest first; a security alert (a tag not in the deck) only as "the
  floor has been called to the table", nothing of it on the page, the feed or the
  snapshot; the remedy lines large enough to read across the room;
* the pots' results: main and side pot labelled, each winner by name with the hand shown,
  every number written one way (1,205 in a result as 1,000 in a stack);
* at the showdown the seat to show is "to show", never "to act" (the all-in player
  too); four seats lie in one row across the screen;
* a paused tournament clock keeps its time left visible; a player who busted out keeps
  their name ("Out") while their cards lie on the seat.

Screenshots are kept in ``test-artifacts/`` (``tv-*.png``)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from hub.bootstrap import start_hub
from hub.config import PlayerSettings, RulesSettings
from hub.rules.hand import Phase
from hub.web.auth import Role
from tests.browser.test_public_page import (
    ARTIFACTS,
    DECK,
    NAMES,
    WAIT,
    Room,
    ShiftedClock,
    Watched,
    field_of,
    room,
    text_is,
)
from tests.support.hub_configs import embedded_hub_config
from tests.support.room import simulated_node

BOARD = ["Ts", "9s", "2h", "Kc", "8h"]
"""The issue's board, in the order dealt (by rank: K T 9 8 2)."""
BURNS = ["6h", "6d", "6c"]
STACKS = {1: 400, 2: 1000, 3: 1000, 5: 1000}
HOLE = {1: ["Kd", "9d"], 2: ["Ah", "Ad"], 3: ["7c", "3c"], 5: ["5d", "4d"]}
"""Seat 1 (400 chips) makes two pair and wins the main pot; seat 2's aces beat seat 3's
king high for the side pot; seat 5 folds."""
FOREIGN = "04DEADBEEF0017"
"""A tag that is not in the deck."""
Choose = Callable[[int, Any], tuple[str, int]]


@asynccontextmanager
async def cash_room() -> AsyncIterator[Room]:
    players = [PlayerSettings(seat=s, name=NAMES[s], buy_in=STACKS[s]) for s in STACKS]
    clock = ShiftedClock()
    hub = await start_hub(
        embedded_hub_config(rules=RulesSettings(players=players)), monotonic=clock
    )
    try:
        async with simulated_node(hub) as sim:
            yield Room(hub, clock, sim.table, sim.node, sim.publisher, hub.token(Role.DEALER))
    finally:
        await hub.stop()


def hand_of(r: Room) -> Any:
    rules = r.hub.rules
    assert rules is not None and rules.desk.monitor is not None
    return rules.desk.monitor.hand


async def put(r: Room, reader: str, card: str) -> None:
    r.table.reader(reader).place(DECK.uid_for(card))
    await r.sweep()


async def deal(r: Room) -> None:
    """Two cards to every seat of the hand, one at a time clockwise."""
    assert r.hub.rules is not None and r.hub.rules.desk.setup is not None
    seats = r.hub.rules.desk.setup.seats
    for i in range(2):
        for seat in seats:
            await put(r, f"seat{seat}", HOLE[seat][i])


async def play_round(r: Room, choose: Choose) -> None:
    """Enter each seat's action (``choose(seat, legal)``) until the round ends."""
    hand = hand_of(r)
    while hand.phase is Phase.BETTING:
        seat = r.acting()
        act, to = choose(seat, hand.legal_actions())
        result = await r.act(seat, act, to)
        assert result["accepted"], result


async def clear(r: Room) -> None:
    for reader in ("seat1", "seat2", "seat3", "seat5", "board", "burn", "muck"):
        r.table.reader(reader).clear()
    await r.sweep()


async def out_of_turn(r: Room, i: int = 0) -> None:
    """A seat that is not to act (the ``i``-th of them) calls: refused, alerted."""
    assert r.hub.rules is not None and r.hub.rules.desk.setup is not None
    others = [s for s in r.hub.rules.desk.setup.seats if s != r.acting()]
    assert not (await r.act(others[i % len(others)], "call"))["accepted"]


def shower(r: Room) -> int:
    """The table seat to show next at the showdown."""
    assert r.hub.rules is not None and r.hub.rules.desk.setup is not None
    h = hand_of(r).shower
    assert h is not None
    seat: int = r.hub.rules.desk.setup.seats[h]
    return seat


def preflop(seat: int, legal: Any) -> tuple[str, int]:
    if seat == 1:
        return ("all-in", 0) if legal.call_amount or legal.can_bet_or_raise else ("call", 0)
    if seat == 5:
        return ("fold", 0) if legal.can_fold else ("check", 0)
    return ("call", 0) if legal.call_amount else ("check", 0)


def flop(seat: int, legal: Any) -> tuple[str, int]:
    if legal.call_amount:
        return ("call", 0)
    return ("bet", 200) if seat == 2 else ("check", 0)


def checks(seat: int, legal: Any) -> tuple[str, int]:
    return ("check", 0)


async def texts(page: Any, selector: str) -> list[str]:
    found: list[str] = await page.eval_on_selector_all(selector, "els => els.map(e => e.innerText)")
    return found


async def test_the_tv_shows_the_board_as_dealt_the_hands_alerts_and_named_pots(
    browser: Any,
) -> None:
    async with cash_room() as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        watched = Watched(page)
        await page.goto(r.hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]", timeout=WAIT)
        # hand 1: an alert, then everyone folds to one player; the table is swept
        await deal(r)
        await out_of_turn(r)
        await page.wait_for_selector("#alert-list li[data-hand='1']", timeout=WAIT)
        while hand_of(r).phase is Phase.BETTING:
            assert (await r.act(r.acting(), "fold"))["accepted"]
        await clear(r)
        await text_is(page, "#hand-no", "Hand 2")
        # hand 2: four alerts, then a foreign tag on seat 3's antenna
        await deal(r)
        for i in range(4):
            await out_of_turn(r, i)
        r.table.reader("seat3").place(FOREIGN)
        await r.sweep()
        r.table.reader("seat3").lift(FOREIGN)
        await r.sweep()
        await page.wait_for_selector("#alert-list li[data-code='floor_called']", timeout=WAIT)
        codes = await page.eval_on_selector_all(
            "#alert-list li", "els => els.map(e => e.dataset.code)"
        )
        assert codes == ["floor_called", "action_out_of_turn", "action_out_of_turn"]
        assert await page.locator("#alert-list li[data-hand='1']").count() == 0
        notice = page.locator("#alert-list li[data-code='floor_called']")
        assert "the floor has been called to the table" in (await notice.inner_text()).lower()
        remedy_px = await page.eval_on_selector(
            "#alert-list li .remedy", "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert remedy_px >= 24, remedy_px  # about 15 mm on a 55-inch 1080p screen: 3 m
        # the hand: seat 1 all in, seats 2 and 3 call, seat 5 folds; 200 more on the flop
        await play_round(r, preflop)
        for burn, cards, choose in zip(
            BURNS, (BOARD[:3], BOARD[3:4], BOARD[4:]), (flop, checks, checks), strict=True
        ):
            await put(r, "burn", burn)
            for card in cards:
                await put(r, "board", card)
            await play_round(r, choose)
        dealt = "Array.from(document.querySelectorAll('#board .card[data-card]'))"
        await page.wait_for_function(
            f"{dealt}.map(e => e.dataset.card).join() === {','.join(BOARD)!r}", timeout=WAIT
        )
        async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
            snap = (await http.get("/api/public")).json()
        (board,) = [a for a in snap["antennas"] if a["reader"] == "board"]
        assert board["cards"] == BOARD and snap["rules"]["board"] == BOARD
        # the showdown: whoever shows next is "to show", nobody "to act"
        hand = hand_of(r)
        assert hand.phase is Phase.SHOWDOWN
        shown = 0
        while hand.phase is Phase.SHOWDOWN:
            seat = shower(r)
            box = f"#seats .seat[data-seat='{seat}']"
            await page.wait_for_selector(box + ".showing", timeout=WAIT)
            assert await page.locator("#seats .seat.acting").count() == 0
            assert (await page.inner_text(box + " .state")).lower() == "to show"
            if shown == 0:
                await page.screenshot(path=str(ARTIFACTS / "tv-showdown-1920x1080.png"))
            assert (await r.post("/api/console/show", {"seat": seat}))["accepted"]
            shown += 1
        # the pots, named: seat 1's two pair takes the main pot, seat 2's aces the side pot
        main = "#awards .pot-result[data-pot='0']"
        side = "#awards .pot-result[data-pot='1']"
        await page.wait_for_selector(side + " .award", timeout=WAIT)
        assert (await page.inner_text(main + " .pot-name .label")).lower() == "main pot"
        assert (await page.inner_text(side + " .pot-name .label")).lower() == "side pot 1"
        (won,) = await texts(page, main + " .award")
        m = re.fullmatch(rf"{NAMES[1]} wins ([\d,]+) with two pair", won)
        assert m, won
        assert int(m.group(1).replace(",", "")) > 1000 and "," in m.group(1)  # 1,205
        assert await texts(page, side + " .award") == [f"{NAMES[2]} wins 400 with a pair"]
        assert re.fullmatch(r"\d,\d{3}", await page.inner_text(field_of(1, "stack")))
        # four seats in one row, the whole screen wide
        boxes = await page.eval_on_selector_all(
            "#seats .seat", "els => els.map(e => e.getBoundingClientRect().toJSON())"
        )
        assert len(boxes) == 4 and len({round(b["top"]) for b in boxes}) == 1
        assert max(b["right"] for b in boxes) > 0.85 * 1920, boxes
        assert max(b["bottom"] for b in boxes) <= 1080, boxes  # on the screen, whole
        await page.screenshot(path=str(ARTIFACTS / "tv-pots-1920x1080.png"))
        await page.set_viewport_size({"width": 1024, "height": 768})
        await asyncio.sleep(0.3)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 1024
        boxes = await page.eval_on_selector_all(
            "#seats .seat, #board, #alert-list li:first-child",
            "els => els.map(e => e.getBoundingClientRect().toJSON())",
        )
        assert all(b["bottom"] <= 768 and b["right"] <= 1024 for b in boxes), boxes
        await page.screenshot(path=str(ARTIFACTS / "tv-pots-1024x768.png"))
        # nothing of the security alert reached the room: not its code, not its words
        rules = r.hub.rules
        assert rules is not None
        (foreign,) = [a for a in rules.desk.recent if a["code"] == "unknown_tag"]
        said = [foreign["message"], foreign["remedy"]]
        bodies = [await resp.text() for resp in watched.responses]
        received = "\n".join([*watched.frames, *bodies, await page.content()])
        assert '"unknown_tag"' not in received and not [t for t in said if t in received]
        await watched.assert_no_hole_card([c for cards in HOLE.values() for c in cards])


async def test_a_paused_clock_shows_the_time_left_and_a_busted_player_keeps_the_name(
    browser: Any,
) -> None:
    async with room((1, 2, 3)) as r:
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(r.hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]", timeout=WAIT)
        await r.post("/api/clock/pause")
        await page.wait_for_selector("#paused", state="visible", timeout=WAIT)
        colors = await page.evaluate(
            """() => [getComputedStyle(document.getElementById('countdown')).color,
                      getComputedStyle(document.getElementById('clock')).backgroundColor]"""
        )
        assert colors[0] != colors[1], colors  # the time left is not amber on amber
        assert re.fullmatch(r"\d+:\d\d", await page.inner_text("#countdown"))
        await page.screenshot(path=str(ARTIFACTS / "tv-paused-1920x1080.png"))
        # the first to act goes all in, the next calls, the third folds; a board no pair
        await r.deal()
        first = r.acting()
        assert (await r.act(first, "all-in"))["accepted"]
        second = r.acting()
        assert (await r.act(second, "call"))["accepted"]
        while hand_of(r).phase is Phase.BETTING:
            assert (await r.act(r.acting(), "fold"))["accepted"]
        for burn, cards in zip(
            ["5h", "4h", "4s"], (["Qs", "Jh", "3c"], ["2s"], ["5c"]), strict=True
        ):
            r.table.reader("burn").place(DECK.uid_for(burn))
            await r.sweep()
            for card in cards:
                r.table.reader("board").place(DECK.uid_for(card))
                await r.sweep()
        while hand_of(r).phase is Phase.SHOWDOWN:
            assert (await r.post("/api/console/show", {"seat": shower(r)}))["accepted"]
        rules = r.hub.rules
        assert rules is not None
        busted = [s for s in (first, second) if s not in rules.desk.table.players]
        assert len(busted) == 1, "one of the two all in busts (equal stacks, one loses)"
        (out,) = busted
        box = f"#seats .seat[data-seat='{out}']"
        await page.wait_for_selector(box + ".busted", timeout=WAIT)
        assert await page.inner_text(box + " [data-field=name]") == NAMES[out]
        assert (await page.inner_text(box + " .state")).lower() == "out"
        await page.screenshot(path=str(ARTIFACTS / "tv-busted-1920x1080.png"))
