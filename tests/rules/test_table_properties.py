"""Properties of the table over random sequences of joins, leaves, sit-outs and hands.

* chips are conserved: what is on the table = buy-ins + top-ups − what left − rake;
* over a full orbit with nobody moving, every player posts each blind once (R-POS-1);
* the button never passes over two players who play both hands (R-POS-3);
* the big blind is always dealt in and posts it; nobody owing blinds is dealt in without
  posting them (R-BLIND-4, R-BLIND-5, R-BLIND-7);
* the table tells every hand which seat is the big blind (R-BET-8, R-BLIND-2);
* in a hand checked down nobody folds and every bet is called, so no side pot can have a
  single contender: a returning player's dead blind never comes back to him as one
  (R-BLIND-4, R-POT-1).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import event, given, settings
from hypothesis import strategies as st

from hub.rules.games import game
from hub.rules.hand import PostKind
from hub.rules.rake import Rake
from hub.rules.table import Entry, NotEnoughPlayersError, Owed, Table, TableConfig

from .test_table_play import check_down, fold_around

OPS = st.lists(
    st.tuples(
        st.sampled_from(["join", "leave", "sit_out", "back", "wait", "top_up", "hand", "hand"]),
        st.integers(1, 10),
        st.integers(0, 3),
    ),
    max_size=40,
)


def _between(a: int, b: int, s: int, total: int = 10) -> bool:
    return 0 < (s - a) % total < ((b - a) % total or total)


@settings(max_examples=60, deadline=None)
@given(ops=OPS, raked=st.booleans())
def test_chips_conserved_button_never_skips_two_players(
    ops: list[tuple[str, int, int]], raked: bool
) -> None:
    rake = Rake(rate=Fraction(5, 100), cap=10) if raked else Rake()
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rake=rake))
    bought = left = raked_total = 0
    last: tuple[int, tuple[int, ...]] | None = None
    now = 0.0
    names = 0
    for kind, seat, param in ops:
        now += 60.0
        if kind == "join" and seat not in table.players:
            names += 1
            amount = 800 + 400 * param
            table.join(seat, f"N{names}", amount, now=now, entry=list(Entry)[param % 2])
            bought += amount
        elif kind == "leave" and table.can_leave(seat):
            left += table.leave(seat, now).stack
        elif kind == "sit_out" and table.can_sit_out(seat):
            table.sit_out(seat)
        elif kind in ("back", "wait") and table.can_come_back(seat):
            table.come_back(seat, Entry.POST if kind == "back" else Entry.WAIT_FOR_BIG_BLIND)
        elif kind == "top_up" and table.can_add_chips(seat, 100, now):
            table.add_chips(seat, 100, now)
            bought += 100
        elif kind == "hand":
            ready = [s for s, p in table.players.items() if not p.sitting_out and p.stack]
            first = table.big_blind_seat is None and ready
            try:
                setup = table.start_hand(now, button=ready[0] if first else None)
            except NotEnoughPlayersError:
                continue
            started = table.current
            assert started is not None
            bb = started.big_blind
            assert bb in setup.seats
            assert setup.stakes.big_blind_seat == setup.seats.index(bb)
            for s in setup.seats:
                p = table.players[s]
                assert p.owes is Owed.NOTHING
            if last is not None:
                old_button, old_seats = last
                skipped = [
                    s
                    for s in setup.seats
                    if s in old_seats and _between(old_button, setup.button, s)
                ]
                assert len(skipped) <= 1, (old_button, setup.button, skipped)
            hand = check_down(setup) if param % 2 else fold_around(setup)
            if param % 2:
                assert all(len(a.eligible) > 1 for a in hand.awards[1:]), hand.awards
            raked_total += table.finish_hand(hand, now=now).rake
            last = (setup.button, setup.seats)
        on_table = sum(p.stack + p.pending for p in table.players.values())
        assert on_table == bought - left - raked_total


@settings(max_examples=40, deadline=None)
@given(
    seats=st.sets(st.integers(1, 10), min_size=2, max_size=10),
    button_index=st.integers(0, 9),
    warmup=st.integers(0, 7),
)
def test_r_pos_1_every_player_pays_each_blind_once_per_orbit(
    seats: set[int], button_index: int, warmup: int
) -> None:
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20))
    for s in sorted(seats):
        table.join(s, f"P{s}", 2000, now=0.0)
    order = sorted(seats)
    button = order[button_index % len(order)]
    for i in range(warmup):
        table.finish_hand(fold_around(table.start_hand(0.0, button=button if i == 0 else None)))
    small, big = Counter[int](), Counter[int]()
    for i in range(len(order)):
        setup = table.start_hand(0.0, button=button if (i == 0 and warmup == 0) else None)
        assert table.current is not None
        assert table.current.small_blind is not None and table.current.big_blind is not None
        small[table.current.small_blind] += 1
        big[table.current.big_blind] += 1
        table.finish_hand(fold_around(setup))
    assert small == big == Counter(order)


def _check_down_dead_blinds(table: Table) -> int:
    """Start a hand, check it down and check the dead blinds (see below); return how many
    dead chips were posted."""
    setup = table.start_hand(0.0, button=None if table.big_blind_seat else min(table.players))
    hand = check_down(setup)
    dead = [0] * hand.n
    for post in hand.posts:
        if post.kind is PostKind.DEAD_BLIND:
            dead[post.seat] += post.amount
    assert hand.awards[0].amount >= sum(dead)
    assert all(len(a.eligible) > 1 for a in hand.awards[1:]), hand.awards
    main = {share.seat for share in hand.awards[0].shares}
    for s in range(hand.n):
        if dead[s] and s not in main:
            assert hand.stacks[s] - hand.starting_stacks[s] == -hand.total[s]
    table.finish_hand(hand)
    for seat, p in list(table.players.items()):  # the busted rebuy at once
        if p.stack == 0:
            table.add_chips(seat, 2000, 0.0)
    return sum(dead)


@settings(max_examples=60, deadline=None)
@given(
    absences=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 4)), min_size=1, max_size=6),
    stacks=st.lists(st.sampled_from([25, 45, 2000]), min_size=6, max_size=6),
)
def test_r_blind_4_dead_blinds_never_come_back_over_random_absences(
    absences: list[tuple[int, int]], stacks: list[int]
) -> None:
    """R-BLIND-4, R-POT-1: six players; one after another sits out for a few hands and
    comes back posting what he owes; every hand is checked down. Whoever posts a dead
    blind either wins a share of the main pot (which holds every dead chip) or loses all
    he put in, dead chips included; no side pot has a single contender."""
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, min_buy_in=20))
    for seat, stack in enumerate(stacks, start=1):
        table.join(seat, f"P{seat}", stack, now=0.0)
    _check_down_dead_blinds(table)
    posted = 0
    for seat, hands in absences:
        table.sit_out(seat)
        for _ in range(hands):
            posted += _check_down_dead_blinds(table)
        table.come_back(seat)
        for _ in range(2):
            posted += _check_down_dead_blinds(table)
    event("dead blinds posted" if posted else "no dead blind")
