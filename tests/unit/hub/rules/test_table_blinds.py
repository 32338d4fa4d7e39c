"""Scenario tests across hands for the blinds (R-BLIND-1 … R-BLIND-9) and the misdeal.

Six-handed NL 10/20 unless said otherwise; the first hand has the button in seat 1, so
seat 2 posts the small blind and seat 3 the big blind, and the big blind moves one seat
each hand (dead-button rule, R-POS-3).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hub.rules.errors import ConfigurationError
from hub.rules.games import game
from hub.rules.hand import Hand, Phase, PostKind
from hub.rules.rake import Rake
from hub.rules.setup import HandSetup
from hub.rules.table import Entry, HandStarted, Owed, Table, TableConfig
from tests.support.table_play import (
    check_down,
    deal_all,
    fold_around,
    nl_table,
    play,
    play_out,
    posts,
    stacks,
)


def test_r_blind_1_every_hand_a_small_and_a_big_blind() -> None:
    """R-BLIND-1: a blind game needs both blinds, the small one at most the big one."""
    with pytest.raises(ConfigurationError, match=r"^R-BLIND-1: a blind game needs"):
        TableConfig(game("NT"), small_blind=30, big_blind=20)
    with pytest.raises(ConfigurationError, match=r"^R-BLIND-1"):
        TableConfig(game("NT"), small_blind=0, big_blind=20)
    table = nl_table(4)
    for i in range(4):
        setup = table.start_hand(now=i * 60.0, button=1 if i == 0 else None)
        assert sorted(posts(table).values()) == [(10, 0), (20, 0)]
        table.finish_hand(fold_around(setup))


def test_r_blind_2_blinds_are_live_the_big_blind_has_the_option() -> None:
    """R-BLIND-2: everyone calls 20; the small blind completes with 10 and the big blind
    may still raise (its option) or check."""
    table = nl_table(3)
    setup = table.start_hand(now=0.0, button=1)
    hand = setup.new_hand()
    deal_all(hand)
    assert hand.call().amount == 20  # seat 1, the button
    assert hand.call().amount == 10  # seat 2, the small blind: its 10 is part of its bet
    assert setup.seats[hand.actor or 0] == 3
    assert hand.can_check() and hand.can_bet_or_raise_to(40)
    hand.check()
    assert hand.pot_total == 60


def test_r_blind_3_new_player_posts_a_big_blind_at_once_live() -> None:
    """R-BLIND-3: five players; Eva sits in seat 6 after hand 1 and posts 20 at once. She
    is dealt in in hand 2, her 20 is live: when the others just call she may check."""
    table = nl_table(5)
    play(table, button=1)
    table.join(6, "Eva", 2000, now=60.0)
    setup = table.start_hand(now=60.0)
    assert setup.button == 2 and setup.seats == (3, 4, 5, 6, 1, 2)
    assert posts(table) == {3: (10, 0), 4: (20, 0), 6: (20, 0)}
    hand = setup.new_hand()
    deal_all(hand)
    assert setup.seats[hand.actor or 0] == 5  # still left of the big blind (seat 4)
    hand.call()  # seat 5
    assert setup.seats[hand.actor or 0] == 6
    assert hand.can_check() and hand.can_bet_or_raise_to(60)
    hand.check()
    table.finish_hand(play_out(hand))
    assert table.players[6].new is False and table.owes(6) is Owed.NOTHING


def test_r_blind_3_new_player_waits_for_the_big_blind() -> None:
    """R-BLIND-3: Eva sits in seat 6 and waits for the big blind: hands 2 and 3 go on
    without her; in hand 4 the big blind reaches seat 6 and she posts only it."""
    table = nl_table(5)
    play(table, button=1)
    table.join(6, "Eva", 2000, now=60.0, entry=Entry.WAIT_FOR_BIG_BLIND)
    for i in (2, 3):
        setup, _ = play(table, i * 60.0)
        assert 6 not in setup.seats
        started = [e for e in table.log if isinstance(e, HandStarted)]
        assert started[-1].waiting == (6,)
    setup = table.start_hand(now=240.0)
    assert 6 in setup.seats and posts(table) == {5: (10, 0), 6: (20, 0)}


def test_r_blind_4_seed_example_sits_out_two_hands_posts_bb_live_sb_dead() -> None:
    """R-BLIND-4: six players; seat 4 sits out for hands 2 and 3, so the big blind passes
    him. He comes back for hand 4: he posts 20 live + 10 dead and is dealt in at once.
    Everybody folds to the big blind (seat 1), who wins 10 + 20 + 20 + 10 = 60."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(4)
    s2, _ = play(table, 60.0)
    assert 4 not in s2.seats
    assert table.owes(4) is Owed.BOTH_BLINDS  # the big blind went from seat 3 to seat 5
    play(table, 120.0)
    table.come_back(4)
    setup = table.start_hand(now=180.0)
    assert setup.button == 5 and 4 in setup.seats
    assert posts(table) == {6: (10, 0), 1: (20, 0), 4: (20, 10)}
    hand = setup.new_hand()
    assert [(setup.seats[p.seat], p.kind, p.amount) for p in hand.posts] == [
        (4, PostKind.DEAD_BLIND, 10),
        (6, PostKind.BLIND, 10),
        (1, PostKind.BLIND, 20),
        (4, PostKind.BLIND, 20),
    ]
    before = stacks(table)
    done = table.finish_hand(fold_around_dealt(hand))
    after = dict(done.stacks)
    assert after[1] - before[1] == 40 and after[4] - before[4] == -30
    assert table.owes(4) is Owed.NOTHING


def fold_around_dealt(hand: Hand) -> Hand:
    """Deal and fold everyone to the last player."""
    deal_all(hand)
    while hand.phase is Phase.BETTING:
        hand.fold()
    return hand


def test_r_blind_4_comes_back_as_the_big_blind_reaches_him_posts_only_the_big_blind() -> None:
    """R-BLIND-4: seat 4 misses the big blind in hand 2, stays out for a full orbit and
    comes back just as the big blind reaches him again: he posts only the big blind."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(4)
    for i in range(2, 7):  # big blind: 5, 6, 1, 2, 3
        play(table, i * 60.0)
    assert table.big_blind_seat == 3 and table.owes(4) is Owed.BOTH_BLINDS
    table.come_back(4)
    table.start_hand(now=420.0)
    assert posts(table) == {3: (10, 0), 4: (20, 0)}


def test_r_blind_4_in_the_small_blind_zone_waits_for_the_button_to_pass() -> None:
    """R-BLIND-4 with R-BLIND-6: seat 4 is skipped by the big blind in hand 2 and comes
    back for hand 3, when he sits between the button (3) and the big blind (6): he waits
    a hand, then posts both blinds in hand 4."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(4)
    play(table, 60.0)
    table.come_back(4)
    s3, _ = play(table, 120.0)
    assert s3.button == 3 and 4 not in s3.seats
    table.start_hand(now=180.0)
    assert posts(table)[4] == (20, 10)


def test_r_blind_5_new_player_who_let_the_big_blind_pass_posts_both() -> None:
    """R-BLIND-5: Eva sits in seat 6 of a five-handed game but sits out; the big blind
    passes seat 6 in hand 4. Back for hand 6 (the button has passed her), she posts 20
    live + 10 dead; had she chosen to wait, she would be dealt in at her big blind."""
    table = nl_table(5)
    play(table, button=1)
    table.join(6, "Eva", 2000, now=60.0)
    table.sit_out(6)
    for i in (2, 3, 4):  # big blind 4, 5, then 1 (seat 6 skipped)
        play(table, i * 60.0)
    assert table.big_blind_seat == 1 and table.owes(6) is Owed.BOTH_BLINDS
    table.come_back(6)
    s5, _ = play(table, 300.0)  # button 5, big blind 2: seat 6 is between them
    assert 6 not in s5.seats
    setup = table.start_hand(now=360.0)
    assert 6 in setup.seats and posts(table)[6] == (20, 10)


def test_r_blind_5_or_waits_for_the_big_blind() -> None:
    """R-BLIND-5: the same, but Eva comes back waiting for the big blind: dealt in only
    when it reaches seat 6, posting just the big blind."""
    table = nl_table(5)
    play(table, button=1)
    table.join(6, "Eva", 2000, now=60.0)
    table.sit_out(6)
    for i in (2, 3, 4):
        play(table, i * 60.0)
    table.come_back(6, entry=Entry.WAIT_FOR_BIG_BLIND)
    dealt = []
    for i in range(5, 11):
        setup, _ = play(table, i * 60.0)
        dealt.append(6 in setup.seats)
    assert dealt == [False, False, False, False, True, True]
    assert table.owes(6) is Owed.NOTHING


def test_r_blind_6_new_player_between_button_and_big_blind_waits_for_the_button() -> None:
    """R-BLIND-6: seats 1, 2, 4, 5, 6 play; Eva takes the empty seat 3 when the button is
    on seat 2 and the big blind on seat 5: she is not dealt in. Next hand the button has
    passed her (button 4): she posts a live big blind and plays."""
    table = nl_table(0)
    for seat in (1, 2, 4, 5, 6):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    first, _ = play(table, button=1)
    assert first.stakes.blinds == (10, 20, 0, 0, 0)  # seats 2, 4, 5, 6, 1
    table.join(3, "Eva", 2000, now=60.0)
    s2, _ = play(table, 60.0)
    assert (s2.button, 3 in s2.seats) == (2, False)
    s3 = table.start_hand(now=120.0)
    assert s3.button == 4 and 3 in s3.seats
    assert posts(table) == {5: (10, 0), 6: (20, 0), 3: (20, 0)}


def test_r_blind_7_missed_only_the_small_blind_posts_a_live_small_blind() -> None:
    """R-BLIND-7 *seed*: seat 3 posts the big blind in hand 1 and sits out for hand 2,
    where the small blind is his: it is dead. He comes back for hand 3, on the button,
    and posts a live small blind of 10."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(3)
    s2, _ = play(table, 60.0)
    assert 3 not in s2.seats
    assert table.owes(3) is Owed.SMALL_BLIND
    assert s2.seats[0] == 4 and s2.stakes.blinds[:2] == (20, 0)  # no small blind
    table.come_back(3)
    setup = table.start_hand(now=120.0)
    assert setup.button == 3 and setup.seats[-1] == 3
    assert posts(table) == {4: (10, 0), 5: (20, 0), 3: (10, 0)}
    table.finish_hand(fold_around(setup))
    assert table.owes(3) is Owed.NOTHING


def test_r_blind_8_all_in_loser_makes_up_missed_blinds_before_rebuying() -> None:
    """R-BLIND-8: seat 4 goes all in and loses in hand 1 and rebuys only after the big
    blind passed him: he is not a new player; he waits while between the button and the
    big blind (hand 3) and then posts 20 live + 10 dead (hand 4)."""
    table = nl_table(4, stack=1000)
    setup = table.start_hand(now=0.0, button=1)  # SB 2, BB 3
    hand = setup.new_hand()
    hole = {setup.seats.index(4): "KhKc", setup.seats.index(1): "AhAc"}
    deal_all(hand, hole)
    hand.all_in()  # seat 4
    hand.call()  # seat 1
    hand.fold()
    hand.fold()
    table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"))
    assert table.players[4].stack == 0
    play(table, 60.0)  # the big blind moves from 3 to 1, passing seat 4
    assert table.owes(4) is Owed.BOTH_BLINDS
    table.add_chips(4, 1000, now=120.0)
    assert table.players[4].new is False
    s3, _ = play(table, 120.0)  # button 3, SB 1, BB 2: seat 4 sits between them
    assert 4 not in s3.seats
    setup = table.start_hand(now=180.0)  # button 1, SB 2, BB 3
    assert 4 in setup.seats and posts(table)[4] == (20, 10)


def test_r_blind_9_stud_always_antes_holdem_antes_optional() -> None:
    """R-BLIND-9: stud needs an ante; a hold'em table may add one. Antes are dead."""
    with pytest.raises(ConfigurationError, match=r"^R-BLIND-9: stud always has an ante"):
        TableConfig(game("F7S"), small_bet=10, big_bet=20)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, ante=5))
    for seat in (1, 2, 3):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    assert setup.stakes.antes == (5, 5, 5)
    hand = setup.new_hand()
    assert hand.pot_total == 45 and hand.bets == [10, 20, 0]
    done = table.finish_hand(fold_around(setup))
    assert dict(done.stacks) == {2: 1985, 3: 2020, 1: 1995}


def test_r_deal_6_misdeal_every_chip_back_the_button_stays() -> None:
    """R-DEAL-6 *default*: seat 5 misses the big blind (hand 3) and comes back; hand 5,
    where he posts both blinds, is misdealt: it is void, nobody's chips move, the
    button stays on seat 6 and he still owes (and posts) both blinds in the redeal,
    which is hand 6."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(5)
    play(table, 60.0)
    play(table, 120.0)  # hand 3: the big blind skips seat 5
    table.come_back(5)
    play(table, 180.0)  # hand 4: seat 5 waits, between the button (4) and the BB (1)
    before = stacks(table)
    setup = table.start_hand(now=240.0)
    assert posts(table)[5] == (20, 10) and setup.button == 6
    voided = table.misdeal()
    assert voided.rule == "R-DEAL-6" and stacks(table) == before
    assert table.owes(5) is Owed.BOTH_BLINDS
    redeal = table.start_hand(now=241.0)
    assert redeal.number == setup.number + 1 and redeal.button == setup.button
    assert redeal.seats == setup.seats and posts(table)[5] == (20, 10)


# ------------------------------------------- issue 13: dead, equal and short blinds


def _seed_hand_with_seat_4_back(table: Table) -> HandSetup:
    """The seed example's hands 1–3 (seat 4 sits out and the big blind passes him); hand
    4 starts with seat 4 posting 20 live + 10 dead (button 5, small blind 6, big blind 1)."""
    play(table, button=1)
    table.sit_out(4)
    play(table, 60.0)
    play(table, 120.0)
    table.come_back(4)
    setup = table.start_hand(now=180.0)
    assert posts(table) == {6: (10, 0), 1: (20, 0), 4: (20, 10)}
    return setup


HOLE = {1: "2c7d", 2: "8s3d", 3: "AhAd", 4: "KsKd", 5: "9c4h", 6: "Jc5s"}
BOARD = "QhTs6d3c2s"


def test_r_blind_4_returning_player_checks_down_and_loses_30() -> None:
    """R-BLIND-4, R-POT-1 (issue 13 (a)): the seed example's hand 4: seat 4 posts 20 live
    + 10 dead, everyone calls 20 and the hand is checked down; seat 3's aces beat seat 4's
    kings. Seat 4 loses 30 (his dead 10 are not handed back to him as a pot of his own),
    seat 3 nets 110, everyone else loses 20."""
    table = nl_table(6)
    setup = _seed_hand_with_seat_4_back(table)
    before = stacks(table)
    done = table.finish_hand(check_down(setup, HOLE, BOARD))
    net = {s: dict(done.stacks)[s] - before[s] for s in before}
    assert net == {1: -20, 2: -20, 3: 110, 4: -30, 5: -20, 6: -20}


def test_r_blind_4_with_a_rake_the_returning_player_pays_none_of_it() -> None:
    """R-BLIND-4 with the rake: the same hand at a table taking 10 % (no cap). The one pot
    of 130 is raked 13, all from the winner, seat 3 (+97); seat 4 loses his 30 and pays no
    rake on chips of his own handed back."""
    table = Table(
        TableConfig(game("NT"), small_blind=10, big_blind=20, rake=Rake(rate=Fraction(10, 100)))
    )
    for seat in range(1, 7):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    setup = _seed_hand_with_seat_4_back(table)
    before = stacks(table)
    done = table.finish_hand(check_down(setup, HOLE, BOARD))
    net = {s: dict(done.stacks)[s] - before[s] for s in before}
    assert done.rake == 13 and done.rake_by_seat == ((3, 13),)
    assert net == {1: -20, 2: -20, 3: 97, 4: -30, 5: -20, 6: -20}


def test_r_bet_8_equal_blinds_the_big_blind_keeps_its_option() -> None:
    """R-BET-8, R-BLIND-2 (issue 13): NL 20/20, four players, button 1: seat 2 posts the
    small blind of 20 and seat 3 the big blind of 20. Seat 4 acts first (not seat 3); seats
    4, 1 and 2 call, and seat 3 has its option: it raises to 60."""
    table = nl_table(4, sb=20, bb=20)
    setup = table.start_hand(now=0.0, button=1)
    assert posts(table) == {2: (20, 0), 3: (20, 0)}
    hand = setup.new_hand()
    deal_all(hand)
    order = []
    while hand.actor is not None and setup.seats[hand.actor] != 3:
        order.append(setup.seats[hand.actor])
        hand.check_or_call()
    assert order == [4, 1, 2]
    assert hand.can_check() and hand.can_bet_or_raise_to(40)
    hand.bet_or_raise_to(60)
    assert setup.seats[hand.actor or 0] == 4 and hand.legal_actions().call_amount == 40
    assert setup.stakes.big_blind_seat == setup.seats.index(3)  # the table said so


def test_r_bet_8_live_post_left_of_the_big_blind_reads_like_a_straddle() -> None:
    """R-BET-8, R-BLIND-4: five players. Seat 5 sits out in hand 3 (the big blind skips
    him, 4 to 1), seat 2 in hand 4, and seat 5 comes back for hand 5 (button 1, small
    blind 3, big blind 4): he posts 20 live + 10 dead right after the big blind, so the
    live blinds read 10, 20, 20 like a straddle of 20. The table names seat 4 the big
    blind: seat 5 opens and may check (his 20 are live, R-BLIND-2), and seat 4 keeps the
    option when everyone calls."""
    table = nl_table(5)
    play(table, button=1)
    play(table, 60.0)
    table.sit_out(5)
    play(table, 120.0)
    table.sit_out(2)
    play(table, 180.0)
    table.come_back(5)
    setup = table.start_hand(now=240.0)
    assert setup.seats == (3, 4, 5, 1) and posts(table) == {3: (10, 0), 4: (20, 0), 5: (20, 10)}
    assert setup.stakes.big_blind_seat == 1
    hand = setup.new_hand()
    deal_all(hand)
    assert setup.seats[hand.actor or 0] == 5 and hand.can_check()
    hand.check()
    hand.call()  # seat 1
    hand.call()  # seat 3, the small blind
    assert setup.seats[hand.actor or 0] == 4 and hand.can_bet_or_raise_to(40)


def test_r_bet_2_short_all_in_big_blind_at_the_table() -> None:
    """R-BET-2 *default* (issue 13): NL 10/20, button 1; seat 3 sat down with 15 (the
    table's minimum buy-in is 10) and posts the big blind all in for 15. Seat 4 must call
    20 and may raise to 40 at least; everyone calls and the hand is checked down. Seat 3's
    aces win the main pot of 4 × 15 = 60 (+45); the side pot of the 5 each the other
    three put in over 15 goes to seat 4's kings (-5); seats 1 and 2 lose 20."""
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, min_buy_in=10))
    for seat in range(1, 5):
        table.join(seat, f"P{seat}", 15 if seat == 3 else 2000, now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    assert setup.seats == (2, 3, 4, 1)
    hand = setup.new_hand()
    deal_all(hand, {setup.seats.index(s): c for s, c in HOLE.items() if s in setup.seats})
    la = hand.legal_actions()
    assert (setup.seats[la.seat], la.call_amount, la.min_to) == (4, 20, 40)
    before = stacks(table)
    done = table.finish_hand(play_out(hand, board=BOARD))
    net = {s: dict(done.stacks)[s] - before[s] for s in before}
    assert net == {1: -20, 2: -20, 3: 45, 4: -5}
