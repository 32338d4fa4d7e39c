"""Scenario tests for buy-ins, table stakes, the chip unit and the rake (R-BUY-1 … R-BUY-6)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hub.rules.errors import ConfigurationError, RulesError
from hub.rules.games import game
from hub.rules.rake import Rake
from hub.rules.table import (
    BuyInError,
    ChipsAdded,
    ChipsDelivered,
    HandInProgressError,
    Override,
    Table,
    TableConfig,
    TableRules,
)
from tests.support.table_play import (
    check_down,
    deal_all,
    fold_around,
    nl_table,
    play,
    play_out,
    stacks,
)

MINUTE = 60.0


def fl_table() -> Table:
    """Fixed-limit hold'em 10/20 blinds, 20/40 bets."""
    return Table(TableConfig(game("FT"), small_blind=10, big_blind=20, small_bet=20, big_bet=40))


def test_r_buy_1_fixed_limit_minimum_ten_big_bets_no_maximum() -> None:
    """R-BUY-1: fixed limit 20/40: the minimum buy-in is 400 (10 × 40) and there is no
    maximum."""
    table = fl_table()
    limits = table.buy_in_limits("Eva", now=0.0)
    assert (limits.minimum, limits.maximum, limits.rule) == (400, None, "R-BUY-1")
    with pytest.raises(BuyInError, match=r"^R-BUY-1: a buy-in must be at least 400, not 399"):
        table.join(1, "Eva", 399, now=0.0)
    assert table.join(1, "Eva", 100_000, now=0.0).buy_in == 100_000
    assert table.can_join(2, "Jan", 400, now=0.0)


def test_r_buy_2_no_limit_forty_to_one_hundred_big_blinds() -> None:
    """R-BUY-2: NL 10/20: between 800 (40 BB) and 2000 (100 BB)."""
    table = nl_table(0)
    with pytest.raises(BuyInError, match=r"^R-BUY-2: a buy-in must be at least 800") as info:
        table.join(1, "Eva", 799, now=0.0)
    assert info.value.rule == "R-BUY-2" and isinstance(info.value, RulesError)
    with pytest.raises(BuyInError, match=r"^R-BUY-2: a buy-in may be at most 2000, not 2001"):
        table.join(1, "Eva", 2001, now=0.0)
    assert not table.can_join(1, "Eva", 2001, now=0.0)
    table.join(1, "Eva", 800, now=0.0)
    table.join(2, "Jan", 2000, now=0.0)
    pot_limit = Table(TableConfig(game("PO"), small_blind=5, big_blind=10))
    lim = pot_limit.buy_in_limits("Eva", 0.0)
    assert (lim.minimum, lim.maximum) == (400, 1000)


def test_r_buy_2_a_busted_player_rebuys_at_least_the_minimum() -> None:
    """R-BUY-2: a player who lost every chip buys in again: at least 800."""
    table = nl_table(2, stack=800)
    play(table, button=1, hole={1: "AsAd", 2: "KsKd"}, board="2c7d9hJc3s")
    with_chips = stacks(table)
    assert with_chips == {1: 820, 2: 780}
    table.add_chips(2, 20, now=MINUTE)  # a top-up has no minimum
    # an all-in for everything: seat 2 loses it all
    setup = table.start_hand(now=MINUTE)
    hand = setup.new_hand()
    hole = {setup.seats.index(1): "AhAc", setup.seats.index(2): "KhKc"}
    deal_all(hand, hole, "2c7d9hJc3s")
    hand.all_in()
    hand.call()
    table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"))
    assert stacks(table)[2] == 0
    with pytest.raises(BuyInError, match=r"^R-BUY-2: adding chips must be at least 800"):
        table.add_chips(2, 500, now=2 * MINUTE)
    table.add_chips(2, 800, now=2 * MINUTE)


def test_r_buy_3_left_with_more_than_the_maximum_back_within_twenty_minutes() -> None:
    """R-BUY-3: Eva leaves with 3500 (more than the 2000 maximum) and comes back after 10
    minutes: she must bring at least 3500, and the maximum does not apply. After 21
    minutes the usual limits apply again."""
    table = nl_table(0)
    table.join(1, "Eva", 2000, now=0.0)
    table.join(2, "Jan", 2000, now=0.0)
    table.start_hand(now=0.0, button=1)
    table.finish_hand((500, 3500))  # Eva (the button, hand seat 1) won 1500 from Jan
    assert stacks(table) == {1: 3500, 2: 500}
    table.leave(1, now=MINUTE)
    back = 11 * MINUTE
    limits = table.buy_in_limits("Eva", now=back)
    assert (limits.minimum, limits.maximum, limits.rule) == (3500, None, "R-BUY-3")
    with pytest.raises(BuyInError, match=r"^R-BUY-3: a buy-in must be at least 3500 \(what"):
        table.join(1, "Eva", 2000, now=back)
    assert table.join(3, "Eva", 3600, now=back).limits.rule == "R-BUY-3"
    table.leave(3, now=back)
    later = back + 21 * MINUTE
    assert table.buy_in_limits("Eva", now=later).maximum == 2000
    table.join(3, "Eva", 2000, now=later)
    # Jan left with less than the maximum: nothing special
    table.leave(2, now=later)
    assert table.buy_in_limits("Jan", now=later + 1).rule == "R-BUY-2"


def test_r_buy_3_robert_s_rules_option_on_by_default_off_only_lifts_the_maximum() -> None:
    """R-BUY-3: the table option ``return_with_stack`` (Robert's Rules) is on unless the
    house turns it off. Eva leaves with 3500 and comes back after 10 minutes: with the
    option she must bring at least 3500; without it (the seed's rule) she may bring
    anything from the usual 800, the 2000 maximum being lifted — 1000 or 5000."""
    assert TableRules().return_with_stack is True
    for on in (True, False):
        rules = TableRules(return_with_stack=on)
        table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rules=rules))
        table.join(1, "Eva", 2000, now=0.0)
        table.join(2, "Jan", 2000, now=0.0)
        table.start_hand(now=0.0, button=1)
        table.finish_hand((500, 3500))  # Eva won 1500 from Jan
        table.leave(1, now=MINUTE)
        back = 11 * MINUTE
        limits = table.buy_in_limits("Eva", now=back)
        if on:
            assert (limits.minimum, limits.maximum, limits.rule) == (3500, None, "R-BUY-3")
            with pytest.raises(BuyInError, match=r"^R-BUY-3: a buy-in must be at least 3500"):
                table.join(1, "Eva", 1000, now=back)
        else:
            assert (limits.minimum, limits.maximum, limits.rule) == (800, None, "R-BUY-3")
            assert table.can_join(1, "Eva", 5000, now=back)
            assert table.join(1, "Eva", 1000, now=back).buy_in == 1000
            table.leave(1, now=back)  # with 1000: the usual limits from now on
            assert table.buy_in_limits("Eva", now=back).maximum == 2000
            table.join(1, "Eva", 2000, now=back)
            table.leave(2, now=back)
            assert table.join(3, "Jan", 800, now=back).limits.rule == "R-BUY-2"
        # Jan, who left with 500, and everyone after 20 minutes: the usual limits
        assert table.buy_in_limits("Nobody", now=back).rule == "R-BUY-2"
        assert table.buy_in_limits("Eva", now=back + 21 * MINUTE).minimum == 800


def test_r_buy_4_top_up_between_hands_to_the_maximum_and_a_manager_override() -> None:
    """R-BUY-4: with 1500 in front of him Jan may add up to 500 (the 2000 maximum); more
    needs the manager, whose reason is kept in the table's log."""
    table = nl_table(0)
    table.join(1, "Jan", 1500, now=0.0)
    with pytest.raises(BuyInError, match=r"^R-BUY-4: adding chips may be at most 500, not 501"):
        table.add_chips(1, 501, now=0.0)
    assert table.add_chips(1, 500, now=0.0).pending is False
    assert stacks(table) == {1: 2000}
    assert not table.can_add_chips(1, 100, now=0.0)
    ok = Override("all players agreed to a 3000 stack")
    event = table.add_chips(1, 1000, now=0.0, override=ok)
    assert stacks(table) == {1: 3000}
    assert table.log[-2:] == [ok, event] and event.override == ok
    # the manager may also seat a short buy-in
    table.join(2, "Eva", 500, now=0.0, override=Override("club regular, agreed"))
    assert stacks(table)[2] == 500


def test_r_buy_5_chips_bought_during_a_hand_play_from_the_next_hand() -> None:
    """R-BUY-5: Eva buys 500 more while hand 1 runs: the hand plays her 1000; the 500 are
    put in her stack when the hand ends and play from hand 2. Nobody leaves a hand they
    are dealt in."""
    table = nl_table(3, stack=1000)
    setup = table.start_hand(now=0.0, button=1)
    event = table.add_chips(3, 500, now=1.0)
    assert isinstance(event, ChipsAdded) and event.pending
    assert setup.starting_stacks == (1000, 1000, 1000)
    with pytest.raises(HandInProgressError, match=r"^R-BUY-5: seat 3 is in hand 1"):
        table.leave(3, now=1.0)
    done = table.finish_hand(fold_around(setup))
    assert dict(done.stacks)[3] == 1010
    assert table.players[3].stack == 1510 and table.players[3].pending == 0
    assert done.deliveries == (ChipsDelivered(3, "P3", 1, 500, 500, 0, 1510, 2000),)
    nxt = table.start_hand(now=MINUTE)
    assert nxt.starting_stacks[nxt.seats.index(3)] == 1510


def heads_up(stack_1: int, stack_2: int) -> Table:
    """NL 10/20 (maximum 2000), Ann in seat 1 and Bo in seat 2."""
    table = nl_table(0)
    table.join(1, "Ann", stack_1, now=0.0)
    table.join(2, "Bo", stack_2, now=0.0)
    return table


def test_r_buy_4_a_top_up_bought_during_a_hand_never_lifts_the_stack_over_the_maximum() -> None:
    """R-BUY-4, R-BUY-5: NL 10/20, maximum 2000. Ann (seat 1, the button) starts the hand
    with 1000 and buys 1000 while it runs — allowed, 1000 + 1000 is the maximum. She goes
    all in with aces, Bo (small blind, 1000) calls all in with kings, Cy folds his big
    blind; Ann wins 2020. At the hand's end the 1000 are checked against her stack, which
    is over the maximum already: all 1000 are refused and she is told so. She starts
    hand 2 with 2020, not 3020."""
    table = nl_table(0)
    for seat, name in ((1, "Ann"), (2, "Bo"), (3, "Cy")):
        table.join(seat, name, 1000, now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    bought = table.add_chips(1, 1000, now=1.0)
    assert bought.pending and bought.limits.maximum == 1000
    hand = setup.new_hand()
    hole = {setup.seats.index(1): "AhAc", setup.seats.index(2): "KhKc"}
    deal_all(hand, hole, "2c7d9hJc3s")
    hand.all_in()  # Ann
    hand.call()  # Bo, all in
    hand.fold()  # Cy
    done = table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"), now=2.0)
    assert dict(done.stacks) == {1: 2020, 2: 0, 3: 980}
    assert stacks(table) == {1: 2020, 2: 0, 3: 980}
    nxt = table.start_hand(now=MINUTE)
    assert dict(zip(nxt.seats, nxt.starting_stacks, strict=True)) == {1: 2020, 3: 980}
    (delivery,) = done.deliveries
    assert (delivery.bought, delivery.delivered, delivery.refused) == (1000, 0, 1000)
    assert delivery.message == (
        "seat 1 can add at most 0 of the 1000 bought during hand 1 (the stack is 2020, "
        "the maximum 2000): 0 added, 1000 refused"
    )
    assert delivery in table.log


def test_r_buy_4_a_top_up_during_a_hand_delivers_what_fits_and_refuses_the_rest() -> None:
    """R-BUY-4: heads-up, Ann (the button) starts with 1000 and buys 1000 during the hand.
    She calls the small blind, Bo checks, and her aces win the 40 pot: 1020. 980 of the
    1000 go in (she has the maximum, 2000), 20 are refused and she is told so. She starts
    hand 2 with 2000 and can add nothing more."""
    table = heads_up(1000, 1000)
    setup = table.start_hand(now=0.0, button=1)
    table.add_chips(1, 1000, now=1.0)
    hand = check_down(setup, {1: "AsAd", 2: "KsKd"}, "2c7d9hJc3s")
    done = table.finish_hand(hand, now=2.0)
    assert dict(done.stacks) == {1: 1020, 2: 980}
    assert stacks(table) == {1: 2000, 2: 980} and table.players[1].pending == 0
    (delivery,) = done.deliveries
    assert (delivery.bought, delivery.delivered, delivery.refused) == (1000, 980, 20)
    assert delivery.message == (
        "seat 1 can add at most 980 of the 1000 bought during hand 1 (the stack is 1020, "
        "the maximum 2000): 980 added, 20 refused"
    )
    assert table.log[-1] == delivery and table.log[-2] == done
    nxt = table.start_hand(now=MINUTE)
    assert dict(zip(nxt.seats, nxt.starting_stacks, strict=True)) == {1: 2000, 2: 980}
    with pytest.raises(
        BuyInError,
        match=r"^R-BUY-4: adding chips is not possible: seat 1 has 2000 and the maximum is 2000$",
    ):
        table.add_chips(1, 20, now=MINUTE)


def test_r_buy_4_top_ups_during_a_hand_say_what_can_still_be_bought() -> None:
    """R-BUY-4: Ann starts the hand with 1500. During it she asks for 600 (refused: she
    can add at most 500), buys 300, then asks for 300 more (refused: at most 200, the 300
    already bought count). She loses the small blind (folds): 1490 + 300 = 1790, all
    delivered; between hands she may add 210."""
    table = heads_up(1500, 1500)
    setup = table.start_hand(now=0.0, button=1)
    with pytest.raises(
        BuyInError,
        match=r"^R-BUY-4: adding chips may be at most 500, not 600: seat 1 has 1500 and the "
        r"maximum is 2000$",
    ):
        table.add_chips(1, 600, now=1.0)
    table.add_chips(1, 300, now=1.0)
    assert table.limits_for_top_up(1, now=1.0).maximum == 200
    with pytest.raises(
        BuyInError,
        match=r"^R-BUY-4: adding chips may be at most 200, not 300: seat 1 has 1800 \(300 of "
        r"them bought during this hand\) and the maximum is 2000$",
    ):
        table.add_chips(1, 300, now=1.0)
    done = table.finish_hand(fold_around(setup), now=2.0)
    assert dict(done.stacks) == {1: 1490, 2: 1510}
    (delivery,) = done.deliveries
    assert (delivery.delivered, delivery.refused, delivery.stack) == (300, 0, 1790)
    assert delivery.message == "seat 1: the 300 bought during hand 1 are added; the stack is 1790"
    assert table.limits_for_top_up(1, now=3.0).maximum == 210


def test_r_buy_4_a_stack_over_the_maximum_gets_no_top_up_but_an_override_goes_in() -> None:
    """R-BUY-4: Ann starts with 1500 and, while the hand runs, buys 500 (to the maximum)
    and, with the manager's leave ("all players agreed"), 1000 more. She goes all in with
    aces, Bo (2000) calls with kings and loses: Ann has 3000. The 500 are refused (her
    stack is over the maximum already); the manager's 1000 go in: 4000."""
    table = heads_up(1500, 2000)
    setup = table.start_hand(now=0.0, button=1)
    table.add_chips(1, 500, now=1.0)
    ok = Override("all players agreed")
    table.add_chips(1, 1000, now=1.0, override=ok)
    hand = setup.new_hand()
    hole = {setup.seats.index(1): "AhAc", setup.seats.index(2): "KhKc"}
    deal_all(hand, hole, "2c7d9hJc3s")
    hand.all_in()
    hand.call()
    done = table.finish_hand(play_out(hand, hole, "2c7d9hJc3s"), now=2.0)
    assert dict(done.stacks) == {1: 3000, 2: 500}
    assert stacks(table) == {1: 4000, 2: 500}
    (delivery,) = done.deliveries
    assert (delivery.bought, delivery.delivered, delivery.refused) == (1500, 1000, 500)


def test_r_buy_4_chips_bought_during_a_misdealt_hand_go_in_after_it() -> None:
    """R-BUY-4, R-DEAL-6: Ann (1200) buys 800 while hand 1 runs; the hand is misdealt.
    Her 1200 come back and the 800 go in (2000, the maximum); the redeal plays 2000."""
    table = heads_up(1200, 1000)
    table.start_hand(now=0.0, button=1)
    table.add_chips(1, 800, now=1.0)
    voided = table.misdeal()
    (delivery,) = voided.deliveries
    assert (delivery.hand, delivery.delivered, delivery.refused) == (1, 800, 0)
    redeal = table.start_hand(now=2.0)
    assert redeal.starting_stacks[redeal.seats.index(1)] == 2000


def test_r_buy_1_fixed_limit_a_top_up_during_a_hand_has_no_maximum() -> None:
    """R-BUY-1, R-BUY-4: fixed limit has no maximum: Eva (400) buys 5000 during a hand,
    wins the blinds (410) and has 5410 for the next hand."""
    table = fl_table()
    table.join(1, "Eva", 400, now=0.0)
    table.join(2, "Jan", 400, now=0.0)
    setup = table.start_hand(now=0.0, button=2)  # heads-up: Jan's small blind folds
    table.add_chips(1, 5000, now=1.0)
    done = table.finish_hand(fold_around(setup), now=2.0)
    assert done.deliveries[0].refused == 0 and stacks(table) == {1: 5410, 2: 390}


def test_r_buy_6_all_amounts_in_whole_chips() -> None:
    """R-BUY-6: with 5-chips the smallest in play, blinds, buy-ins and rake are multiples
    of 5."""
    with pytest.raises(ConfigurationError, match=r"^R-BUY-6: the small blind \(12\)"):
        TableConfig(game("NT"), small_blind=12, big_blind=25, chip_unit=5)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=25, chip_unit=5))
    with pytest.raises(BuyInError, match=r"^R-BUY-6: 1003 is not a positive whole number"):
        table.join(1, "Eva", 1003, now=0.0)
    table.join(1, "Eva", 1005, now=0.0)
    table.join(2, "Jan", 1000, now=0.0)
    setup = table.start_hand(now=0.0, button=1)
    assert setup.stakes.chip_unit == 5


def raked_table(rake: Rake) -> Table:
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rake=rake))
    for seat in (1, 2, 3):
        table.join(seat, f"P{seat}", 2000, now=0.0)
    return table


def test_rake_percentage_with_cap_taken_from_the_winner_and_recorded() -> None:
    """Rake 10 % capped at 5, no flop no drop: a 60 pot checked down pays 5 to the house;
    a hand won before the flop pays nothing. Chips are conserved less the rake."""
    table = raked_table(Rake(rate=Fraction(10, 100), cap=5))
    _, done = play(table, button=1, hole={1: "AsAd", 2: "7c2d", 3: "9h8h"}, board="KcQd5s4h3c")
    assert done.rake == 5 and done.rake_by_seat == ((1, 5),)
    assert stacks(table) == {1: 2035, 2: 1980, 3: 1980}
    _, done = play(table, MINUTE)
    assert done.rake == 0
    assert sum(stacks(table).values()) == 6000 - 5


def test_rake_off_by_default_and_with_flop_seen_passed_with_a_result() -> None:
    """No rake unless configured; with a bare result the caller says if a flop was seen."""
    table = nl_table(3)
    _, done = play(table, button=1, hole={1: "AsAd", 2: "7c2d", 3: "9h8h"}, board="KcQd5s4h3c")
    assert done.rake == 0
    raked = raked_table(Rake(rate=Fraction(5, 100), no_flop_no_drop=False))
    setup = raked.start_hand(now=0.0, button=1)
    hand = check_down(setup, {1: "AsAd", 2: "7c2d", 3: "9h8h"}, "KcQd5s4h3c")
    assert hand.result is not None
    done = raked.finish_hand(hand.result, flop_seen=False)
    assert done.rake == 3  # 5 % of 60, no-flop-no-drop off
    with pytest.raises(RulesError, match=r"^R-POT-1: a raked table needs the hand"):
        raked.start_hand(now=1.0)
        raked.finish_hand((1990, 2010, 2000))
