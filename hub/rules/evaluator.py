"""Hand strengths: the one place that decides who wins a showdown.

Every ``evaluate_*`` function takes card ints (``rank * 4 + suit``, see
:mod:`feltwire.cards`) and returns an ``int`` *strength*: higher is better and equal
strengths are an exact tie, which splits the pot (R-CARD-3; suits never break ties).
Compare strengths from the same function only. The ``describe_*`` functions turn a
strength into the words a dealer or broadcaster would say.

* :func:`evaluate_high` — best five of 5–7 cards (hold'em, stud, draw; R-CARD-2).
* :func:`evaluate_omaha_high` — exactly two hole cards and three board cards.
* :func:`evaluate_low8`, :func:`evaluate_omaha_low8` — 8-or-better low, or ``None``
  (R-CARD-4).
* :func:`evaluate_a5_low` — ace-to-five low (razz): pairs count, straights and flushes
  do not.
* :func:`evaluate_27_low` — deuce-to-seven lowball: the ace is high, straights and
  flushes count.
* :func:`evaluate_high_batch` — :func:`evaluate_high` over a numpy array of hands, for
  equity.

The module is pure: no I/O, no randomness, no clock. Its tables are computed at import
(:mod:`hub.rules.evaluator_tables`).

>>> from feltwire.cards import card_index, parse_cards
>>> def hand(text: str) -> list[int]:
...     return [card_index(c) for c in parse_cards(text)]
>>> describe_high(evaluate_high(hand("Ah Kh 7c 7d 7s Kd 2c")))
'Full House, Sevens over Kings'
>>> evaluate_high(hand("As Ks Qs Js Ts")) > evaluate_high(hand("9h 9d 9s 9c Ad"))
True
>>> describe_low(evaluate_omaha_low8(hand("Ac 2d Kh Ks"), hand("3c 5d 8h Qs Jd")))
'8-5 low'
>>> evaluate_omaha_low8(hand("Ac 2d 3h 4s"), hand("5c 5d 9h Qs Jd")) is None
True
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from feltwire.cards import RANK_NAMES, RANKS
from feltwire.text import Text
from hub.rules.errors import RulesError
from hub.rules.evaluator_tables import (
    A5_BY_KEY,
    A5_CLASSES,
    A5_LOWEST_FIVE,
    CARD_PACK,
    FLUSH_SUIT,
    HIGH_CLASSES,
    HIGH_FLUSH,
    HIGH_NONFLUSH,
    KEY_BITS,
    LOW8_BIT,
    LOW27_CLASSES,
    LOW27_FLUSH,
    LOW27_NONFLUSH,
    LOW_FULL_HOUSE,
    LOW_NO_PAIR,
    LOW_PAIR,
    LOW_QUADS,
    LOW_TRIPS,
    LOW_TWO_PAIR,
    RANK_BIT,
    RANK_FIELD,
    RANK_PART,
    SUIT_SHIFT,
    BatchTables,
    HandClass,
    batch_tables,
    best_of_subsets,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class HandCategory(enum.IntEnum):
    """The nine kinds of high hand, weakest first, so categories compare like strengths.

    >>> HandCategory.FLUSH > HandCategory.STRAIGHT
    True
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


class InvalidHandError(RulesError):
    """Cards that cannot be evaluated: the wrong number (R-CARD-2), a repeated card or an
    int that is not a card index 0–51 (R-CARD-1); or a hand strength outside its scale
    (R-CARD-3). Also a :class:`ValueError`.

    >>> try:
    ...     evaluate_high([0, 1, 2, 3])
    ... except InvalidHandError as err:
    ...     print(err.rule, isinstance(err, ValueError))
    R-CARD-2 True
    """


def _bad_strength(kind: str, top: int, strength: int) -> InvalidHandError:
    """The error for a ``strength`` that is not on a scale of 1…``top``; ``kind`` names
    the hands it ranks (a ``hand_kind.*`` entry of the catalog)."""
    return InvalidHandError(
        "R-CARD-3",
        Text(
            "refusal.invalid_hand.bad_strength",
            {"what": Text(f"hand_kind.{kind}"), "maximum": top, "number": strength},
        ),
    )


HIGH_CLASS_COUNT: Final = 7462
"""Distinct five-card high hands; :func:`evaluate_high` returns 1 … 7462."""
A5_CLASS_COUNT: Final = 6175
"""Distinct ace-to-five lows; :func:`evaluate_a5_low` returns 1 … 6175 (6175 = wheel).
8-or-better lows use the same scale."""
LOW27_CLASS_COUNT: Final = 7462
"""Distinct deuce-to-seven hands; :func:`evaluate_27_low` returns 1 … 7462."""

_DECK: Final = frozenset(range(52))
_PACK: Final = CARD_PACK
_FLUSH_SUIT: Final = FLUSH_SUIT
_NONFLUSH: Final = HIGH_NONFLUSH
_FLUSH: Final = HIGH_FLUSH
_SUIT_SHIFT: Final = SUIT_SHIFT
_RANK_FIELD: Final = RANK_FIELD
_BATCH_CHUNK: Final = 1 << 15
"""Rows per step of the batch path: small enough that its temporaries stay in cache."""


def _invalid(cards: Sequence[int], fewest: int, most: int, what: str) -> InvalidHandError:
    """The error for ``cards`` that failed the checks of :func:`_check` (``what``: the
    ``hand_kind.*`` entry naming what they should be); it names no card."""
    n = len(cards)
    if not fewest <= n <= most:
        count = f"{fewest}" if fewest == most else f"{fewest}–{most}"
        return InvalidHandError(
            "R-CARD-2",
            Text(
                "refusal.invalid_hand.card_count",
                {"what": Text(f"hand_kind.{what}"), "cards": count, "got": n},
            ),
        )
    if any(c not in _DECK for c in cards):
        return InvalidHandError("R-CARD-1", Text("refusal.invalid_hand.not_card_indexes"))
    return InvalidHandError("R-CARD-1", Text("refusal.invalid_hand.card_twice"))


def _check(cards: Sequence[int], fewest: int, most: int, what: str) -> None:
    """Raise :class:`InvalidHandError` unless ``cards`` are fewest…most distinct cards."""
    distinct = set(cards)
    n = len(cards)
    if len(distinct) != n or n < fewest or n > most or not distinct <= _DECK:
        raise _invalid(cards, fewest, most, what)


def _card_sum(table: dict[int, int], cards: Sequence[int], what: str) -> int:
    """``sum(table[c] for c in cards)`` for 5–7 distinct cards, else InvalidHandError.

    ``table`` has exactly the 52 card indexes as keys, so a ``KeyError`` is a bad card.
    Unrolled, because ``sum(map(...))`` costs three times as much for seven cards.
    """
    n = len(cards)
    try:
        if n == 7:
            a, b, c, d, e, f, g = cards
            total = table[a] + table[b] + table[c] + table[d] + table[e] + table[f] + table[g]
        elif n == 6:
            a, b, c, d, e, f = cards
            total = table[a] + table[b] + table[c] + table[d] + table[e] + table[f]
        elif n == 5:
            a, b, c, d, e = cards
            total = table[a] + table[b] + table[c] + table[d] + table[e]
        else:
            raise _invalid(cards, 5, 7, what)
    except KeyError:
        raise _invalid(cards, 5, 7, what) from None
    if len(set(cards)) != n:
        raise _invalid(cards, 5, 7, what)
    return total


def _check_omaha(hole: Sequence[int], board: Sequence[int]) -> None:
    """Raise :class:`InvalidHandError` unless 2–7 hole and 3–5 board cards, all distinct."""
    _check(hole, 2, 7, "omaha_hand")
    _check(board, 3, 5, "omaha_board")
    if not set(hole).isdisjoint(board):
        raise InvalidHandError("R-CARD-1", Text("refusal.invalid_hand.hand_and_board"))


# ---------------------------------------------------------------------------------------
# High hands
# ---------------------------------------------------------------------------------------


def evaluate_high(cards: Sequence[int]) -> int:
    """Strength of the best five-card high hand among 5, 6 or 7 cards (any five).

    Returns 1 (7-5-4-3-2 of mixed suits) … 7462 (royal flush).

    >>> from feltwire.cards import card_index
    >>> wheel = [card_index(c) for c in ("Ah", "2d", "3c", "4s", "5h", "Kd", "Kc")]
    >>> describe_high(evaluate_high(wheel))
    'Straight, Five high'
    """
    packed = _card_sum(_PACK, cards, "high")
    suit = _FLUSH_SUIT[packed >> _SUIT_SHIFT]
    if suit < 0:
        key = packed & _RANK_FIELD
        value = _NONFLUSH.get(key)
        if value is None:  # first time this 6- or 7-card rank multiset is seen
            value = best_of_subsets(_NONFLUSH, key, [RANK_PART[c] for c in cards])
        return value
    # With at most 7 cards a flush rules out quads and full houses, so the flush wins.
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= RANK_BIT[c]
    return _FLUSH[mask]


def evaluate_omaha_high(hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength of the best high hand made of exactly two hole cards and three board cards.

    ``hole`` has 4 cards (or 2–7 for other Omaha variants), ``board`` 3–5. The scale is
    that of :func:`evaluate_high`.

    >>> from feltwire.cards import card_index, parse_cards
    >>> hole = [card_index(c) for c in parse_cards("As Kd 4c 3c")]
    >>> board = [card_index(c) for c in parse_cards("Qs Js Ts 9s 2s")]  # As alone: no flush
    >>> describe_high(evaluate_omaha_high(hole, board))
    'Straight, Ace high'
    """
    _check_omaha(hole, board)
    part, bit = RANK_PART, RANK_BIT
    hole_keys = {part[a] + part[b] for a, b in combinations(hole, 2)}
    board_keys = {part[a] + part[b] + part[c] for a, b, c in combinations(board, 3)}
    nonflush = _NONFLUSH
    best = max([nonflush[h + b] for h in hole_keys for b in board_keys])
    # A flush needs a suited pair from the hand and three of that suit on the board.
    suited_board = [
        (a & 3, bit[a] | bit[b] | bit[c])
        for a, b, c in combinations(board, 3)
        if a & 3 == b & 3 == c & 3
    ]
    if suited_board:
        for a, b in combinations(hole, 2):
            if a & 3 == b & 3:
                for suit, board_mask in suited_board:
                    if suit == a & 3:
                        best = max(best, _FLUSH[bit[a] | bit[b] | board_mask])
    return best


def high_category(strength: int) -> HandCategory:
    """The category of a high-hand strength (from :func:`evaluate_high` or Omaha).

    >>> high_category(7462)
    <HandCategory.STRAIGHT_FLUSH: 8>
    """
    return HandCategory(_high_class(strength)[0])


def describe_high(strength: int) -> str:
    """The hand as a broadcaster says it: ``"Full House, Kings over Sevens"``.

    >>> describe_high(7462), describe_high(1)
    ('Royal Flush', 'High Card, Seven')
    """
    category, ranks = _high_class(strength)
    return _describe_made_hand(category, ranks)


def _high_class(strength: int) -> HandClass:
    """The ``(category, ranks)`` of a high-hand strength; raises ValueError if out of range."""
    if not 1 <= strength <= HIGH_CLASS_COUNT:
        raise _bad_strength("high", HIGH_CLASS_COUNT, strength)
    return HIGH_CLASSES[strength]


def _name(rank: int) -> str:
    """``"Ace"`` for rank 12."""
    return RANK_NAMES[RANKS[rank]]


def _plural(rank: int) -> str:
    """``"Aces"``, ``"Sixes"``."""
    name = _name(rank)
    return name + ("es" if name.endswith("x") else "s")


_MADE_HAND_WORDS: Final[dict[HandCategory, str]] = {
    HandCategory.STRAIGHT_FLUSH: "Straight Flush, {name[0]} high",
    HandCategory.FOUR_OF_A_KIND: "Four of a Kind, {plural[0]}",
    HandCategory.FULL_HOUSE: "Full House, {plural[0]} over {plural[3]}",
    HandCategory.FLUSH: "Flush, {name[0]} high",
    HandCategory.STRAIGHT: "Straight, {name[0]} high",
    HandCategory.THREE_OF_A_KIND: "Three of a Kind, {plural[0]}",
    HandCategory.TWO_PAIR: "Two Pair, {plural[0]} and {plural[2]}",
    HandCategory.PAIR: "Pair of {plural[0]}",
    HandCategory.HIGH_CARD: "High Card, {name[0]}",
}
"""How a broadcaster says each category: ``name[i]`` / ``plural[i]`` is the rank at
position ``i`` of the hand's reading order ("Kings over Sevens": positions 0 and 3)."""


def _describe_made_hand(category: int, ranks: tuple[int, ...]) -> str:
    """Words for a five-card high-hand class (ranks in reading order, 12 = ace)."""
    if category == HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        return "Royal Flush"
    return _MADE_HAND_WORDS[HandCategory(category)].format(
        name=[_name(r) for r in ranks], plural=[_plural(r) for r in ranks]
    )


# ---------------------------------------------------------------------------------------
# Lows
# ---------------------------------------------------------------------------------------


def evaluate_low8(cards: Sequence[int]) -> int | None:
    """Strength of the best 8-or-better low among 5–7 cards, or ``None`` if there is none.

    Five different ranks, all 8 or lower, ace low; straights and flushes do not count
    (R-CARD-4). The scale is :func:`evaluate_a5_low`'s, so A-2-3-4-5 is 6175.

    >>> from feltwire.cards import card_index, parse_cards
    >>> describe_low(evaluate_low8([card_index(c) for c in parse_cards("Ac2c3c4c5c")]))
    'Wheel (5-4 low)'
    """
    _check(cards, 5, 7, "low")
    mask = 0
    for c in cards:
        mask |= LOW8_BIT[c]
    return A5_LOWEST_FIVE[mask]


def evaluate_omaha_low8(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Strength of the best 8-or-better low using exactly two hole and three board cards.

    ``None`` when no such low exists — always so when the board holds fewer than three
    distinct ranks of 8 or lower (R-CARD-4). Same scale as :func:`evaluate_low8`.
    """
    _check_omaha(hole, board)
    low = LOW8_BIT
    hole_masks = {low[a] | low[b] for a, b in combinations(hole, 2)}
    board_masks = {low[a] | low[b] | low[c] for a, b, c in combinations(board, 3)}
    hole_masks = {m for m in hole_masks if m.bit_count() == 2}
    board_masks = {m for m in board_masks if m.bit_count() == 3}
    lows = [
        value
        for h in hole_masks
        for b in board_masks
        if not h & b and (value := A5_LOWEST_FIVE[h | b]) is not None
    ]
    return max(lows) if lows else None


def evaluate_a5_low(cards: Sequence[int]) -> int:
    """Strength of the best ace-to-five low (razz) among 5–7 cards.

    The ace is low, pairs count against the hand, straights and flushes are ignored, and
    there is no qualifier. Returns 1 (four kings with a queen) … 6175 (A-2-3-4-5).

    >>> from feltwire.cards import card_index, parse_cards
    >>> describe_low(evaluate_a5_low([card_index(c) for c in parse_cards("As Ac 2d 2h Kc Ks 7d")]))
    'Pair of Aces'
    """
    key = _card_sum(RANK_PART, cards, "razz")
    value = A5_BY_KEY.get(key)
    if value is None:  # first time this 6- or 7-card rank multiset is seen
        value = best_of_subsets(A5_BY_KEY, key, [RANK_PART[c] for c in cards])
    return value


def describe_low(strength: int) -> str:
    """An ace-to-five or 8-or-better low as players say it: ``"8-6 low"``, ``"Wheel (5-4
    low)"``; a paired razz hand as ``"Pair of Kings"``.

    >>> describe_low(6175), describe_low(1)
    ('Wheel (5-4 low)', 'Four of a Kind, Kings')
    """
    if not 1 <= strength <= A5_CLASS_COUNT:
        raise _bad_strength("low", A5_CLASS_COUNT, strength)
    category, values = A5_CLASSES[strength]
    if category == LOW_NO_PAIR:
        if values == (4, 3, 2, 1, 0):
            return "Wheel (5-4 low)"
        return f"{_LOW_CHARS[values[0]]}-{_LOW_CHARS[values[1]]} low"
    ranks = tuple((v + 12) % 13 for v in values)  # ace-low value -> rank (ace = 12)
    return _describe_made_hand(_A5_AS_HIGH[category], ranks)


_LOW_CHARS: Final = "A23456789TJQK"
"""Ace-low value (ace = 0 … king = 12) -> rank character."""
_A5_AS_HIGH: Final = {
    LOW_PAIR: HandCategory.PAIR,
    LOW_TWO_PAIR: HandCategory.TWO_PAIR,
    LOW_TRIPS: HandCategory.THREE_OF_A_KIND,
    LOW_FULL_HOUSE: HandCategory.FULL_HOUSE,
    LOW_QUADS: HandCategory.FOUR_OF_A_KIND,
}
"""Paired ace-to-five categories -> the high category whose words they share."""


def evaluate_27_low(cards: Sequence[int]) -> int:
    """Strength of a deuce-to-seven lowball hand: 5 cards (or the best 5 of 6–7).

    The ace is high only; straights and flushes count against the hand; A-2-3-4-5 is
    ace high. Returns 1 (royal flush) … 7462 (7-5-4-3-2 of mixed suits).

    >>> from feltwire.cards import card_index, parse_cards
    >>> describe_27_low(evaluate_27_low([card_index(c) for c in parse_cards("7c5d4h3s2c")]))
    '7-5 low'
    """
    _check(cards, 5, 7, "deuce_seven")
    if len(cards) == 5:
        return _low27_five(cards)
    return max(_low27_five(five) for five in combinations(cards, 5))


def _low27_five(cards: Sequence[int]) -> int:
    """Deuce-to-seven strength of exactly five valid cards."""
    a, b, c, d, e = cards
    packed = _PACK[a] + _PACK[b] + _PACK[c] + _PACK[d] + _PACK[e]
    if _FLUSH_SUIT[packed >> _SUIT_SHIFT] < 0:
        return LOW27_NONFLUSH[packed & _RANK_FIELD]
    mask = 0
    for c in cards:
        mask |= RANK_BIT[c]
    return LOW27_FLUSH[mask]


def describe_27_low(strength: int) -> str:
    """A deuce-to-seven hand as players say it: ``"7-5 low"``, ``"Pair of Kings"``,
    ``"Straight, Seven high"``.

    >>> describe_27_low(7462), describe_27_low(1)
    ('7-5 low', 'Royal Flush')
    """
    if not 1 <= strength <= LOW27_CLASS_COUNT:
        raise _bad_strength("deuce_seven", LOW27_CLASS_COUNT, strength)
    category, ranks = LOW27_CLASSES[strength]
    if category == HandCategory.HIGH_CARD:
        return f"{RANKS[ranks[0]]}-{RANKS[ranks[1]]} low"
    return _describe_made_hand(category, ranks)


# ---------------------------------------------------------------------------------------
# Batch (numpy)
# ---------------------------------------------------------------------------------------


def evaluate_high_batch(cards: NDArray[np.integer[Any]]) -> NDArray[np.int32]:
    """:func:`evaluate_high` for every row of an ``(N, 5)``, ``(N, 6)`` or ``(N, 7)`` int
    array of card indexes, as an ``(N,)`` int32 array — for equity and simulations.

    Each row must hold distinct cards; for speed that is not checked (indexes outside
    0–51 are). numpy is imported on the first call, which also builds the tables for that
    hand size (~15 MB each).

    >>> import numpy as np
    >>> evaluate_high_batch(np.array([[48, 49, 50, 51, 44], [0, 1, 2, 3, 4]])).tolist()
    [7452, 7297]
    """
    import numpy as np

    hands = np.asarray(cards)
    if hands.ndim != 2 or hands.shape[1] not in (5, 6, 7):
        raise InvalidHandError(
            "R-CARD-2", Text("refusal.invalid_hand.batch_shape", {"shape": str(hands.shape)})
        )
    if not np.issubdtype(hands.dtype, np.integer):
        raise InvalidHandError(
            "R-CARD-1", Text("refusal.invalid_hand.batch_dtype", {"dtype": str(hands.dtype)})
        )
    out = np.empty(len(hands), dtype=np.int32)
    if hands.size == 0:
        return out
    if hands.min() < 0 or hands.max() > 51:
        raise InvalidHandError("R-CARD-1", Text("refusal.invalid_hand.batch_range"))
    tables = batch_tables(hands.shape[1])
    for start in range(0, len(hands), _BATCH_CHUNK):
        stop = start + _BATCH_CHUNK
        out[start:stop] = _batch_chunk(hands[start:stop], tables)
    return out


def _batch_chunk(hands: NDArray[np.integer[Any]], tables: BatchTables) -> NDArray[np.uint16]:
    """Strengths of a block of hands (see :func:`evaluate_high_batch`)."""
    import numpy as np

    packed = tables.pack[hands]
    total = packed[:, 0].copy()
    for column in range(1, packed.shape[1]):
        total += packed[:, column]
    strengths: NDArray[np.uint16] = tables.nonflush[total & ((1 << KEY_BITS) - 1)]
    suits = tables.flush_suit[total >> KEY_BITS]
    rows = np.flatnonzero(suits >= 0)
    if rows.size:
        flush_hands = hands[rows]
        in_suit = (flush_hands & 3) == suits[rows, None]
        masks = np.where(in_suit, tables.rank_bit[flush_hands], 0).sum(axis=1)
        strengths[rows] = tables.flush[masks]
    return strengths


__all__ = [
    "A5_CLASS_COUNT",
    "HIGH_CLASS_COUNT",
    "LOW27_CLASS_COUNT",
    "HandCategory",
    "InvalidHandError",
    "describe_27_low",
    "describe_high",
    "describe_low",
    "evaluate_27_low",
    "evaluate_a5_low",
    "evaluate_high",
    "evaluate_high_batch",
    "evaluate_low8",
    "evaluate_omaha_high",
    "evaluate_omaha_low8",
    "high_category",
]
