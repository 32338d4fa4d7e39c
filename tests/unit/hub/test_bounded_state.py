"""A club night does not pile up in the hub's memory: what a table keeps of the hands
it played is bounded, however many it plays (issue 16, acceptance 3).

The table is the demo's: the simulated dealer deals hands, each with a dealing mistake
(so each raises alerts), on antennas reported straight to the table's application. What
is checked is a count — the table's event log (``Table.log`` of the rules), the
alerts the desk keeps by hand — never a time or a memory figure (those live in
``bench/memory.py``).
"""

from __future__ import annotations

import random

from hub.app.rules_desk import ALERT_HANDS_KEPT, ALERTS_KEPT
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from hub.rules.table import HandStarted
from hub.rules.table.table import LOG_KEPT
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface

HANDS = 60
"""More hands than the table's log and the desk's alerts keep (a hand logs three or four
table events)."""
PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in range(1, 7)]


def table() -> tuple[TableApp, ServiceSurface]:
    clock = FakeClock()
    app = hub_service(clock, rules=RulesSettings(players=PLAYERS, rebuy=True), opened=False)
    app.open()
    assert app.rules is not None
    return app, ServiceSurface(app, app.rules, clock)


def test_a_night_of_hands_keeps_the_latest_table_events_and_alerts_only() -> None:
    app, surface = table()
    rules = app.rules
    assert rules is not None
    desk = rules.desk
    rng = random.Random(16)
    with_alerts: set[int] = set()
    peak = {"table log": 0, "hands with alerts": 0, "in the snapshot": 0}
    for _ in range(HANDS):
        setup = desk.setup
        assert setup is not None and rules.in_hand
        before = desk._alert_seq
        mistake = choose_mistake(rng, 1.0, setup.game, desk.profile)
        SimulatedDealer(rng, setup, desk.profile, surface, mistake).play()
        if desk._alert_seq > before:
            with_alerts.add(setup.number)
        surface.clear()  # the next hand starts
        peak["table log"] = max(peak["table log"], len(desk.table.log))
        peak["hands with alerts"] = max(peak["hands with alerts"], len(desk.alerts_by_hand))
        if desk.started_from is not None:  # what the hand's snapshot holds
            held = len(desk.started_from[1]["alerts_by_hand"])
            peak["in the snapshot"] = max(peak["in the snapshot"], held)
    assert peak == {
        "table log": peak["table log"],
        "hands with alerts": ALERT_HANDS_KEPT,
        "in the snapshot": ALERT_HANDS_KEPT,
    }
    assert LOG_KEPT <= peak["table log"] <= 2 * LOG_KEPT
    assert desk.hand_number == HANDS + 1
    assert len(with_alerts) > ALERT_HANDS_KEPT  # enough hands alerted to be bounded
    # the latest are the ones kept: the hand running now, the last hands' alerts
    started = [e for e in desk.table.log if isinstance(e, HandStarted)]
    assert started[-1].setup.number == desk.hand_number
    assert len(desk.table.log) >= LOG_KEPT
    kept = {n for n, alerts in desk.alerts_by_hand.items() if alerts}
    assert kept == set(sorted(with_alerts)[-len(kept) :])
    assert max(kept) == max(with_alerts)


def test_a_hand_that_runs_on_for_hours_keeps_its_latest_alerts() -> None:
    app, surface = table()
    rules = app.rules
    assert rules is not None
    desk = rules.desk
    number = desk.hand_number
    for _ in range(3 * ALERTS_KEPT):  # a tag not of the deck on the board, again and again
        surface.unknown_tag("board")
    assert rules.in_hand and desk.hand_number == number
    assert desk._alert_seq >= 3 * ALERTS_KEPT
    alerts = desk.alerts_by_hand[number]
    assert ALERTS_KEPT <= len(alerts) <= 2 * ALERTS_KEPT
