"""The overlay's picture as a pure projection (:func:`hub.views.overlay_scene.overlay_picture`)
equals the fold of the released frames (:class:`hub.views.overlay.OverlayState`) over the
demo's hands: the demo's simulated dealer plays real hands at an in-process hub (no
delay), and after every motion at which the fold is defined to agree with the rules — a
betting round open, or between hands — the two pictures are the same model.
"""

from __future__ import annotations

import random

import pytest

from feltwire.protocol import OverlayPicture, PotAwardRecord
from feltwire.protocol.texts import AwardLine
from hub.app.hub_service import HubService
from hub.app.table_service import TableService
from hub.config import PlayerSettings, RulesSettings
from hub.rules.hand import Phase
from hub.views.alerts import award_record_model
from hub.views.overlay_scene import OverlayScene, overlay_picture
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface

HANDS = 12


def scene(hub: HubService, rules: TableService) -> OverlayScene:
    """What the app would pass: the rules' state, the antennas, the hand's pot awards."""
    if rules.in_hand:
        pots = [award_record_model(e) for e in rules._pots]
    else:
        pots = [PotAwardRecord.model_validate(p) for p in rules.last_pots]
    return OverlayScene(
        antennas=hub.presence.snapshot(),
        table=rules.table,
        monitor=rules.monitor,
        setup=rules.setup,
        in_hand=rules.in_hand,
        blinds=rules._blinds,
        pots=pots,
        awards=[AwardLine.model_validate(a) for a in rules.last_awards],
    )


def settled(rules: TableService) -> bool:
    """A betting round is open, or no hand runs: where the fold agrees with the rules."""
    if not rules.in_hand:
        return True
    assert rules.monitor is not None
    hand = rules.monitor.hand
    return hand.phase is Phase.BETTING and hand.actor is not None


@pytest.mark.parametrize("mistakes", [0.0, 0.3])
def test_the_projection_equals_the_fold_over_the_demos_hands(mistakes: float) -> None:
    clock = FakeClock()
    hub = hub_service(clock)
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3, 4)]
    rules = TableService(hub, RulesSettings(players=players, rebuy=True), game_code="NT")
    surface = ServiceSurface(hub, rules, clock)
    compared = 0

    def check() -> None:
        nonlocal compared
        if rules.setup is None or not settled(rules):
            return
        folded = OverlayPicture.model_validate(hub.overlay_state.picture())
        assert overlay_picture(scene(hub, rules)) == folded, (rules.hand_number, clock())
        compared += 1

    surface.after_motion.append(check)
    rng = random.Random(11)
    for _ in range(HANDS):
        setup = rules.setup
        assert setup is not None and rules.in_hand
        mistake = choose_mistake(rng, mistakes, setup.game, rules.profile)
        dealer = SimulatedDealer(rng, setup, rules.profile, surface, mistake)
        dealer.play()
        dealer.collect()
    assert compared > HANDS * 5
    assert rules.hands_finished + rules.hands_voided >= HANDS


def test_without_rules_the_projection_is_the_antennas() -> None:
    antennas = {"seat1": ("As", "Kd"), "seat3": ("2c",), "board": ("Qh", "Jh", "Th")}
    picture = overlay_picture(OverlayScene(antennas=antennas))
    assert [(p.seat, p.cards, p.in_hand) for p in picture.players] == [
        (1, ["As", "Kd"], True),
        (3, ["2c"], True),
    ]
    assert picture.board == ["Qh", "Jh", "Th"] and not picture.rules and picture.pot == 0
