"""Scenario tests of the dealing procedure: every alert kind, driven through presence
exactly as the antennas report it (each antenna's full inventory after each motion), in
Texas hold'em, Omaha, seven-card stud (with and without up-card antennas) and five-card
draw; then the tolerances (flicker, unread cards, manual entry, misdeal, undo) and the
table profiles."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from feltwire.text import Seat, Text
from hub.messages import render
from hub.messages.keys import check
from hub.rules.alerts import Alert, AlertCode, Severity
from hub.rules.games import game
from hub.rules.hand import Phase
from hub.rules.procedure import (
    Act,
    ActionTaken,
    ActionUndone,
    BoardDealt,
    ConsoleAction,
    DeclareMisdeal,
    HandVoided,
    ManualCard,
    MuckHand,
    PotAwarded,
    ShowHand,
    TagClash,
    UndoAction,
    UnknownTag,
)
from hub.rules.setup import TableProfile
from tests.support.dealer_sim import EXPECTED, Mistake, Table, applicable, c, play_hand
from tests.support.monitor_tables import table

A = AlertCode

# ------------------------------------------------------------------------- helpers


def deal(tb: Table, *motions: str) -> None:
    """``"seat2 As"``: lay the card on the antenna (one motion each)."""
    for m in motions:
        reader, code = m.split()
        tb.put(reader, c(code))


def round_robin(tb: Table, seats: Sequence[int], hands: Sequence[str], up: str = "") -> None:
    """Deal ``hands`` (one card string per seat) one card at a time, clockwise; the card
    rounds listed in ``up`` (e.g. ``"2"``) go to the ``upN`` antennas."""
    rounds = len(hands[0]) // 2
    for r in range(rounds):
        for seat, cards in zip(seats, hands, strict=True):
            reader = f"up{seat}" if str(r) in up else f"seat{seat}"
            tb.put(reader, c(cards[2 * r : 2 * r + 2]))


def act(tb: Table, seat: int, what: Act, to: int = 0) -> None:
    tb.console(ConsoleAction(seat, what, 0.0, to))


def muck(tb: Table, seat: int) -> None:
    """The player pushes every card in front of them to the muck."""
    cards = sorted(tb.on.get(f"seat{seat}", set()) | tb.on.get(f"up{seat}", set()))
    tb.move(cards, "muck")


NT_SEATS = (2, 5, 7)  # seat 2 small blind, seat 5 big blind, seat 7 the button
NT_HANDS = ["AsAh", "KsKh", "7c2d"]
OMAHA_HANDS = ["AsAhKdQc", "KsKhJdTc", "7c2d3h4s"]


def limped(tb: Table, seats: Sequence[int], hands: Sequence[str]) -> None:
    """Deal ``hands`` round robin to ``seats`` (small blind, big blind, button); the button
    and the small blind call, the big blind checks: the first betting round is over."""
    round_robin(tb, seats, hands)
    small, big, button = seats
    act(tb, button, Act.CALL)
    act(tb, small, Act.CALL)
    act(tb, big, Act.CHECK)


def holdem_preflop_done(tb: Table) -> None:
    limped(tb, NT_SEATS, NT_HANDS)


def said(alerts: Sequence[Alert]) -> list[tuple[str, str]]:
    """Each alert's code and English message; each alert's texts fit their catalog entries
    (the right parameters, each of its kind, a key of the alert's own code)."""
    for a in alerts:
        for text in (a.text, a.remedy):
            check(text)
            assert text.key.startswith(f"alert.{a.code.value}."), (a.code, text.key)
    return [(a.code.value, render(a.text)) for a in alerts]


def assert_only(tb: Table, code: AlertCode) -> None:
    assert tb.codes == [code], said(tb.alerts)
    said(tb.alerts)


# ------------------------------------------------------------------ dealing order


def test_correct_holdem_deal_raises_nothing_and_opens_the_betting() -> None:
    """R-DEAL-1: one at a time clockwise from the small blind; then the button acts."""
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    assert tb.codes == []
    assert tb.steps[-1].hints.acting == 7
    assert tb.monitor.hand.phase is Phase.BETTING


def test_r_deal_1_first_card_to_the_wrong_seat_is_out_of_order_and_a_misdeal() -> None:
    """R-DEAL-1/R-DEAL-6: the dealer starts at the big blind instead of the small blind."""
    tb = table("NT", NT_SEATS)
    deal(tb, "seat5 Ks", "seat7 7c", "seat2 As")
    assert_only(tb, A.DEAL_OUT_OF_ORDER)
    alert = tb.alerts[0]
    assert alert.seat == 2 and alert.severity is Severity.MISDEAL and alert.rule == "R-DEAL-1"


def test_r_deal_1_two_cards_at_once_is_out_of_order_in_omaha() -> None:
    """Not one at a time: two cards land on seat 2 together."""
    tb = table("PO", NT_SEATS)
    tb.put("seat2", c("As"), c("Ah"))
    assert_only(tb, A.DEAL_OUT_OF_ORDER)


def test_r_deal_3_stud_cards_out_of_order() -> None:
    """R-DEAL-3: stud deals from the left of the dealer, one card per round."""
    tb = table("F7S", (1, 4, 6))
    deal(tb, "seat1 As", "seat6 Kd", "seat4 2c")
    assert_only(tb, A.DEAL_OUT_OF_ORDER)


def test_r_deal_6_omaha_fifth_hole_card_is_the_wrong_count() -> None:
    """Omaha gives four hole cards: a fifth to seat 5 is a misdeal before the action."""
    tb = table("PO", NT_SEATS)
    round_robin(tb, NT_SEATS, OMAHA_HANDS)
    deal(tb, "seat5 9s")
    assert_only(tb, A.WRONG_CARD_COUNT)
    assert tb.alerts[0].seat == 5 and tb.alerts[0].severity is Severity.MISDEAL
    tb.take("seat5", c("9s"))  # the dealer takes it back: no more alerts
    tb.tick()
    assert_only(tb, A.WRONG_CARD_COUNT)


def test_r_deal_6_card_to_an_empty_seat_in_draw() -> None:
    """Seat 4 is empty (or sitting out): a card there is flagged by seat number."""
    tb = table("F5D", (3, 6, 8))
    deal(tb, "seat3 As", "seat4 Kd")
    assert_only(tb, A.CARD_TO_EMPTY_SEAT)
    assert tb.alerts[0].seat == 4


# ------------------------------------------------------------------ burns and board


def test_r_deal_2_flop_without_a_burn() -> None:
    tb = table("NT", NT_SEATS)
    holdem_preflop_done(tb)
    deal(tb, "board Qd", "board Jd", "board Td")
    assert_only(tb, A.MISSING_BURN)
    assert len(tb.monitor.hand.board) == 3


def test_r_deal_2_a_second_burn_is_an_extra_burn() -> None:
    tb = table("NT", NT_SEATS)
    holdem_preflop_done(tb)
    deal(tb, "burn 3c", "burn 4c")
    assert_only(tb, A.EXTRA_BURN)
    deal(tb, "board Qd", "board Jd", "board Td")
    assert_only(tb, A.EXTRA_BURN)


def test_r_deal_3_stud_street_without_a_burn() -> None:
    tb = table("F7S", (1, 4, 6), TableProfile(up_cards=True))
    round_robin(tb, (1, 4, 6), ["2c3c4c", "5d6d7d", "9h8hKh"], up="2")
    act(tb, 1, Act.BRING_IN)  # seat 1 shows the 4c, the lowest up card
    act(tb, 4, Act.CALL)
    act(tb, 6, Act.CALL)
    deal(tb, "up1 Ts")
    assert_only(tb, A.MISSING_BURN)


def test_no_burn_antenna_means_no_burn_checks() -> None:
    tb = table("NT", NT_SEATS, TableProfile(burn=False))
    holdem_preflop_done(tb)
    deal(tb, "board Qd", "board Jd", "board Td")
    assert tb.codes == []


def test_r_deal_7_board_card_during_the_betting_round() -> None:
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    act(tb, 7, Act.CALL)
    deal(tb, "board Qd")
    assert_only(tb, A.PREMATURE_BOARD_CARD)
    assert tb.alerts[0].rule == "R-DEAL-7"
    tb.take("board", c("Qd"))  # taken back; the round goes on
    act(tb, 2, Act.CALL)
    act(tb, 5, Act.CHECK)
    deal(tb, "burn Qd", "board Jd", "board Td", "board 9d")
    assert_only(tb, A.PREMATURE_BOARD_CARD)


def test_r_deal_7_stud_card_dealt_while_betting() -> None:
    tb = table("F7S", (1, 4, 6))
    round_robin(tb, (1, 4, 6), ["2c3c4c", "5d6d7d", "9h8hKh"])
    act(tb, 1, Act.BRING_IN)
    deal(tb, "seat4 Ts")
    assert_only(tb, A.PREMATURE_BOARD_CARD)


# ------------------------------------------------------------------ duplicates, tags


def test_r_card_1_one_card_read_in_two_places() -> None:
    """A foreign copy of seat 2's card lands on seat 5 and stays beyond the window."""
    tb = table("NT", NT_SEATS)
    deal(tb, "seat2 As", "seat5 As")
    tb.tick()
    assert_only(tb, A.DUPLICATE_CARD)
    alert = tb.alerts[0]
    assert alert.seat == 5 and "As" not in render(alert.text)
    assert "As" not in repr(alert.text.params) + repr(alert.remedy.params)


def test_r_card_1_two_tags_for_one_card_in_omaha() -> None:
    tb = table("PO", NT_SEATS)
    tb.send(TagClash("seat2", c("Ah"), 1.0))
    assert_only(tb, A.DUPLICATE_CARD)


def test_unknown_tag_in_stud() -> None:
    tb = table("F7S", (1, 4, 6))
    tb.send(UnknownTag("seat4", 1.0))
    assert_only(tb, A.UNKNOWN_TAG)
    assert tb.alerts[0].seat == 4


# ------------------------------------------------------------------ seats and the muck


def test_r_etq_1_omaha_cards_leave_the_seat_without_a_fold() -> None:
    tb = table("PO", NT_SEATS)
    round_robin(tb, NT_SEATS, OMAHA_HANDS)
    cards = sorted(tb.on["seat5"])
    tb.take("seat5", *cards)
    tb.tick()
    assert_only(tb, A.CARDS_LEFT_SEAT)
    assert tb.alerts[0].seat == 5
    tb.put("seat5", *cards)  # back on the antenna: nothing more
    act(tb, 7, Act.CALL)
    assert_only(tb, A.CARDS_LEFT_SEAT)


def test_a_flicker_within_the_debounce_window_is_no_move() -> None:
    tb = table("PO", NT_SEATS)
    round_robin(tb, NT_SEATS, OMAHA_HANDS)
    lost = tb.now + 1.0
    tb.on["seat5"].discard(c("Ks"))
    tb.send(_inventory(tb, "seat5", lost))
    tb.on["seat5"].add(c("Ks"))
    tb.send(_inventory(tb, "seat5", lost + 0.4))  # found again within 0.5 s
    tb.now += 5
    act(tb, 7, Act.CALL)
    assert tb.codes == []


def _inventory(tb: Table, reader: str, now: float):  # type: ignore[no-untyped-def]
    from hub.rules.procedure import Inventory

    tb.now = now
    return Inventory(reader, frozenset(tb.on.get(reader, set())), now)


def test_r_bet_10_omaha_fold_at_the_muck_out_of_turn_takes_effect_in_turn() -> None:
    tb = table("PO", NT_SEATS)
    round_robin(tb, NT_SEATS, OMAHA_HANDS)
    muck(tb, 2)  # the button (seat 7) is to act
    assert_only(tb, A.FOLD_OUT_OF_TURN)
    assert tb.steps[-1].hints.folded == (2,)
    act(tb, 7, Act.CALL)
    events = tb.steps[-1].events
    assert [(e.seat, e.kind.value, e.source) for e in events if isinstance(e, ActionTaken)] == [
        (7, "call", "console"),
        (2, "fold", "pending"),
    ]
    assert tb.steps[-1].hints.acting == 5
    assert_only(tb, A.FOLD_OUT_OF_TURN)


def test_a_fold_at_the_muck_in_turn_is_a_fold() -> None:
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    muck(tb, 7)
    assert tb.codes == [] and tb.monitor.hand.folded[2]


def test_r_bet_10_action_entered_out_of_turn_in_holdem() -> None:
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    step = tb.console(ConsoleAction(5, Act.CHECK, 0.0))
    assert_only(tb, A.ACTION_OUT_OF_TURN)
    assert step.refused == Text("refusal.console.actor_to_act", {"actor": Seat(7)})
    assert step.hints.alerted == (5,)


def test_r_etq_1_folded_omaha_card_comes_back() -> None:
    tb = table("PO", NT_SEATS)
    round_robin(tb, NT_SEATS, OMAHA_HANDS)
    muck(tb, 7)
    tb.move([c("7c")], "seat7")
    assert_only(tb, A.FOLDED_CARD_RETURNED)
    tb.move([c("7c")], "muck")
    assert_only(tb, A.FOLDED_CARD_RETURNED)


# ------------------------------------------------------------------ stud placement


def test_r_deal_3_stud_up_card_on_the_down_antenna() -> None:
    tb = table("F7S", (1, 4, 6), TableProfile(up_cards=True))
    round_robin(tb, (1, 4, 6), ["2c3c", "5d6d", "9h8h"])
    deal(tb, "up1 4c", "seat4 7d")
    assert_only(tb, A.STUD_CARD_WRONG_PLACE)
    assert tb.alerts[0].seat == 4
    tb.move([c("7d")], "up4")  # the dealer turns it up onto its antenna: fine
    deal(tb, "up6 Kh")
    assert_only(tb, A.STUD_CARD_WRONG_PLACE)
    assert tb.monitor.hand.phase is Phase.BETTING


def test_stud_without_up_card_antennas_has_no_placement_checks() -> None:
    tb = table("F7S", (1, 4, 6))
    round_robin(tb, (1, 4, 6), ["2c3c4c", "5d6d7d", "9h8hKh"])
    assert tb.codes == []
    assert tb.monitor.hand.up_cards == {0: [c("4c")], 1: [c("7d")], 2: [c("Kh")]}


# ------------------------------------------------------------------ the draw

DRAW_SEATS = (3, 6, 8)
DRAW_HANDS = ["AsKsQsJs2d", "2c3c4c5c9h", "8s8d8h2h3d"]


def draw_ready(tb: Table) -> None:
    limped(tb, DRAW_SEATS, DRAW_HANDS)


def test_correct_draw_raises_nothing() -> None:
    tb = table("F5D", DRAW_SEATS)
    draw_ready(tb)
    tb.move([c("2d")], "muck")
    deal(tb, "burn 7s", "seat3 Ts")
    tb.move([c("9h")], "muck")
    deal(tb, "seat6 6c")
    tb.move([c("2h"), c("3d")], "muck")
    deal(tb, "seat8 Kd", "seat8 Kc")
    assert tb.codes == [] and tb.monitor.hand.phase is Phase.BETTING


def test_r_deal_5_fewer_replacements_than_discards() -> None:
    tb = table("F5D", DRAW_SEATS)
    draw_ready(tb)
    tb.move([c("2d"), c("Js")], "muck")
    deal(tb, "burn 7s", "seat3 Ts")  # one card for two
    tb.move([c("9h")], "muck")
    deal(tb, "seat6 6c")
    assert_only(tb, A.DRAW_MISMATCH)
    assert tb.alerts[0].seat == 3 and "threw 2 and got 1" in render(tb.alerts[0].text)
    deal(tb, "seat3 Td")  # the dealer gives the missing card
    tb.move([c("2h")], "muck")
    deal(tb, "seat8 Kd")
    assert_only(tb, A.DRAW_MISMATCH)
    assert tb.monitor.hand.phase is Phase.BETTING


def test_r_deal_5_more_replacements_than_discards() -> None:
    tb = table("F5D", DRAW_SEATS)
    draw_ready(tb)
    tb.move([c("2d")], "muck")
    deal(tb, "burn 7s", "seat3 Ts", "seat3 Td")
    assert_only(tb, A.DRAW_MISMATCH)


def test_r_deal_5_short_draw_found_when_the_betting_starts() -> None:
    """The last drawer is short: the first action is refused until the card comes."""
    tb = table("F5D", DRAW_SEATS)
    draw_ready(tb)
    tb.move([c("2h"), c("3d")], "muck")
    deal(tb, "burn 7s", "seat8 Kd")
    step = tb.console(ConsoleAction(3, Act.CHECK, 0.0))
    assert step.refused == Text("refusal.console.draw_incomplete")
    assert_only(tb, A.DRAW_MISMATCH)
    deal(tb, "seat8 Kc")
    act(tb, 3, Act.CHECK)
    assert tb.refused == ["the draw is not complete"]


# ------------------------------------------------------------------ showdown and awards


def holdem_to_showdown(tb: Table, hands: Sequence[str], board: str) -> None:
    limped(tb, NT_SEATS, hands)
    deal_the_board(tb, NT_SEATS, board)
    for seat in NT_SEATS:
        act(tb, seat, Act.CHECK)


def deal_the_board(tb: Table, seats: Sequence[int], board: str, burns: str = "3s4s5s") -> None:
    """The pre-flop betting done: burn and deal the flop, then ``seats`` check the flop and
    the turn, each followed by a burn and the next of the five ``board`` cards."""
    tb.put("burn", c(burns[0:2]))
    for i in range(3):
        tb.put("board", c(board[2 * i : 2 * i + 2]))
    for street in (1, 2):
        for seat in seats:
            act(tb, seat, Act.CHECK)
        tb.put("burn", c(burns[2 * street : 2 * street + 2]))
        tb.put("board", c(board[4 + 2 * street : 6 + 2 * street]))


def test_r_show_2_winning_hand_mucked_before_it_was_read() -> None:
    tb = table("NT", NT_SEATS)
    holdem_to_showdown(tb, NT_HANDS, "Qd9c6h5dJc")
    assert tb.monitor.hand.phase is Phase.SHOWDOWN
    muck(tb, 2)  # aces: the best hand
    assert_only(tb, A.WINNING_HAND_MUCKED)
    assert tb.alerts[0].seat == 2
    tb.move([c("As"), c("Ah")], "seat2")  # retrieved
    tb.console(ShowHand(2, 0.0))
    muck(tb, 5)  # kings lose: a muck in turn, no alert
    muck(tb, 7)
    assert_only(tb, A.WINNING_HAND_MUCKED)
    awards = [e for s in tb.steps for e in s.events if isinstance(e, PotAwarded)]
    assert [(a.amount, [(p.seat, p.amount) for p in a.payouts]) for a in awards] == [
        (30, [(2, 30)])
    ]


def test_r_pot_3_split_pot_with_the_odd_chip_read_out() -> None:
    """Two players play the board's straight; the odd chip goes to the first seat left
    of the button (R-POT-3), and the award is an event for the dealer to read out."""
    tb = table("NT", NT_SEATS, stacks=(1000, 1000, 1000))
    round_robin(tb, NT_SEATS, ["2c3d", "2h3s", "4c5c"])
    act(tb, 7, Act.FOLD)  # the button folds from the console: 15 in the middle
    act(tb, 2, Act.CALL)
    act(tb, 5, Act.CHECK)
    deal_the_board(tb, (2, 5), "TsJdQhKcAd", burns="4s5s6s")
    act(tb, 2, Act.BET, 15)
    act(tb, 5, Act.CALL)
    tb.console(ShowHand(2, 0.0))
    tb.console(ShowHand(5, 0.0))
    award = [e for e in tb.steps[-1].events if isinstance(e, PotAwarded)]
    assert award[0].amount == 50
    assert [(p.seat, p.amount, p.odd_chip) for p in award[0].payouts] == [
        (2, 25, False),
        (5, 25, False),
    ]
    check(award[0].text)
    assert render(award[0].text) == "main pot 50: seat 2 takes 25; seat 5 takes 25"
    assert award[0].public


# ------------------------------------------------------------------ tolerances


def test_a_player_who_keeps_the_cards_off_the_antenna_until_showdown() -> None:
    """Seat 5's cards are never read during the hand: no alert; the hand goes on with
    unknown cards, which are learnt when they are laid down for the showdown."""
    tb = table("NT", NT_SEATS)
    for r in range(2):
        deal(
            tb, f"seat2 {NT_HANDS[0][2 * r : 2 * r + 2]}", f"seat7 {NT_HANDS[2][2 * r : 2 * r + 2]}"
        )
    act(tb, 7, Act.FOLD)
    act(tb, 2, Act.CALL)
    act(tb, 5, Act.CHECK)
    deal_the_board(tb, (2, 5), "Qd9c6h5dJc")
    act(tb, 2, Act.CHECK)
    act(tb, 5, Act.CHECK)
    tb.console(ShowHand(2, 0.0))
    refused = tb.console(ShowHand(5, 0.0)).refused
    assert refused is not None and "not all read" in render(refused, "en")
    tb.put("seat5", c("Ks"), c("Kh"))  # laid down face up for the showdown
    tb.console(ShowHand(5, 0.0))
    assert tb.codes == []
    assert tb.monitor.hand.phase is Phase.COMPLETE


def test_manual_entry_for_tags_that_will_not_read() -> None:
    tb = table("NT", NT_SEATS)
    deal(tb, "seat2 As")
    tb.console(ManualCard("seat5", None, 0.0))  # a hole card whose tag is dead
    deal(tb, "seat7 7c", "seat2 Ah", "seat5 Kh", "seat7 2d")
    act(tb, 7, Act.CALL)
    act(tb, 2, Act.CALL)
    act(tb, 5, Act.CHECK)
    deal(tb, "burn 3c", "board Qd", "board Jd")
    tb.console(ManualCard("board", c("Td"), 0.0))
    assert tb.codes == []
    assert tb.monitor.hand.board == [c("Qd"), c("Jd"), c("Td")]
    assert tb.monitor.hand.hole[1][0] == -1
    assert any(isinstance(e, BoardDealt) for e in tb.steps[-1].events)


def test_declared_misdeal_voids_the_hand_and_gives_the_chips_back() -> None:
    tb = table("NT", NT_SEATS, stacks=(500, 600, 700))
    deal(tb, "seat5 Ks", "seat7 7c", "seat2 As")
    step = tb.console(DeclareMisdeal(0.0))
    assert tb.codes == [A.DEAL_OUT_OF_ORDER, A.MISDEAL_DECLARED]
    assert step.alerts[0].severity is Severity.MISDEAL
    voided = [e for e in step.events if isinstance(e, HandVoided)]
    assert voided[0].stacks == ((2, 500), (5, 600), (7, 700))
    assert tb.console(ConsoleAction(2, Act.CALL, 0.0)).refused == Text("refusal.console.hand_void")


def test_undo_the_last_console_action() -> None:
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    act(tb, 7, Act.RAISE, 30)
    step = tb.console(UndoAction(0.0))
    assert [type(e) for e in step.events] == [ActionUndone]
    assert step.hints.acting == 7 and tb.monitor.hand.bets == [5, 10, 0]
    act(tb, 7, Act.CALL)
    assert tb.monitor.hand.actor == 0 and tb.codes == []


def test_undo_is_refused_for_a_fold_at_the_muck() -> None:
    tb = table("NT", NT_SEATS)
    round_robin(tb, NT_SEATS, NT_HANDS)
    muck(tb, 7)
    assert tb.console(UndoAction(0.0)).refused is not None


def test_no_muck_antenna_folds_come_from_the_console() -> None:
    tb = table("NT", NT_SEATS, TableProfile(muck=False))
    round_robin(tb, NT_SEATS, NT_HANDS)
    act(tb, 7, Act.FOLD)
    act(tb, 2, Act.FOLD)
    assert tb.monitor.hand.phase is Phase.COMPLETE and tb.codes == []
    awards = [e for e in tb.steps[-1].events if isinstance(e, PotAwarded)]
    assert awards[0].payouts[0].seat == 5 and awards[0].uncontested


def test_console_muck_confirms_a_hand_thrown_away() -> None:
    tb = table("NT", NT_SEATS)
    holdem_to_showdown(tb, NT_HANDS, "Qd9c6h5dJc")
    tb.console(ShowHand(2, 0.0))
    tb.console(MuckHand(5, 0.0))
    tb.console(MuckHand(7, 0.0))
    assert tb.monitor.hand.phase is Phase.COMPLETE and tb.codes == []


# ------------------------------------------------------------------ every kind, every game

GAMES: list[tuple[str, TableProfile]] = [
    ("NT", TableProfile()),
    ("PO", TableProfile()),
    ("F7S", TableProfile()),
    ("F7S", TableProfile(up_cards=True)),
    ("F5D", TableProfile()),
]


GAME_IDS = ["holdem", "omaha", "stud", "stud-up", "draw"]
CASES = [
    pytest.param(variant, profile, mistake, id=f"{gid}-{mistake.value}")
    for (variant, profile), gid in zip(GAMES, GAME_IDS, strict=True)
    for mistake in Mistake
    # only the mistakes that can happen in this game on this table (no stud placement
    # error without up-card antennas, no draw mismatch outside draw games, …)
    if mistake is not Mistake.NONE and applicable(mistake, game(variant), profile)
]


def test_the_matrix_covers_every_kind() -> None:
    """Every kind of mistake is exercised in at least one game."""
    covered = {case.values[2] for case in CASES}
    assert covered == {m for m in Mistake if m is not Mistake.NONE}


@pytest.mark.parametrize(("variant", "profile", "mistake"), CASES)
def test_every_alert_kind_in_every_game(
    variant: str, profile: TableProfile, mistake: Mistake
) -> None:
    """Each dealing error the simulated dealer can make in this game, dealt through
    presence: exactly its alert (seeds are fixed; the first hand that reaches it)."""
    for seed in range(40):
        outcome = play_hand(seed, variant, profile, mistake)
        if outcome.injected:
            break
    else:
        pytest.fail("no hand reached the mistake")
    assert outcome.codes == [EXPECTED[mistake]], said(outcome.table.alerts)
    said(outcome.table.alerts)
