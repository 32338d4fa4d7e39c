"""The table service: reads and console inputs in; alerts, lights, actions and pot awards
out — and never a hole card on the public feed. No broker: messages go straight into
:meth:`TableApp.handle_message`, with a clock the test moves."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import pytest

from feltwire.cards import card_index
from feltwire.config import parse_config
from feltwire.protocol import LightPattern, alerts_topic
from feltwire.text import Seat, Text
from hub.app.feeds import Subscription
from hub.app.records import SeatCommand, SeatOp
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.config import HubConfig, PlayerSettings, RulesSettings, table_config
from hub.messages import render
from hub.rules.errors import RulesError
from hub.rules.hand import Phase
from hub.rules.procedure import Act, ConsoleAction, DeclareMisdeal, ShowHand
from hub.rules.table import Table
from tests.support.clocks import FakeClock
from tests.support.node_reports import Antennas
from tests.support.service import hub_service


def make(seats: tuple[int, ...] = (2, 5, 7)) -> tuple[TableApp, TableConsole, Antennas]:
    clock = FakeClock()
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in seats]
    hub = hub_service(clock, rules=RulesSettings(players=players))
    rules = hub.rules
    assert rules is not None
    return hub, rules, Antennas(hub, clock, step_per="change")


def drain(sub: Subscription) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def sent(hub: TableApp) -> list[tuple[str, bytes, bool]]:
    out = []
    while not hub.outgoing.empty():
        out.append(hub.outgoing.get_nowait())
    return out


HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


def deal(rules: TableConsole, table: Antennas) -> dict[int, list[str]]:
    """Deal two cards to each seat of the hand, one at a time clockwise."""
    assert rules.desk.setup is not None
    seats = rules.desk.setup.seats
    held: dict[int, list[str]] = {s: [] for s in seats}
    cards = iter(HOLE)
    for _ in range(2):
        for seat in seats:
            card = next(cards)
            held[seat].append(card)
            table.put(f"seat{seat}", card)
    return held


def assert_no_hole_card(frames: list[dict[str, Any]], hole: list[str]) -> None:
    text = json.dumps(frames)
    leaked = [c for c in hole if f'"{c}"' in text]
    assert not leaked, leaked


def test_out_of_turn_action_alerts_the_feed_the_topic_and_the_seat_light() -> None:
    hub, rules, table = make()
    assert rules.desk.setup is not None
    sb, _bb, button = rules.desk.setup.seats  # three-handed: the button acts first
    with hub.public.subscribe() as pub:
        deal(rules, table)
        assert hub.feeds.lights.current()[button] is LightPattern.ACTING
        assert hub.feeds.lights.current()[sb] is LightPattern.IDLE
        assert hub.feeds.lights.current()[1] is LightPattern.OFF  # not in the hand
        sent(hub)
        step = rules.console(ConsoleAction(sb, Act.CALL, 0.0))
        assert step is not None and step.refused == Text(
            "refusal.console.actor_to_act", {"actor": Seat(button)}
        )
        frames = drain(pub)
    alerts = [f for f in frames if f["type"] == "alert"]
    assert [(a["code"], a["seat"], a["rule"], a["hand"]) for a in alerts] == [
        ("action_out_of_turn", sb, "R-BET-10", 1)
    ]
    assert alerts[0]["severity"] == "warning" and alerts[0]["remedy"]
    messages = sent(hub)
    on_topic = [(json.loads(p), retain) for t, p, retain in messages if t == alerts_topic("t1")]
    assert len(on_topic) == 1
    payload, retain = on_topic[0]
    assert not retain and payload["code"] == "action_out_of_turn" and payload["table"] == "t1"
    assert hub.feeds.lights.current()[sb] is LightPattern.ERROR
    assert rules.desk.alerts_by_hand[1][0].code.value == "action_out_of_turn"
    assert rules.public_state()["alerts"] == alerts


def test_folds_at_the_muck_end_the_hand_with_the_pot_award_and_the_next_hand_starts() -> None:
    hub, rules, table = make()
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    with hub.public.subscribe() as pub:
        held = deal(rules, table)
        table.move(held[button], f"seat{button}", "muck")
        assert hub.feeds.lights.current()[button] is LightPattern.FOLDED
        assert hub.feeds.lights.current()[sb] is LightPattern.ACTING
        table.move(held[sb], f"seat{sb}", "muck")
        frames = drain(pub)
        # R-SHOW-3: the pot is awarded at once and the winner is asked to show or muck
        assert any(f.get("event") == "PotAwarded" for f in frames)
        assert rules.in_hand and rules.desk.hands_finished == 0
        assert rules.console_state()["showdown"] == {
            "next": bb, "show": [bb], "muck": [bb], "part": True, "uncalled": True
        }  # fmt: skip
        assert hub.feeds.lights.current()[bb] is LightPattern.ACTING
        table.move(held[bb], f"seat{bb}", "muck")  # the winner throws the cards in unseen
        frames += drain(pub)
        assert not rules.in_hand and rules.desk.hands_finished == 1
        assert [e["seat"] for e in frames if e.get("event") == "HandMucked"] == [bb]
        ends = [f for f in frames if f["type"] == "hand_end"]
        assert len(ends) == 1 and not ends[0]["voided"]
        awards = ends[0]["awards"]
        assert awards and all(f"seat {bb} takes" in a["message"] for a in awards)
        assert all(a["message"] == render(Text.from_json(a["text"])) for a in awards)
        events = [f for f in frames if f["type"] == "event"]
        folds = [(e["seat"], e["kind"], e["source"]) for e in events if e["event"] == "ActionTaken"]
        assert folds == [(button, "fold", "muck"), (sb, "fold", "muck")]
        assert any(
            e["event"] == "PotAwarded" and {"text": e["text"], "message": e["message"]} == awards[0]
            for e in events
        )
        assert not [f for f in frames if f["type"] == "alert"]
        # between hands the lights follow presence again: the seats are bare
        assert hub.feeds.lights.current()[bb] is LightPattern.OFF
        assert hub.feeds.lights.current()[button] is LightPattern.OFF
        table.clear()
        frames += drain(pub)
    starts = [f for f in frames if f["type"] == "hand"]
    assert [s["hand"] for s in starts] == [2] and rules.in_hand
    assert starts[0]["button"] == sb  # the button moved one seat (R-POS-1)
    assert_no_hole_card(frames, HOLE)
    assert_no_hole_card([hub.public_snapshot()], HOLE)


def test_a_hand_to_showdown_shows_board_and_actions_but_never_a_hole_card() -> None:
    hub, rules, table = make()
    assert rules.desk.setup is not None and rules.desk.monitor is not None
    board = iter(["Qs", "Jh", "3c", "9d", "4s"])
    burns = iter(["5h", "6h", "8h"])
    with hub.public.subscribe() as pub:
        deal(rules, table)
        for n_cards in (3, 1, 1):
            hand = rules.desk.monitor.hand
            while hand.phase is Phase.BETTING:
                seat = rules.desk.setup.seats[hand.actor or 0]
                act = Act.CALL if hand.legal_actions().can_call else Act.CHECK
                step = rules.console(ConsoleAction(seat, act, 0.0))
                assert step is not None and step.refused is None
            table.put("burn", next(burns))
            for _ in range(n_cards):
                table.put("board", next(board))
        hand = rules.desk.monitor.hand
        while hand.phase is Phase.BETTING:
            rules.console(ConsoleAction(rules.desk.setup.seats[hand.actor or 0], Act.CHECK, 0.0))
        while hand.phase is Phase.SHOWDOWN:
            assert hand.shower is not None
            rules.console(ShowHand(rules.desk.setup.seats[hand.shower], 0.0))
        frames = drain(pub)
    assert not rules.in_hand and rules.desk.hands_finished == 1
    events = [f for f in frames if f["type"] == "event"]
    assert [e["card"] for e in events if e["event"] == "BoardDealt"] == [
        "Qs",
        "Jh",
        "3c",
        "9d",
        "4s",
    ]
    shown = [e for e in events if e["event"] == "HandShown"]
    assert shown and all("cards" not in e for e in shown)
    assert [e for e in events if e["event"] == "PotAwarded"]
    assert not [f for f in frames if f["type"] == "alert"]
    assert_no_hole_card(frames, [*HOLE, "5h", "6h", "8h"])  # nor a burn card


def test_an_unknown_tag_is_one_alert_while_it_lies_there() -> None:
    hub, _rules, table = make()
    bogus = "04DEADBEEF0000"
    with hub.public.subscribe() as pub:
        table.put("seat2", "As", extra=(bogus,))
        table.put("seat2", "Kd", extra=(bogus,))
        frames = drain(pub)
    alerts = [f for f in frames if f["type"] == "alert"]
    assert [(a["code"], a["seat"]) for a in alerts] == [("unknown_tag", 2)]
    assert hub.counters["unknown_tag"] == 2


def test_a_misdeal_voids_the_hand_and_the_button_stays() -> None:
    hub, rules, table = make()
    assert rules.desk.setup is not None
    button = rules.desk.setup.button
    with hub.public.subscribe() as pub:
        deal(rules, table)
        step = rules.console(DeclareMisdeal(0.0))
        assert step is not None
        frames = drain(pub)
        assert not rules.in_hand and rules.desk.hands_voided == 1
        assert [f["voided"] for f in frames if f["type"] == "hand_end"] == [True]
        assert [f["code"] for f in frames if f["type"] == "alert"] == ["misdeal_declared"]
        assert rules.console(ConsoleAction(button, Act.FOLD, 0.0)) is None  # no hand running
        table.clear()
    assert rules.in_hand and rules.desk.setup.number == 2 and rules.desk.setup.button == button


def test_a_busted_player_buys_in_again_when_rebuy_is_on() -> None:
    _hub, rules, table = make((1, 2))
    rules.desk.settings = rules.desk.settings.model_copy(update={"rebuy": True})
    assert rules.desk.setup is not None and rules.desk.monitor is not None
    deal(rules, table)
    hand = rules.desk.monitor.hand
    first = rules.desk.setup.seats[hand.actor or 0]
    step = rules.console(ConsoleAction(first, Act.ALL_IN, 0.0))
    assert step is not None and step.refused is None
    other = next(s for s in rules.desk.setup.seats if s != first)
    step = rules.console(ConsoleAction(other, Act.CALL, 0.0))
    assert step is not None and step.refused is None
    for reader, card in (("burn", "3h"), ("board", "3s"), ("board", "4d"), ("board", "9h")):
        table.put(reader, card)
    table.put("burn", "5d")
    table.put("board", "Td")
    table.put("burn", "5c")
    table.put("board", "Jc")
    while hand.phase is Phase.SHOWDOWN and hand.shower is not None:
        rules.console(ShowHand(rules.desk.setup.seats[hand.shower], 0.0))
    assert not rules.in_hand
    busted = [s for s, p in rules.desk.table.players.items() if p.stack == 0]
    assert len(busted) == 1
    table.clear()
    assert rules.in_hand and rules.desk.table.players[busted[0]].stack == 1000


def test_a_top_up_bought_during_a_hand_is_refused_over_the_maximum_at_its_end() -> None:
    """R-BUY-4 at the console: NL 5/10 (maximum 1000), heads-up with 600 each. During the
    hand seat 2 (the big blind) asks for 500 — refused, the message says 400 — and buys
    400. The button folds: seat 2 has 605, so 395 go in and 5 are refused; the console's
    last hand and the hand_end frame say so."""
    hub, rules, table = make_heads_up(600)
    assert rules.desk.setup is not None and rules.desk.setup.button == 1
    with pytest.raises(RulesError, match=r"^R-BUY-4: adding chips may be at most 400, not 500: "):
        rules.table_command(SeatCommand(SeatOp.TOP_UP, 2, amount=500))
    rules.table_command(SeatCommand(SeatOp.TOP_UP, 2, amount=400))
    assert rules.console_state()["players"][1]["pending"] == 400
    with hub.public.subscribe() as pub:
        held = deal(rules, table)
        table.move(held[1], "seat1", "muck")
        assert rules.in_hand  # the uncalled winner may still show (R-SHOW-3) ...
        table.move(held[2], "seat2", "muck")  # ... and throws the hand away
        frames = drain(pub)
    assert not rules.in_hand
    top_ups = [{"seat": 2, "bought": 400, "delivered": 395, "refused": 5, "stack": 1000}]
    keys = ("seat", "bought", "delivered", "refused", "stack")
    (end,) = [f for f in frames if f["type"] == "hand_end"]
    assert [{k: u[k] for k in keys} for u in end["top_ups"]] == top_ups
    assert end["stacks"] == [[1, 595], [2, 1000]]
    last = rules.console_state()["last_hand"]
    assert [{k: u[k] for k in keys} for u in last["top_ups"]] == top_ups
    assert last["top_ups"][0]["message"] == (
        "seat 2 can add at most 395 of the 400 bought during hand 1 (the stack is 605, the "
        "maximum 1000): 395 added, 5 refused"
    )
    table.clear()
    assert (
        rules.in_hand and rules.desk.setup.starting_stacks[rules.desk.setup.seats.index(2)] == 1000
    )


def make_heads_up(buy_in: int) -> tuple[TableApp, TableConsole, Antennas]:
    clock = FakeClock()
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=buy_in) for s in (1, 2)]
    hub = hub_service(clock, rules=RulesSettings(players=players))
    rules = hub.rules
    assert rules is not None
    return hub, rules, Antennas(hub, clock, step_per="change")


def test_the_rules_section_sets_the_return_option_of_r_buy_3() -> None:
    """R-BUY-3: ``[rules] return_with_stack`` (Robert's Rules, on by default) reaches the
    table: off, a player who left with more than the maximum may come back with less."""
    text = "[rules]\nsmall_blind = 5\nbig_blind = 10\n"
    on = parse_config(HubConfig, tomllib.loads(text), source="on")
    off_text = text + "return_with_stack = false\n"
    off = parse_config(HubConfig, tomllib.loads(off_text), source="off")
    assert on.rules is not None and off.rules is not None
    assert table_config(on.rules, "NT").rules.return_with_stack is True
    table = Table(table_config(off.rules, "NT"))
    assert table.config.rules.return_with_stack is False
    table.join(1, "Ann", 1000, now=0.0)
    table.join(2, "Bo", 1000, now=0.0)
    table.start_hand(now=0.0, button=1)
    table.finish_hand((500, 1500))
    table.leave(1, now=60.0)  # Ann leaves with 1500, over the 1000 maximum
    limits = table.buy_in_limits("Ann", now=120.0)
    assert (limits.minimum, limits.maximum, limits.rule) == (400, None, "R-BUY-3")


def test_without_rules_the_lights_follow_presence() -> None:
    clock = FakeClock()
    hub = hub_service(clock)
    table = Antennas(hub, clock, step_per="change")
    table.put("seat4", "As")
    assert hub.rules is None and hub.feeds.lights.current() == {4: LightPattern.IDLE}
    assert "rules" not in hub.public_snapshot()


@pytest.mark.parametrize("code", ["As", "Td", "2c"])
def test_card_codes_round_trip_through_the_public_event(code: str) -> None:
    from hub.rules.procedure import BoardDealt
    from hub.views.table import public_event

    assert public_event(BoardDealt(card_index(code))) == {
        "type": "event",
        "event": "BoardDealt",
        "card": code,
    }
