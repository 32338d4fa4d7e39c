"""The hand evaluator agrees with the hand rankings, with PokerKit and with itself.

* every five-card hand: 7,462 classes, in the right number per category (batch path);
* random hands: the order of our strengths is PokerKit's order, for every game the
  evaluator serves (``FELTWIRE_EVAL_SAMPLES`` sets the sample size, default 1500);
* the scalar path, the batch path and brute force over five-card subsets agree;
* the names a broadcaster reads and the R-CARD-4 low rules, case by case.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    EightOrBetterLowHand,
    Hand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
)

from feltwire.cards import card_code, card_index, parse_cards
from hub.rules import evaluator_tables
from hub.rules.errors import RulesError
from hub.rules.evaluator import (
    A5_CLASS_COUNT,
    HIGH_CLASS_COUNT,
    LOW27_CLASS_COUNT,
    HandCategory,
    InvalidHandError,
    describe_27_low,
    describe_high,
    describe_low,
    evaluate_27_low,
    evaluate_a5_low,
    evaluate_high,
    evaluate_high_batch,
    evaluate_low8,
    evaluate_omaha_high,
    evaluate_omaha_low8,
    high_category,
)

SAMPLES = int(os.environ.get("FELTWIRE_EVAL_SAMPLES", "1500"))
"""Random hands per PokerKit comparison (7-card high); slower games use a fraction."""

HYPOTHESIS = settings(max_examples=150, deadline=None, database=None)


def cards(text: str) -> list[int]:
    """``"As Kd 7c"`` -> card ints."""
    return [card_index(c) for c in parse_cards(text)]


def codes(hand: Sequence[int]) -> str:
    """Card ints -> PokerKit's card string."""
    return "".join(card_code(int(c)) for c in hand)


# Decks to deal random hands from: the full deck, and decks rich in what is rare.
FULL_DECK = list(range(52))
TWO_SUITS = [c for c in range(52) if c & 3 in (0, 3)]  # flushes, straight flushes
FIVE_RANKS = [c for c in range(52) if c >> 2 in (12, 0, 1, 2, 9)]  # pairs, quads, wheels
LOW_RANKS = [c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 6, 7, 11)]  # A-9, K
A_TO_8 = [c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 6)]
DECKS = {"full": FULL_DECK, "two_suits": TWO_SUITS, "five_ranks": FIVE_RANKS, "low": LOW_RANKS}


def deal(rng: random.Random, count: int, size: int) -> list[list[int]]:
    """``count`` random hands of ``size`` cards, cycling through :data:`DECKS`."""
    decks = list(DECKS.values())
    return [rng.sample(decks[i % len(decks)], size) for i in range(count)]


def assert_same_order(ours: Sequence[int | None], theirs: Sequence[Hand | None]) -> None:
    """Our strengths order the hands exactly as PokerKit's hands do (None = no hand).

    Sorting by our strength and checking each neighbouring pair is enough: both orders
    are transitive, so agreeing on neighbours means agreeing on every pair.
    """
    assert [s is None for s in ours] == [h is None for h in theirs]
    pairs = sorted(((s, h) for s, h in zip(ours, theirs, strict=True) if s is not None),
                   key=lambda p: p[0])  # fmt: skip
    assert len(pairs) > 1
    for (s1, h1), (s2, h2) in pairwise(pairs):
        assert h1 is not None and h2 is not None
        if s1 == s2:
            assert h1 == h2, f"we tie {h1!r} and {h2!r}; PokerKit does not"
        else:
            assert h1 < h2, f"we rank {h1!r} below {h2!r}; PokerKit does not"


# ---------------------------------------------------------------------------------------
# Every five-card hand
# ---------------------------------------------------------------------------------------

CATEGORY_CLASSES = {
    HandCategory.HIGH_CARD: 1277,
    HandCategory.PAIR: 2860,
    HandCategory.TWO_PAIR: 858,
    HandCategory.THREE_OF_A_KIND: 858,
    HandCategory.STRAIGHT: 10,
    HandCategory.FLUSH: 1277,
    HandCategory.FULL_HOUSE: 156,
    HandCategory.FOUR_OF_A_KIND: 156,
    HandCategory.STRAIGHT_FLUSH: 10,
}
CATEGORY_HANDS = {
    HandCategory.HIGH_CARD: 1302540,
    HandCategory.PAIR: 1098240,
    HandCategory.TWO_PAIR: 123552,
    HandCategory.THREE_OF_A_KIND: 54912,
    HandCategory.STRAIGHT: 10200,
    HandCategory.FLUSH: 5108,
    HandCategory.FULL_HOUSE: 3744,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.STRAIGHT_FLUSH: 40,
}


@pytest.fixture(scope="module")
def all_five_card_hands() -> np.ndarray[Any, np.dtype[np.int64]]:
    """All 2,598,960 five-card hands, one row each, in lexicographic order."""
    hands = np.arange(52)[:, None]
    for _ in range(4):  # extend every row by each card above its last
        last = hands[:, -1]
        counts = 51 - last
        repeated = np.repeat(hands, counts, axis=0)
        firsts = np.cumsum(counts) - counts
        added = np.repeat(last + 1, counts) + np.arange(counts.sum()) - np.repeat(firsts, counts)
        hands = np.column_stack([repeated, added])
    assert hands.shape == (2598960, 5)
    return hands


def test_every_five_card_hand_falls_into_7462_classes_per_category(
    all_five_card_hands: np.ndarray[Any, np.dtype[np.int64]],
) -> None:
    strengths = evaluate_high_batch(all_five_card_hands)
    hands_per_strength = np.bincount(strengths, minlength=HIGH_CLASS_COUNT + 1)
    assert hands_per_strength[0] == 0
    assert np.count_nonzero(hands_per_strength) == HIGH_CLASS_COUNT == 7462
    assert len(hands_per_strength) == HIGH_CLASS_COUNT + 1  # so the classes are 1 … 7462

    categories = [high_category(s) for s in range(1, HIGH_CLASS_COUNT + 1)]
    assert categories == sorted(categories)  # each category a block, weakest block first
    classes: dict[HandCategory, int] = {}
    hands: dict[HandCategory, int] = {}
    for strength, category in enumerate(categories, start=1):
        classes[category] = classes.get(category, 0) + 1
        hands[category] = hands.get(category, 0) + int(hands_per_strength[strength])
    assert classes == CATEGORY_CLASSES
    assert hands == CATEGORY_HANDS


def test_the_7462_classes_are_in_pokerkits_order() -> None:
    """One hand per class, strength 1 … 7462: PokerKit sees them strictly increasing."""
    suits = [0, 1, 2, 3, 0]  # mixed suits; the fifth card repeats a suit, never a card
    previous: Hand | None = None
    for strength in range(1, HIGH_CLASS_COUNT + 1):
        category, ranks = evaluator_tables.HIGH_CLASSES[strength]
        if category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH):
            hand = [r * 4 + 3 for r in ranks]
        else:
            used: dict[int, int] = {}
            hand = []
            for r in ranks:
                hand.append(r * 4 + suits[used.get(r, 0)])
                used[r] = used.get(r, 0) + 1
            if len({c & 3 for c in hand}) == 1:  # five singletons all of suit 0
                hand[-1] += 1
        assert evaluate_high(hand) == strength
        pokerkit_hand = StandardHighHand(codes(hand))
        assert previous is None or previous < pokerkit_hand
        previous = pokerkit_hand


def test_batch_agrees_with_scalar_on_every_five_card_sample(
    all_five_card_hands: np.ndarray[Any, np.dtype[np.int64]],
) -> None:
    rng = np.random.default_rng(5)
    sample = all_five_card_hands[rng.choice(len(all_five_card_hands), 20000, replace=False)]
    batch = evaluate_high_batch(sample)
    assert batch.tolist() == [evaluate_high(row.tolist()) for row in sample]


# ---------------------------------------------------------------------------------------
# Against PokerKit, random hands
# ---------------------------------------------------------------------------------------

HIGH_SIZES = [(5, SAMPLES // 2), (6, SAMPLES // 2), (7, SAMPLES)]


@pytest.mark.parametrize(("size", "count"), HIGH_SIZES)
def test_high_order_matches_pokerkit(size: int, count: int) -> None:
    hands = deal(random.Random(size), count, size)
    assert_same_order(
        [evaluate_high(h) for h in hands],
        [StandardHighHand.from_game(codes(h)) for h in hands],
    )


@pytest.mark.parametrize(("size", "count"), HIGH_SIZES)
def test_a5_low_order_matches_pokerkit_regular_low(size: int, count: int) -> None:
    hands = deal(random.Random(10 + size), count * 2 // 3, size)
    assert_same_order(
        [evaluate_a5_low(h) for h in hands],
        [RegularLowHand.from_game(codes(h)) for h in hands],
    )


@pytest.mark.parametrize(("size", "count"), HIGH_SIZES)
def test_low8_order_matches_pokerkit(size: int, count: int) -> None:
    rng = random.Random(20 + size)
    decks = [A_TO_8, LOW_RANKS, A_TO_8, FULL_DECK]
    hands = [rng.sample(decks[i % 4], size) for i in range(count * 2 // 3)]
    lows = [evaluate_low8(h) for h in hands]
    assert sum(v is not None for v in lows) > len(lows) // 10  # the test sees lows
    assert_same_order(lows, [EightOrBetterLowHand.from_game_or_none(codes(h)) for h in hands])


@pytest.mark.parametrize(("size", "count"), [(5, SAMPLES), (6, SAMPLES // 4), (7, SAMPLES // 4)])
def test_27_low_order_matches_pokerkit_standard_low(size: int, count: int) -> None:
    hands = deal(random.Random(30 + size), count, size)
    assert_same_order(
        [evaluate_27_low(h) for h in hands],
        [StandardLowHand.from_game(codes(h)) for h in hands],
    )


def omaha_deals(seed: int, count: int) -> list[tuple[list[int], list[int]]]:
    """Random (hole, board) deals: 4, 5 or 6 hole cards, 3, 4 or 5 board cards."""
    rng = random.Random(seed)
    decks = list(DECKS.values())
    out = []
    for i in range(count):
        n_hole, n_board = rng.choice((4, 4, 5, 6)), rng.choice((3, 4, 5, 5))
        dealt = rng.sample(decks[i % len(decks)], n_hole + n_board)
        out.append((dealt[:n_hole], dealt[n_hole:]))
    return out


def test_omaha_high_order_matches_pokerkit() -> None:
    deals = omaha_deals(40, SAMPLES // 4)
    assert_same_order(
        [evaluate_omaha_high(h, b) for h, b in deals],
        [OmahaHoldemHand.from_game(codes(h), codes(b)) for h, b in deals],
    )


def test_omaha_low8_order_matches_pokerkit() -> None:
    deals = omaha_deals(41, SAMPLES // 4)
    lows = [evaluate_omaha_low8(h, b) for h, b in deals]
    assert sum(v is not None for v in lows) > len(lows) // 10
    assert_same_order(
        lows,
        [OmahaEightOrBetterLowHand.from_game_or_none(codes(h), codes(b)) for h, b in deals],
    )


# ---------------------------------------------------------------------------------------
# The paths agree with each other
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_equals_scalar_row_by_row(size: int) -> None:
    rng = random.Random(50 + size)
    hands = deal(rng, 20000, size)
    for dtype in (np.int8, np.int64):
        batch = evaluate_high_batch(np.array(hands, dtype=dtype))
        assert batch.dtype == np.int32
        assert batch.tolist() == [evaluate_high(h) for h in hands]


def test_batch_of_no_hands_is_empty() -> None:
    assert evaluate_high_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_rank_keys_tell_apart_every_multiset_of_one_size(size: int) -> None:
    """The premise of the batch tables (and of the scalar dict, per size)."""
    keys = evaluator_tables.RANK_KEYS
    sums = [
        sum(keys[r] for r in m)
        for m in combinations_with_replacement(range(13), size)
        if all(m.count(r) <= 4 for r in set(m))
    ]
    assert len(sums) == {5: 6175, 6: 18395, 7: 49205}[size]
    assert len(set(sums)) == len(sums)
    assert max(sums) < 1 << evaluator_tables.KEY_BITS


@pytest.mark.parametrize("size", [6, 7])
def test_scalar_multiset_values_equal_batch_table_for_every_multiset(size: int) -> None:
    """best_of_subsets (scalar, lazy) and the numpy grow (batch) are two implementations
    of one rule; here they meet on every 6- and 7-card rank multiset."""
    five = {k: v for k, v in evaluator_tables.HIGH_NONFLUSH.items() if k >> 23 == 5}
    assert len(five) == 6175
    table = dict(five)
    nonflush = evaluator_tables.batch_tables(size).nonflush
    step = [k + evaluator_tables.COUNT_UNIT for k in evaluator_tables.RANK_KEYS]
    checked = 0
    for m in combinations_with_replacement(range(13), size):
        if any(m.count(r) > 4 for r in set(m)):
            continue
        parts = [step[r] for r in m]
        key = sum(parts)
        value = table.get(key) or evaluator_tables.best_of_subsets(table, key, parts)
        assert value == nonflush[key & ((1 << 23) - 1)], m
        checked += 1
    assert checked == {6: 18395, 7: 49205}[size]


def brute_force(evaluate: Callable[[Sequence[int]], int | None], hand: Sequence[int]) -> int | None:
    """Best value of ``evaluate`` over the five-card subsets (None = no value)."""
    values = [v for five in combinations(hand, 5) if (v := evaluate(five)) is not None]
    return max(values) if values else None


hands_of = st.integers(5, 7).flatmap(
    lambda n: st.permutations(range(52)).map(lambda deck: deck[:n])
)


@HYPOTHESIS
@given(hands_of)
def test_scalar_lookups_equal_brute_force_over_five_card_subsets(hand: list[int]) -> None:
    assert evaluate_high(hand) == brute_force(evaluate_high, hand)
    assert evaluate_a5_low(hand) == brute_force(evaluate_a5_low, hand)
    assert evaluate_low8(hand) == brute_force(evaluate_low8, hand)
    assert evaluate_27_low(hand) == brute_force(evaluate_27_low, hand)


@HYPOTHESIS
@given(hands_of, st.randoms(use_true_random=False))
def test_order_of_cards_does_not_matter(hand: list[int], rnd: random.Random) -> None:
    shuffled = rnd.sample(hand, len(hand))
    for evaluate in (evaluate_high, evaluate_a5_low, evaluate_low8, evaluate_27_low):
        assert evaluate(shuffled) == evaluate(hand)


@HYPOTHESIS
@given(st.permutations(range(52)), st.sampled_from([(4, 3), (4, 4), (4, 5), (5, 5), (6, 5)]))
def test_omaha_is_the_best_of_two_hole_and_three_board(
    deck: list[int], sizes: tuple[int, int]
) -> None:
    hole, board = deck[: sizes[0]], deck[sizes[0] : sum(sizes)]
    fives = [[*h, *b] for h in combinations(hole, 2) for b in combinations(board, 3)]
    assert evaluate_omaha_high(hole, board) == max(evaluate_high(f) for f in fives)
    lows = [v for f in fives if (v := evaluate_low8(f)) is not None]
    assert evaluate_omaha_low8(hole, board) == (max(lows) if lows else None)


# ---------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "name", "category"),
    [
        ("As Ks Qs Js Ts", "Royal Flush", HandCategory.STRAIGHT_FLUSH),
        ("9h 8h 7h 6h 5h Ah Ad", "Straight Flush, Nine high", HandCategory.STRAIGHT_FLUSH),
        ("5d 4d 3d 2d Ad", "Straight Flush, Five high", HandCategory.STRAIGHT_FLUSH),
        ("Ac Ad Ah As Kd Kh Ks", "Four of a Kind, Aces", HandCategory.FOUR_OF_A_KIND),
        ("Kc Kd Kh 7s 7d 7h 2c", "Full House, Kings over Sevens", HandCategory.FULL_HOUSE),
        ("6c 6d 6h 9s 9d", "Full House, Sixes over Nines", HandCategory.FULL_HOUSE),
        ("Ac 9c 7c 4c 2c Kd Kh", "Flush, Ace high", HandCategory.FLUSH),
        ("Tc 9d 8h 7s 6c 6d", "Straight, Ten high", HandCategory.STRAIGHT),
        ("Ac 2d 3h 4s 5c Kd", "Straight, Five high", HandCategory.STRAIGHT),
        ("Qc Qd Qh 9s 2c", "Three of a Kind, Queens", HandCategory.THREE_OF_A_KIND),
        ("Kc Kd 7h 7s 2c 2d Ah", "Two Pair, Kings and Sevens", HandCategory.TWO_PAIR),
        ("Jc Jd 9h 7s 2c", "Pair of Jacks", HandCategory.PAIR),
        ("6c 6d 9h 7s 2c", "Pair of Sixes", HandCategory.PAIR),
        ("Ac Qd 9h 7s 2c 3d 4h", "High Card, Ace", HandCategory.HIGH_CARD),
    ],
)
def test_describe_high(hand: str, name: str, category: HandCategory) -> None:
    strength = evaluate_high(cards(hand))
    assert describe_high(strength) == name
    assert high_category(strength) is category


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("Ac 2d 3h 4s 5c", "Wheel (5-4 low)"),
        ("Ac 2c 3c 4c 5c Kd Kh", "Wheel (5-4 low)"),
        ("8c 6d 4h 2s Ac", "8-6 low"),
        ("7c 5d 4h 3s 2c 9d Jd", "7-5 low"),
        ("6c 4d 3h 2s Ac 6d", "6-4 low"),
    ],
)
def test_describe_low8(hand: str, name: str) -> None:
    strength = evaluate_low8(cards(hand))
    assert strength is not None
    assert describe_low(strength) == name


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("Kc Qd Jh Ts 9c", "K-Q low"),
        ("Kc Kd 2h 3s 4c", "Pair of Kings"),
        ("Ac Ad 2d 2h Kc Ks 7d", "Pair of Aces"),
        ("Ac Ad 2d 2h Kc", "Two Pair, Twos and Aces"),
        ("5c 5d 5h 2s 3c", "Three of a Kind, Fives"),
        ("5c 5d 5h 2s 2c", "Full House, Fives over Twos"),
        ("Kc Kd Kh Ks Qc", "Four of a Kind, Kings"),
    ],
)
def test_describe_razz_low(hand: str, name: str) -> None:
    assert describe_low(evaluate_a5_low(cards(hand))) == name


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("7c 5d 4h 3s 2c", "7-5 low"),
        ("8c 6d 4h 3s 2c", "8-6 low"),
        ("Ac 5d 4h 3s 2c", "A-5 low"),
        ("Kc Kd 2h 3s 4c", "Pair of Kings"),
        ("7c 6d 5h 4s 3c", "Straight, Seven high"),
        ("7c 5c 4c 3c 2c", "Flush, Seven high"),
        ("As Ks Qs Js Ts", "Royal Flush"),
    ],
)
def test_describe_27_low(hand: str, name: str) -> None:
    assert describe_27_low(evaluate_27_low(cards(hand))) == name


def test_scales_run_from_one_to_the_class_count() -> None:
    assert evaluate_high(cards("7c 5d 4h 3s 2c")) == 1
    assert evaluate_high(cards("As Ks Qs Js Ts")) == HIGH_CLASS_COUNT
    assert evaluate_a5_low(cards("Kc Kd Kh Ks Qc")) == 1
    assert evaluate_a5_low(cards("Ac 2d 3h 4s 5c")) == A5_CLASS_COUNT
    assert evaluate_27_low(cards("As Ks Qs Js Ts")) == 1
    assert evaluate_27_low(cards("7c 5d 4h 3s 2c")) == LOW27_CLASS_COUNT
    for describe, top in ((describe_high, 7462), (describe_low, 6175), (describe_27_low, 7462)):
        for bad in (0, top + 1):
            with pytest.raises(ValueError):
                describe(bad)
    with pytest.raises(ValueError):
        high_category(0)


# ---------------------------------------------------------------------------------------
# R-CARD rules, case by case
# ---------------------------------------------------------------------------------------


def test_a_2_3_4_5_is_the_best_low_straights_and_flushes_do_not_count() -> None:
    """R-CARD-4."""
    wheel = evaluate_low8(cards("Ac 2d 3h 4s 5c"))
    assert wheel == A5_CLASS_COUNT
    assert evaluate_low8(cards("Ac 2c 3c 4c 5c")) == wheel  # a straight flush for high
    assert evaluate_low8(cards("6c 4d 3h 2s Ac")) < wheel  # type: ignore[operator]
    eight_seven = [evaluate_low8(cards(h)) for h in ("8c 7d 6h 5s 4c", "8c 7d 6h 5s 3c")]
    assert eight_seven[0] is not None and eight_seven[1] is not None
    assert eight_seven[0] < eight_seven[1]  # 8-7-6-5-3 beats 8-7-6-5-4


def test_a_low_needs_five_different_ranks_of_eight_or_lower() -> None:
    """R-CARD-4: pairs do not make a low, nor does a nine."""
    assert evaluate_low8(cards("Ac Ad 2h 3s 4c")) is None
    assert evaluate_low8(cards("9c 2d 3h 4s 5c")) is None
    assert evaluate_low8(cards("9c 2d 3h 4s 5c Ad")) is not None  # any five of 5–7
    assert evaluate_low8(cards("Kc Qd 2h 3s 4c 5d 6h")) == evaluate_low8(cards("2h 3s 4c 5d 6h"))


def test_omaha_low_needs_three_distinct_low_ranks_on_the_board() -> None:
    """R-CARD-4: a board with fewer than three distinct ranks of 8 or lower has no low."""
    hole = cards("Ac 2d 3h 4s")
    assert evaluate_omaha_low8(hole, cards("5c 5d 9h Qs Jd")) is None
    assert evaluate_omaha_low8(hole, cards("5c 6d 6h Ks Kd")) is None
    assert evaluate_omaha_low8(hole, cards("5c 6d 7h")) is not None
    assert evaluate_omaha_low8(hole, cards("5c 6d 7h Ks Kd")) == evaluate_low8(
        cards("Ac 2d 5c 6d 7h")
    )


@HYPOTHESIS
@given(st.permutations(range(52)))
def test_a_board_without_three_low_ranks_never_gives_an_omaha_low(deck: list[int]) -> None:
    hole, board = deck[:4], deck[4:9]
    low_ranks = {evaluator_tables.LOW8_BIT[c] for c in board} - {0}
    if len(low_ranks) < 3:
        assert evaluate_omaha_low8(hole, board) is None
    # and the same board with A-2 in the hand (if free) does make a low once it has three
    rest = hole[2:]
    wheel_cards = [c for c in cards("Ac Ad Ah As 2c 2d 2h 2s") if c not in board + rest]
    aces, deuces = [c for c in wheel_cards if c >> 2 == 12], [c for c in wheel_cards if c >> 2 == 0]
    if aces and deuces and len(low_ranks - {1, 2}) >= 3:  # three low board ranks besides A, 2
        assert evaluate_omaha_low8([aces[0], deuces[0], *rest], board) is not None


def test_omaha_uses_exactly_two_hole_and_three_board_cards() -> None:
    """R-CARD-2."""
    # one spade in the hand and four on the board: no flush in Omaha
    assert high_category(evaluate_omaha_high(cards("As Kd 4c 3c"), cards("Qs Js 9s 2s 7h"))) is (
        HandCategory.HIGH_CARD
    )
    # four aces in the hand are only a pair of aces on a blank board
    assert describe_high(evaluate_omaha_high(cards("Ac Ad Ah As"), cards("2c 7d 9h Js Kd"))) == (
        "Pair of Aces"
    )
    # a straight on the board needs two hole cards to play
    assert high_category(evaluate_omaha_high(cards("Kc Kd 2h 2s"), cards("5c 6d 7h 8s 9c"))) is (
        HandCategory.PAIR
    )
    # the low uses two hole cards: A-2-3 in the hand and 4-5-K-K-Q board make no low
    assert evaluate_omaha_low8(cards("Ac 2d 3h Ks"), cards("4c 5d Kh Kd Qc")) is None
    assert evaluate_omaha_low8(cards("Ac 2d Kh Ks"), cards("3c 4d 5h Qd Jc")) == A5_CLASS_COUNT


def test_ties_are_exact_and_suits_never_break_them() -> None:
    """R-CARD-3."""
    assert evaluate_high(cards("Ac Kc Qd Jh 9s 3c 2d")) == evaluate_high(
        cards("Ad Kd Qs Jc 9h 3s 2h")
    )
    assert evaluate_high(cards("Ah Kh Qh Jh 9h")) == evaluate_high(cards("As Ks Qs Js 9s"))
    # the kicker decides
    assert evaluate_high(cards("Ac Ad Kh 7s 3c")) > evaluate_high(cards("Ah As Qh 7d 3d"))
    assert evaluate_high(cards("Ac Ad Kh 7s 4c")) > evaluate_high(cards("Ah As Kd 7d 3d"))


@pytest.mark.parametrize(
    ("evaluate", "hand"),
    [
        (evaluate_high, [0, 1, 2, 3]),
        (evaluate_high, [0, 1, 2, 3, 4, 5, 6, 7]),
        (evaluate_high, [0, 1, 2, 3, 3]),
        (evaluate_high, [0, 1, 2, 3, 52]),
        (evaluate_high, [-1, 1, 2, 3, 4]),
        (evaluate_a5_low, [0, 1, 2, 3]),
        (evaluate_low8, [0, 0, 1, 2, 3]),
        (evaluate_27_low, [0, 1, 2, 3, 99]),
    ],
)
def test_bad_cards_raise_a_rules_error(
    evaluate: Callable[[Sequence[int]], int | None], hand: list[int]
) -> None:
    with pytest.raises(InvalidHandError) as caught:
        evaluate(hand)
    assert isinstance(caught.value, RulesError) and isinstance(caught.value, ValueError)
    assert caught.value.rule in ("R-CARD-1", "R-CARD-2")


def test_bad_omaha_deals_and_batches_raise() -> None:
    with pytest.raises(InvalidHandError):
        evaluate_omaha_high(cards("Ac Ad Ah As"), cards("Ac 2d 3h"))  # card in both
    with pytest.raises(InvalidHandError):
        evaluate_omaha_low8(cards("Ac Ad Ah As"), cards("2d 3h"))  # two board cards
    with pytest.raises(InvalidHandError):
        evaluate_high_batch(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(InvalidHandError):
        evaluate_high_batch(np.full((3, 5), 52))
    with pytest.raises(InvalidHandError):
        evaluate_high_batch(np.zeros((3, 5), dtype=np.float64))


# ---------------------------------------------------------------------------------------
# Module hygiene
# ---------------------------------------------------------------------------------------


def test_import_and_first_call_are_fast_and_leave_numpy_alone() -> None:
    """Import + first 7-card evaluation within the budget (best of three fresh
    interpreters; FELTWIRE_EVAL_IMPORT_BUDGET overrides the 0.3 s), without numpy."""
    budget = float(os.environ.get("FELTWIRE_EVAL_IMPORT_BUDGET", "0.3"))
    script = (
        "import sys, time\n"
        "t = time.perf_counter()\n"
        "from hub.rules.evaluator import evaluate_high\n"
        "evaluate_high([51, 47, 43, 39, 30, 22, 5])\n"
        "print(time.perf_counter() - t, 'numpy' in sys.modules)\n"
    )
    runs = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout.split()
        assert out[1] == "False", "importing the evaluator imported numpy"
        runs.append(float(out[0]))
    assert min(runs) <= budget, f"import + first call took {min(runs):.3f} s"
