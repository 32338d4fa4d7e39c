"""Lookup tables for the equity kernels, built with numpy on first use (no files, no cache).

Strengths follow :mod:`hub.rules.evaluator`: dense ranks, higher is better, equal is a
tie. High hands run 1 (7-5-4-3-2) … 7462 (royal flush); ace-to-five lows 1 … 6175 (the
wheel); deuce-to-seven lows 1 (royal flush) … 7462 (7-5-4-3-2 offsuit). An 8-or-better
low is the ace-to-five strength when it is at least :func:`low8_min`, else no low (0).

Hands are valued through *packed card sums*: :data:`CARD_PACK` gives each card

* bits 0–22: the SKPokerEval key of its rank (:data:`RANK_KEYS`; sums of up to seven
  keys tell apart every rank multiset of one size);
* bits 23–38: one 4-bit counter per suit (:data:`SUIT_SHIFT`);
* bits 39–51: ``1 << rank`` (:data:`RANKBIT_SHIFT`) — the sum equals the OR when the ranks
  are distinct, which is always so within one suit.

so one integer addition per card gives everything a lookup needs. Tables per hand size
(5 or 7 cards) are indexed by the key sum; every table is built in tens of milliseconds.
The high-hand key tables are the rules' (:func:`hub.rules.evaluator_tables.high_key_table`):
one copy per process, whoever asks first builds it.

>>> t = high_table(5)
>>> int(t[int(RANK_KEYS[[12, 12, 12, 11, 11]].sum())]) == strength_of_class(6, (12, 12, 12, 11, 11))
True
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
from numpy.typing import NDArray

from hub.rules.evaluator_tables import high_key_table, key_table
from hub.rules.evaluator_tables import rank_multisets as _rank_multisets

RANK_KEYS: Final = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int64
)
"""Per-rank keys (Kenneth Shackleton's SKPokerEval): sums of up to seven of them are unique
per rank multiset of a given size (checked when the tables are built)."""

KEY_MASK: Final = (1 << 23) - 1
SUIT_SHIFT: Final = 23
RANKBIT_SHIFT: Final = 39

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
"""High-hand categories (the same numbers as :mod:`hub.rules.evaluator_tables`)."""
LOW_NO_PAIR, LOW_PAIR, LOW_TWO_PAIR, LOW_TRIPS, LOW_FULL_HOUSE, LOW_QUADS = range(6)
"""Ace-to-five low categories."""

N_HIGH: Final = 7462
N_A5: Final = 6175

_CARDS = np.arange(52, dtype=np.int64)
CARD_RANK: Final[NDArray[np.int64]] = _CARDS >> 2
CARD_SUIT: Final[NDArray[np.int64]] = _CARDS & 3
CARD_PACK: Final[NDArray[np.int64]] = (
    RANK_KEYS[CARD_RANK]
    + (np.int64(1) << (SUIT_SHIFT + 4 * CARD_SUIT))
    + (np.int64(1) << (RANKBIT_SHIFT + CARD_RANK))
)
"""Card int -> packed key (see the module docs)."""


def _flush_suit_table() -> NDArray[np.int8]:
    sums = np.arange(1 << 16, dtype=np.int64)
    out = np.full(1 << 16, -1, dtype=np.int8)
    for s in range(4):
        out[((sums >> (4 * s)) & 15) >= 5] = s
    return out


FLUSH_SUIT: Final[NDArray[np.int8]] = _flush_suit_table()
"""16-bit suit counters (packed sum >> SUIT_SHIFT) -> the suit with five or more cards, or -1."""


rank_multisets = cache(_rank_multisets)
"""The rules' :func:`~hub.rules.evaluator_tables.rank_multisets` of one size, kept (the
boards and Omaha tables reuse sizes 0–5; the table builds take the 6- and 7-card ones,
2.7 MB at seven, from the rules without keeping them)."""


def rank_counts(rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """``(n, 13)`` counts of each rank in each row of ranks."""
    counts: NDArray[np.int64] = (rows[:, :, None] == np.arange(13)).sum(axis=1)
    return counts


def _reading_order(rows: NDArray[np.int64], values: NDArray[np.int64]) -> NDArray[np.int64]:
    """Values of each row ordered as a dealer reads them: most copies first, then highest."""
    counts = rank_counts(values)
    cnt = np.take_along_axis(counts, values, axis=1)
    order = np.argsort(-(cnt * 16 + values), axis=1, kind="stable")
    out: NDArray[np.int64] = np.take_along_axis(values, order, axis=1)
    return out


def _dense_rank(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """0-based rank of each key among the distinct keys (equal keys share a rank)."""
    order = np.argsort(keys, kind="stable")
    srt = keys[order]
    ranks = np.empty(len(keys), dtype=np.int64)
    ranks[order] = np.concatenate([[0], np.cumsum(srt[1:] != srt[:-1])])
    return ranks


def _base13(ordered: NDArray[np.int64]) -> NDArray[np.int64]:
    weights = 13 ** np.arange(ordered.shape[1] - 1, -1, -1, dtype=np.int64)
    out: NDArray[np.int64] = ordered @ weights
    return out


def _high_shapes(
    rows: NDArray[np.int64], wheel: bool
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    """For five-rank rows: category if unsuited, reading-order ranks, tie-break value, straight."""
    counts = rank_counts(rows)
    maxc = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    has3 = (counts == 3).any(axis=1)
    ordered = _reading_order(rows, rows)
    value = _base13(ordered)
    distinct = maxc == 1
    is_wheel = distinct & np.all(rows == np.array([0, 1, 2, 3, 12]), axis=1)
    straight = distinct & (rows[:, 4] - rows[:, 0] == 4)
    if wheel:
        straight |= is_wheel
        ordered = np.where(is_wheel[:, None], np.array([3, 2, 1, 0, 12]), ordered)
    top = np.where(is_wheel & wheel, 3, rows[:, 4])
    value = np.where(straight, top, value)
    cat = np.select(
        [maxc == 4, has3 & (pairs == 1), has3, pairs == 2, pairs == 1, straight],
        [QUADS, FULL_HOUSE, TRIPS, TWO_PAIR, PAIR, STRAIGHT],
        HIGH_CARD,
    )
    return cat, ordered, value, straight


class _HighClasses:
    """Five-card high classes: strengths of each multiset and of each 5-bit flush mask."""

    def __init__(self, wheel: bool) -> None:
        rows = rank_multisets(5)
        cat, ordered, value, straight = _high_shapes(rows, wheel)
        distinct = rank_counts(rows).max(axis=1) == 1
        fl_rows = rows[distinct]
        fl_cat = np.where(straight[distinct], STRAIGHT_FLUSH, FLUSH)
        keys = np.concatenate([cat * 13**5 + value, fl_cat * 13**5 + value[distinct]])
        strength = _dense_rank(keys) + 1
        assert int(strength.max()) == N_HIGH
        self.nonflush: NDArray[np.int64] = strength[: len(rows)]
        masks = (np.int64(1) << fl_rows).sum(axis=1)
        self.flush5 = np.zeros(8192, dtype=np.int64)
        self.flush5[masks] = strength[len(rows) :]
        self.category = np.zeros(N_HIGH + 1, dtype=np.int64)
        self.ranks = np.zeros((N_HIGH + 1, 5), dtype=np.int64)
        all_cat = np.concatenate([cat, fl_cat])
        all_ordered = np.vstack([ordered, ordered[distinct]])
        self.category[strength] = all_cat
        self.ranks[strength] = all_ordered


@cache
def _high_classes(wheel: bool = True) -> _HighClasses:
    return _HighClasses(wheel)


def high_class(strength: int) -> tuple[int, tuple[int, ...]]:
    """``(category, ranks in reading order)`` of a high strength; a wheel is ``(3, 2, 1, 0, 12)``.

    >>> high_class(7462)
    (8, (12, 11, 10, 9, 8))
    """
    hc = _high_classes()
    return int(hc.category[strength]), tuple(int(r) for r in hc.ranks[strength])


def strength_of_class(category: int, ranks: tuple[int, ...]) -> int:
    """The high strength of a class given as ``(category, ranks in reading order)``."""
    hc = _high_classes()
    hit = np.nonzero((hc.category == category) & np.all(hc.ranks == np.array(ranks), axis=1))[0]
    return int(hit[0]) if len(hit) else 0


def _key_table(size: int, five: NDArray[np.int64]) -> NDArray[np.uint16]:
    """Key-sum table for ``size`` cards from strengths of five-rank multisets (best subset)."""
    return key_table(size, RANK_KEYS[rank_multisets(5)].sum(axis=1), five)


def high_table(size: int) -> NDArray[np.uint16]:
    """Rank-key sum of ``size`` (5, 6 or 7) cards -> best high strength ignoring suits.

    The rules' table (:func:`hub.rules.evaluator_tables.high_key_table`, read-only): the
    batch evaluator and equity share one copy per process.
    """
    return high_key_table(size)


@cache
def flush_table() -> NDArray[np.uint16]:
    """13-bit mask of the ranks held in one suit -> best flush or straight flush; 0 below 5."""
    table = _high_classes().flush5.copy()
    masks = np.arange(8192)
    pop = popcount13()
    for size in range(6, 14):
        sel = masks[pop == size]
        best = np.zeros(len(sel), dtype=np.int64)
        for b in range(13):
            has = (sel >> b) & 1 == 1
            best = np.where(has, np.maximum(best, table[sel ^ (1 << b)]), best)
        table[sel] = best
    out = table.astype(np.uint16)
    out.flags.writeable = False
    return out


@cache
def popcount13() -> NDArray[np.int64]:
    """13-bit mask -> number of set bits."""
    return np.array([bin(x).count("1") for x in range(8192)], dtype=np.int64)


class _A5Classes:
    """Ace-to-five low classes of the five-rank multisets."""

    def __init__(self) -> None:
        rows = rank_multisets(5)
        values = (rows + 1) % 13
        values.sort(axis=1)
        counts = rank_counts(values)
        maxc = counts.max(axis=1)
        pairs = (counts == 2).sum(axis=1)
        has3 = (counts == 3).any(axis=1)
        cat = np.select(
            [maxc == 4, has3 & (pairs == 1), has3, pairs == 2, pairs == 1],
            [LOW_QUADS, LOW_FULL_HOUSE, LOW_TRIPS, LOW_TWO_PAIR, LOW_PAIR],
            LOW_NO_PAIR,
        )
        ordered = _reading_order(values, values)
        keys = cat * 13**5 + _base13(ordered)
        strength = N_A5 - _dense_rank(keys)
        assert int(strength.min()) == 1
        self.strength: NDArray[np.int64] = strength
        self.category = np.zeros(N_A5 + 1, dtype=np.int64)
        self.values = np.zeros((N_A5 + 1, 5), dtype=np.int64)
        self.category[strength] = cat
        self.values[strength] = ordered


@cache
def _a5_classes() -> _A5Classes:
    return _A5Classes()


def a5_class(strength: int) -> tuple[int, tuple[int, ...]]:
    """``(low category, ace-low values in reading order)``; values run ace = 0 … king = 12.

    >>> a5_class(N_A5)
    (0, (4, 3, 2, 1, 0))
    """
    ac = _a5_classes()
    return int(ac.category[strength]), tuple(int(v) for v in ac.values[strength])


@cache
def a5_table(size: int) -> NDArray[np.uint16]:
    """Rank-key sum of ``size`` (5, 6 or 7) cards -> best ace-to-five low strength."""
    return _key_table(size, _a5_classes().strength)


def _low8_min() -> int:
    ac = _a5_classes()
    ok = (ac.category == LOW_NO_PAIR) & (ac.values[:, 0] <= 7)
    ok[0] = False
    return int(np.nonzero(ok)[0].min())


@cache
def low8_min() -> int:
    """The ace-to-five strength of 8-7-6-5-4: lows at or above it qualify for 8-or-better."""
    return _low8_min()


@cache
def low27_map() -> NDArray[np.int64]:
    """High strength (ace may play low) -> deuce-to-seven strength of the same five cards.

    Only the wheel classes differ in kind: A-2-3-4-5 is a straight in high but an ace-high
    hand in deuce-to-seven (a flush stays a flush).
    """
    hi = _high_classes(True)
    nw = _high_classes(False)
    out = np.zeros(N_HIGH + 1, dtype=np.int64)
    out[hi.nonflush] = N_HIGH + 1 - nw.nonflush
    masks = np.nonzero(hi.flush5)[0]
    out[hi.flush5[masks]] = N_HIGH + 1 - nw.flush5[masks]
    return out
