"""The console's alerts (issue 17): a security alert raised mid-hand — one tag read on two
antennas — is in the console's state with the seats it concerns; taking the card back
clears it; the dealer acknowledges the hub's own alerts (which have no id) by their key,
and a key no alert has is a LookupError. No card is named on the way."""

from __future__ import annotations

import json

import pytest

from hub.config import PlayerSettings, RulesSettings
from hub.views.alerts import DOUBLED_UID_ALERT, console_alerts
from tests.support.clocks import FakeClock
from tests.support.node_reports import NodeReports
from tests.support.service import hub_service

PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 3, 4)]


def open_alerts(state: dict[str, object]) -> list[dict[str, object]]:
    alerts = state["alerts"]
    assert isinstance(alerts, list)
    return [a for a in alerts if not a["acknowledged"] and not a["cleared"]]


def test_a_doubled_tag_mid_hand_names_its_seats_and_clears_when_taken_back() -> None:
    clock = FakeClock()
    svc = hub_service(clock, rules=RulesSettings(players=PLAYERS))
    node = NodeReports()
    rules = svc.rules
    assert rules is not None and rules.in_hand
    svc.handle_message(*node.read("seat3", "As"))  # the first card of the deal
    clock.now += 0.2
    svc.handle_message(*node.read("seat1", "As"))  # the same tag on seat 1: a copy
    clock.now += svc.intake.doubled_after_s
    assert svc.check_doubled(clock.now) == 1
    state = rules.console_state()
    hub = [a for a in open_alerts(state) if a["code"] == DOUBLED_UID_ALERT]
    assert len(hub) == 1 and hub[0]["seats"] == [1, 3] and hub[0]["id"] is None
    assert str(hub[0]["key"]).startswith("hub-uid_on_two_antennas-")
    assert "As" not in json.dumps(state["alerts"])
    # the card is taken back off seat 1: the alert's cause is gone, it leaves the list
    clock.now += 0.2
    svc.handle_message(*node.read("seat1"))
    clock.now += 2
    rules.tick()
    state = rules.console_state()
    assert [a["code"] for a in open_alerts(state) if a["code"] == DOUBLED_UID_ALERT] == []
    assert not [a for a in open_alerts(state) if "two_readers" in json.dumps(a["text"])]


def test_the_dealer_acknowledges_a_hub_alert_by_its_key() -> None:
    clock = FakeClock()
    svc = hub_service(clock, rules=RulesSettings(players=PLAYERS))
    node = NodeReports()
    rules = svc.rules
    assert rules is not None
    svc.handle_message(*node.read("seat3", "As"))
    svc.handle_message(*node.read("seat4", "As"))
    clock.now += 1
    svc.check_doubled(clock.now)
    key = next(a["key"] for a in open_alerts(rules.console_state()) if a["id"] is None)
    assert isinstance(key, str)
    rules.acknowledge(key)
    listed = [a for a in rules.console_state()["alerts"] if a["key"] == key]
    assert [a["acknowledged"] for a in listed] == [True]
    with pytest.raises(LookupError):
        rules.acknowledge("hub-nothing-1.0")


def test_console_alerts_marks_acknowledged_and_cleared_alerts() -> None:
    doubled = {
        "id": None,
        "t": 2.0,
        "code": DOUBLED_UID_ALERT,
        "seat": 1,
        "readers": ["seat1", "seat4"],
        "text": {"key": "alert.uid_on_two_antennas.hidden.message", "params": {}},
    }
    rules = {"id": 1, "t": 1.0, "code": "missing_burn", "seat": None, "text": {"key": "x"}}
    out = console_alerts([rules, doubled], {1}, set(), {"seat1": ("As", "Kd"), "seat4": ("As",)})
    assert [(a["acknowledged"], a["cleared"], a["seats"]) for a in out] == [
        (True, False, []),
        (False, False, [1, 4]),
    ]
    out = console_alerts([doubled], set(), {"hub-uid_on_two_antennas-2.0"}, {"seat1": ("Kd",)})
    assert [(a["acknowledged"], a["cleared"]) for a in out] == [(True, True)]
