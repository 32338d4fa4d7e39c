"""Ways to finish a hand: every deal (exact) or random deals (Monte Carlo).

A spot needs ``T`` more cards from the stub: the board cards to come, then each player's
unknown cards in seat order. A *deal* is one row of ``T`` stub positions; its columns are
split into those groups in that order.

>>> combos(5, 3).shape, int(deal_count(45, [2, 0, 0]))
((10, 3), 990)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from math import comb, factorial, prod

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]


@cache
def combos(n: int, k: int) -> IntArray:
    """All ``k``-subsets of ``range(n)`` as sorted rows, in lexicographic order."""
    rows = np.arange(n, dtype=np.int64)[:, None][: max(n - k + 1, 0)] if k else None
    if rows is None:
        return np.zeros((1, 0), dtype=np.int64)
    for j in range(1, k):
        last = rows[:, -1]
        reps = np.maximum(n - k + j - last, 0)
        idx = np.repeat(np.arange(len(rows)), reps)
        start = np.repeat(np.cumsum(reps) - reps, reps)
        new = last[idx] + 1 + (np.arange(len(idx)) - start)
        rows = np.hstack([rows[idx], new[:, None]])
    rows.flags.writeable = False
    return rows


def deal_count(stub: int, groups: list[int]) -> int:
    """How many deals finish the hand: choose the cards, then split them among the groups."""
    total = sum(groups)
    return comb(stub, total) * factorial(total) // prod(factorial(g) for g in groups)


@cache
def _splits(groups: tuple[int, ...]) -> IntArray:
    """Every way to hand ``sum(groups)`` chosen cards to the groups (unordered within each)."""
    total = sum(groups)

    def rec(left: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if not sizes:
            yield ()
            return
        for pick in combinations(left, sizes[0]):
            rest = tuple(x for x in left if x not in pick)
            for tail in rec(rest, sizes[1:]):
                yield pick + tail

    out = np.array(list(rec(tuple(range(total)), groups)), dtype=np.int64)
    return out.reshape(-1, total)


def every_deal(stub: int, groups: list[int], chunk: int = 250_000) -> Iterator[IntArray]:
    """Every deal as rows of stub positions, in chunks of about ``chunk`` rows."""
    total = sum(groups)
    if total == 0:
        yield np.zeros((1, 0), dtype=np.int64)
        return
    chosen = combos(stub, total)
    splits = _splits(tuple(groups))
    step = max(1, chunk // len(splits))
    for start in range(0, len(chosen), step):
        part = chosen[start : start + step]
        yield part[:, splits].reshape(-1, total)


def random_deals(rng: np.random.Generator, stub: int, total: int, n: int) -> IntArray:
    """``n`` uniformly random deals of ``total`` distinct stub positions (rows in deal order)."""
    if total == 0:
        return np.zeros((n, 0), dtype=np.int64)
    if total <= 6 and total * total <= stub:
        return _distinct_by_rejection(rng, stub, total, n)
    # partial Fisher-Yates on a flat copy of the stub per row
    deck = np.tile(np.arange(stub, dtype=np.int8), n)
    off = np.arange(n, dtype=np.int64) * stub
    picks = (rng.random((total, n)) * (stub - np.arange(total)[:, None])).astype(np.int64)
    for i in range(total):
        a = off + i
        b = a + picks[i]
        x = deck[b]
        deck[b] = deck[a]
        deck[a] = x
    return deck.reshape(n, stub)[:, :total].astype(np.int64)


def _distinct_by_rejection(rng: np.random.Generator, stub: int, total: int, n: int) -> IntArray:
    """Rows of ``total`` distinct values below ``stub``: draw, then redraw rows with repeats."""
    rows = rng.integers(0, stub, size=(n, total), dtype=np.int8)
    todo = np.arange(n)
    while True:
        sub = rows[todo]
        bad = np.zeros(len(todo), dtype=bool)
        for i, j in combinations(range(total), 2):
            bad |= sub[:, i] == sub[:, j]
        todo = todo[bad]
        if not len(todo):
            return rows.astype(np.int64)
        rows[todo] = rng.integers(0, stub, size=(len(todo), total), dtype=np.int8)
