"""Hands drawn by hypothesis for the engine's property tests: a game's table of two to its
most players, random stacks and ante, the fixed 5/10 (stud 3/6/12) stakes, and options the
test draws itself; ``drawn_settings`` are the hypothesis settings for such tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hub.rules.games import Family, Options, Stakes, game
from hub.rules.hand import Hand


def drawn_hand(
    data: Any,
    variant: str,
    *,
    draw_players: int,
    max_stack: int,
    options: Callable[[Any], Options],
) -> Hand:
    """A new hand of ``variant`` drawn from ``data`` (a ``st.data()`` object): up to 8 players
    in stud (7 in five-card stud), ``draw_players`` in draw games, 6 otherwise; stacks of 1
    to ``max_stack``; then ``options(data)`` draws the table's options."""
    g = game(variant)
    most = {Family.STUD: 8 if g.code != "5S" else 7, Family.DRAW: draw_players}.get(g.family, 6)
    n = data.draw(st.integers(2, most), label="players")
    stacks = data.draw(st.lists(st.integers(1, max_stack), min_size=n, max_size=n), label="stacks")
    ante = data.draw(st.sampled_from([0, 0, 1, 3]), label="ante")
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, ante, 3, 6, 12)
    else:
        stakes = Stakes.blind_game(n, 5, 10, ante=ante, small_bet=10, big_bet=20)
    return Hand(g, stakes, stacks, options(data))


def drawn_settings(max_examples: int) -> settings:
    """Hypothesis settings for tests of drawn hands: ``max_examples`` of them, no deadline,
    and a slow or large draw (a long hand of many players) is not a failure."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
