"""Scenario tests for the misdeal across hands (R-DEAL-6 *default*): the hand is void,
every chip goes back, the button does not move — the redeal has the same button, the
same blinds posted by the same players, every time.

Six-handed NL 10/20 with 2000 each unless said otherwise.
"""

from __future__ import annotations

import pytest

from hub.rules.games import game
from hub.rules.table import ButtonRule, Owed, Table, TableConfig, TableError, TableRules
from hub.rules.tournament import Level, Tournament
from tests.support.table_play import fold_around, nl_table, play, posts, stacks

MINUTE = 60.0


def test_r_deal_6_misdeal_of_the_first_hand_keeps_the_drawn_button() -> None:
    """R-DEAL-6: the draw puts the button on seat 4; seat 5 posts 10, seat 6 posts 20,
    and the first hand is misdealt. The redeal (hand 2) has the button on seat 4 again —
    not seat 1 — and the same blinds; everyone has their 2000 back. Seat 1 then folds
    around to the big blind: seat 6 wins the 10 of seat 5, and the button moves on to
    seat 5 for hand 3."""
    table = nl_table(6)
    first = table.start_hand(now=0.0, button=4)
    assert posts(table) == {5: (10, 0), 6: (20, 0)}
    voided = table.misdeal()
    assert voided.number == 1 and voided.rule == "R-DEAL-6"
    assert stacks(table) == dict.fromkeys(range(1, 7), 2000)
    redeal = table.start_hand(now=1.0)
    assert (redeal.number, redeal.button, redeal.seats) == (2, 4, first.seats)
    assert posts(table) == {5: (10, 0), 6: (20, 0)}
    done = table.finish_hand(fold_around(redeal))
    assert dict(done.stacks) == {5: 1990, 6: 2010, 1: 2000, 2: 2000, 3: 2000, 4: 2000}
    third = table.start_hand(now=MINUTE)
    assert third.button == 5 and posts(table) == {6: (10, 0), 1: (20, 0)}


def test_r_deal_6_two_misdeals_in_a_row_and_a_redeal_with_the_button_placed_again() -> None:
    """R-DEAL-6: the first hand (button seat 3) is misdealt twice in a row; the third
    deal still has the button on seat 3. Placing the button again on seat 3 is fine; on
    another seat it is refused — a misdeal never moves the button."""
    table = nl_table(4)
    table.start_hand(now=0.0, button=3)
    table.misdeal()
    assert table.start_hand(now=1.0).button == 3
    table.misdeal()
    with pytest.raises(TableError, match=r"^R-DEAL-6: a misdeal does not move the button"):
        table.start_hand(now=2.0, button=1)
    third = table.start_hand(now=2.0, button=3)
    assert (third.number, third.button) == (3, 3)
    assert posts(table) == {4: (10, 0), 1: (20, 0)}


def test_r_deal_6_heads_up_first_hand_misdealt_the_button_still_posts_the_small_blind() -> None:
    """R-DEAL-6, R-POS-4: heads-up, the draw gives seat 2 the button (it posts the small
    blind 10, seat 1 the big blind 20). After the misdeal the redeal is the same; seat 2
    folds: seat 1 has 2010, seat 2 1990."""
    table = nl_table(2)
    table.start_hand(now=0.0, button=2)
    table.misdeal()
    redeal = table.start_hand(now=1.0)
    assert redeal.button == 2 and posts(table) == {2: (10, 0), 1: (20, 0)}
    table.finish_hand(fold_around(redeal))
    assert stacks(table) == {1: 2010, 2: 1990}


def test_r_deal_6_the_drawn_button_leaves_before_the_redeal() -> None:
    """R-DEAL-6: the button (seat 4) of a misdealt first hand leaves before the redeal:
    the button goes to the next player clockwise, seat 5 (nobody else moves ahead)."""
    table = nl_table(6)
    table.start_hand(now=0.0, button=4)
    table.misdeal()
    table.leave(4, now=1.0)
    redeal = table.start_hand(now=1.0)
    assert redeal.button == 5 and posts(table) == {6: (10, 0), 1: (20, 0)}


def test_r_deal_6_two_misdeals_of_a_later_hand_with_a_dead_small_blind() -> None:
    """R-DEAL-6 with the dead-button rule (R-POS-3): hand 1 has the button on seat 1, the
    big blind on seat 3; seat 3 then leaves. Hand 2: big blind seat 4, the small blind
    (seat 3) is dead, the button on seat 2. It is misdealt twice; the third deal still has
    the button on seat 2, no small blind and seat 4's big blind, and seat 4 wins it."""
    table = nl_table(6)
    play(table, button=1)
    table.leave(3, now=MINUTE)
    hand2 = table.start_hand(now=MINUTE)
    started = table.current
    assert started is not None
    assert (hand2.button, started.small_blind, started.big_blind) == (2, None, 4)
    before = stacks(table)
    for i in range(2):
        table.misdeal()
        assert stacks(table) == before
        redeal = table.start_hand(now=MINUTE + i + 1)
        started = table.current
        assert started is not None
        assert (redeal.button, started.small_blind, started.big_blind) == (2, None, 4)
        assert posts(table) == {4: (20, 0)}
    done = table.finish_hand(fold_around(redeal))
    assert dict(done.stacks)[4] == before[4]  # only its own big blind was in the pot


def test_r_deal_6_a_returning_player_owes_the_same_posts_in_the_redeal() -> None:
    """R-DEAL-6, R-BLIND-4: seat 5 sat out through the big blind and comes back posting
    20 live + 10 dead; that hand is misdealt twice. Each redeal has him post the same 20
    + 10 (the voided posts came back), and only the hand played counts: he folds, so he
    loses 30 and the big blind (seat 1) wins 10 + 10 dead + 20."""
    table = nl_table(6)
    play(table, button=1)
    table.sit_out(5)
    play(table, MINUTE)
    play(table, 2 * MINUTE)  # hand 3: the big blind skips seat 5
    table.come_back(5)
    play(table, 3 * MINUTE)  # hand 4: seat 5 waits, between the button and the big blind
    before = stacks(table)
    first = table.start_hand(now=4 * MINUTE)
    for i in range(2):
        table.misdeal()
        assert table.owes(5) is Owed.BOTH_BLINDS and stacks(table) == before
        redeal = table.start_hand(now=4 * MINUTE + i + 1)
        assert redeal.button == first.button == 6 and posts(table)[5] == (20, 10)
    table.finish_hand(fold_around(redeal))
    after = stacks(table)
    assert after[5] == before[5] - 30
    assert table.owes(5) is Owed.NOTHING


def test_r_deal_6_moving_button_misdeal_keeps_the_button() -> None:
    """R-DEAL-6 with the moving-button option: hand 2 (button seat 2) is misdealt; the
    redeal's button is seat 2 again and the next hand's seat 3."""
    rules = TableRules(button=ButtonRule.MOVING_BUTTON)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rules=rules))
    for seat in range(1, 5):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    play(table, button=1)
    assert table.start_hand(now=MINUTE).button == 2
    table.misdeal()
    setup, _ = play(table, MINUTE + 1)
    assert setup.button == 2
    assert table.start_hand(now=2 * MINUTE).button == 3


def test_r_deal_6_tournament_first_hand_misdealt_keeps_the_drawn_button() -> None:
    """R-DEAL-6 in a tournament: the draw gives seat 3 the button; the first hand is
    misdealt; the redeal has the button on seat 3 and the blinds on seats 1 and 2."""
    t = Tournament([Level(10, 20, minutes=15)], starting_stack=1000)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20), tournament=t)
    for seat in (1, 2, 3):
        table.join(seat, f"P{seat}", 1000, now=0.0)
    t.start(now=0.0)
    table.start_hand(now=0.0, button=3)
    table.misdeal()
    redeal = table.start_hand(now=1.0)
    assert redeal.button == 3 and posts(table) == {1: (10, 0), 2: (20, 0)}
