"""The overlay's picture of the table: released frames in, the picture out.

The frames come from the real table service playing real hands in-process (no broker; a
clock the test moves), so the picture is checked against the rules' own chips at every
step; a page that opens late must see exactly what a page open all along saw.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltwire.cards import card_code, card_index
from feltwire.protocol import EquityFrame
from hub.app.feeds import Subscription
from hub.app.live_equity import (
    LiveSpot,
    equity_event,
    final_equity,
    hand_spot,
    presence_spot,
    quick_equity,
)
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.config import PlayerSettings, RulesSettings
from hub.equity import Spot
from hub.rules.hand import Phase
from hub.rules.procedure import Act, ConsoleAction, DeclareMisdeal, ShowHand, UndoAction
from hub.views.frames import frame
from hub.views.overlay_scene import OverlayScene, overlay_picture
from tests.support.clocks import FakeClock
from tests.support.node_reports import Antennas
from tests.support.service import hub_service

ALL_CARDS = [card_code(i) for i in range(52)]


def players_of(buy_ins: dict[int, int]) -> RulesSettings:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=b) for s, b in buy_ins.items()]
    return RulesSettings(players=players)


def seat_players(hub: TableApp) -> TableConsole:
    """Open the table: its players sit down and the first hand starts."""
    hub.open()
    assert hub.rules is not None
    return hub.rules


def table(
    buy_ins: dict[int, int], delay: float = 0
) -> tuple[TableApp, TableConsole, Antennas, FakeClock]:
    clock = FakeClock()
    hub = hub_service(clock, overlay_delay_s=delay, rules=players_of(buy_ins))
    assert hub.rules is not None
    return hub, hub.rules, Antennas(hub, clock, step_per="change"), clock


def drain(sub: Subscription) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def deal(rules: TableConsole, felt: Antennas, cards: list[str]) -> dict[int, list[str]]:
    """Two cards to each seat of the hand, one at a time clockwise."""
    assert rules.desk.setup is not None
    held: dict[int, list[str]] = {s: [] for s in rules.desk.setup.seats}
    it = iter(cards)
    for _ in range(2):
        for seat in rules.desk.setup.seats:
            card = next(it)
            held[seat].append(card)
            felt.put(f"seat{seat}", card)
    return held


def seat_view(picture: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {p["seat"]: p for p in picture["players"]}


def assert_matches_rules(hub: TableApp, rules: TableConsole) -> None:
    """While a betting round is open (or between hands) the overlay's chips are the rules'."""
    picture = seat_view(hub.feeds.overlay_picture)
    for view in rules.desk.players_view():
        p = picture[view["seat"]]
        assert (p["stack"], p["bet"]) == (view["stack"], view["bet"]), view["seat"]
        if rules.in_hand:
            assert (p["folded"], p["all_in"]) == (view["folded"], view["all_in"]), view["seat"]
    assert hub.feeds.overlay_picture["pot"] == rules.public_state()["pot"]


HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


def test_a_raise_a_fold_and_an_uncalled_bet_move_the_chips_as_the_rules_do() -> None:
    hub, rules, felt, _ = table({2: 1000, 5: 1000, 7: 1000})
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    start = hub.feeds.overlay_picture
    assert start["pot"] == 15 and seat_view(start)[bb]["bet"] == 10
    assert [p["name"] for p in start["players"]] == ["P2", "P5", "P7"]
    held = deal(rules, felt, HOLE)
    seats = seat_view(hub.feeds.overlay_picture)
    assert {s: p["cards"] for s, p in seats.items()} == held
    assert seats[button]["acting"]

    rules.console(ConsoleAction(button, Act.RAISE, 0.0, 60))
    picture = hub.feeds.overlay_picture
    me = seat_view(picture)[button]
    assert (me["bet"], me["stack"], picture["pot"]) == (60, 940, 75)
    assert picture["last_action"] == {
        "seat": button,
        "kind": "raise",
        "amount": 60,
        "to": 60,
        "all_in": False,
    }
    assert_matches_rules(hub, rules)
    rules.console(ConsoleAction(sb, Act.FOLD, 0.0))
    assert seat_view(hub.feeds.overlay_picture)[sb]["folded"]
    assert_matches_rules(hub, rules)
    rules.console(ConsoleAction(bb, Act.CALL, 0.0))
    felt.put("burn", "3c")
    for card in ("Ks", "7d", "2c"):
        felt.put("board", card)
    picture = hub.feeds.overlay_picture
    assert picture["board"] == ["Ks", "7d", "2c"]
    assert [p["bet"] for p in picture["players"]] == [0, 0, 0] and picture["pot"] == 125
    assert_matches_rules(hub, rules)
    rules.console(ConsoleAction(bb, Act.CHECK, 0.0))
    rules.console(ConsoleAction(button, Act.BET, 0.0, 100))
    assert hub.feeds.overlay_picture["pot"] == 225
    rules.console(ConsoleAction(bb, Act.FOLD, 0.0))
    # the uncalled 100 went back: the button wins the 125 in the middle, at once
    picture = hub.feeds.overlay_picture
    assert picture["in_hand"] and picture["pot"] == 0
    assert seat_view(picture)[button]["acting"]  # R-SHOW-3: asked to show or muck
    shown, hidden = held[button]
    rules.console(ShowHand(button, 0.0, (card_index(shown),)))  # one card turned up
    picture = hub.feeds.overlay_picture
    me = seat_view(picture)[button]
    assert me["shown"] and me["shown_cards"] == [shown] and me["cards"] == [shown, hidden]
    assert not picture["in_hand"] and picture["pot"] == 0
    assert [a["payouts"] for a in picture["awards"]] == [
        [{"seat": button, "amount": 125, "half": "whole", "hand_name": None}]
    ]
    assert seat_view(picture)[button]["won"] == 125
    assert {p["seat"]: p["stack"] for p in picture["players"]} == {
        s: p.stack for s, p in rules.desk.table.players.items()
    }


def test_an_undo_puts_the_chips_back_and_a_misdeal_voids_the_hand() -> None:
    hub, rules, felt, _ = table({2: 1000, 5: 1000, 7: 1000})
    assert rules.desk.setup is not None
    _sb, bb, button = rules.desk.setup.seats
    deal(rules, felt, HOLE)
    before = hub.feeds.overlay_picture
    rules.console(ConsoleAction(button, Act.RAISE, 0.0, 60))
    step = rules.console(UndoAction(0.0))
    assert step is not None and step.refused is None
    after = hub.feeds.overlay_picture
    assert after["players"] == before["players"] and after["pot"] == before["pot"]
    assert after["last_action"] is None
    rules.console(ConsoleAction(button, Act.CALL, 0.0))
    assert seat_view(hub.feeds.overlay_picture)[button]["bet"] == 10
    rules.console(DeclareMisdeal(0.0))
    picture = hub.feeds.overlay_picture
    assert picture["voided"] and not picture["in_hand"] and picture["pot"] == 0
    assert all(p["stack"] == 1000 and p["bet"] == 0 for p in picture["players"])
    assert seat_view(picture)[bb]["stack"] == 1000


# ---------------------------------------------------------------------- equity


def live(game: str, hands: list[str], board: str = "", seats: tuple[int, ...] = ()) -> LiveSpot:
    spot = Spot.parse(game, hands, board=board)
    return LiveSpot(seats or tuple(range(1, len(hands) + 1)), spot)


def test_equity_comes_quick_then_exact() -> None:
    spot = live("holdem", ["AsAh", "KdKc"])
    quick = equity_event(spot, quick_equity(spot, rng=3))
    exact = equity_event(spot, final_equity(spot))
    assert not quick["exact"] and exact["exact"]
    assert [p["equity"] for p in exact["players"]] == [0.8126, 0.1874]
    assert abs(quick["players"][0]["equity"] - 0.8126) < 0.05
    assert [p["hand_name"] for p in exact["players"]] == [None, None]
    antennas = {"seat1": ("As", "Ah"), "seat2": ("Kd", "Kc")}

    def shown(equity: dict[str, Any]) -> dict[str, Any]:
        scene = OverlayScene(antennas, equity=EquityFrame.model_validate(equity | {"t": 0.0}))
        seat = seat_view(frame(overlay_picture(scene)))[1]["equity"]
        return {k: v for k, v in seat.items() if v is not None or k == "hand_name"}

    assert shown(quick)["exact"] is False
    assert shown(exact) == {
        "equity": 0.8126,
        "win": exact["players"][0]["win"],
        "tie": exact["players"][0]["tie"],
        "hand_name": None,
        "exact": True,
    }


def test_flop_equity_names_the_hands_and_counts_heads_up_outs() -> None:
    spot = live("holdem", ["AsAh", "KdKc"], board="Ks7d2c", seats=(3, 8))
    frame = equity_event(spot, final_equity(spot))
    by_seat = {p["seat"]: p for p in frame["players"]}
    assert by_seat[8]["equity"] > 0.9
    assert by_seat[8]["hand_name"] == "Three of a Kind, Kings"
    assert by_seat[3]["hand_name"] == "Pair of Aces"
    assert sorted(by_seat[3]["outs"]) == ["Ac", "Ad"] and by_seat[8]["outs"] == []
    assert frame["outs"] == {"leader": 8, "stub": 45}
    three_way = equity_event(
        live("holdem", ["AsAh", "KdKc", "QsQh"], board="Ks7d2c"),
        final_equity(live("holdem", ["AsAh", "KdKc", "QsQh"], board="Ks7d2c")),
    )
    assert three_way["outs"] is None and all("outs" not in p for p in three_way["players"])


def test_omaha_hi_lo_equity_splits_high_and_low() -> None:
    spot = live("omaha8", ["AsAh2s3d", "KdKcQd3c"], board="Ks7d4c")
    frame = equity_event(spot, final_equity(spot))
    low_hand, high_hand = frame["players"]
    assert low_hand["low"] > 0.7 and high_hand["low"] == 0.0
    assert high_hand["high"] > 0.8 and frame["low"] == low_hand["low"]
    assert low_hand["hand_name"] == "Pair of Aces; no low"


def test_games_without_live_equity_give_no_spot() -> None:
    snap = {"seat1": ("As", "Ah", "Kd"), "seat2": ("Qs", "Qh", "Jd")}
    assert presence_spot(snap, "7S") is None  # stud
    assert presence_spot(snap, "S") is None  # short deck: no equity module game
    assert presence_spot({"seat1": ("As", "Ah"), "board": ("Kd",)}, "T") is None


def test_the_hand_spot_leaves_folded_seats_out_and_their_cards_dead() -> None:
    c = card_index
    found = hand_spot(
        "O/8",
        hand=2,
        seats=(4, 6, 9),
        hole=[[c(x) for x in h] for h in (("As", "Ah", "2s", "3d"), ("Kd", "Kc", "Qd", "3c"))]
        + [[c("7h"), c("8h"), -1, -1]],
        folded=(False, True, False),
        board=[c("Ks"), c("7d"), c("4c")],
        snapshot={"seat9": ("7h", "8h", "9h", "Th"), "muck": ("Kd", "Kc", "Qd", "3c")},
    )
    assert found is not None and found.seats == (4, 9) and found.hand == 2
    assert found.spot.hand_text(1) == "7h8h9hTh" and found.spot.holes_known
    assert {card_code(x) for x in found.spot.dead} == {"Kd", "Kc", "Qd", "3c"}
    # mid-deal (a seat short of its cards) or a half-dealt flop: nothing yet
    assert (
        hand_spot(
            "T",
            hand=1,
            seats=(1, 2),
            hole=[[c("As")], [c("Kd"), c("Kc")]],
            folded=(False, False),
            board=[],
            snapshot={},
        )
        is None
    )


# ---------------------------------------------------------------------- late pages


def test_a_late_snapshot_is_the_picture_the_live_page_drew_and_never_newer() -> None:
    hub, rules, felt, clock = table({2: 1000, 5: 1000, 7: 1000}, delay=1800)
    assert rules.desk.setup is not None
    button = rules.desk.setup.seats[-1]
    with hub.overlay.subscribe() as ov:
        deal(rules, felt, HOLE)
        rules.console(ConsoleAction(button, Act.RAISE, 0.0, 60))
        assert drain(ov) == []
        text = json.dumps(hub.overlay_snapshot())
        assert "P2" not in text and not [c for c in HOLE if f'"{c}"' in text]
        clock.now += 1800
        assert hub.feeds.release_due() > 0
        frames = drain(ov)
    states = [f["state"] for f in frames if f["type"] == "state"]
    assert states and states[-1] == hub.overlay_snapshot()["state"]
    assert seat_view(states[-1])[button]["bet"] == 60
    # the released picture is the one the table had when the raise was made
    assert seat_view(states[-1])[button]["stack"] == 1000 - 60


Move = tuple[str, float]


@st.composite
def hands(draw: st.DrawFn) -> tuple[dict[int, int], list[str], list[Move]]:
    seats = draw(st.lists(st.integers(1, 10), min_size=2, max_size=6, unique=True))
    buy_ins = {s: draw(st.integers(400, 1000)) for s in sorted(seats)}
    cards = draw(st.permutations(ALL_CARDS))
    moves = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["fold", "check", "call", "raise", "all_in", "undo"]),
                st.floats(0, 1),
            ),
            min_size=40,
            max_size=40,
        )
    )
    return buy_ins, list(cards), moves


def _act(rules: TableConsole, move: Move) -> None:
    assert rules.desk.monitor is not None and rules.desk.setup is not None
    hand = rules.desk.monitor.hand
    seat = rules.desk.setup.seats[hand.actor or 0]
    what, x = move
    legal = hand.legal_actions()
    if what == "undo":
        rules.console(UndoAction(0.0))
    elif what == "raise" and legal.can_bet_or_raise:
        to = legal.min_to + int(x * (legal.max_to - legal.min_to))
        rules.console(ConsoleAction(seat, Act.RAISE if legal.bet_is_raise else Act.BET, 0.0, to))
    elif what == "all_in" and legal.can_bet_or_raise:
        rules.console(ConsoleAction(seat, Act.ALL_IN, 0.0))
    elif what == "fold" and legal.can_call:
        rules.console(ConsoleAction(seat, Act.FOLD, 0.0))
    else:
        act = Act.CALL if legal.can_call else Act.CHECK
        rules.console(ConsoleAction(seat, act, 0.0))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_any_hand_keeps_the_chips_of_the_rules_and_a_late_page_sees_the_same(
    hand_: tuple[dict[int, int], list[str], list[Move]],
) -> None:
    buy_ins, cards, moves = hand_
    clock = FakeClock()
    hub = hub_service(clock, rules=players_of(buy_ins), opened=False)
    felt = Antennas(hub, clock, step_per="change")
    total = sum(buy_ins.values())
    with hub.overlay.subscribe() as ov:
        rules = seat_players(hub)
        assert rules.desk.setup is not None and rules.desk.monitor is not None
        held = deal(rules, felt, cards)
        rest = iter(c for c in cards if not any(c in h for h in held.values()))
        it = iter(moves)
        for _ in range(200):
            if not rules.in_hand:
                break
            hand = rules.desk.monitor.hand
            if hand.phase is Phase.BETTING and hand.actor is not None:
                assert_matches_rules(hub, rules)
                _act(rules, next(it, ("call", 0.0)))
            elif hand.phase is Phase.SHOWDOWN and hand.shower is not None:
                rules.console(ShowHand(rules.desk.setup.seats[hand.shower], 0.0))
            elif (winner := hand.uncalled_winner) is not None:  # R-SHOW-3: one card shown
                rules.console(
                    ShowHand(rules.desk.setup.seats[winner], 0.0, tuple(hand.hole[winner][:1]))
                )
            else:
                felt.put("burn", next(rest))
                for _ in range(3 if not hand.board else 1):
                    felt.put("board", next(rest))
            state = hub.feeds.overlay_picture
            assert sum(p["stack"] for p in state["players"]) + state["pot"] == total
        assert not rules.in_hand
        frames = drain(ov)
    assert_matches_rules(hub, rules)
    # every picture the live page got keeps the table's chips, and a page opening at the
    # end gets the last of them
    pictures = [f["state"] for f in frames if f["type"] == "state"]
    for picture in pictures:
        assert sum(p["stack"] for p in picture["players"]) + picture["pot"] == total
    assert pictures and pictures[-1] == hub.overlay_snapshot()["state"]
