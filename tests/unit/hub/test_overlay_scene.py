"""The overlay's picture is a pure projection of the live table
(:func:`hub.views.overlay_scene.overlay_picture`), pushed into the overlay's delay as a
snapshot after every change: over the demo's hands — the demo's simulated dealer playing
real hands, mistakes included, at an in-process hub with no delay — every picture the
overlay receives says what the rules say: each player's stack, bet and fold, the pot,
the board in the order it was dealt, and the table's chips all accounted for.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from feltwire.cards import card_code
from hub.app.table_console import TableConsole
from hub.config import PlayerSettings, RulesSettings
from hub.views.overlay_scene import OverlayScene, overlay_picture
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface

HANDS = 12
BUY_IN = 1000


def agrees(rules: TableConsole, picture: dict[str, Any]) -> None:
    """The picture says what the rules say of the running hand."""
    desk = rules.desk
    assert desk.monitor is not None and desk.setup is not None
    hand = desk.monitor.hand
    seats = {int(p["seat"]): p for p in picture["players"]}
    total = sum(desk.setup.starting_stacks)
    for h, seat in enumerate(desk.setup.seats):
        shown = seats[seat]
        assert shown["stack"] == hand.stacks[h], (seat, shown)
        assert bool(shown["folded"]) == bool(hand.folded[h]), (seat, shown)
    assert picture["board"] == [card_code(c) for c in hand.board if c >= 0]
    in_hand = [seats[s] for s in desk.setup.seats]
    assert sum(int(p["stack"]) for p in in_hand) + picture["pot"] == total, picture["pot"]


@pytest.mark.parametrize("mistakes", [0.0, 0.3])
def test_every_overlay_picture_says_what_the_rules_say_over_the_demos_hands(
    mistakes: float,
) -> None:
    clock = FakeClock()
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=BUY_IN) for s in (1, 2, 3, 4)]
    app = hub_service(clock, rules=RulesSettings(players=players, rebuy=True), game="NT")
    rules = app.rules
    assert rules is not None
    surface = ServiceSurface(app, rules, clock)
    compared = 0

    with app.overlay.subscribe() as feed:

        def check() -> None:
            nonlocal compared
            while not feed.queue.empty():
                sent = feed.queue.get_nowait()
                if sent["type"] == "state" and rules.in_hand:
                    agrees(rules, sent["state"])
                    compared += 1

        surface.after_motion.append(check)
        rng = random.Random(11)
        for _ in range(HANDS):
            setup = rules.desk.setup
            assert setup is not None and rules.in_hand
            mistake = choose_mistake(rng, mistakes, setup.game, rules.desk.profile)
            dealer = SimulatedDealer(rng, setup, rules.desk.profile, surface, mistake)
            dealer.play()
            dealer.collect()
    assert compared > HANDS * 5
    assert rules.desk.hands_finished + rules.desk.hands_voided >= HANDS


def test_without_rules_the_projection_is_the_antennas() -> None:
    antennas = {"seat1": ("As", "Kd"), "seat3": ("2c",), "board": ("Qh", "Jh", "Th")}
    picture = overlay_picture(OverlayScene(antennas=antennas))
    assert [(p.seat, p.cards, p.in_hand) for p in picture.players] == [
        (1, ["As", "Kd"], True),
        (3, ["2c"], True),
    ]
    assert picture.board == ["Qh", "Jh", "Th"] and not picture.rules and picture.pot == 0
