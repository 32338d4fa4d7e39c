"""The table-play helpers (:mod:`tests.support.table_play`) themselves (the table
modules' docstring examples run in ``tests/unit/test_doctests.py``)."""

from __future__ import annotations

from tests.support.table_play import nl_table, play


def test_fold_around_gives_the_blinds_to_the_big_blind() -> None:
    table = nl_table(3)
    setup, done = play(table, button=1)
    assert setup.seats == (2, 3, 1)
    assert dict(done.stacks) == {2: 1990, 3: 2010, 1: 2000}


def test_check_down_with_explicit_cards() -> None:
    table = nl_table(3)
    _, done = play(table, button=1, hole={1: "AsAd", 2: "7c2d", 3: "9h8h"}, board="KcQd5s4h3c")
    assert dict(done.stacks) == {1: 2040, 2: 1980, 3: 1980}
