"""Randomised: thousands of hands dealt through presence by a simulated dealer.

Dealt correctly, no hand raises an alert; with exactly one dealing error injected, the
hand raises exactly the alert for that error and nothing else. The number of hands is
``FELTWIRE_PROCEDURE_HANDS`` (clean hands; each mistake kind gets a sixth of it), 1200 by
default to keep CI under a minute.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from hub.messages import render
from hub.rules.games import game
from tests.support.dealer_sim import EXPECTED, Mistake, applicable, play_hand
from tests.support.monitor_tables import TABLES

HANDS = int(os.environ.get("FELTWIRE_PROCEDURE_HANDS", "1200"))


def test_correct_dealing_raises_no_alert() -> None:
    """A dealer who follows the rules, players who act in turn and fold at the muck:
    not one alert, not one refused console input."""
    false_alerts: Counter[str] = Counter()
    refused: list[str] = []
    for i in range(HANDS):
        variant, profile = TABLES[i % len(TABLES)]
        outcome = play_hand(10_000 + i, variant, profile)
        for a in outcome.table.alerts:
            false_alerts[f"{variant} {a.code.value}: {render(a.text)}"] += 1
        refused += outcome.table.refused
    assert not false_alerts, false_alerts.most_common(5)
    assert not refused, refused[:5]


@pytest.mark.parametrize("mistake", [m for m in Mistake if m is not Mistake.NONE])
def test_each_injected_mistake_raises_exactly_its_alert(mistake: Mistake) -> None:
    """The same kind of hands with one dealing error each: the matching alert, once,
    and nothing else."""
    tables = [(v, p) for v, p in TABLES if applicable(mistake, game(v), p)]
    hands = max(len(tables), HANDS // 6)
    injected = caught = 0
    wrong: Counter[str] = Counter()
    for i in range(hands):
        variant, profile = tables[i % len(tables)]
        outcome = play_hand(20_000 + i, variant, profile, mistake)
        if not outcome.injected:
            continue  # the hand ended before the mistake could be made
        injected += 1
        codes = outcome.codes
        if codes == [EXPECTED[mistake]]:
            caught += 1
        else:
            wrong[f"{variant}: {[c.value for c in codes]}"] += 1
        allowed = {Mistake.ACTION_OUT_OF_TURN, Mistake.DRAW_MISMATCH}
        if mistake not in allowed:
            assert not outcome.table.refused, outcome.table.refused
    assert injected >= hands // 3, f"only {injected} of {hands} hands reached the mistake"
    assert caught == injected, wrong.most_common(5)
