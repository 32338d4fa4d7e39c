"""Lookup tables behind :mod:`hub.rules.evaluator`, generated at import.

Nothing here is a committed data file: every table is computed from the hand rankings
when the module is imported (tens of milliseconds of pure Python). Import builds the
five-card tables; the 6- and 7-card rank multisets (67,600 of them, ~100 ms to build
in pure Python) are valued the first time a hand shows them, by :func:`best_of_subsets`,
and kept — a cache of a pure function, bounded by that count. The numpy tables of the
batch path are built on first use by :func:`batch_tables`, so importing the evaluator
does not import numpy; their largest part, :func:`high_key_table`, is also
:mod:`hub.equity`'s, one copy per process.

The public API lives in :mod:`hub.rules.evaluator`; this module says how the tables are
laid out. Card ints follow :mod:`feltwire.cards`: ``rank * 4 + suit`` with rank 0 = deuce
… 12 = ace and suit 0 = clubs … 3 = spades.

Keys
----
A hand is looked up by the *sum* of one packed int per card (:data:`CARD_PACK`):

* the low 23 bits sum a per-rank key (:data:`RANK_KEYS`) chosen so that no two rank
  multisets of the same size (at most four of a rank) share a sum;
* bits 23–25 count the cards, so one dict serves hands of 5, 6 and 7 cards — the low 26
  bits (:data:`RANK_FIELD`) are the *rank key* of the hand;
* bits 26 and up hold one 3-bit count per suit; :data:`FLUSH_SUIT` maps them (the packed
  sum shifted right by :data:`SUIT_SHIFT`) to the suit with five or more cards, or -1.

Strengths are dense ranks where higher is better: high hands 1 … 7462, ace-to-five lows
1 … 6175, deuce-to-seven lows 1 … 7462.

>>> len(HIGH_CLASSES) - 1, HIGH_CLASSES[1], HIGH_CLASSES[7462]
(7462, (0, (5, 3, 2, 1, 0)), (8, (12, 11, 10, 9, 8)))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # numpy is imported lazily, by batch_tables() only.
    import numpy as np
    from numpy.typing import NDArray

# High-hand categories; hub.rules.evaluator.HandCategory has the same values.
HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8

# Ace-to-five low categories (pairs count against a low; straights and flushes do not).
LOW_NO_PAIR: Final = 0
LOW_PAIR: Final = 1
LOW_TWO_PAIR: Final = 2
LOW_TRIPS: Final = 3
LOW_FULL_HOUSE: Final = 4
LOW_QUADS: Final = 5

RANK_KEYS: Final[tuple[int, ...]] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)
"""Per-rank keys (deuce first) whose sums tell apart all rank multisets of one size — 5,
6 or 7 cards, at most four of a rank; the largest 7-card sum is 7,825,759 < 2**23. These
are the keys of Kenneth Shackleton's SKPokerEval; the tests check the property."""

KEY_BITS: Final = 23
"""Bits of the rank-key sum; the card count sits just above."""
COUNT_UNIT: Final = 1 << KEY_BITS
"""One card in the card-count field."""
SUIT_SHIFT: Final = KEY_BITS + 3
"""Bit where the suit-count fields of a packed sum start."""
RANK_FIELD: Final = (1 << SUIT_SHIFT) - 1
"""Mask of the rank key (rank-key sum and card count) in a packed sum."""

_RANK_STEP: Final = tuple(k + COUNT_UNIT for k in RANK_KEYS)
_RANK_BITS: Final = tuple(1 << r for r in range(13))

HandClass = tuple[int, tuple[int, ...]]
"""``(category, ranks)``: ranks in the order a dealer reads them — pairs first then
kickers, each group from the top; a straight from its top card (a wheel is
``(3, 2, 1, 0, 12)``)."""


def _descending(values: Iterable[int], k: int) -> list[tuple[int, ...]]:
    """All ``k``-sets of ``values`` as descending tuples, in ascending tuple order."""
    return list(combinations(sorted(values, reverse=True), k))[::-1]


def _others(v: int) -> list[int]:
    """The twelve values 0 … 12 other than ``v``."""
    return [r for r in range(13) if r != v]


def _paired_sections() -> dict[int, list[tuple[int, ...]]]:
    """The hands with a pair or better, by shape, each in ascending reading order.

    Values are 0 … 12 and mean ranks for high hands or ace-low values for lows; in both
    orders a section's hands come from the smallest pair (then kickers) up.
    """
    return {
        PAIR: [(p, p, *k) for p in range(13) for k in _descending(_others(p), 3)],
        TWO_PAIR: [
            (h, h, lo, lo, k) for h in range(13) for lo in range(h) for k in _others(h) if k != lo
        ],
        THREE_OF_A_KIND: [(t, t, t, *k) for t in range(13) for k in _descending(_others(t), 2)],
        FULL_HOUSE: [(t, t, t, p, p) for t in range(13) for p in _others(t)],
        FOUR_OF_A_KIND: [(q, q, q, q, k) for q in range(13) for k in _others(q)],
    }


_PAIRED: Final = _paired_sections()
_UNPAIRED: Final = _descending(range(13), 5)


def _high_classes(wheel: bool) -> list[HandClass]:
    """Every five-card high-hand class, weakest first (7,462 with or without the wheel).

    ``wheel=False`` is deuce-to-seven order, where the ace is only high and A-5-4-3-2 is
    an ace-high hand rather than a straight.
    """
    straights: list[tuple[int, ...]] = [(3, 2, 1, 0, 12)] if wheel else []
    straights += [tuple(range(top, top - 5, -1)) for top in range(4, 13)]
    straight_sets = {frozenset(s) for s in straights}
    unpaired = [d for d in _UNPAIRED if frozenset(d) not in straight_sets]
    by_category = _PAIRED
    out: list[HandClass] = [(HIGH_CARD, d) for d in unpaired]
    for cat in (PAIR, TWO_PAIR, THREE_OF_A_KIND):
        out += [(cat, r) for r in by_category[cat]]
    out += [(STRAIGHT, s) for s in straights]
    out += [(FLUSH, d) for d in unpaired]
    for cat in (FULL_HOUSE, FOUR_OF_A_KIND):
        out += [(cat, r) for r in by_category[cat]]
    out += [(STRAIGHT_FLUSH, s) for s in straights]
    return out


def best_of_subsets(table: dict[int, int], key: int, parts: list[int]) -> int:
    """Fill and return ``table[key]`` for a hand of six or seven cards.

    ``table`` maps five-card rank keys to strengths; ``parts`` are the rank parts
    (:data:`RANK_PART`) of the hand's cards and sum to ``key``. A hand's best five cards
    are the best five of one of its one-card-smaller sub-hands, so this takes the best
    over the distinct cards to leave out, recursing once for seven cards. The results are
    stored in ``table`` — a cache: the answer depends only on ``key``, so the tables of
    6- and 7-card hands (up to 67,600 entries) fill as hands are seen instead of costing
    every import ~100 ms. Raises ``KeyError`` for fewer than six parts.
    """
    if len(parts) <= 5:
        raise KeyError(key)
    best = 0
    for part in set(parts):
        sub = key - part
        value = table.get(sub)
        if value is None:
            rest = list(parts)
            rest.remove(part)
            value = best_of_subsets(table, sub, rest)
        if value > best:
            best = value
    table[key] = best
    return best


# ---------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------

CARD_PACK: Final[dict[int, int]] = {
    c: RANK_KEYS[c >> 2] + COUNT_UNIT + (1 << (SUIT_SHIFT + 3 * (c & 3))) for c in range(52)
}
"""Card int -> packed rank key, card count and suit count (see the module docs). A dict,
so a bad card index raises ``KeyError`` instead of wrapping round."""

RANK_PART: Final[dict[int, int]] = {c: RANK_KEYS[c >> 2] + COUNT_UNIT for c in range(52)}
"""Card int -> its rank key alone (for hands that cannot be a flush)."""

RANK_BIT: Final[tuple[int, ...]] = tuple(1 << (c >> 2) for c in range(52))
"""Card int -> ``1 << rank`` (deuce = bit 0), for flush masks."""

ACE_LOW_BIT: Final[tuple[int, ...]] = tuple(1 << (((c >> 2) + 1) % 13) for c in range(52))
"""Card int -> rank bit with the ace low: ace = bit 0, deuce = bit 1 … king = bit 12."""

LOW8_BIT: Final[tuple[int, ...]] = tuple(b if b <= 0x80 else 0 for b in ACE_LOW_BIT)
"""Card int -> ace-low rank bit for A … 8, and 0 for nine and up (8-or-better lows)."""


def _flush_suits() -> tuple[int, ...]:
    """Suit-count fields of up to seven cards -> the suit with five or more, or -1."""
    out = [-1] * 4096
    for suit in range(4):
        shifts = [3 * s for s in range(4) if s != suit]
        for n in (5, 6, 7):
            spare = 7 - n  # cards left for the other three suits
            for a in range(spare + 1):
                for b in range(spare + 1 - a):
                    for c in range(spare + 1 - a - b):
                        fields = (n << (3 * suit)) | (a << shifts[0])
                        out[fields | (b << shifts[1]) | (c << shifts[2])] = suit
    return tuple(out)


FLUSH_SUIT: Final[tuple[int, ...]] = _flush_suits()
"""Suit-count fields (packed sum >> :data:`SUIT_SHIFT`) -> suit with >= 5 cards, or -1."""


# ---------------------------------------------------------------------------------------
# High hands
# ---------------------------------------------------------------------------------------

HIGH_CLASSES: Final[tuple[HandClass, ...]] = ((-1, ()), *_high_classes(wheel=True))
"""Strength -> ``(category, ranks)``; index 0 is a placeholder, 1 is 7-5-4-3-2."""

HIGH_CATEGORY_FIRST: Final[tuple[int, ...]] = tuple(
    sorted({cat: s for s, (cat, _) in reversed(list(enumerate(HIGH_CLASSES)))}.values())[1:]
)
"""Category -> its weakest strength (``HIGH_CATEGORY_FIRST[PAIR] == 1278``)."""


def _by_suitedness(classes: tuple[HandClass, ...]) -> tuple[dict[int, int], dict[int, int]]:
    """Split five-card classes (strength = index) into ``rank key -> strength`` for the
    hands that are not one suit and ``rank mask -> strength`` for flushes."""
    step, bit = _RANK_STEP, _RANK_BITS
    nonflush = {
        step[a] + step[b] + step[c] + step[d] + step[e]: s
        for s, (cat, (a, b, c, d, e)) in enumerate(classes[1:], start=1)
        if cat not in (FLUSH, STRAIGHT_FLUSH)
    }
    flush = {
        bit[a] | bit[b] | bit[c] | bit[d] | bit[e]: s
        for s, (cat, (a, b, c, d, e)) in enumerate(classes[1:], start=1)
        if cat in (FLUSH, STRAIGHT_FLUSH)
    }
    return nonflush, flush


def _high_tables() -> tuple[dict[int, int], list[int]]:
    """Build the five-card rank-key dict and the flush-mask list (5–7 ranks)."""
    five, suited = _by_suitedness(HIGH_CLASSES)
    flush = [0] * 8192
    for mask, strength in suited.items():
        flush[mask] = strength
    for size in (6, 7):  # the best five of a 6- or 7-card flush leave out one card
        for ranks in combinations(_RANK_BITS, size):
            mask = sum(ranks)
            flush[mask] = max([flush[mask ^ b] for b in ranks])
    return five, flush


_HIGH: Final = _high_tables()
HIGH_NONFLUSH: Final[dict[int, int]] = _HIGH[0]
"""Rank key -> best high strength ignoring suits: every five-card key from import, and
a cache of the 6- and 7-card keys seen so far (filled by :func:`best_of_subsets`; the
key holds the card count, so one dict serves every size)."""
HIGH_FLUSH: Final[list[int]] = _HIGH[1]
"""13-bit mask of the ranks in the flush suit (5–7 bits) -> best flush or straight
flush; 0 for fewer than five bits."""


# ---------------------------------------------------------------------------------------
# Deuce-to-seven lowball
# ---------------------------------------------------------------------------------------

LOW27_CLASSES: Final[tuple[HandClass, ...]] = (
    (-1, ()),
    *reversed(_high_classes(wheel=False)),
)
"""Deuce-to-seven strength -> ``(category, ranks)``: 1 is a royal flush (the worst),
7462 is 7-5-4-3-2 offsuit (the best)."""


_LOW27: Final = _by_suitedness(LOW27_CLASSES)
LOW27_NONFLUSH: Final[dict[int, int]] = _LOW27[0]
"""Rank key of exactly 5 cards -> deuce-to-seven strength when not all one suit."""
LOW27_FLUSH: Final[dict[int, int]] = _LOW27[1]
"""Rank mask of five cards of one suit -> deuce-to-seven strength."""


# ---------------------------------------------------------------------------------------
# Ace-to-five lows (razz) and 8-or-better
# ---------------------------------------------------------------------------------------


def _a5_tables() -> tuple[tuple[HandClass, ...], dict[int, int], list[int | None]]:
    """Ace-to-five classes by strength, the five-card rank-key dict and the mask list.

    Ace-low values run ace = 0, deuce = 1 … king = 12, so in ascending reading order the
    best low comes first: unpaired hands, then pairs, two pair, trips, full houses, quads.
    """
    best_first: list[HandClass] = [(LOW_NO_PAIR, d) for d in _UNPAIRED]
    for cat, section in _PAIRED.items():
        low_cat = {
            PAIR: LOW_PAIR,
            TWO_PAIR: LOW_TWO_PAIR,
            THREE_OF_A_KIND: LOW_TRIPS,
            FULL_HOUSE: LOW_FULL_HOUSE,
            FOUR_OF_A_KIND: LOW_QUADS,
        }[cat]
        best_first += [(low_cat, values) for values in section]
    classes: tuple[HandClass, ...] = ((-1, ()), *reversed(best_first))
    step = [_RANK_STEP[(v + 12) % 13] for v in range(13)]  # ace-low value -> rank step
    bit = _RANK_BITS
    five = {
        step[a] + step[b] + step[c] + step[d] + step[e]: s
        for s, (_, (a, b, c, d, e)) in enumerate(classes[1:], start=1)
    }
    unpaired = {
        bit[a] | bit[b] | bit[c] | bit[d] | bit[e]: s
        for s, (cat, (a, b, c, d, e)) in enumerate(classes[1:], start=1)
        if cat == LOW_NO_PAIR
    }
    lowest_five: list[int | None] = [None] * 8192
    for mask in range(8192):
        if mask in unpaired:
            lowest_five[mask] = unpaired[mask]
        elif mask.bit_count() > 5:  # drop the highest rank: its sub-mask is done
            lowest_five[mask] = lowest_five[mask ^ (1 << (mask.bit_length() - 1))]
    return classes, five, lowest_five


_A5: Final = _a5_tables()
A5_CLASSES: Final[tuple[HandClass, ...]] = _A5[0]
"""Ace-to-five strength -> ``(low category, ace-low values in reading order)``; 6175 is
the wheel, 1 is four kings with a queen."""
A5_BY_KEY: Final[dict[int, int]] = _A5[1]
"""Rank key -> ace-to-five strength: every five-card key, and a cache of the 6- and
7-card keys seen so far (see :func:`best_of_subsets`)."""
A5_LOWEST_FIVE: Final[list[int | None]] = _A5[2]
"""13-bit ace-low rank mask -> strength of the unpaired low made of its five lowest
ranks; None for fewer than five ranks. Masked to A … 8 it is the 8-or-better low."""


# ---------------------------------------------------------------------------------------
# numpy tables for the batch path (built on first use)
# ---------------------------------------------------------------------------------------

BATCH_SUIT_KEYS: Final[tuple[int, ...]] = (0, 1, 8, 64)
"""Batch suit keys: base-8 digits count diamonds, hearts and spades (at most 7 * 64 =
448 < 2**9); clubs are the hand size minus the rest."""


@dataclass(frozen=True)
class BatchTables:
    """The numpy tables that :func:`hub.rules.evaluator.evaluate_high_batch` reads for one
    hand size (5, 6 or 7 cards)."""

    pack: NDArray[np.uint32]
    """Card int -> rank key + (suit key << 23); seven of them sum below 2**32."""
    nonflush: NDArray[np.uint16]
    """Rank-key sum -> best high strength ignoring suits (0 where no multiset sums): the
    shared :func:`high_key_table`."""
    flush_suit: NDArray[np.int8]
    """Suit-key sum -> the suit with five or more cards, or -1."""
    flush: NDArray[np.uint16]
    """13-bit rank mask of the flush suit -> best flush or straight flush (HIGH_FLUSH)."""
    rank_bit: NDArray[np.uint16]
    """Card int -> ``1 << rank``."""


def sparse_zeros(length: int, dtype: type[np.generic]) -> NDArray[Any]:
    """A zeroed, writable array of ``length`` items in an anonymous private memory map of
    its own — for the key tables, which are large and sparse (the 7-card table has 15.7 MB
    of slots and 49,205 entries set). Its pages take memory only once written and go back
    to the system when the array is dropped; ``np.zeros`` may instead take the block from
    the C heap, where every page is zeroed (resident) and may stay after a free. No file
    or I/O is involved."""
    import mmap

    import numpy as np

    itemsize = np.dtype(dtype).itemsize
    buf = mmap.mmap(-1, max(1, length * itemsize), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(buf, dtype=dtype, count=length)


_BATCH: dict[int, BatchTables] = {}
_KEY_TABLES: dict[int, NDArray[np.uint16]] = {}


def high_key_table(size: int) -> NDArray[np.uint16]:
    """Rank-key sum of ``size`` (5, 6 or 7) cards -> best high strength ignoring suits, 0
    where no rank multiset sums: 13.1, 14.4 and 15.7 MB of slots, in :func:`sparse_zeros`
    so that only the pages holding one of the 6,175 / 18,395 / 49,205 multisets are
    resident (2.9, ~5 and 8.2 MB).

    The one copy per process: the batch evaluator reads it and so does :mod:`hub.equity`
    (its ``high_table``). Built on first use and read-only. Two threads asking at once for
    the first time may each build one (these modules take no locks), but both get the copy
    stored first and the other is dropped.
    """
    table = _KEY_TABLES.get(size)
    if table is None:
        built = _numpy_nonflush(size)
        built.flags.writeable = False
        table = _KEY_TABLES.setdefault(size, built)
    return table


def batch_tables(size: int) -> BatchTables:
    """The batch tables for hands of ``size`` cards (5, 6 or 7), built once and cached."""
    cached = _BATCH.get(size)
    if cached is not None:
        return cached
    import numpy as np

    cards = np.arange(52)
    rank_keys = np.array(RANK_KEYS, dtype=np.uint32)[cards >> 2]
    suit_keys = np.array(BATCH_SUIT_KEYS, dtype=np.uint32)[cards & 3]
    nonflush = high_key_table(size)
    flush_suit = np.full(7 * 64 + 1, -1, dtype=np.int8)
    for d in range(size + 1):
        for h in range(size + 1 - d):
            for s in range(size + 1 - d - h):
                counts = (size - d - h - s, d, h, s)
                flush_suit[d + 8 * h + 64 * s] = next(
                    (i for i, n in enumerate(counts) if n >= 5), -1
                )
    tables = BatchTables(
        pack=rank_keys + (suit_keys << KEY_BITS),
        nonflush=nonflush,
        flush_suit=flush_suit,
        flush=np.array(HIGH_FLUSH, dtype=np.uint16),
        rank_bit=(1 << (cards >> 2)).astype(np.uint16),
    )
    _BATCH[size] = tables
    return tables


def rank_multisets(size: int) -> NDArray[np.int64]:
    """Every multiset of ``size`` ranks (no rank more than four times), one sorted row
    each, in ascending row order; read-only (numpy).

    >>> rank_multisets(5).shape, rank_multisets(2)[:3].tolist()
    ((6175, 5), [[0, 0], [0, 1], [0, 2]])
    """
    import numpy as np

    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)
    rows = np.arange(13, dtype=np.int64)[:, None]
    for _ in range(size - 1):
        last = rows[:, -1]
        reps = 13 - last
        idx = np.repeat(np.arange(len(rows)), reps)
        start = np.repeat(np.cumsum(reps) - reps, reps)
        new = last[idx] + (np.arange(len(idx)) - start)
        rows = np.hstack([rows[idx], new[:, None]])
    if size > 4:
        bad = np.zeros(len(rows), dtype=bool)
        for i in range(size - 4):
            bad |= rows[:, i] == rows[:, i + 4]
        rows = rows[~bad]
    rows.flags.writeable = False
    return rows


def key_table(
    size: int, five_keys: NDArray[np.int64], five_values: NDArray[np.integer[Any]]
) -> NDArray[np.uint16]:
    """Rank-key sum of ``size`` (5, 6 or 7) cards -> the best value of any five of them,
    given each five-rank multiset's value (``five_keys`` its rank-key sums; 0 where no
    multiset sums), in :func:`sparse_zeros`.

    The rule of :func:`best_of_subsets` for every multiset at once: each ``size``-rank
    multiset takes the maximum over its five-rank sub-multisets. Its temporaries stay
    near 8 MB at seven cards. The high table (:func:`high_key_table`) and
    :mod:`hub.equity`'s ace-to-five tables are built here.
    """
    import numpy as np

    keys = np.array(RANK_KEYS, dtype=np.int64)
    t5: NDArray[np.uint16] = sparse_zeros(int(five_keys.max()) + 1, np.uint16)
    t5[five_keys] = five_values
    if size == 5:
        return t5
    rows = rank_multisets(size)
    best = np.zeros(len(rows), dtype=np.uint16)
    for sub in combinations(range(size), 5):
        np.maximum(best, t5[keys[rows[:, list(sub)]].sum(axis=1)], out=best)
    del t5
    sums = keys[rows].sum(axis=1)
    table: NDArray[np.uint16] = sparse_zeros(int(sums.max()) + 1, np.uint16)
    table[sums] = best
    return table


def _numpy_nonflush(size: int) -> NDArray[np.uint16]:
    """Rank-key sum -> best high strength ignoring suits, for every ``size``-card rank
    multiset (numpy; the five-card values from :data:`HIGH_CLASSES`, which never change
    — unlike :data:`HIGH_NONFLUSH`, which the scalar evaluator fills as it goes)."""
    import numpy as np

    rows = [
        (ranks, s)
        for s, (cat, ranks) in enumerate(HIGH_CLASSES[1:], start=1)
        if cat not in (FLUSH, STRAIGHT_FLUSH)
    ]
    keys = np.array(RANK_KEYS, dtype=np.int64)[np.array([r for r, _ in rows])].sum(axis=1)
    return key_table(size, keys, np.array([v for _, v in rows], dtype=np.uint16))
