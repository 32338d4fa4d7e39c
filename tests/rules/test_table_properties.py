"""Properties of the table over random sequences of joins, leaves, sit-outs and hands.

* chips are conserved: what is on the table = buy-ins + top-ups − what left − rake;
* over a full orbit with nobody moving, every player posts each blind once (R-POS-1);
* the button never passes over two players who play both hands (R-POS-3);
* the big blind is always dealt in and posts it; nobody owing blinds is dealt in without
  posting them (R-BLIND-4, R-BLIND-5, R-BLIND-7).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from hub.rules.games import game
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
