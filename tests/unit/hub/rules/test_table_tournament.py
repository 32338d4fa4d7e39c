"""Tournament mode (seed 003: the blinds rise on a schedule; antes come late, R-BLIND-9)."""

from __future__ import annotations

import pytest

from hub.rules.errors import PhaseError
from hub.rules.games import game
from hub.rules.table import BuyInError, Table, TableConfig
from hub.rules.tournament import Level, Tournament
from tests.support.table_play import deal_all, play, play_out, posts

MIN = 60.0
LEVELS = [Level(10, 20, minutes=15), Level(20, 40, minutes=15), Level(50, 100, 10, minutes=15)]


def tournament_table(players: int = 3) -> tuple[Table, Tournament]:
    t = Tournament(LEVELS, starting_stack=1000)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20), tournament=t)
    for seat in range(1, players + 1):
        table.join(seat, f"P{seat}", 1000, now=0.0)
    return table, t


def test_blinds_rise_with_the_clock_and_the_next_hand_picks_them_up() -> None:
    """Level 1 (10/20) for 15 minutes, then 20/40: a hand started at 14:59 keeps 10/20,
    the next one, started at 15:00, posts 20/40; level 3 adds a 10 ante."""
    table, t = tournament_table()
    t.start(now=0.0)
    s1, _ = play(table, 14 * MIN + 59, button=1)
    assert s1.stakes.blinds == (10, 20, 0)
    assert t.level_number(15 * MIN) == 2 and t.time_left(15 * MIN) == 15 * MIN
    s2 = table.start_hand(now=15 * MIN)
    assert sorted(posts(table).values()) == [(20, 0), (40, 0)] and s2.stakes.min_bet == 40
    table.misdeal()
    s3, _ = play(table, 31 * MIN)
    assert s3.stakes.antes == (10, 10, 10) and max(s3.stakes.blinds) == 100
    assert t.level_number(10_000 * MIN) == 3  # the last level runs on


def test_pause_and_resume_stop_the_levels() -> None:
    """The clock pauses at 10:00 for a 30-minute break: at 40:00 it is still level 1 with
    5 minutes left; after the resume level 2 starts at 45:00."""
    t = Tournament(LEVELS, starting_stack=1000)
    t.start(now=0.0)
    paused = t.pause(now=10 * MIN)
    assert (paused.level, paused.time_left) == (1, 5 * MIN)
    assert t.level_number(40 * MIN) == 1 and not t.can_pause(41 * MIN)
    with pytest.raises(PhaseError, match=r"^R-BLIND-1: the tournament clock is not running"):
        t.pause(now=41 * MIN)
    t.resume(now=40 * MIN)
    assert t.time_left(40 * MIN) == 5 * MIN and t.level_number(45 * MIN) == 2
    with pytest.raises(PhaseError, match=r"^R-BLIND-1: time went backwards"):
        t.pause(now=39 * MIN)


def test_players_bust_out_with_finishing_places() -> None:
    """Three players; seat 3 goes all in with kings and loses to aces: third place. Heads
    up, seat 1 busts seat 2: seat 1 wins. No rebuys in a freezeout."""
    table, t = tournament_table()
    t.start(now=0.0)
    setup = table.start_hand(now=MIN, button=1)  # SB 2, BB 3, button 1 acts first
    hand = setup.new_hand()
    hole = {setup.seats.index(1): "AhAc", setup.seats.index(3): "KhKc"}
    deal_all(hand, hole)
    hand.all_in()  # seat 1
    hand.fold()  # seat 2
    hand.call()  # seat 3, all in
    done = table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"), now=MIN)
    assert done.busted == (3,)
    assert [(e.player, e.place) for e in done.eliminations] == [("P3", 3)]
    assert 3 not in table.players and t.places == {"P3": 3}
    with pytest.raises(BuyInError, match=r"^R-BUY-4: no chips can be bought"):
        table.add_chips(2, 500, now=MIN)
    setup = table.start_hand(now=2 * MIN)
    assert len(setup.seats) == 2 and table.current is not None and table.current.heads_up
    hand = setup.new_hand()
    hole = {setup.seats.index(1): "AsAd", setup.seats.index(2): "QsQd"}
    deal_all(hand, hole)
    while hand.actor is not None and setup.seats[hand.actor] != 2:
        hand.check_or_call()
    hand.all_in()
    hand.call()
    done = table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"), now=2 * MIN)
    assert t.places == {"P3": 3, "P2": 2, "P1": 1}


def test_sitting_out_players_are_blinded_off_and_seats_need_the_starting_stack() -> None:
    """An absent player is still dealt in (the dealer folds for them); a seat comes with
    exactly the starting stack."""
    table, t = tournament_table()
    with pytest.raises(BuyInError, match=r"^R-BUY-1: a buy-in must be at least 1000"):
        table.join(4, "Late", 500, now=0.0)
    table.sit_out(2)
    t.start(now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    assert 2 in setup.seats and posts(table)[2] == (10, 0)


def test_same_hand_busts_bigger_starting_stack_finishes_higher() -> None:
    """Two players bust in one hand: the one who started it with more chips places higher."""
    t = Tournament(LEVELS, starting_stack=1000)
    out = t.eliminate([("Small", 300), ("Big", 700)], remaining=2, hand=9, now=0.0)
    assert [(e.player, e.place) for e in out] == [("Big", 3), ("Small", 4)]
    tie = t.eliminate([("A", 500), ("B", 500)], remaining=1, hand=10, now=0.0)
    assert [e.place for e in tie] == [2, 2]
