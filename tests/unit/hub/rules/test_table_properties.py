"""Properties of the table over random sequences of joins, leaves, sit-outs and hands.

* chips are conserved: what is on the table = buy-ins + top-ups − what left − rake;
* over a full orbit with nobody moving, every player posts each blind once (R-POS-1);
* the button never passes over two players who play both hands (R-POS-3);
* the big blind is always dealt in and posts it; nobody owing blinds is dealt in without
  posting them (R-BLIND-4, R-BLIND-5, R-BLIND-7);
* the table tells every hand which seat is the big blind (R-BET-8, R-BLIND-2);
* in a hand checked down nobody folds and every bet is called, so no side pot can have a
  single contender: a returning player's dead blind never comes back to him as one
  (R-BLIND-4, R-POT-1);
* with top-ups bought while hands run and misdeals (once or twice in a row), under either
  button rule: chips bought never lift a stack over the maximum (R-BUY-4) — not when
  bought, not when delivered at the hand's end — and a misdeal never moves the button,
  gives every chip back and has the same players owe the same posts (R-DEAL-6).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

from hypothesis import event, given, settings
from hypothesis import strategies as st

from hub.rules.errors import RulesError
from hub.rules.games import game
from hub.rules.hand import Hand, Phase, PostKind
from hub.rules.rake import Rake
from hub.rules.setup import HandSetup
from hub.rules.table import (
    ButtonRule,
    ChipsDelivered,
    Entry,
    NotEnoughPlayersError,
    Owed,
    Table,
    TableConfig,
    TableRules,
)
from tests.support.table_play import Comings, check_down, deal_all, fold_around, play_out

OPS = st.lists(
    st.tuples(
        st.sampled_from(["join", "leave", "sit_out", "back", "wait", "top_up", "hand", "hand"]),
        st.integers(1, 10),
        st.integers(0, 3),
    ),
    max_size=40,
)


def _seat_move(table: Table, walk: Comings, kind: str, seat: int, param: int, now: float) -> bool:
    """Do one op of :data:`OPS` that seats, unseats, sits out or brings back a player
    (where the table allows it); False for any other op."""
    if kind == "join":
        walk.join(seat, param, now)
    elif kind == "leave":
        walk.leave(seat, now)
    elif kind == "sit_out":
        if table.can_sit_out(seat):
            table.sit_out(seat)
    elif kind in ("back", "wait"):
        if table.can_come_back(seat):
            table.come_back(seat, Entry.POST if kind == "back" else Entry.WAIT_FOR_BIG_BLIND)
    else:
        return False
    return True


def _between(a: int, b: int, s: int, total: int = 10) -> bool:
    return 0 < (s - a) % total < ((b - a) % total or total)


@settings(max_examples=60, deadline=None)
@given(ops=OPS, raked=st.booleans())
def test_chips_conserved_button_never_skips_two_players(
    ops: list[tuple[str, int, int]], raked: bool
) -> None:
    rake = Rake(rate=Fraction(5, 100), cap=10) if raked else Rake()
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rake=rake))
    walk = Comings(table)
    raked_total = 0
    last: tuple[int, tuple[int, ...]] | None = None
    now = 0.0
    for kind, seat, param in ops:
        now += 60.0
        if kind == "top_up":
            if table.can_add_chips(seat, 100, now):
                table.add_chips(seat, 100, now)
                walk.bought += 100
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
        else:
            _seat_move(table, walk, kind, seat, param, now)
        on_table = sum(p.stack + p.pending for p in table.players.values())
        assert on_table == walk.bought - walk.left - raked_total


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


MAXIMUM = 2000
"""NL 10/20: the maximum buy-in (R-BUY-2), which top-ups may not pass (R-BUY-4)."""

MID_HAND_OPS = st.lists(
    st.tuples(
        st.sampled_from(["join", "leave", "sit_out", "back", "top_up", "hand", "hand", "hand"]),
        st.integers(1, 10),
        st.integers(0, 3),
        # top-ups bought while the hand runs: (seat, hundreds of chips; 0 = all allowed)
        st.lists(st.tuples(st.integers(1, 10), st.integers(0, 12)), max_size=6),
        st.integers(0, 2),  # misdeals before the hand is played
    ),
    max_size=30,
)


def _shove(setup: HandSetup) -> Hand:
    """The first player to act goes all in and everyone calls: big swings, so stacks
    end over the maximum with chips bought during the hand waiting."""
    hand = setup.new_hand()
    deal_all(hand)
    if hand.can_all_in():
        hand.all_in()
    return play_out(hand)


def _can_add_chips_says_what_verify_says(
    table: Table, now: float, amounts: tuple[int, ...]
) -> None:
    """``can_add_chips`` answers the refusals it can see without building them: it must
    still answer, for every seat (empty ones too) and amount, what ``verify_add_chips``
    does; and ``top_up_offer`` (the console's) answers what the two it joins do."""
    for seat in range(0, 12):
        for amount in amounts:
            try:
                table.verify_add_chips(seat, amount, now)
                verified = True
            except RulesError:
                verified = False
            assert table.can_add_chips(seat, amount, now) is verified, (seat, amount)
        if seat in table.players:  # what the console shows: the two answers at once
            limits = table.limits_for_top_up(seat, now)
            can = table.can_add_chips(seat, limits.minimum, now)
            assert table.top_up_offer(seat, now) == (limits, can), seat


@settings(max_examples=150, deadline=None)
@given(
    seated=st.dictionaries(st.integers(1, 10), st.integers(0, 3), min_size=2, max_size=7),
    ops=MID_HAND_OPS,
    button_rule=st.sampled_from(list(ButtonRule)),
)
def test_top_ups_never_pass_the_maximum_and_a_misdeal_never_moves_the_button(
    seated: dict[int, int],
    ops: list[tuple[str, int, int, list[tuple[int, int]], int]],
    button_rule: ButtonRule,
) -> None:
    rules = TableRules(button=button_rule)
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20, rules=rules))
    walk = Comings(table)
    refused = 0
    now = 0.0
    for seat, k in sorted(seated.items()):
        table.join(seat, f"P{seat}", 800 + 400 * k, now=now)
        walk.bought += 800 + 400 * k
    result: dict[int, int] = {}  # seat -> stack at the end of its last hand, before top-ups
    for kind, seat, param, top_ups, misdeals in ops:
        now += 60.0
        if kind == "join":
            walk.join(seat, param, now)
        elif kind == "leave" and walk.leave(seat, now):
            result.pop(seat, None)
        elif kind == "sit_out" and table.can_sit_out(seat):
            table.sit_out(seat)
        elif kind == "back" and table.can_come_back(seat):
            table.come_back(seat)
        elif kind == "top_up" and seat in table.players:
            amount = 100 * (param + 1)
            _can_add_chips_says_what_verify_says(table, now, (amount, 0, 10, 1250, 5_000))
            if table.can_add_chips(seat, amount, now):
                table.add_chips(seat, amount, now)
                walk.bought += amount
                assert table.players[seat].stack <= MAXIMUM  # R-BUY-4 between hands
        elif kind == "hand":
            ready = [s for s, p in table.players.items() if not p.sitting_out and p.stack]
            first = table.big_blind_seat is None and ready
            before = {s: (p.stack, p.owes) for s, p in table.players.items()}
            try:  # the first button is drawn: any ready seat
                setup = table.start_hand(now, button=ready[param % len(ready)] if first else None)
            except NotEnoughPlayersError:
                continue
            for s, stack in zip(setup.seats, setup.starting_stacks, strict=True):
                # R-BUY-4: what was bought since the last hand did not lift it over
                assert stack <= max(MAXIMUM, result.get(s, 0)), (s, stack, result)
            started = table.current
            assert started is not None
            for _ in range(misdeals):
                # chips bought during the hand that is then void (by players dealt in:
                # a busted player's rebuy would change who the redeal deals in)
                walk.bought += _buy_during(table, [t for t in top_ups if t[0] in setup.seats], now)
                voided = table.misdeal()
                refused += _check_deliveries(voided.deliveries)
                delivered = {d.seat: d.delivered for d in voided.deliveries}
                for s, (stack, owes) in before.items():
                    p = table.players[s]
                    assert p.owes is owes
                    # every chip back (a seat not dealt in may have bought chips at once)
                    assert p.stack == stack + delivered.get(s, 0) or s not in setup.seats
                result.update((s, chips) for s, (chips, _) in before.items())
                before = {s: (p.stack, p.owes) for s, p in table.players.items()}
                redeal = table.start_hand(now)
                for s, stack in zip(redeal.seats, redeal.starting_stacks, strict=True):
                    assert stack <= max(MAXIMUM, result[s])
                again = table.current
                assert again is not None
                # R-DEAL-6: the same button, seats, blinds and posts
                assert redeal.button == setup.button and redeal.seats == setup.seats
                assert (again.small_blind, again.big_blind) == (
                    started.small_blind,
                    started.big_blind,
                )
                assert again.posts == started.posts
                setup, started = redeal, again
            walk.bought += _buy_during(table, top_ups, now)
            if param == 3:
                hand = _shove(setup)
            else:
                hand = check_down(setup) if param % 2 else _fold_down(setup)
            done = table.finish_hand(hand, now=now)
            result.update(done.stacks)
            refused += _check_deliveries(done.deliveries)
        on_table = sum(p.stack + p.pending for p in table.players.values())
        assert on_table == walk.bought - walk.left - refused
        assert all(p.pending == 0 for p in table.players.values()) or table.current is not None


def _fold_down(setup: HandSetup) -> Hand:
    """Everyone folds in turn; a showdown between players all in for their blinds is
    played out."""
    hand = setup.new_hand()
    while hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.DEALING:
            deal_all(hand)
        elif hand.phase is Phase.BETTING:
            hand.fold()
        else:
            return play_out(hand)
    return hand


def _buy_during(table: Table, top_ups: list[tuple[int, int]], now: float) -> int:
    """Buy the chips of ``top_ups`` while the hand runs, where the rules allow; the chips
    bought. What is accepted never passes the maximum with the hand's starting stack."""
    total = 0
    for seat, hundreds in top_ups:
        amount = 100 * hundreds
        if not amount and seat in table.players:
            amount = table.limits_for_top_up(seat, now).maximum or 0
        if amount and seat in table.players and table.can_add_chips(seat, amount, now):
            event = table.add_chips(seat, amount, now)
            p = table.players[seat]
            assert p.stack + p.pending <= MAXIMUM, (event, p)
            total += amount
    return total


def _check_deliveries(deliveries: tuple[ChipsDelivered, ...]) -> int:
    """R-BUY-4 at the hand's end: chips go in only up to the maximum; the chips refused."""
    for d in deliveries:
        assert d.delivered + d.refused == d.bought and d.delivered >= 0 and d.refused >= 0
        before = d.stack - d.delivered
        assert d.stack <= max(MAXIMUM, before), d  # bought chips never lift it over
        assert d.refused == 0 or d.stack >= MAXIMUM, d  # only what would not fit is refused
    return sum(d.refused for d in deliveries)


def _verified(verify: Callable[[int], object], seat: int) -> bool:
    try:
        verify(seat)
    except RulesError:
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(ops=OPS, in_hand=st.booleans())
def test_the_seat_commands_questions_answer_what_the_commands_would_do(
    ops: list[tuple[str, int, int]], in_hand: bool
) -> None:
    """``can_leave`` / ``can_sit_out`` / ``can_come_back`` (asked of every seat on every
    change the console sees, so answered without building a refusal) say exactly
    whether ``leave`` / ``sit_out`` / ``come_back`` would be accepted: empty seats,
    seats off the table, players sitting out, players dealt in a running hand."""
    table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20))
    walk = Comings(table)
    now = 0.0
    for kind, seat, param in ops:
        now += 60.0
        _seat_move(table, walk, kind, seat, param, now)
    if in_hand:
        ready = [s for s, p in table.players.items() if not p.sitting_out and p.stack]
        with contextlib.suppress(NotEnoughPlayersError):
            table.start_hand(now, button=ready[0] if ready else None)
    for seat in range(0, table.profile.seats + 2):
        assert table.can_leave(seat) == _verified(table.verify_leave, seat), seat
        assert table.can_sit_out(seat) == _verified(table.verify_sit_out, seat), seat
        assert table.can_come_back(seat) == _verified(table.verify_come_back, seat), seat
