"""Scenario tests for dead, equal and short blinds (R-BLIND-2, R-BLIND-4, R-BET-2, R-BET-8).

Hands are short table scripts in PHH notation: ``p1`` sits left of the button (small
blind), ``p2`` is the big blind, the last seat is the button. A returning player who
missed both blinds posts the big blind live and the small blind dead (``dead_blinds``).
Hands are played to the end with :func:`~tests.support.table_play.play_out`: every bet
called, every street checked, the hands shown in turn.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hub.rules.dealing import UNKNOWN
from hub.rules.errors import BetSizeError, IllegalActionError
from hub.rules.games import Options, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.phh import dumps, from_hand, loads, replay_history
from tests.support.table_play import play_out
from tests.support.table_scripts import play, won

SIX = [
    "d dh p1 AhAd",
    "d dh p2 2c7d",
    "d dh p3 8s3d",
    "d dh p4 KsKd",
    "d dh p5 9c4h",
    "d dh p6 Jc5s",
]
BOARD = "QhTs6d3c2s"  # aces, then kings, then p3's threes, then p2's deuces
CALLED = ["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc"]
"""Pre-flop: everyone calls 20, the big blind checks."""
UNSEEN = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????"]
RETURNING = {"blinds": (10, 20, 0, 20, 0, 0), "dead_blinds": (0, 0, 0, 10, 0, 0)}
"""NL 10/20, six players: p4 is back after missing both blinds and posts 20 live + 10 dead."""


# ------------------------------------------------------------ dead blinds (fault 1)


def test_r_blind_4_dead_blind_is_lost_when_everyone_checks_down() -> None:
    """R-BLIND-4, R-POT-1 (issue 13 (a)): NL 10/20, six players; p4 comes back and posts
    20 live + 10 dead. Everyone calls 20, the big blind checks, and the hand is checked
    down; p1's aces beat p4's kings. The 10 dead are part of the one pot of 130: p4 loses
    30, p1 nets 110 (not 100 with the 10 handed back to p4 as a pot only he contests)."""
    hand = play("NT", [2000] * 6, [*SIX, *CALLED], **RETURNING)  # type: ignore[arg-type]
    assert hand.street.name == "flop" and hand.pot_total == 6 * 20 + 10
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(130, (0, 1, 2, 3, 4, 5))]
    play_out(hand, board=BOARD)
    assert won(hand) == [110, -20, -20, -30, -20, -20]
    assert len(hand.awards) == 1 and hand.awards[0].amount == 130


def test_r_blind_4_dead_blind_goes_to_the_main_pot_of_an_all_in_poster() -> None:
    """R-BLIND-4, R-POT-1 (issue 13 (b)): p4 has 50 and posts 20 live + 10 dead; p3 raises
    to 100, p4 calls all in for 40 live, the small blind folds, the big blind calls. The
    main pot is the 10 dead + 3 × 40 + the small blind's 10 = 140 (not 160: the dead 10
    do not lift p4's share); the side pot 2 × 60 = 120 is p2's and p3's. p4's kings win
    the main pot: +90; p1's folded small blind is lost."""
    hand = play(
        "NT",
        [2000, 2000, 2000, 50, 2000, 2000],
        [*SIX, "p3 cbr 100", "p4 cc", "p5 f", "p6 f", "p1 f", "p2 cc"],
        **RETURNING,  # type: ignore[arg-type]
    )
    assert hand.stacks[3] == 0 and hand.total[3] == 50
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(140, (1, 2, 3)), (120, (1, 2))]
    play_out(hand, board=BOARD)
    assert [(a.amount, [(s.seat, s.amount) for s in a.shares]) for a in hand.awards] == [
        (140, [(3, 140)]),
        (120, [(2, 120)]),  # p3's pair of threes beats p2's seven high
    ]
    assert won(hand) == [-10, -100, 20, 90, 0, 0]


def test_r_blind_4_folded_posters_dead_blind_stays_in_the_main_pot() -> None:
    """R-BLIND-4: the small blind p1 has only 20 and ends all in; p4 posts 20 live + 10
    dead and folds to p3's raise to 60, which p2 calls. The main pot p1 can win holds
    everyone's first 20 and p4's dead 10: 4 × 20 + 10 = 90 (before the fix p4's 30 was a
    level of 30 and only 20 of it reached the main pot). p1's aces win it."""
    hand = play(
        "NT",
        [20, 2000, 2000, 2000, 2000, 2000],
        [*SIX, "p3 cbr 60", "p4 f", "p5 f", "p6 f", "p1 cc", "p2 cc"],
        **RETURNING,  # type: ignore[arg-type]
    )
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(90, (0, 1, 2)), (80, (1, 2))]
    play_out(hand, board=BOARD)
    assert won(hand)[0] == 70 and won(hand)[3] == -30


def test_r_blind_4_poster_who_wins_nets_the_others_chips() -> None:
    """R-BLIND-4: the same check-down as the first test, but p4 holds the aces: he wins
    the 130 and nets 100 (his own 30 back, 20 from each of the other five)."""
    swapped = ["d dh p1 KsKd", *SIX[1:3], "d dh p4 AhAd", *SIX[4:]]
    hand = play("NT", [2000] * 6, swapped, **RETURNING)  # type: ignore[arg-type]
    play_out(hand, board=BOARD)
    assert won(hand) == [-20, -20, -20, 100, -20, -20]


def test_r_blind_4_uncalled_raise_comes_back_the_dead_blind_does_not() -> None:
    """R-BLIND-4, R-POT-1: p4 posts 20 live + 10 dead, raises all in to 300 and only the
    big blind, with 120, calls: the 180 nobody could call comes back to p4; the dead 10
    stay in the pot (10 + 20 + 120 + 120 + 10 = 280) and go to the big blind's best
    hand: p4 is down 130, the 10 dead included."""
    hand = play(
        "NT",
        [2000, 120, 2000, 310, 2000, 2000],
        ["d dh p1 9c4h", "d dh p2 AhAd", "d dh p3 8s3d", "d dh p4 KsKd", "d dh p5 2c7d",
         "d dh p6 Jc5s", "p3 f", "p4 cbr 300", "p5 f", "p6 f", "p1 f", "p2 cc"],
        **RETURNING,  # type: ignore[arg-type]
    )  # fmt: skip
    assert hand.stacks[3] == 180 and hand.pot_total == 10 + 120 + 120 + 10
    play_out(hand, board=BOARD)
    assert won(hand) == [-10, 140, 0, -130, 0, 0]


def test_r_blind_4_with_antes_the_poster_loses_ante_dead_and_live() -> None:
    """R-BLIND-4, R-BLIND-9: the check-down of the first test with an ante of 5: antes and
    the dead blind are not part of anyone's bet; p4 loses 5 + 10 + 20 = 35 and p1 nets
    5 × 25 + 10 = 135. (Equal antes by level and antes in the main pot come to the same.)"""
    for by_level in (True, False):
        hand = play(
            "NT",
            [2000] * 6,
            SIX,
            antes=5,
            antes_by_level=by_level,
            **RETURNING,  # type: ignore[arg-type]
        )
        assert hand.bets == [10, 20, 0, 20, 0, 0] and hand.pot_total == 6 * 5 + 10 + 20 + 20 + 10
        play_out(hand, board=BOARD)
        assert won(hand) == [135, -25, -25, -35, -25, -25]


def test_r_blind_4_dead_blind_in_a_phh_file_replays_the_same() -> None:
    """R-BLIND-4: the check-down of the first test written as PHH (``_dead_blinds``) reads
    back and replays to the same money."""
    hand = play("NT", [2000] * 6, SIX, **RETURNING)  # type: ignore[arg-type]
    play_out(hand, board=BOARD)
    text = dumps(from_hand(hand))
    assert "_dead_blinds" in text
    assert replay_history(loads(text)).stacks == hand.stacks


# ---------------------------------------------------------- equal blinds (fault 3)


def _deal(hand: Hand) -> Hand:
    for _ in range(2):
        for seat in range(hand.n):
            hand.deal_hole(seat, UNKNOWN)
    return hand


def test_r_bet_8_equal_blinds_left_of_the_big_blind_opens() -> None:
    """R-BET-8, R-BLIND-2 (issue 13): NL 20/20, four players. p1 posts the small blind of
    20, p2 the big blind of 20: p3 opens (not p2, who would lose its option). p3, p4 and
    p1 call; p2 has its option: it may check or raise."""
    hand = play("NT", [1000] * 4, UNSEEN, blinds=(20, 20))
    assert hand.actor == 2
    hand.call(2)
    hand.call(3)
    assert hand.legal_actions().seat == 0 and hand.legal_actions().can_check  # p1: 20 in
    hand.check(0)
    la = hand.legal_actions()
    assert la.seat == 1 and la.can_check and la.can_bet_or_raise and la.min_to == 40
    hand.check(1)
    assert hand.street.name == "flop" and hand.pot_total == 80


def test_r_bet_8_equal_blinds_heads_up_the_button_opens() -> None:
    """R-BET-8, R-POS-4: heads-up NL 20/20, the button posts the small blind and acts
    first pre-flop; the big blind has its option."""
    hand = play("NT", [1000, 1000], UNSEEN[:2], blinds=(20, 20))
    assert hand.actor == 1
    hand.check(1)
    assert hand.actor == 0 and hand.can_bet_or_raise_to(40)


def test_r_bet_8_big_blind_seat_told_wins_over_equal_posts() -> None:
    """R-BET-8: the small blind is dead; p1 is the big blind (20) and p2, back from a
    break, posts a live 20 (R-BLIND-3). The blinds alone read as 20/20 blinds, so the
    table names the big blind (``Stakes.big_blind_seat``): p2 opens, and has an option
    too when everyone calls (R-BLIND-2: its post is live)."""
    stakes = Stakes((0,) * 4, (20, 20, 0, 0), min_bet=20, small_bet=20, big_bet=40)
    told = _deal(Hand(game("NT"), replace(stakes, big_blind_seat=0), [1000] * 4))
    assert told.actor == 1
    assert told.can_check(1)
    told.check(1)
    told.call(2)
    told.call(3)
    assert told.actor == 0 and told.can_bet_or_raise_to(40)  # the big blind's option


def test_r_bet_8_big_blind_seat_is_read_from_the_first_run_of_blinds() -> None:
    """R-BET-8: without the table's word the big blind is the largest of the first run of
    posted blinds, the last of equal ones (as PHH files and PokerKit mean them); a late
    live post further round is never the big blind; a straddle right after it opens the
    action left of itself."""
    from hub.rules.hand import big_blind_seat

    assert big_blind_seat((10, 20, 0, 0, 0)) == 1
    assert big_blind_seat((20, 20, 0, 0, 0)) == 1
    assert big_blind_seat((10, 20, 0, 20, 0)) == 1
    assert big_blind_seat((0, 20, 0, 0)) == 1  # dead small blind
    assert big_blind_seat((20, 10)) == big_blind_seat((20, 20)) == 0  # heads-up
    straddle = Stakes((0,) * 5, (10, 20, 40, 0, 0), min_bet=20, small_bet=20, big_bet=40)
    assert _deal(Hand(game("NT"), straddle, [1000] * 5)).actor == 3
    told = replace(straddle, big_blind_seat=1)
    assert _deal(Hand(game("NT"), told, [1000] * 5)).actor == 3


def test_r_bet_8_big_blind_seat_in_a_phh_file() -> None:
    """R-BET-8: a hand whose big blind the blinds do not tell is written with
    ``_big_blind_seat`` (the player number) and replays with the same opener."""
    stakes = Stakes((0,) * 4, (20, 20, 0, 0), min_bet=20, small_bet=20, big_bet=40)
    hand = _deal(Hand(game("NT"), replace(stakes, big_blind_seat=0), [1000] * 4))
    for _ in range(3):
        hand.fold()
    text = dumps(from_hand(hand))
    assert "_big_blind_seat = 1" in text
    again = replay_history(loads(text))
    assert again.stacks == hand.stacks == [1020, 980, 1000, 1000]
    plain = from_hand(play("NT", [1000] * 3, blinds=(10, 20)))
    assert "_big_blind_seat" not in dumps(plain)


def test_r_bet_8_heads_up_equal_blinds_in_a_phh_file() -> None:
    """R-BET-8, R-POS-4: heads-up 20/20 the button (p2) posts the small blind and opens.
    PokerKit reads a file's equal blinds heads-up the other way (the button's as the big
    blind, p1 opens), so ours writes ``_big_blind_seat = 1``; a file without it — one
    PokerKit wrote — replays in PokerKit's order (it said "p1 acted out of turn")."""
    hand = play("NT", [1000, 1000], UNSEEN[:2], blinds=(20, 20))
    hand.check(1)
    hand.bet_or_raise_to(60, 0)
    hand.fold(1)
    text = dumps(from_hand(hand))
    assert "_big_blind_seat = 1" in text
    assert replay_history(loads(text)).stacks == hand.stacks == [1020, 980]
    pokerkit = "\n".join(
        [
            "variant = 'NT'",
            "antes = [0, 0]",
            "blinds_or_straddles = [4, 4]",
            "min_bet = 4",
            "starting_stacks = [723, 210]",
            "actions = ['d dh p1 Jd6h', 'd dh p2 4s8h', 'p1 cc', 'p2 cbr 8', 'p1 cbr 723', 'p2 f']",
            "finishing_stacks = [731, 202]",
        ]
    )
    assert replay_history(loads(pokerkit)).stacks == [731, 202]


# ---------------------------------------------------------- short blinds (fault 6)


def test_r_bet_2_short_all_in_big_blind_keeps_the_price_no_limit() -> None:
    """R-BET-2 *default* (issue 13): NL 10/20, the big blind p2 is all in for 15. p3 calls
    20 (not 15) and may raise to 40 at least (not 35). p3 calls, p4 raises to 40, p1
    folds, p3 calls: the main pot is 10 + 3 × 15 = 55, the side pot 2 × 25 = 50."""
    hand = play("NT", [1000, 15, 1000, 1000], UNSEEN, blinds=(10, 20))
    assert hand.posts[1].amount == 15 and hand.current_bet == 20
    la = hand.legal_actions()
    assert (la.seat, la.call_amount, la.min_to) == (2, 20, 40)
    with pytest.raises(BetSizeError, match=r"^R-BET-2: "):
        hand.bet_or_raise_to(35)
    assert hand.call(2).amount == 20
    assert hand.legal_actions().min_to == 40
    hand.bet_or_raise_to(40, 3)
    hand.fold(0)
    hand.call(2)
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(55, (1, 2, 3)), (50, (2, 3))]


def test_r_bet_2_short_all_in_big_blind_keeps_the_fixed_limit_levels() -> None:
    """R-BET-2 *default* (issue 13): FL 10/20, the big blind all in for 15: the bets go
    20, 40, 60, 80 (not 35, 55, 75), and 80 is the cap (R-BET-4)."""
    hand = play("FT", [1000, 15, 1000, 1000], UNSEEN, blinds=(10, 20), small_bet=20, big_bet=40)
    la = hand.legal_actions()
    assert (la.call_amount, la.min_to, la.max_to) == (20, 40, 40)
    hand.bet_or_raise_to(40, 2)
    assert hand.legal_actions().min_to == 60
    hand.bet_or_raise_to(60, 3)
    assert hand.legal_actions().min_to == 80
    hand.bet_or_raise_to(80, 0)
    with pytest.raises(IllegalActionError, match=r"^R-BET-4: "):
        hand.bet_or_raise_to(100, 2)
    assert hand.legal_actions().call_amount == 40


def test_r_bet_2_short_all_in_big_blind_pot_limit_maximum() -> None:
    """R-BET-3 with R-BET-2: PL 10/20, the big blind all in for 15. p3 calls 20 and may
    raise the pot: 10 + 15 + 20 = 45 more, to 65 (the chips in the pot, the full call)."""
    hand = play(
        "PO",
        [1000, 15, 1000, 1000],
        ["d dh p1 ????????", "d dh p2 ????????", "d dh p3 ????????", "d dh p4 ????????"],
        blinds=(10, 20),
    )
    la = hand.legal_actions()
    assert (la.call_amount, la.min_to, la.max_to) == (20, 40, 65)


def test_r_bet_2_short_all_in_big_blind_heads_up_is_called_for_what_it_has() -> None:
    """R-BET-2, R-BET-7: heads-up NL 10/20, the big blind all in for 15: nobody else could
    match a full 20, so the button completes to 15 — it is not asked for 5 that would only
    come back — and may not raise; the pot is 30."""
    hand = play("NT", [15, 1000], UNSEEN[:2], blinds=(10, 20))
    la = hand.legal_actions()
    assert (la.seat, la.call_amount, la.can_bet_or_raise) == (1, 5, False)
    hand.call(1)
    assert hand.phase is Phase.DEALING and hand.pot_total == 30 and hand.stacks[1] == 985
    # and when the big blind has no more than the small blind posted, nobody acts at all
    covered = play("NT", [10, 1000], UNSEEN[:2], blinds=(10, 20))
    assert covered.phase is Phase.DEALING and covered.pot_total == 20


def test_r_bet_2_short_small_blind_changes_nothing() -> None:
    """R-BET-2: the small blind all in for 5: the others still call 20 and raise to 40."""
    hand = play("NT", [5, 1000, 1000], UNSEEN[:3], blinds=(10, 20))
    la = hand.legal_actions()
    assert (la.seat, la.call_amount, la.min_to) == (2, 20, 40)


def test_r_bet_2_short_live_post_and_short_straddle() -> None:
    """R-BET-2: a returning player short of his live 20 (all in for 15, R-BLIND-4) leaves
    the price at the big blind's 20; a straddler all in for 35 of 40 leaves it at 40,
    the next raise to 80 at least."""
    hand = play(
        "NT", [1000, 1000, 1000, 15], UNSEEN, blinds=(10, 20, 0, 20), dead_blinds=(0, 0, 0, 10)
    )
    la = hand.legal_actions()
    assert (la.seat, la.call_amount, la.min_to) == (2, 20, 40)
    straddle = play("NT", [1000, 1000, 35, 1000], UNSEEN, blinds=(10, 20, 40))
    la = straddle.legal_actions()
    assert (la.seat, la.call_amount, la.min_to) == (3, 40, 80)


def test_r_bet_2_short_blind_price_in_a_phh_file() -> None:
    """R-BET-2: a hand with a short all-in big blind is written with
    ``_short_blinds_full_price = true`` and replays the same; a PHH file without it (as
    PokerKit plays, and files written before the rule) lets the short blind set the price:
    the call is 15."""
    hand = play("NT", [1000, 15, 1000], [*SIX[:3], "p3 cc", "p1 f"], blinds=(10, 20))
    assert hand.phase is Phase.DEALING and hand.pot_total == 10 + 15 + 15
    play_out(hand, board=BOARD)
    assert won(hand) == [-10, -15, 25]
    text = dumps(from_hand(hand))
    assert "_short_blinds_full_price = true" in text
    assert replay_history(loads(text)).stacks == hand.stacks
    old = loads(text.replace("_short_blinds_full_price = true\n", ""))
    assert old.options().short_blinds_full_price is False
    legacy = old.create_hand()
    for seat in range(3):
        legacy.deal_hole(seat, UNKNOWN)
        legacy.deal_hole(seat, UNKNOWN)
    assert legacy.legal_actions().call_amount == 15
    assert Options().short_blinds_full_price is True
    assert "_short_blinds_full_price" not in dumps(
        from_hand(play("NT", [1000] * 3, blinds=(10, 20)))
    )
