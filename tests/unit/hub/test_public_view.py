"""The public view's projections (issue 17): the board in the order it was dealt — in
``/api/public``'s snapshot and on the feed — a security alert only as the floor notice
on the public side, and each pot's result with the winner's name and hand. No broker:
reads go straight into the table app."""

from __future__ import annotations

import json
from typing import Any

from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.rules.hand import Phase
from hub.rules.procedure import Act, ConsoleAction, ShowHand
from hub.views.alerts import doubled_tag_alert, unknown_tag_alert
from hub.views.public import public_frame, public_snapshot
from tests.support.node_reports import Antennas
from tests.unit.hub.test_table_service import deal, drain, make

BOARD = ["Ts", "9s", "2h", "Ks", "8h"]
"""Dealt in this order (the issue's board, with the king of spades: the clubs' is a hole
card of :data:`tests.unit.hub.test_table_service.HOLE`); by rank it is K T 9 8 2."""
BURNS = ["3d", "4d", "5d"]


def _call_round(rules: TableConsole) -> None:
    """Everyone calls or checks until the betting round ends."""
    monitor = rules.desk.monitor
    assert monitor is not None and rules.desk.setup is not None
    hand = monitor.hand
    while hand.phase is Phase.BETTING:
        assert hand.actor is not None
        seat = rules.desk.setup.seats[hand.actor]
        la = hand.legal_actions()
        act = Act.CALL if la.can_call and la.call_amount else Act.CHECK
        step = rules.console(ConsoleAction(seat, act, 0.0))
        assert step is not None and step.refused is None, step


def _to_the_river(rules: TableConsole, table: Antennas) -> None:
    """Deal, call every round, and lay the board one card at a time (a burn before each
    street)."""
    deal(rules, table)
    _call_round(rules)
    for burn, cards in zip(BURNS, (BOARD[:3], BOARD[3:4], BOARD[4:]), strict=True):
        table.put("burn", burn)
        for card in cards:
            table.put("board", card)
        _call_round(rules)


def _board(snapshot: dict[str, Any]) -> list[str]:
    (board,) = [a for a in snapshot["antennas"] if a["reader"] == "board"]
    cards: list[str] = board["cards"]
    return cards


def test_the_public_board_is_in_the_order_it_was_dealt() -> None:
    hub, rules, table = make()
    with hub.public.subscribe() as pub:
        _to_the_river(rules, table)
        frames = drain(pub)
    snap = public_snapshot(hub.public_snapshot())
    assert _board(snap) == BOARD  # not K T 9 8 2, by rank
    assert snap["rules"]["board"] == BOARD
    last = [f for f in frames if f["type"] == "antenna" and f["reader"] == "board"][-1]
    assert last["cards"] == BOARD


def _showdown(hub: TableApp, rules: TableConsole, table: Antennas) -> None:
    _to_the_river(rules, table)
    monitor = rules.desk.monitor
    assert monitor is not None and rules.desk.setup is not None
    while monitor.hand.phase is Phase.SHOWDOWN:
        shower = monitor.hand.shower
        assert shower is not None
        rules.console(ShowHand(rules.desk.setup.seats[shower], 0.0))


def test_a_pot_result_names_the_winner_and_the_hand() -> None:
    hub, rules, table = make()
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats  # As Ah, Kd Kc, 7c 2d: the kings make three of a kind
    _showdown(hub, rules, table)
    results = public_snapshot(hub.public_snapshot())["rules"]["results"]
    assert [(r["pot"], r["amount"], r["uncontested"]) for r in results] == [(0, 30, False)]
    (share,) = results[0]["shares"]
    assert share["seat"] == seats[1] and share["name"] == f"P{seats[1]}"
    assert share["message"] == f"P{seats[1]} wins 30 with three of a kind"
    assert results[0]["pot_name"] == {"key": "award.pot.main", "params": {}}


def test_the_public_side_never_gets_a_security_alert_only_the_floor_notice() -> None:
    doubled = doubled_tag_alert("Ks", ["seat2", "seat5"], 3.0) | {"hand": 4}
    unknown = unknown_tag_alert("seat7", 1, 4.0) | {"hand": 4}
    rules_alert = {"type": "alert", "code": "missing_burn", "hand": 4, "t": 5.0, "seat": None}
    snap = {"type": "snapshot", "rules": {"hand": 4, "alerts": [doubled, unknown, rules_alert]}}
    shown = public_snapshot(snap)["rules"]["alerts"]
    assert [a["code"] for a in shown] == ["floor_called", "floor_called", "missing_burn"]
    text = json.dumps(shown[:2])
    for secret in ("seat", "spoofed", "cloned", "Ks", "tag"):
        assert secret not in text.replace('"seat": null', "")
    notice = public_frame(doubled)
    assert notice["message"] == "the floor has been called to the table"
    assert notice["hand"] == 4 and notice["seat"] is None and "readers" not in notice
    assert public_frame(rules_alert) is rules_alert
    assert public_frame({"type": "turn", "acting": 2}) == {"type": "turn", "acting": 2}
