"""Scenario tests for the betting, blind and position rules (one test per rule id).

Hands are short table scripts in PHH notation: ``p1`` sits left of the button (small
blind), the last seat is the button.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hub.rules.betting import ActionKind
from hub.rules.dealing import UNKNOWN
from hub.rules.errors import (
    BetSizeError,
    ConfigurationError,
    IllegalActionError,
    OutOfTurnError,
    PhaseError,
)
from hub.rules.games import Stakes, game
from hub.rules.hand import Hand, Phase, PostKind
from tests.support.table_scripts import cards, play, won

SIX = [
    "d dh p1 AhKh",
    "d dh p2 2c7d",
    "d dh p3 QsQd",
    "d dh p4 9h8h",
    "d dh p5 3c3d",
    "d dh p6 JcTc",
]


def test_seed_example_r_bet_2_r_bet_8() -> None:
    """The seed's own example: NL 10/20, six players. A folds, B calls, C folds, D raises to
    80, SB folds, BB folds, B calls 60, and B and D see the flop."""
    hand = play("NT", [2000] * 6, [*SIX, "p3 f", "p4 cc", "p5 f"], blinds=(10, 20))
    la = hand.legal_actions()
    assert (la.seat, la.call_amount, la.min_to, la.max_to) == (5, 20, 40, 2000)
    assert hand.bet_or_raise_to(80).kind is ActionKind.RAISE
    hand.fold(0)
    hand.fold(1)
    assert hand.legal_actions().call_amount == 60
    assert hand.call(3).amount == 60
    assert hand.in_hand == (3, 5)
    assert hand.street.name == "flop" and hand.phase is Phase.DEALING
    assert hand.pot_total == 190
    assert hand.stacks[3] == hand.stacks[5] == 1920


def test_r_bet_2_raise_at_least_the_last_raise() -> None:
    """R-BET-2: D raised to 80 (a raise of 60), so a re-raise must reach 140."""
    hand = play("NT", [2000] * 6, [*SIX, "p3 f", "p4 cc", "p5 f", "p6 cbr 80"], blinds=(10, 20))
    with pytest.raises(BetSizeError, match=r"^R-BET-2: a raise must be at least 60") as info:
        hand.bet_or_raise_to(120, 0)
    assert info.value.rule == "R-BET-2"
    assert hand.legal_actions().min_to == 140
    assert hand.bet_or_raise_to(140, 0).to == 140


def test_r_bet_2_minimum_bet_is_one_big_blind() -> None:
    """R-BET-2: after the flop a bet is at least one big blind; an all-in may be less."""
    hand = play(
        "NT",
        [1000, 1000, 35],
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cc", "p1 cc", "p2 cc", "d db 2h3h4h"],
        blinds=(10, 20),
    )
    with pytest.raises(BetSizeError, match=r"^R-BET-2: a bet must be at least 20"):
        hand.bet_or_raise_to(10, 0)
    hand.check(0)
    hand.check(1)
    assert hand.bet_or_raise_to(15, 2).all_in  # all in for 15 < 20 is allowed


def test_r_bet_3_pot_limit_maximum() -> None:
    """R-BET-3: pot limit 10/20, the button may raise to 70 (20 to call + pot of 50);
    then the small blind may raise to 230 (60 to call, pot 160 after calling)."""
    hand = play(
        "PO",
        [1000] * 3,
        ["d dh p1 AhKhQhJh", "d dh p2 2c7d3s4s", "d dh p3 QsQdTs9s"],
        blinds=(10, 20),
    )
    assert hand.legal_actions().max_to == 70
    with pytest.raises(BetSizeError, match=r"^R-BET-3: pot limit"):
        hand.bet_or_raise_to(71)
    hand.bet_or_raise_to(70)
    assert hand.legal_actions().max_to == 230
    hand.bet_or_raise_to(230)
    assert hand.stacks[0] == 770


def test_r_bet_3_no_limit_any_amount_up_to_the_stack() -> None:
    """R-BET-3: no limit allows any raise up to the stack."""
    hand = play("NT", [1000] * 3, ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd"], blinds=(10, 20))
    assert hand.legal_actions().max_to == 1000
    assert hand.bet_or_raise_to(777).to == 777


def test_r_bet_4_fixed_limit_cap() -> None:
    """R-BET-4: a bet and three raises; pre-flop the big blind is the bet, so the fourth
    raise (to 100 in 10/20) is refused."""
    hand = play(
        "FT",
        [1000] * 3,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cbr 40", "p1 cbr 60", "p2 cbr 80"],
        blinds=(10, 20),
    )
    la = hand.legal_actions()
    assert not la.can_bet_or_raise and la.call_amount == 40
    with pytest.raises(IllegalActionError, match=r"^R-BET-4: the betting is capped"):
        hand.bet_or_raise_to(100)


def test_r_bet_4_cap_applies_heads_up_by_default_option_lifts_it() -> None:
    """R-BET-4 *default*: the cap holds heads-up; the table option lifts it."""
    actions = ["d dh p1 AhKh", "d dh p2 QsQd", "p2 cbr 40", "p1 cbr 60", "p2 cbr 80"]
    capped = play("FT", [1000] * 2, actions, blinds=(10, 20))
    assert not capped.legal_actions().can_bet_or_raise
    free = play("FT", [1000] * 2, actions, blinds=(10, 20), cap_heads_up=False)
    assert free.bet_or_raise_to(100).to == 100


INCOMPLETE_FL = [
    "d dh p1 AhKh",
    "d dh p2 2c7d",
    "d dh p3 QsQd",
    "d dh p4 9s9d",
    "p3 cc",
    "p4 cc",
    "p1 cc",
    "p2 cc",
    "d db 2h3h4h",
    "p1 cbr 20",
    "p2 cc",
]


def test_r_bet_5_short_all_in_does_not_reopen_fixed_limit() -> None:
    """R-BET-5: FL 10/20, on the flop p1 bets 20, p2 calls, p3 is all in for 29 (9 more,
    less than half a bet): p4, who has not acted, may complete to 40; after p4 only calls,
    p1 and p2 may call or fold but not raise."""
    hand = play("FT", [1000, 1000, 49, 1000], [*INCOMPLETE_FL, "p3 cbr 29"], blinds=(10, 20))
    assert hand.legal_actions().min_to == 40  # p4 may complete the bet
    hand.call(3)
    la = hand.legal_actions()
    assert la.seat == 0 and la.call_amount == 9 and not la.can_bet_or_raise
    with pytest.raises(IllegalActionError, match=r"^R-BET-5: "):
        hand.bet_or_raise_to(40)


def test_r_bet_5_all_in_of_half_a_bet_reopens() -> None:
    """R-BET-5: an all-in for half a bet or more counts as a full bet: p1 may re-raise to
    50 (30 + 20)."""
    hand = play(
        "FT", [1000, 1000, 50, 1000], [*INCOMPLETE_FL, "p3 cbr 30", "p4 cc"], blinds=(10, 20)
    )
    la = hand.legal_actions()
    assert la.seat == 0 and la.can_bet_or_raise and la.min_to == la.max_to == 50


INCOMPLETE_NL = [
    "d dh p1 AhKh",
    "d dh p2 2c7d",
    "d dh p3 QsQd",
    "p3 cc",
    "p1 cc",
    "p2 cc",
    "d db 2h3h4h",
    "p1 cbr 200",
    "p2 cc",
]


def test_r_bet_6_short_all_in_does_not_reopen_no_limit() -> None:
    """R-BET-6: NL 50/100, p1 bets 200, p2 calls, p3 is all in for 300 (a raise of 100,
    less than the 200 bet): p1 and p2 may only call or fold."""
    hand = play("NT", [10000, 10000, 400], [*INCOMPLETE_NL, "p3 cbr 300"], blinds=(50, 100))
    la = hand.legal_actions()
    assert la.seat == 0 and la.call_amount == 100 and not la.can_bet_or_raise
    with pytest.raises(IllegalActionError, match=r"^R-BET-6: "):
        hand.bet_or_raise_to(1000)
    hand.call(0)
    assert not hand.can_bet_or_raise_to(1000, 1)


def test_r_bet_6_full_all_in_raise_reopens() -> None:
    """R-BET-6: an all-in that is a full raise (to 400) reopens; the next raise is to 600."""
    hand = play("NT", [10000, 10000, 500], [*INCOMPLETE_NL, "p3 cbr 400"], blinds=(50, 100))
    assert hand.legal_actions().min_to == 600


def test_r_bet_1_check_facing_a_bet_is_refused_and_check_raise_allowed() -> None:
    """R-BET-1: no check facing a bet; check-raise is allowed."""
    hand = play(
        "NT",
        [1000] * 2,
        ["d dh p1 AhKh", "d dh p2 2c7d", "p2 cc", "p1 cc", "d db 2h3h4h", "p1 cc", "p2 cbr 40"],
        blinds=(10, 20),
    )
    with pytest.raises(IllegalActionError, match=r"^R-BET-1: p1 cannot check"):
        hand.check(0)
    assert hand.bet_or_raise_to(120, 0).kind is ActionKind.RAISE


def test_r_bet_7_everyone_folds_winner_takes_pot_unshown() -> None:
    """R-BET-7: when all but one fold, that player wins without showing; the uncalled
    part of the last bet goes back."""
    hand = play(
        "NT",
        [1000] * 3,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cbr 60", "p1 f", "p2 f"],
        blinds=(10, 20),
    )
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [-10, -20, 30]
    assert hand.shown == () and hand.result is not None
    assert hand.result.awards[0].uncontested


def test_r_bet_7_round_ends_when_bets_are_equal() -> None:
    """R-BET-7: the round ends when everyone acted and the bets are equal: no more
    actions, the flop is due."""
    hand = play(
        "NT",
        [1000] * 3,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cc", "p1 cc", "p2 cc"],
        blinds=(10, 20),
    )
    assert hand.actor is None and hand.phase is Phase.DEALING and hand.street.name == "flop"
    with pytest.raises(PhaseError, match=r"^R-BET-7"):
        hand.check()


def test_r_bet_8_order_of_action() -> None:
    """R-BET-8: pre-flop the seat left of the big blind acts first; after the flop the
    first active seat left of the button (here the big blind, the small blind folded)."""
    hand = play("NT", [1000] * 6, SIX, blinds=(10, 20))
    assert hand.actor == 2
    hand = play(
        "NT",
        [1000] * 6,
        [*SIX, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 f", "p2 cc", "d db 2h3h4h"],
        blinds=(10, 20),
    )
    assert hand.actor == 1


def test_r_bet_9_fixed_limit_sizes_hold_em() -> None:
    """R-BET-9: small bet on the flop, big bet on the turn and river."""
    hand = play(
        "FT",
        [1000] * 2,
        ["d dh p1 AhKh", "d dh p2 2c7d", "p2 cc", "p1 cc", "d db 2h3h4h"],
        blinds=(10, 20),
    )
    assert hand.legal_actions().min_to == hand.legal_actions().max_to == 20
    hand.bet_or_raise_to(20)
    hand.call()
    hand.deal_board(cards("9c")[0])
    with pytest.raises(
        BetSizeError, match=r"^R-BET-9: fixed limit: the bet or raise must be to 40"
    ):
        hand.bet_or_raise_to(20)
    assert hand.bet_or_raise_to(40).to == 40


def test_r_bet_10_out_of_turn_is_refused() -> None:
    """R-BET-10 (and R-ETQ-1): an action by a seat whose turn it is not is flagged."""
    hand = play("NT", [1000] * 6, SIX, blinds=(10, 20))
    with pytest.raises(OutOfTurnError, match=r"^R-BET-10: p5 acted out of turn; p3"):
        hand.fold(4)
    assert not hand.can_fold(4) and hand.can_fold(2)


def test_r_buy_5_table_stakes() -> None:
    """R-BUY-5: only the chips on the table play; a bet beyond them is refused."""
    hand = play(
        "NT",
        [100, 1000, 1000],
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cc"],
        blinds=(10, 20),
    )
    with pytest.raises(BetSizeError, match=r"^R-BUY-5: p1 has only 100"):
        hand.bet_or_raise_to(200)


def test_r_blind_1_r_pos_2_blinds_left_of_the_button() -> None:
    """R-BLIND-1, R-POS-2: the small blind (half the big) is posted by the first seat left
    of the button, the big blind by the second."""
    hand = Hand(game("NT"), Stakes.blind_game(4, 10, 20), [1000] * 4)
    assert [(p.seat, p.kind, p.amount) for p in hand.posts] == [
        (0, PostKind.BLIND, 10),
        (1, PostKind.BLIND, 20),
    ]
    assert hand.button == 3


def test_r_blind_2_big_blind_option() -> None:
    """R-BLIND-2: the blinds are live: when everyone calls, the big blind may still raise."""
    hand = play(
        "NT",
        [1000] * 3,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cc", "p1 cc"],
        blinds=(10, 20),
    )
    la = hand.legal_actions()
    assert la.seat == 1 and la.can_check and la.can_bet_or_raise and la.min_to == 40


def test_r_blind_4_dead_small_blind_is_not_part_of_the_bet() -> None:
    """R-BLIND-4: a returning player posts BB live plus SB dead: 20 counts as the bet,
    the 10 is in the pot only; the poster has the option like a big blind."""
    hand = play(
        "NT",
        [1000] * 4,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d", "p3 cc"],
        blinds=(10, 20, 0, 20),
        dead_blinds=(0, 0, 0, 10),
    )
    la = hand.legal_actions()
    assert la.seat == 3 and la.call_amount == 0 and la.can_check
    hand.check(3)
    hand.call(0)
    hand.check(1)
    assert hand.pot_total == 90 and hand.stacks[3] == 970


def test_r_blind_9_antes_are_not_part_of_the_bet() -> None:
    """R-BLIND-9: antes go to the pot but do not count toward calling."""
    hand = play(
        "NT", [1000] * 3, ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd"], blinds=(10, 20), antes=5
    )
    assert hand.legal_actions().call_amount == 20
    assert hand.pot_total == 45


def test_r_pos_4_heads_up_button_posts_small_blind_acts_first_then_last() -> None:
    """R-POS-4: heads-up the button (seat 1) posts the small blind and acts first
    pre-flop; after the flop seat 0 acts first."""
    hand = Hand(game("NT"), Stakes.blind_game(2, 10, 20), [1000] * 2)
    assert hand.bets == [20, 10]
    for seat, text in ((0, "AhKh"), (1, "QsQd")):
        for c in cards(text):
            hand.deal_hole(seat, c)
    assert hand.actor == 1
    hand.call(1)
    hand.check(0)
    for c in cards("2h3h4h"):
        hand.deal_board(c)
    assert hand.actor == 0


def test_r_blind_3_new_player_posts_a_live_big_blind_and_has_the_option() -> None:
    """R-BLIND-3: a new player in late position posts a big blind (live) and is dealt in;
    when the action reaches them unraised they may check or raise."""
    hand = play(
        "NT",
        [1000] * 5,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d", "d dh p5 8c8d",
         "p3 cc"],
        blinds=(10, 20, 0, 20),
    )  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 3 and la.can_check and la.min_to == 40


def test_r_blind_5_big_blind_live_plus_small_blind_dead() -> None:
    """R-BLIND-5: a new player who let the big blind pass posts BB live + SB dead; a raise
    to 60 costs them 40 more, not 50."""
    hand = play(
        "NT",
        [1000] * 5,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d", "d dh p5 8c8d",
         "p3 cbr 60"],
        blinds=(10, 20, 0, 20),
        dead_blinds=(0, 0, 0, 10, 0),
    )  # fmt: skip
    assert hand.legal_actions().call_amount == 40
    hand.call()
    assert hand.stacks[3] == 1000 - 10 - 60


def test_r_blind_7_missed_small_blind_posted_live() -> None:
    """R-BLIND-7 *seed*: a player who missed only the small blind posts it live: it counts
    toward their call of the big blind."""
    hand = play(
        "NT",
        [1000] * 5,
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d", "d dh p5 8c8d",
         "p3 cc"],
        blinds=(10, 20, 0, 10),
    )  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 3 and la.call_amount == 10


def test_r_bet_7_no_raise_when_nobody_can_cover_the_bet() -> None:
    """R-BET-7: the big blind is all in for 77 and the small blind has 1 chip left: no one
    could call a raise, so the button may only call the 77 (nobody could match the full
    100, R-BET-2) or fold."""
    hand = play("NT", [51, 77, 2494], ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd"],
                blinds=(50, 100))  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 2 and la.call_amount == 77 and not la.can_bet_or_raise
    with pytest.raises(IllegalActionError, match=r"^R-BET-7: every other player is all in"):
        hand.bet_or_raise_to(300)


def test_r_bet_6_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    """R-BET-6 (TDA: "an all-in, or cumulative short all-ins, totalling less than a full
    raise does not reopen"): p1 bets 200; all-ins to 300 and then 420 are each short of a
    full raise, but together p1 faces 220 more, a full raise, so p1 may raise again
    (to 620). PokerKit 0.7.7 does not reopen here."""
    hand = play(
        "NT",
        [10000, 10000, 400, 520],
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d", "p3 cc", "p4 cc",
         "p1 cc", "p2 cc", "d db 2h3h4h", "p1 cbr 200", "p2 cc", "p3 cbr 300", "p4 cbr 420"],
        blinds=(50, 100),
    )  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 0 and la.can_bet_or_raise and la.min_to == 620


def test_r_blind_4_short_stack_posts_the_live_blind_first() -> None:
    """R-BLIND-4: a returning player with 25 chips owing 20 live and 10 dead posts the
    live 20 first and 5 dead; the live part is the bet, and the player is all in."""
    hand = play(
        "NT",
        [1000, 1000, 1000, 25],
        ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "d dh p4 9s9d"],
        blinds=(10, 20, 0, 20),
        dead_blinds=(0, 0, 0, 10),
    )
    assert [(p.seat, p.kind, p.amount) for p in hand.posts if p.seat == 3] == [
        (3, PostKind.DEAD_BLIND, 5),
        (3, PostKind.BLIND, 20),
    ]
    assert hand.bets[3] == 20 and hand.stacks[3] == 0 and hand.pot_total == 55


def test_r_blind_4_stack_below_the_live_blind_posts_no_dead_part() -> None:
    """R-BLIND-4: with 15 chips owing 20 live and 10 dead, all 15 go to the live blind."""
    hand = play("NT", [1000, 1000, 1000, 15], blinds=(10, 20, 0, 20), dead_blinds=(0, 0, 0, 10))
    assert [(p.kind, p.amount) for p in hand.posts if p.seat == 3] == [(PostKind.BLIND, 15)]
    assert hand.bets[3] == 15 and hand.total[3] == 15


def test_r_bet_8_big_blind_seat_picks_the_pre_flop_opener() -> None:
    """R-BET-8: with ``Stakes.big_blind_seat`` set, pre-flop action starts left of that
    seat even when a late live post (R-BLIND-3) equals the big blind on an earlier seat."""
    blinds = (10, 20, 0, 20, 0)  # seat 1 is a new player's live post; seat 3 the big blind
    stakes = Stakes((0,) * 5, blinds, min_bet=20, small_bet=20, big_bet=40)
    plain = Hand(game("NT"), stakes, [1000] * 5)
    told = Hand(game("NT"), replace(stakes, big_blind_seat=3), [1000] * 5)
    for hand in (plain, told):
        for seat in range(5):
            hand.deal_hole(seat, UNKNOWN)
            hand.deal_hole(seat, UNKNOWN)
    assert plain.actor == 2  # left of the first of the equal blinds
    assert told.actor == 4  # left of the big blind the table named


def test_r_bet_8_big_blind_seat_must_be_a_seat() -> None:
    """R-POS-2: the named big blind seat must exist; stud has none (R-POS-5)."""
    stakes = replace(Stakes.blind_game(3, 10, 20), big_blind_seat=3)
    with pytest.raises(ConfigurationError, match=r"^R-POS-2: there is no p4"):
        Hand(game("NT"), stakes, [1000] * 3)
    stud = replace(Stakes.stud_game(3, 1, 2, 4, 8), big_blind_seat=0)
    with pytest.raises(ConfigurationError, match=r"^R-POS-5: stud has no big blind"):
        Hand(game("F7S"), stud, [1000] * 3)


def test_r_bet_4_fixed_limit_omaha_hi_lo_is_fixed_limit_and_capped() -> None:
    """R-BET-3, R-BET-4 (divergence D1): FO/8 bets the fixed size and caps at a bet and
    three raises (PokerKit's class of that name plays pot limit without a cap)."""
    hand = play(
        "FO/8",
        [1000] * 4,
        ["d dh p1 AhKh2c3c", "d dh p2 2d7d8s9s", "d dh p3 QsQdJcTc", "d dh p4 9h8h4c5c"],
        blinds=(10, 20),
    )
    la = hand.legal_actions()
    assert la.seat == 2 and la.min_to == la.max_to == 40
    hand.bet_or_raise_to(40)
    hand.bet_or_raise_to(60)
    hand.bet_or_raise_to(80)  # the big blind, then three raises: capped
    la = hand.legal_actions()
    assert la.seat == 1 and la.call_amount == 60 and not la.can_bet_or_raise
    with pytest.raises(IllegalActionError, match=r"^R-BET-4: the betting is capped"):
        hand.bet_or_raise_to(100)


def test_r_bet_1_fold_when_a_check_is_free_is_accepted() -> None:
    """R-BET-1 (divergence D2): a player who could check may still fold; the engine records
    what happened at the table (PokerKit refuses this fold)."""
    hand = play("NT", [1000] * 3, [*SIX[:3], "p3 cc", "p1 cc"], blinds=(10, 20))
    la = hand.legal_actions()
    assert la.seat == 1 and la.can_check and la.can_fold
    assert hand.fold(1).kind is ActionKind.FOLD
    assert hand.in_hand == (0, 2)


def test_r_bet_7_round_closes_when_nobody_left_could_call_a_bet() -> None:
    """R-BET-7 (divergence D13): the big blind is all in for 15 of 20; the button folds
    and the small blind calls the full 20 (R-BET-2). The small blind is the only player
    with chips and nobody could call a bet, so the round closes (PokerKit asks it to act
    once more)."""
    hand = play("NT", [1000, 15, 1000], SIX[:3], blinds=(10, 20))
    hand.fold(2)
    assert hand.legal_actions().call_amount == 10
    hand.call(0)
    assert hand.phase is Phase.DEALING and hand.street.name == "flop" and hand.actor is None


def test_r_bet_6_short_all_in_over_the_big_blind_does_not_reopen() -> None:
    """R-BET-6 (divergence D15): pre-flop at 50/100, the button calls 100 and the small
    blind is all in for 150, a raise of 50, short of the 100 minimum: the big blind, who
    has not acted, may raise; the button, who has, may only call or fold. (PokerKit counts
    the first wager of a round as full whatever its size and reopens.)"""
    hand = play("NT", [150, 10000, 10000], [*SIX[:3], "p3 cc", "p1 cbr 150"], blinds=(50, 100))
    la = hand.legal_actions()
    assert la.seat == 1 and la.can_bet_or_raise and la.min_to == 250
    hand.call(1)
    la = hand.legal_actions()
    assert la.seat == 2 and la.call_amount == 50 and not la.can_bet_or_raise
    with pytest.raises(IllegalActionError, match=r"^R-BET-6: "):
        hand.bet_or_raise_to(400)
