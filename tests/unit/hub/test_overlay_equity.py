"""The overlay's equity uses only what the audience could know, and agrees with the result.

Real hands at the real table service (no broker, a clock the test moves): the same hole
cards and board with different burn cards give the same figures (a burn is never shown,
so it is no dead card); with a short stack all in, each seat's equity is its share of the
main and side pots, and once the pots are awarded the overlay shows each seat's share of
the chips it won — never 0 % beside a side pot won.
"""

from __future__ import annotations

from typing import Any

from feltwire.protocol import EquityFrame
from hub.app.live_equity import equity_event, final_equity, quick_equity
from hub.app.table_app import TableApp
from hub.rules.procedure import Act, ConsoleAction, ShowHand
from hub.views.frames import frame
from hub.views.overlay_scene import overlay_picture
from tests.unit.hub.test_overlay_state import table

HANDS = {2: ("As", "Ah"), 5: ("Ks", "Kh"), 7: ("Qs", "Qh")}
"""Seat 2 (the short stack) has the best hand, seat 5 the second best."""
BOARD = (["2c", "7d", "9h"], ["3s"], ["4c"])


def equities(hub: TableApp, quick: bool = False) -> dict[int, float]:
    live = hub.equity_spot()
    assert live is not None
    result = quick_equity(live) if quick else final_equity(live)
    return {p["seat"]: p["equity"] for p in equity_event(live, result)["players"]}


def all_in_hand(buy_ins: dict[int, int], burns: tuple[str, str, str]) -> tuple[Any, ...]:
    """Three players all in before the flop; the figures after each street (burn, cards)."""
    hub, rules, felt, clock = table(buy_ins)
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats
    for i in range(2):
        for seat in seats:
            felt.put(f"seat{seat}", HANDS[seat][i])
    for seat in (seats[2], seats[0], seats[1]):  # the button first, three-handed
        rules.console(ConsoleAction(seat, Act.ALL_IN, clock.now))
    figures = []
    for burn, cards in zip(burns, BOARD, strict=True):
        felt.put("burn", burn)
        for card in cards:
            felt.put("board", card)
        figures.append(equities(hub))
    return hub, rules, clock, figures


def test_equity_never_changes_with_the_burn_cards() -> None:
    # a king burnt takes an out of seat 5's; the audience never sees it: no difference
    _, _, _, with_outs_burnt = all_in_hand({2: 1000, 5: 1000, 7: 1000}, ("Kd", "Qd", "Kc"))
    _, _, _, with_blanks_burnt = all_in_hand({2: 1000, 5: 1000, 7: 1000}, ("8c", "Jd", "Tc"))
    assert with_outs_burnt == with_blanks_burnt
    # the figures are those of the spot without any burn: seat 5 hits a king 2 in 42 on
    # the river (one pot, all three contest it)
    turn = with_blanks_burnt[1]
    assert turn[5] == round(2 / 42, 4)


def test_at_showdown_equity_is_each_seats_share_of_the_pots_won() -> None:
    # seat 2 is all in short: a main pot of 1200 (seat 2 wins it) and a side pot of 1200
    # between seats 5 and 7 (seat 5 wins it)
    hub, rules, clock, figures = all_in_hand({2: 400, 5: 1000, 7: 1000}, ("3d", "5d", "6d"))
    river = figures[-1]
    assert river == {2: 0.5, 5: 0.5, 7: 0.0}
    # on the turn the side pot counts too: seat 5 takes it unless a queen comes
    assert figures[1][5] > 0.45 and figures[1][2] < 0.5
    live = hub.equity_spot()
    assert live is not None
    last = EquityFrame.model_validate(equity_event(live, final_equity(live)) | {"t": clock.now})
    assert rules.desk.setup is not None
    for seat in rules.desk.setup.seats:
        rules.console(ShowHand(seat, clock.now))
    assert not rules.in_hand
    picture = frame(overlay_picture(rules.desk.overlay_scene({}, last, 0.0)))
    shown = {p["seat"]: (p["won"], p["equity"]["equity"]) for p in picture["players"]}
    assert shown == {2: (1200, 0.5), 5: (1200, 0.5), 7: (0, 0.0)}
    assert [(a["pot"], a["amount"]) for a in picture["awards"]] == [(0, 1200), (1, 1200)]
    # each pot names its winner's hand
    named = [[(p["seat"], p["hand_name"]) for p in a["payouts"]] for a in picture["awards"]]
    assert named == [[(2, "Pair of Aces")], [(5, "Pair of Kings")]]


def test_an_equity_frame_of_the_turn_agrees_with_the_result_once_the_pots_are_awarded() -> None:
    # the overlay still holds the turn's figures when the hand ends: the award settles them
    _, rules, clock, _ = all_in_hand({2: 400, 5: 1000, 7: 1000}, ("3d", "5d", "6d"))
    turn = {
        "type": "equity",
        "hand": rules.desk.hand_number,
        "exact": True,
        "error": 0.0,
        "low": None,
        "board": ["2c", "7d", "9h", "3s"],
        "outs": None,
        "players": [
            {"reader": f"seat{s}", "seat": s, "equity": e, "win": e, "tie": 0.0, "hand_name": None}
            for s, e in ((2, 0.4545), (5, 0.5), (7, 0.0455))
        ],
        "t": clock.now,
    }
    assert rules.desk.setup is not None
    for seat in rules.desk.setup.seats:
        rules.console(ShowHand(seat, clock.now))
    picture = frame(
        overlay_picture(rules.desk.overlay_scene({}, EquityFrame.model_validate(turn), 0.0))
    )
    equity = {p["seat"]: p["equity"] for p in picture["players"]}
    assert {s: e["equity"] for s, e in equity.items()} == {2: 0.5, 5: 0.5, 7: 0.0}
    assert all(e["exact"] for e in equity.values())


def test_a_bet_not_yet_called_leaves_every_seat_its_equity() -> None:
    # mid-round nobody is all in: one pot, and the seats yet to act are in it
    hub, rules, felt, clock = table({2: 1000, 5: 1000, 7: 1000})
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats
    for i in range(2):
        for seat in seats:
            felt.put(f"seat{seat}", HANDS[seat][i])
    rules.console(ConsoleAction(seats[2], Act.RAISE, clock.now, 60))
    live = hub.equity_spot()
    assert live is not None and live.pots == ()
    figures = equities(hub)
    assert all(e > 0.1 for e in figures.values()) and abs(sum(figures.values()) - 1) < 0.01
