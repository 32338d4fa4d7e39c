"""Scenario tests across hands for the button and positions (R-POS-1 … R-POS-5).

Seats are the table's ``1 … 10``, clockwise; the hand engine's seats are ``0 … n-1``
from the first seat dealt in left of the button (``setup.seats`` maps them).
"""

from __future__ import annotations

from collections import Counter

from hub.rules.games import game
from hub.rules.hand import Hand, Phase
from hub.rules.table import ButtonRule, HandStarted, Table, TableConfig, TableRules
from tests.support.table_play import deal_all, fold_around, nl_table, play, play_out, posts


def test_r_pos_1_six_players_a_full_orbit_everyone_pays_each_blind_once() -> None:
    """R-POS-1: six players, nobody moves: over six hands the button visits every seat
    once, clockwise, and each player posts the small and the big blind exactly once."""
    table = nl_table(6)
    buttons, small, big = [], Counter[int](), Counter[int]()
    for i in range(6):
        setup = table.start_hand(now=i * 60.0, button=1 if i == 0 else None)
        buttons.append(setup.button)
        for seat, (live, _) in posts(table).items():
            (small if live == 10 else big)[seat] += 1
        table.finish_hand(fold_around(setup))
    assert buttons == [1, 2, 3, 4, 5, 6]
    assert small == big == Counter(range(1, 7))
    # every hand the big blind collected the small blind: +10 and -10 cancel out
    assert {p.stack for p in table.players.values()} == {2000}


def test_r_pos_2_small_blind_left_of_the_button_big_blind_two_left() -> None:
    """R-POS-2: the button in seat 4; seat 5 posts the small blind, seat 6 the big blind,
    the deal starts at the small blind and the button gets the last card."""
    table = nl_table(6)
    setup = table.start_hand(now=0.0, button=4)
    assert setup.seats == (5, 6, 1, 2, 3, 4)
    assert posts(table) == {5: (10, 0), 6: (20, 0)}
    assert setup.stakes.blinds == (10, 20, 0, 0, 0, 0)
    hand = setup.new_hand()
    deal_all(hand)
    assert setup.seats[hand.actor or 0] == 1  # first to act: left of the big blind
    done = table.finish_hand(fold_around_from(hand))
    assert dict(done.stacks)[6] == 2010 and dict(done.stacks)[5] == 1990


def fold_around_from(hand: Hand) -> Hand:
    """Fold the rest of a hand already dealt."""
    while hand.phase is Phase.BETTING:
        hand.fold()
    return hand


def test_r_pos_3_dead_button_big_blind_leaves_small_blind_then_button_are_dead() -> None:
    """R-POS-3 *default*: six players, the big blind (seat 3) leaves after hand 1. Hand 2:
    the big blind moves one seat to seat 4, nobody posts the small blind (seat 3 is
    empty) and the button moves to seat 2. Hand 3: the button sits in front of the empty
    seat 3 (dead button), seat 4 posts the small blind and seat 5 the big blind."""
    table = nl_table(6)
    play(table, button=1)
    table.leave(3, now=60.0)
    s2, _ = play(table, 60.0)
    assert (s2.button, table.current) == (2, None)
    started = [e for e in table.log if isinstance(e, HandStarted)][-1]
    assert started.small_blind is None and started.big_blind == 4
    assert s2.seats == (4, 5, 6, 1, 2) and s2.stakes.blinds == (20, 0, 0, 0, 0)
    s3 = table.start_hand(now=120.0)
    assert s3.button == 3 and 3 not in s3.seats
    assert s3.seats == (4, 5, 6, 1, 2)
    assert posts(table) == {4: (10, 0), 5: (20, 0)}
    # the button player of hand 2 (seat 2) acts last after the flop again in hand 3
    assert s3.seats[-1] == 2


def test_r_pos_3_option_moving_button_jumps_to_the_next_player() -> None:
    """R-POS-3 option "moving button": the same departure; the button moves on to the
    next player (seat 2) and the blinds are the next two players, none dead."""
    rules = TableRules(button=ButtonRule.MOVING_BUTTON)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rules=rules))
    for seat in range(1, 7):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    play(table, button=1)
    table.leave(3, now=60.0)
    s2, _ = play(table, 60.0)
    assert s2.button == 2 and s2.seats == (4, 5, 6, 1, 2)
    assert s2.stakes.blinds == (10, 20, 0, 0, 0)
    s3 = table.start_hand(now=120.0)
    assert s3.button == 4 and posts(table) == {5: (10, 0), 6: (20, 0)}


def test_r_pos_4_heads_up_button_posts_small_blind_acts_first_then_last() -> None:
    """R-POS-4 *default*: two players, seats 2 and 5, the button in seat 2. Seat 2 posts
    the small blind and acts first before the flop; after the flop seat 5 acts first."""
    table = nl_table(0)
    table.join(2, "Ann", 2000, now=0.0)
    table.join(5, "Bob", 2000, now=0.0)
    setup = table.start_hand(now=0.0, button=2)
    assert setup.seats == (5, 2) and setup.button == 2
    assert posts(table) == {2: (10, 0), 5: (20, 0)}
    assert table.current is not None and table.current.heads_up
    hand = setup.new_hand()
    deal_all(hand)
    assert setup.seats[hand.actor or 0] == 2  # the button acts first pre-flop
    hand.call()
    hand.check()
    deal_all(hand)
    assert setup.seats[hand.actor or 0] == 5  # and last after the flop
    table.finish_hand(play_out(hand))  # checked down to the showdown
    nxt = table.start_hand(now=60.0)
    assert nxt.button == 5 and posts(table) == {5: (10, 0), 2: (20, 0)}


def test_r_pos_4_three_players_become_two_nobody_posts_big_blind_twice() -> None:
    """R-POS-4: three players; the button (seat 1) leaves after hand 1, in which seat 3
    was the big blind. Heads-up, the big blind moves on to seat 2 and seat 3 takes the
    button and the small blind."""
    table = nl_table(3)
    play(table, button=1)
    table.leave(1, now=60.0)
    setup, done = play(table, 60.0)
    assert setup.button == 3 and setup.seats == (2, 3)
    assert setup.stakes.blinds == (20, 10)
    assert dict(done.stacks) == {2: 2000, 3: 2000}  # seat 2 lost 10 in hand 1, won 10 now


def test_r_pos_5_stud_no_blinds_antes_from_left_of_the_house_dealer() -> None:
    """R-POS-5: seven-card stud 5/10 with a 1 ante; no blinds, every player antes, and
    the deal starts left of the house dealer (seat 1) in every hand."""
    cfg = TableConfig(game("F7S"), ante=1, bring_in=2, small_bet=5, big_bet=10)
    table = Table(cfg)
    for seat in (2, 4, 7):
        table.join(seat, f"P{seat}", 200, now=0.0)
    for i in range(2):
        setup, done = play(table, i * 60.0)
        assert setup.seats == (2, 4, 7) and setup.button == 10
        assert setup.stakes.blinds == (0, 0, 0) and setup.stakes.antes == (1, 1, 1)
        assert table.current is None and done.number == i + 1
    assert sum(p.stack for p in table.players.values()) == 600


def test_r_pos_5_players_deal_the_dealer_position_moves_like_a_button() -> None:
    """R-POS-5: when the players deal, the dealer position moves one player each hand."""
    rules = TableRules(stud_house_dealer=False)
    cfg = TableConfig(game("F7S"), ante=1, bring_in=2, small_bet=5, big_bet=10, rules=rules)
    table = Table(cfg)
    for seat in (2, 4, 7):
        table.join(seat, f"P{seat}", 200, now=0.0)
    order = [play(table, i * 60.0)[0] for i in range(3)]
    assert [s.button for s in order] == [2, 4, 7]
    assert order[0].seats == (4, 7, 2)


def test_r_pos_4_option_no_fixed_limit_cap_heads_up_reaches_every_hand() -> None:
    """R-BET-4 *default* caps heads-up too; the table option is handed to every hand."""
    rules = TableRules(cap_heads_up=False)
    cfg = TableConfig(game("FT"), small_blind=10, big_blind=20, rules=rules)
    table = Table(cfg)
    table.join(1, "Ann", 400, now=0.0)
    table.join(2, "Bob", 400, now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    assert setup.options.cap_heads_up is False
    assert setup.stakes.small_bet == 20 and setup.stakes.big_bet == 40
