"""The public table view (a TV in the room) in a real headless Chromium, against the real
hub: a node deals through the embedded broker, the dealer's actions go through the
console's HTTP route, the tournament clock runs on the hub's clock.

The page shows the board, the stacks, bets and pot (a raise entered at the console shows
on the raiser's seat), whose turn it is, the level and a countdown that moves and stops
when the dealer pauses the clock; its language switch turns the page and the dealer's
alert Czech; and neither its DOM nor any frame it receives carries a hole card. The
screenshots at 1920x1080 and 1024x768 are kept in ``test-artifacts/``."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from feltwire.deck import simulated_deck
from feltwire.publisher import InventoryPublisher
from feltwire.text import Seat, Text
from hub.bootstrap import HubRuntime, start_hub
from hub.config import LevelSettings, PlayerSettings, RulesSettings, TournamentSettings
from hub.web.auth import Role
from table_node.node import Node
from table_node.simulated import SimulatedTable
from tests.support.hub_configs import embedded_hub_config
from tests.support.room import simulated_node, sweep_into

DECK = simulated_deck()
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = {1: "Anna Nováková", 2: "Bořivoj", 3: "Cyril", 5: "Dana", 7: "Emil", 9: "František"}
HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d", "Qh", "Jd", "Tc", "9s", "8h", "6c"]
BURN, FLOP = "5h", ["Qs", "Jh", "3c"]
TOURNAMENT = TournamentSettings(
    starting_stack=3000,
    levels=[
        LevelSettings(small_blind=10, big_blind=20, minutes=20),
        LevelSettings(small_blind=15, big_blind=30, minutes=20),
        LevelSettings(small_blind=25, big_blind=50, ante=5, minutes=20),
    ],
)
WAIT = 30_000
"""Playwright's wait for a condition, in ms (generous: the machine is busy)."""


class ShiftedClock:
    """The hub's monotonic clock: real time (the countdown moves), plus a shift the test
    adds (time passing, not a wall-clock jump)."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift


@dataclass
class Room:
    """A running hub on a clock the test can move on, a node dealing at its table, and
    the dealer's token."""

    hub: HubRuntime
    clock: ShiftedClock
    table: SimulatedTable
    node: Node
    publisher: InventoryPublisher
    dealer: str
    held: dict[int, list[str]] = field(default_factory=dict)

    async def sweep(self) -> None:
        """The node reads once; wait until the hub has taken what it sent."""
        await sweep_into(self.node, self.publisher, self.hub.service)

    async def deal(self) -> None:
        """Two cards to every seat of the hand, one at a time clockwise."""
        assert self.hub.rules is not None and self.hub.rules.desk.setup is not None
        seats = self.hub.rules.desk.setup.seats
        self.held = {s: [] for s in seats}
        cards = iter(HOLE)
        for _ in range(2):
            for seat in seats:
                card = next(cards)
                self.held[seat].append(card)
                self.table.reader(f"seat{seat}").place(DECK.uid_for(card))
                await self.sweep()

    async def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.hub.web_url, timeout=10) as http:
            response = await http.post(
                path, json=body, headers={"Authorization": f"Bearer {self.dealer}"}
            )
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    async def act(self, seat: int, act: str, to: int = 0) -> dict[str, Any]:
        return await self.post("/api/console/action", {"seat": seat, "act": act, "to": to})

    def acting(self) -> int:
        rules = self.hub.rules
        assert rules is not None and rules.desk.setup is not None and rules.desk.monitor is not None
        actor = rules.desk.monitor.hand.actor
        assert actor is not None
        return rules.desk.setup.seats[actor]


@asynccontextmanager
async def room(seats: tuple[int, ...]) -> AsyncIterator[Room]:
    players = [PlayerSettings(seat=s, name=NAMES[s], buy_in=3000) for s in seats]
    clock = ShiftedClock()
    hub = await start_hub(
        embedded_hub_config(rules=RulesSettings(players=players), tournament=TOURNAMENT),
        monotonic=clock,
    )
    try:
        async with simulated_node(hub) as sim:
            yield Room(hub, clock, sim.table, sim.node, sim.publisher, hub.token(Role.DEALER))
    finally:
        await hub.stop()


class Watched:
    """A page and everything the hub sent it: WebSocket frames and snapshot responses."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[str] = []
        self.responses: list[Any] = []
        self.errors: list[str] = []
        page.on("websocket", self._socket)
        page.on("response", self._response)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def _response(self, response: Any) -> None:
        if "/api/" in response.url:
            self.responses.append(response)

    async def assert_no_hole_card(self, hole: list[str]) -> None:
        """Neither the page nor anything it received names a hole card (and the page's
        script ran without an error)."""
        assert not self.errors, self.errors
        bodies = [await r.text() for r in self.responses]
        received = "\n".join([*self.frames, *bodies])
        assert self.frames and bodies  # it did receive the feed and snapshots
        leaked = [c for c in hole if f'"{c}"' in received]
        assert not leaked, f"hole cards on the public feed: {leaked}"
        html = await self.page.content()
        leaked = [c for c in hole if f'data-card="{c}"' in html]
        assert not leaked, f"hole cards on the page: {leaked}"
        shown = await self.page.eval_on_selector_all(
            ".card[data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert not set(shown) & set(hole)


def field_of(seat: int, name: str) -> str:
    return f"#seats .seat[data-seat='{seat}'] [data-field={name}]"


async def text_is(page: Any, selector: str, text: str) -> None:
    """Wait until the element's text is ``text``."""
    await page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.textContent === t; }",
        arg=[selector, text],
        timeout=WAIT,
    )


async def test_the_public_view_shows_the_hand_the_clock_and_never_a_hole_card(
    browser: Any,
) -> None:
    async with room((1, 2, 3, 5, 7, 9)) as r:
        rules = r.hub.rules
        assert rules is not None and rules.desk.setup is not None
        seats = rules.desk.setup.seats  # hand order: small blind, big blind, …, the button
        sb, bb = seats[0], seats[1]
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        watched = Watched(page)
        await page.goto(r.hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]", timeout=WAIT)
        for seat, name in NAMES.items():
            await text_is(page, field_of(seat, "name"), name)
        await text_is(page, field_of(sb, "bet"), "10")
        await text_is(page, field_of(bb, "bet"), "20")
        await text_is(page, field_of(bb, "stack"), "2,980")
        assert await page.inner_text("#pot") == "30"
        # the tournament clock: level 1 of 3 at 10/20, next 15/30, and a countdown that runs
        assert await page.inner_text("#clock [data-field=level]") == "1 of 3"
        assert await page.inner_text("#clock [data-field=blinds]") == "10 / 20"
        assert await page.inner_text("#clock [data-field=next]") == "15 / 30"
        seconds = int(await page.get_attribute("#countdown", "data-seconds") or 0)
        assert 19 * 60 < seconds <= 20 * 60
        await page.wait_for_function(
            f"Number(document.querySelector('#countdown').dataset.seconds) < {seconds}",
            timeout=WAIT,
        )
        assert ":" in await page.inner_text("#countdown")
        # the dealer pauses the clock: the page says so and shows the hub's time left
        paused = await r.post("/api/clock/pause")
        await page.wait_for_selector("#paused", state="visible", timeout=WAIT)
        stopped = math.ceil(paused["time_left"])
        await page.wait_for_function(
            f"document.querySelector('#countdown').dataset.seconds === '{stopped}'", timeout=WAIT
        )
        await r.post("/api/clock/resume")
        await page.wait_for_selector("#paused", state="hidden", timeout=WAIT)
        await page.wait_for_function(
            f"Number(document.querySelector('#countdown').dataset.seconds) < {stopped}",
            timeout=WAIT,
        )
        # twenty minutes on: the hub announces level 2 and the page follows
        r.clock.shift += 20 * 60
        await text_is(page, "#clock [data-field=level]", "2 of 3")
        await text_is(page, "#clock [data-field=blinds]", "15 / 30")
        await text_is(page, "#clock [data-field=next]", "25 / 50 · ante 5")
        # the deal: card backs on every seat, never a face; the first to act is lit
        await r.deal()
        first = r.acting()
        for seat in seats:
            backs = f"#seats .seat[data-seat='{seat}'] .cards .card.back"
            await page.wait_for_function(
                f'document.querySelectorAll("{backs}").length === 2', timeout=WAIT
            )
        await page.wait_for_selector(f"#seats .seat[data-seat='{first}'].acting", timeout=WAIT)
        assert await page.locator("#seats .seat.acting").count() == 1
        # a raise entered at the console: the bet on the seat, its stack and the pot
        result = await r.act(first, "raise", 60)
        assert result["accepted"], result
        await text_is(page, field_of(first, "bet"), "60")
        await text_is(page, field_of(first, "stack"), "2,940")
        await text_is(page, "#pot", "90")
        await page.wait_for_selector(f"#seats .seat[data-seat='{r.acting()}'].acting")
        # everyone folds to the big blind, who calls: the flop comes
        while (seat := r.acting()) != bb:
            assert (await r.act(seat, "fold"))["accepted"]
        await page.wait_for_selector(f"#seats .seat[data-seat='{sb}'].folded", timeout=WAIT)
        assert (await r.act(bb, "call"))["accepted"]
        r.table.reader("burn").place(DECK.uid_for(BURN))
        await r.sweep()
        for card in FLOP:
            r.table.reader("board").place(DECK.uid_for(card))
            await r.sweep()
        for card in FLOP:
            await page.wait_for_selector(f"#board .card[data-card='{card}']", timeout=WAIT)
        await text_is(page, "#pot", "130")
        await text_is(page, field_of(first, "bet"), "")
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "public-1920x1080.png"))
        # the same view on a 1024x768 screen: everything inside it, nothing cut off sideways
        await page.set_viewport_size({"width": 1024, "height": 768})
        boxes = await page.eval_on_selector_all(
            "#seats .seat, #board, #pot, #clock",
            "els => els.map(e => e.getBoundingClientRect().toJSON())",
        )
        assert len(boxes) == 9
        assert all(b["bottom"] <= 768 and b["right"] <= 1024 for b in boxes), boxes
        assert await page.evaluate("document.documentElement.scrollWidth") <= 1024
        await page.screenshot(path=str(ARTIFACTS / "public-1024x768.png"))
        await watched.assert_no_hole_card([*HOLE, BURN])
        assert json.loads(watched.frames[0])["rules"]["clock"]["level"] == 1


def acted(seat: int, actor: int) -> dict[str, Any]:
    """The out-of-turn alert's text, as its frame carries it."""
    return Text(
        "alert.action_out_of_turn.acted.message", {"seat": Seat(seat), "actor": Seat(actor)}
    ).as_json()


def acted_remedy(actor: int) -> dict[str, Any]:
    return Text("alert.action_out_of_turn.acted.remedy", {"actor": Seat(actor)}).as_json()


async def test_the_language_switch_turns_the_page_and_the_alert_czech(browser: Any) -> None:
    async with room((1, 2, 3)) as r:
        rules = r.hub.rules
        assert rules is not None and rules.desk.setup is not None
        sb, bb, button = rules.desk.setup.seats
        page = await browser.new_page(viewport={"width": 1024, "height": 768})
        watched = Watched(page)
        await page.goto(r.hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]", timeout=WAIT)
        await r.deal()
        # the small blind's call entered out of turn: refused, and the page says why
        result = await r.act(sb, "call")
        assert not result["accepted"]
        alert = page.locator("#alert-list li.alert[data-code='action_out_of_turn']")
        await alert.wait_for(timeout=WAIT)
        assert f"seat {button} is to act" in await alert.inner_text()
        assert await page.text_content(".pot .label") == "Pot"
        await page.click(".fw-lang button[data-lang='cs']")
        await page.wait_for_function("document.documentElement.lang === 'cs'", timeout=WAIT)
        assert await page.get_attribute(".fw-lang button[data-lang='cs']", "aria-pressed") == "true"
        assert await page.text_content(".pot .label") == "Bank"
        assert await page.text_content("#clock .level .label") == "Úroveň"
        assert await page.inner_text("#clock [data-field=level]") == "1 z 3"
        assert await page.inner_text("#hand-no") == "Hra 1"
        await text_is(page, "#status", "živě")
        text = await alert.inner_text()
        what = await alert.locator(".what").text_content()
        assert what == f"místo {sb} jedná mimo pořadí; na řadě je místo {button}"
        assert f"nechte nejdřív jednat: místo {button}" in text.lower()
        assert "R-BET-10" in text and "out of turn" not in text
        assert await page.evaluate("FW.i18n.missing('cs')") == []
        # the alert as the frame carried it: its Czech is the catalog's, rendered by the page
        frame = await page.evaluate(
            "a => FW.i18n.alertParts(a)",
            {"text": acted(sb, button), "remedy_text": acted_remedy(button)},
        )
        remedy = await alert.locator(".remedy").text_content()
        assert frame == {"message": what, "remedy": remedy}
        # the button and the small blind fold: the big blind's pot, in Czech, by name
        for seat in (button, sb):
            assert (await r.act(seat, "fold"))["accepted"]
        award = page.locator("#awards .award")
        await award.first.wait_for(timeout=WAIT)
        czech = await award.first.text_content() or ""
        assert re.fullmatch(rf"{NAMES[bb]} bere \d+", czech), czech
        assert await page.text_content("#awards .pot-name .label") == "hlavní bank"
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "public-1024x768-cs.png"))
        # and back: the language stays with the browser, the page turns English again
        await page.click(".fw-lang button[data-lang='en']")
        await text_is(page, ".pot .label", "Pot")
        # read out as the pot is awarded: the big blind may still show (R-SHOW-3)
        english = await award.first.text_content() or ""
        assert re.fullmatch(rf"{NAMES[bb]} wins \d+", english), english
        assert rules.desk.monitor is not None and rules.desk.monitor.winner_to_show == bb
        assert f"let seat {button} act first" in await alert.inner_text()
        await watched.assert_no_hole_card(HOLE[:6])
