"""The dealer console's view and inputs, through the hub service and the table service
(no broker, a clock the test moves): legal actions with the engine's amounts, undo,
misdeal, seats and alert acknowledgements through the event log — and never a hole card
before showdown."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from feltwire.cards import FULL_DECK, card_index
from feltwire.text import Text
from hub.adapters.eventlog.store import EventLog
from hub.app.codec import decode_table
from hub.app.feeds import Subscription
from hub.app.records import AckAlert, InputKind, SeatCommand, SeatOp
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.config import PlayerSettings, RulesSettings
from hub.rules import procedure
from hub.rules.errors import RulesError
from hub.rules.games import Structure
from hub.rules.hand import Phase
from hub.rules.procedure import Act
from tests.support.clocks import FakeClock
from tests.support.node_reports import Antennas
from tests.support.service import hub_service

HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


def make(
    seats: tuple[int, ...] = (2, 5, 7),
    *,
    game: str = "NT",
    log: EventLog | None = None,
    clock: FakeClock | None = None,
    buy_in: int = 1000,
    **hub_options: Any,
) -> tuple[TableApp, TableConsole, Antennas]:
    clock = clock or FakeClock()
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=buy_in) for s in seats]
    settings = RulesSettings(players=players)
    hub = hub_service(clock, log=log, rules=settings, game=game, **hub_options)
    rules = hub.rules
    assert rules is not None
    return hub, rules, Antennas(hub, clock)


def deal(
    rules: TableConsole, table: Antennas, cards: list[str] | None = None, rounds: int = 2
) -> dict[int, list[str]]:
    """``rounds`` cards to each seat of the hand, one at a time clockwise."""
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats
    held: dict[int, list[str]] = {s: [] for s in seats}
    it = iter(cards or HOLE)
    for _ in range(rounds):
        for seat in seats:
            card = next(it)
            held[seat].append(card)
            table.put(f"seat{seat}", card)
    return held


def drain(sub: Subscription) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def named(data: object, cards: list[str] | set[str]) -> list[str]:
    """The cards of ``cards`` that ``data`` (as JSON) names."""
    text = json.dumps(data)
    return sorted(c for c in cards if f'"{c}"' in text)


def act(rules: TableConsole, seat: int, what: Act, to: int = 0) -> None:
    step = rules.console(procedure.ConsoleAction(seat, what, 0.0, to))
    assert step is not None and step.refused is None, step


# ------------------------------------------------------------------ the view


def test_the_state_names_the_hand_whose_turn_and_the_engines_legal_actions() -> None:
    _hub, rules, table = make()
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    state = rules.console_state()
    assert state["type"] == "console" and state["hand"] == 1 and state["in_hand"]
    assert state["phase"] == "dealing" and state["legal"] is None and state["acting"] is None
    assert (state["button"], state["small_blind"], state["big_blind"]) == (button, sb, bb)
    assert state["pot"] == 15 and state["game"] == "NT" and state["structure"] == "no limit"
    deal(rules, table)
    state = rules.console_state()
    assert state["acting"] == button and state["street"] == "pre-flop"
    # the button faces the big blind: fold, call 10, raise to 20 … 1000, all in for 1000
    assert state["legal"] == {
        "seat": button,
        "fold": True,
        "check": False,
        "call": 10,
        "bring_in": None,
        "bet": {"act": "raise", "min_to": 20, "max_to": 1000, "fixed": False},
        "all_in": {"to": 1000, "amount": 1000},
        "bet_now": 0,
        "stack": 1000,
    }
    act(rules, button, Act.RAISE, 30)
    legal = rules.console_state()["legal"]
    assert legal["seat"] == sb and legal["call"] == 25
    assert (legal["bet"]["min_to"], legal["bet"]["max_to"]) == (50, 1000)
    act(rules, sb, Act.CALL)
    act(rules, bb, Act.CALL)
    table.put("burn", "3h")
    for card in ("Qs", "Jh", "4c"):
        table.put("board", card)
    state = rules.console_state()
    assert state["board"] == ["Qs", "Jh", "4c"] and state["pot"] == 90
    legal = state["legal"]
    assert legal["seat"] == sb and legal["check"] and legal["call"] is None
    assert legal["bet"] == {"act": "bet", "min_to": 10, "max_to": 970, "fixed": False}
    assert [p["bet"] for p in state["players"]] == [0, 0, 0]
    assert named(state, [*HOLE, "3h"]) == []  # no hole card, no burn card


def test_fixed_limit_offers_the_one_size_and_pot_limit_caps_at_the_pot() -> None:
    _hub, rules, table = make(game="FT")
    assert rules.desk.setup is not None
    deal(rules, table)
    bet = rules.console_state()["legal"]["bet"]
    assert bet == {"act": "raise", "min_to": 20, "max_to": 20, "fixed": True, "amounts": [20]}
    assert rules.console_state()["legal"]["all_in"] is None  # not a fixed-limit size
    _hub, rules, table = make(game="PO")
    omaha = ["As", "Kd", "7c", "Ah", "Kc", "2d", "Qs", "Qd", "3c", "3d", "9s", "9d"]
    deal(rules, table, omaha, rounds=4)
    hand = rules.desk.monitor.hand if rules.desk.monitor else None
    assert hand is not None and hand.game.structure is Structure.POT_LIMIT
    bet = rules.console_state()["legal"]["bet"]
    # pot limit: the pot (15) plus the call (10) on top of the bet to call (10) = 35
    assert (bet["min_to"], bet["max_to"], bet["fixed"]) == (20, 35, False)


def test_showdown_offers_show_and_muck_and_only_shown_hands_name_their_cards() -> None:
    _hub, rules, table = make()
    assert rules.desk.setup is not None and rules.desk.monitor is not None
    held = deal(rules, table)
    burns, board = iter(["5h", "6h", "8h"]), iter(["Qs", "Jh", "3c", "9d", "4s"])
    for n_cards in (3, 1, 1):
        while (legal := rules.console_state()["legal"]) is not None:
            act(rules, legal["seat"], Act.CALL if legal["call"] is not None else Act.CHECK)
        assert named(rules.console_state(), HOLE) == []
        table.put("burn", next(burns))
        for _ in range(n_cards):
            table.put("board", next(board))
    while (legal := rules.console_state()["legal"]) is not None:
        act(rules, legal["seat"], Act.CHECK)
    state = rules.console_state()
    assert state["phase"] == "showdown" and state["showdown"] is not None
    first = state["showdown"]["next"]
    assert state["acting"] == first
    # R-SHOW-1/4: the seat asked first may muck; every hand may be tabled at any moment
    assert sorted(state["showdown"]["show"]) == sorted(rules.desk.setup.seats)
    assert state["showdown"]["muck"] == [first]
    assert named(state, HOLE) == []
    step = rules.console(procedure.ShowHand(first, 0.0))
    assert step is not None and step.refused is None
    state = rules.console_state()
    assert state["shown"] == [{"seat": first, "cards": held[first], "whole": True}]
    others = [c for s, cards in held.items() if s != first for c in cards]
    assert named(state, others) == []  # the others' cards stay unnamed
    nxt = state["showdown"]["next"]
    assert nxt in state["showdown"]["muck"]
    step = rules.console(procedure.MuckHand(nxt, 0.0))
    assert step is not None and step.refused is None
    while (sd := rules.console_state()["showdown"]) is not None:
        rules.console(
            procedure.MuckHand(sd["next"], 0.0)
            if sd["next"] in sd["muck"]
            else procedure.ShowHand(sd["next"], 0.0)
        )
    state = rules.console_state()
    assert not state["in_hand"] and state["last_hand"]["hand"] == 1
    awards = state["last_hand"]["awards"]
    assert awards and awards[0]["payouts"] and awards[0]["message"].startswith("main pot")
    assert awards[0]["text"]["key"] == "award.line.plain"
    assert sum(p["amount"] for a in awards for p in a["payouts"]) == 30
    assert named(state, held[nxt]) == []  # a mucked hand is never named


def _blinds_fold_to_the_buttons_raise(
    rules: TableConsole, table: Antennas
) -> tuple[tuple[int, int, int], dict[int, list[str]]]:
    """Deal; the button raises to 30 and both blinds fold. The seats (small blind, big
    blind, button) and the hole cards dealt."""
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    held = deal(rules, table)
    act(rules, button, Act.RAISE, 30)
    act(rules, sb, Act.FOLD)
    act(rules, bb, Act.FOLD)
    return (sb, bb, button), held


def test_uncalled_winner_is_asked_to_show_and_the_hand_survives_a_restart() -> None:
    """R-SHOW-3 at the console (NL 5/10, seats 2, 5, 7; the button, seat 7, acts first):
    the button raises to 30 and both blinds fold. The 25 is the button's at once; the hand
    stays open with the button asked to show or muck (undo and misdeal are over). A hub
    restarted from its event log is at the same point; the button shows its 7c alone."""
    log = EventLog.memory("t1")
    clock = FakeClock()
    _hub, rules, table = make(log=log, clock=clock)
    (sb, bb, button), held = _blinds_fold_to_the_buttons_raise(rules, table)
    state = rules.console_state()
    assert state["in_hand"] and state["phase"] == "complete" and state["acting"] == button
    assert state["showdown"]["uncalled"] and state["showdown"]["show"] == [button]
    assert {p["seat"]: p["stack"] for p in state["players"]} == {sb: 995, bb: 990, button: 1015}
    for refused in (
        procedure.UndoAction(0.0),
        procedure.DeclareMisdeal(0.0),
        procedure.ConsoleAction(sb, Act.CHECK, 0.0),
    ):
        step = rules.console(refused)
        assert step is not None and step.refused == Text("refusal.console.pot_awarded")
    again, rules2, _ = make(log=log, clock=clock)
    again.replay()
    assert rules2.console_state()["showdown"] == state["showdown"]
    seven, _deuce = held[button]
    step = rules2.console(procedure.ShowHand(button, 0.0, (card_index(seven),)))
    assert step is not None and step.refused is None
    after = rules2.console_state()
    assert not after["in_hand"] and after["shown"] == [
        {"seat": button, "cards": [seven], "whole": False}
    ]
    assert seven == "7c" and named(after, set(HOLE) - {seven}) == []
    assert rules2.desk.table.players[button].stack == 1015


def test_uncalled_winner_saying_nothing_mucks_when_the_table_is_cleared() -> None:
    """R-SHOW-3: after the blinds fold to the button's raise, nobody enters anything: the
    dealer clears the table, the hand closes with the button's cards unseen, and hand 2
    starts."""
    hub, rules, table = make()
    (_sb, _bb, button), held = _blinds_fold_to_the_buttons_raise(rules, table)
    assert rules.in_hand and rules.desk.hands_finished == 0
    with hub.public.subscribe() as pub:
        table.clear()
        frames = drain(pub)
    assert rules.desk.hands_finished == 1 and rules.desk.setup.number == 2 and rules.in_hand
    ends = [f for f in frames if f["type"] == "hand_end"]
    assert len(ends) == 1 and [a["message"] for a in ends[0]["awards"]] == [
        f"main pot 25: seat {button} takes 25"
    ]
    assert not [f for f in frames if f.get("event") == "HandShown"]
    assert named(frames, held[button]) == []


# ------------------------------------------------------------------ undo and misdeal


def test_undo_takes_back_the_last_action() -> None:
    _hub, rules, table = make()
    assert rules.desk.setup is not None
    _sb, _bb, button = rules.desk.setup.seats
    deal(rules, table)
    before = rules.console_state()
    assert not before["can_undo"]
    act(rules, button, Act.RAISE, 40)
    assert rules.console_state()["pot"] == 55 and rules.console_state()["can_undo"]
    step = rules.console(procedure.UndoAction(0.0))
    assert step is not None and step.refused is None
    after = rules.console_state()
    for key in ("acting", "legal", "pot", "players"):
        assert after[key] == before[key], key
    step = rules.console(procedure.UndoAction(0.0))
    assert step is not None and step.refused == Text("refusal.console.nothing_to_undo")


def test_a_misdeal_restores_the_stacks_of_before_the_hand() -> None:
    _hub, rules, table = make()
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    stacks = dict(zip(rules.desk.setup.seats, rules.desk.setup.starting_stacks, strict=True))
    assert {p["seat"]: p["stack"] for p in rules.console_state()["players"]}[bb] == 990
    deal(rules, table)
    act(rules, button, Act.RAISE, 40)
    act(rules, sb, Act.CALL)
    assert {p["seat"]: p["stack"] for p in rules.console_state()["players"]}[sb] == 960
    assert rules.console_state()["can_misdeal"]
    step = rules.console(procedure.DeclareMisdeal(0.0))
    assert step is not None and step.refused is None
    state = rules.console_state()
    assert not state["in_hand"] and state["last_hand"] == {
        "hand": 1,
        "voided": True,
        "awards": [],
        "top_ups": [],
    }
    assert {p["seat"]: p["stack"] for p in state["players"]} == stacks
    assert [p["bet"] for p in state["players"]] == [0, 0, 0]
    assert not state["can_undo"] and not state["can_misdeal"] and state["legal"] is None
    table.clear()
    assert rules.console_state()["button"] == button and rules.console_state()["hand"] == 2


def test_a_manual_face_down_card_counts_without_being_named() -> None:
    _hub, rules, table = make()
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats
    cards = iter(HOLE)
    for _ in range(2):
        for seat in seats:
            if seat == seats[1] and table.on.get(f"seat{seat}"):
                unread = procedure.ManualCard(f"seat{seat}", None, 0.0)  # will not read
                step = rules.console(unread)
                assert step is not None and step.refused is None
                next(cards)
            else:
                table.put(f"seat{seat}", next(cards))
    state = rules.console_state()
    assert state["acting"] == seats[2] and state["legal"] is not None


# ------------------------------------------------------------------ seats and alerts


def test_seat_commands_follow_the_table_rules_and_are_logged() -> None:
    log = EventLog.memory("t1")
    clock = FakeClock()
    hub, rules, table = make(log=log, clock=clock, buy_in=800)
    with pytest.raises(RulesError, match="R-BUY-2"):  # NL 5/10: 400 … 1000
        rules.table_command(SeatCommand(SeatOp.SIT, 9, name="Bo", amount=300))
    with pytest.raises(RulesError, match="R-POS-1"):
        rules.table_command(SeatCommand(SeatOp.SIT, 2, name="Bo", amount=500))
    with hub.public.subscribe() as pub:
        rules.table_command(SeatCommand(SeatOp.SIT, 9, name="Bo", amount=500, wait=True))
        frames = drain(pub)
    assert [f["type"] for f in frames] == ["seats"] and frames[0]["seat"] == 9
    bo = next(p for p in rules.console_state()["players"] if p["seat"] == 9)
    assert bo["name"] == "Bo" and bo["stack"] == 500 and bo["waiting"] and not bo["in_hand"]
    assert bo["top_up"] == {"min": 1, "max": 500, "rule": "R-BUY-4"} and bo["can_top_up"]
    assert 9 not in rules.console_state()["seating"]["empty"]
    with pytest.raises(RulesError, match="R-BUY-4"):
        rules.table_command(SeatCommand(SeatOp.TOP_UP, 9, amount=600))
    rules.table_command(SeatCommand(SeatOp.TOP_UP, 9, amount=100))
    seat2 = rules.console_state()["players"][0]
    assert seat2["seat"] == 2 and seat2["in_hand"] and not seat2["can_leave"]
    with pytest.raises(RulesError, match="R-BUY-5"):  # dealt in: leave after the hand
        rules.table_command(SeatCommand(SeatOp.LEAVE, 2))
    assert seat2["top_up"]["max"] == 200
    with pytest.raises(RulesError, match="R-BUY-4"):
        rules.table_command(SeatCommand(SeatOp.TOP_UP, 2, amount=201))
    rules.table_command(SeatCommand(SeatOp.TOP_UP, 2, amount=200))
    assert rules.console_state()["players"][0]["pending"] == 200  # plays from the next hand
    rules.table_command(SeatCommand(SeatOp.SIT_OUT, 9))
    with pytest.raises(RulesError, match="R-BLIND-4"):
        rules.table_command(SeatCommand(SeatOp.SIT_OUT, 9))
    rules.table_command(SeatCommand(SeatOp.COME_BACK, 9))
    rules.table_command(SeatCommand(SeatOp.LEAVE, 9))
    assert 9 in rules.console_state()["seating"]["empty"]
    tables = [r.payload for r in log.records() if r.kind is InputKind.TABLE]
    assert tables[0]["command"] == "open"
    logged = [decode_table(payload) for payload in tables[1:]]
    assert [c.op for c in logged if isinstance(c, SeatCommand)] == [
        SeatOp.SIT,
        SeatOp.TOP_UP,
        SeatOp.TOP_UP,
        SeatOp.SIT_OUT,
        SeatOp.COME_BACK,
        SeatOp.LEAVE,
    ]
    # a restarted hub replays them: the same players, stacks and pending chips
    again, rules2, _ = make(log=log, clock=clock, buy_in=800)
    again.replay()
    assert rules2.console_state()["players"] == rules.console_state()["players"]
    assert again.counters.get("replay_failed", 0) == 0
    del table


def test_alerts_carry_an_id_and_an_acknowledgement_survives_a_restart() -> None:
    log = EventLog.memory("t1")
    clock = FakeClock()
    hub, rules, table = make(log=log, clock=clock)
    assert rules.desk.setup is not None
    sb, _bb, _button = rules.desk.setup.seats
    deal(rules, table)
    rules.console(procedure.ConsoleAction(sb, Act.CALL, 0.0))  # out of turn
    rules.console(procedure.ConsoleAction(sb, Act.FOLD, 0.0))  # again
    alerts = rules.console_state()["alerts"]
    assert [(a["id"], a["code"], a["acknowledged"]) for a in alerts] == [
        (1, "action_out_of_turn", False),
        (2, "action_out_of_turn", False),
    ]
    with hub.public.subscribe() as pub:
        rules.table_command(AckAlert(1))
        rules.table_command(AckAlert(1))  # twice: nothing new
        assert drain(pub) == [{"type": "alert_ack", "id": 1, "t": clock.now}]
    with pytest.raises(LookupError):
        rules.table_command(AckAlert(3))
    assert [a["acknowledged"] for a in rules.console_state()["alerts"]] == [True, False]
    assert sum(1 for r in log.records() if r.payload.get("command") == "ack_alert") == 1
    again, rules2, _ = make(log=log, clock=clock)
    again.replay()
    assert rules2.console_state()["alerts"] == rules.console_state()["alerts"]


@pytest.mark.parametrize(("delay", "warned"), [(0, True), (1800, False)])
def test_live_hole_cards_are_flagged(delay: float, warned: bool) -> None:
    _hub, rules, _table = make(overlay_delay_s=delay)
    assert rules.console_state()["live_hole_cards"] is warned


# ------------------------------------------------------------------ any hand


def _check_legal(rules: TableConsole, legal: dict[str, Any]) -> None:
    """What the console offers is the engine's: each offered input is accepted, the
    amounts just outside the offered range are refused."""
    assert rules.desk.monitor is not None and rules.desk.setup is not None
    hand = rules.desk.monitor.hand
    la = hand.legal_actions()
    h = la.seat
    assert legal["seat"] == rules.desk.setup.seats[h]
    assert legal["fold"] == hand.can_fold(h) and legal["check"] == hand.can_check(h)
    assert (legal["call"] is not None) == hand.can_call(h)
    if legal["call"] is not None:
        assert legal["call"] == la.call_amount
    assert (legal["all_in"] is not None) == hand.can_all_in(h)
    bet = legal["bet"]
    assert (bet is not None) == la.can_bet_or_raise
    if bet is None:
        return
    assert (bet["min_to"], bet["max_to"]) == (la.min_to, la.max_to)
    for to in bet.get("amounts") or (bet["min_to"], bet["max_to"]):
        assert hand.can_bet_or_raise_to(to, h), to
    if not bet["fixed"]:
        assert not hand.can_bet_or_raise_to(bet["min_to"] - 1, h)
        assert not hand.can_bet_or_raise_to(bet["max_to"] + 1, h)


GAMES = {"NT": 2, "PO": 4, "FT": 2}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    seats=st.lists(st.integers(1, 10), min_size=2, max_size=6, unique=True),
    shuffle=st.randoms(use_true_random=False),
    data=st.data(),
)
def test_any_hand_the_console_offers_only_legal_inputs_and_names_no_hole_card(
    game: str, seats: list[int], shuffle: random.Random, data: st.DataObject
) -> None:
    hub, rules, table = make(tuple(sorted(seats)), game=game)
    assert rules.desk.setup is not None and rules.desk.monitor is not None
    cards = iter(shuffle.sample(FULL_DECK, len(FULL_DECK)))
    held: dict[int, list[str]] = {s: [] for s in rules.desk.setup.seats}
    with hub.public.subscribe() as pub:
        for _ in range(GAMES[game]):
            for seat in rules.desk.setup.seats:
                held[seat].append(card := next(cards))
                table.put(f"seat{seat}", card)
        hole = {c for cs in held.values() for c in cs}
        for _ in range(300):
            state = rules.console_state()
            hand = rules.desk.monitor.hand
            if hand.phase in (Phase.SHOWDOWN, Phase.COMPLETE):
                shown = {c for s in state["shown"] for c in s["cards"]}
                assert named(state, hole - shown) == []  # a card kept face down stays hidden
            else:
                assert named(state, hole) == [], hand.phase
            if not state["in_hand"]:
                event(f"{game}: the hand ended on {hand.street.name}, {len(state['shown'])} shown")
                break
            if (legal := state["legal"]) is not None:
                _check_legal(rules, legal)
                options: list[tuple[Act, int]] = []
                if legal["fold"]:
                    options.append((Act.FOLD, 0))
                if legal["check"]:
                    options.append((Act.CHECK, 0))
                if legal["call"] is not None:
                    options.append((Act.CALL, 0))
                if legal["all_in"] is not None:
                    options.append((Act.ALL_IN, 0))
                if (bet := legal["bet"]) is not None:
                    amounts = bet.get("amounts") or [bet["min_to"], bet["max_to"]]
                    if not bet["fixed"]:
                        amounts.append(data.draw(st.integers(bet["min_to"], bet["max_to"])))
                    options += [(Act(bet["act"]), to) for to in amounts]
                if len(options) > 1 and data.draw(st.integers(0, 4)):
                    options = [o for o in options if o[0] is not Act.FOLD]  # play on, mostly
                what, to = data.draw(st.sampled_from(options))
                act(rules, legal["seat"], what, to)
            elif (sd := state["showdown"]) is not None:
                nxt = sd["next"]
                choices: list[procedure.ShowHand | procedure.MuckHand] = []
                choices += [procedure.ShowHand(nxt, 0.0)] if nxt in sd["show"] else []
                choices += [procedure.MuckHand(nxt, 0.0)] if nxt in sd["muck"] else []
                if sd["part"]:  # R-SHOW-3: the uncalled winner shows one card
                    choices.append(procedure.ShowHand(nxt, 0.0, (card_index(held[nxt][-1]),)))
                step = rules.console(data.draw(st.sampled_from(choices)))
                assert step is not None and step.refused is None, step
            else:
                expected = hand.expected()
                assert expected, hand.phase
                kind = expected[0].kind.value
                table.put("burn" if kind == "burn" else "board", next(cards))
        else:
            pytest.fail("the hand did not end")
        frames = drain(pub)
    # what the console's WebSocket forwards besides its state: the public feed
    assert named(frames, hole) == []
