"""Showdown values and the card-based orders of stud: who brings in, who acts first.

Hands are valued with :mod:`hub.rules.evaluator` (higher is better, equal is a tie);
short-deck hold'em and badugi, which that module does not cover, are valued here. Cards
are :data:`~feltwire.cards.CardIndex` values ``rank * 4 + suit`` (rank 0 = deuce … 12 =
ace; suit 0 = clubs … 3 = spades).

>>> from feltwire.cards import card_index as c
>>> showing_high_key([c("Kd"), c("Kh")]) > showing_high_key([c("As"), c("Qd")])
True
>>> badugi_value([c("As"), c("2d"), c("3h"), c("4c")]) > badugi_value([c("As"), c("2d"), c("3h")])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from feltwire.cards import CardIndex
from hub.rules.evaluator import (
    evaluate_27_low,
    evaluate_a5_low,
    evaluate_high,
    evaluate_low8,
    evaluate_omaha_high,
    evaluate_omaha_low8,
)
from hub.rules.games import BringInTies, Evaluation, Opening

__all__ = [
    "badugi_value",
    "bring_in_seat",
    "hand_value",
    "odd_chip_card_key",
    "short_deck_value",
    "showing_high_key",
    "showing_low_key",
    "stud_opener",
]


# Evaluation members as module constants: an enum class attribute (``Evaluation.HIGH``)
# is a slow lookup on Python 3.11 (the enum metaclass defines ``__getattr__``).
_HIGH, _OMAHA_HIGH, _OMAHA_HIGH_LOW8 = (
    Evaluation.HIGH,
    Evaluation.OMAHA_HIGH,
    Evaluation.OMAHA_HIGH_LOW8,
)
_HIGH_LOW8, _A5_LOW, _DEUCE_SEVEN_LOW = (
    Evaluation.HIGH_LOW8,
    Evaluation.A5_LOW,
    Evaluation.DEUCE_SEVEN_LOW,
)
_BADUGI = Evaluation.BADUGI


def hand_value(
    evaluation: Evaluation, hole: Sequence[CardIndex], board: Sequence[CardIndex]
) -> tuple[int, int | None]:
    """The (high or only value, low value or None) of a hand at showdown (R-CARD-2, R-CARD-4).

    For low-only games (razz, deuce-to-seven, badugi) the first value is the low value
    (higher still means better); the second is only used by the hi-lo games.
    """
    if evaluation is _HIGH:
        return evaluate_high([*hole, *board]), None
    if evaluation is _OMAHA_HIGH:
        return evaluate_omaha_high(hole, board), None
    if evaluation is _OMAHA_HIGH_LOW8:
        return evaluate_omaha_high(hole, board), evaluate_omaha_low8(hole, board)
    if evaluation is _HIGH_LOW8:
        cards = [*hole, *board]
        return evaluate_high(cards), evaluate_low8(cards)
    if evaluation is _A5_LOW:
        return evaluate_a5_low([*hole, *board]), None
    if evaluation is _DEUCE_SEVEN_LOW:
        return evaluate_27_low(hole), None
    if evaluation is _BADUGI:
        return badugi_value(hole), None
    return short_deck_value([*hole, *board]), None


_POW13 = (1, 13, 169, 2197, 28561, 371293)


def _five_short_deck(cards: Sequence[CardIndex]) -> int:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    distinct = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    pattern = tuple(sorted(counts.values(), reverse=True))
    straight_top = -1
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 7, 6, 5, 4]:  # A-6-7-8-9: the ace plays low in short deck
            straight_top = 7
    if straight_top >= 0 and flush:
        category = 8
    elif pattern == (4, 1):
        category = 7
    elif flush:
        category = 6  # a flush beats a full house with 36 cards
    elif pattern == (3, 2):
        category = 5
    elif pattern == (3, 1, 1):
        category = 4  # Triton rules: three of a kind beats a straight
    elif straight_top >= 0:
        category = 3
    elif pattern == (2, 2, 1):
        category = 2
    elif pattern == (2, 1, 1, 1):
        category = 1
    else:
        category = 0
    value = category
    if straight_top >= 0 and category in (8, 3):
        return value * _POW13[5] + straight_top
    for r in distinct:
        value = value * 13 + r
    return value * _POW13[5 - len(distinct)]


def short_deck_value(cards: Sequence[CardIndex]) -> int:
    """Best five of five to seven short-deck (36-card) cards, higher is better.

    Triton rules, under which the recorded short-deck hands were played: a flush beats a
    full house, three of a kind beats a straight, A-6-7-8-9 is the lowest straight.
    """
    return max(_five_short_deck(five) for five in combinations(cards, 5))


def badugi_value(cards: Sequence[CardIndex]) -> int:
    """Badugi value of up to four cards: more cards of distinct ranks and suits beat fewer,
    then the lowest highest card (ace low) wins; higher is better."""
    best = -1
    for size in range(min(4, len(cards)), 0, -1):
        for sub in combinations(cards, size):
            ranks = {(c >> 2) + 1 if c >> 2 != 12 else 0 for c in sub}
            if len(ranks) != size or len({c & 3 for c in sub}) != size:
                continue
            low = 0
            for r in sorted(ranks, reverse=True):
                low = low * 13 + (12 - r)
            value = size * _POW13[4] + low * _POW13[4 - size]
            best = max(best, value)
        if best >= 0:
            return best
    return best


def _groups(ranks: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(counts[r] for r in order), tuple(order)


def showing_high_key(up: Sequence[CardIndex]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Key of the cards a stud player shows; the largest key is the highest hand showing
    (R-STUD-2): quads, trips, two pair, a pair, then high cards; straights and flushes of
    fewer than five cards do not count."""
    return _groups([c >> 2 for c in up])


def showing_low_key(up: Sequence[CardIndex]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Key of the cards a razz player shows; the smallest key is the lowest hand showing
    (pairs are bad, then the lowest top card; aces are low)."""
    return _groups([((c >> 2) + 1) % 13 for c in up])


def odd_chip_card_key(up: Sequence[CardIndex]) -> int:
    """The highest up card, rank then suit (spades highest): who gets an odd chip in stud
    (R-POT-4)."""
    return max(up) if up else -1


def bring_in_seat(opening: Opening, up_cards: dict[int, CardIndex], ties: BringInTies) -> int:
    """The seat that brings in (R-STUD-1), from each live seat's up card.

    ``LOW_CARD``: the lowest card, aces high; ``HIGH_CARD`` (razz): the highest, aces low.
    Equal ranks go to the first seat left of the dealer (*seed*) or by suit: clubs lowest
    in the low-card games, spades highest in razz.
    """
    seats = sorted(up_cards)
    if opening is Opening.LOW_CARD:
        if ties is BringInTies.SUIT:
            return min(seats, key=lambda s: up_cards[s])
        return min(seats, key=lambda s: (up_cards[s] >> 2, s))

    # razz: the highest card with aces low
    def razz_rank(card: CardIndex) -> int:
        return ((card >> 2) + 1) % 13

    if ties is BringInTies.SUIT:
        return max(seats, key=lambda s: (razz_rank(up_cards[s]), up_cards[s] & 3))
    return max(seats, key=lambda s: (razz_rank(up_cards[s]), -s))


def stud_opener(opening: Opening, up_cards: dict[int, list[CardIndex]]) -> int:
    """The seat that opens a later stud round (R-STUD-2): the highest hand showing (or in
    razz the lowest); equal hands → the first seat left of the dealer."""
    seats = sorted(up_cards)
    if opening is Opening.HIGH_HAND:
        best = seats[0]
        best_key = showing_high_key(up_cards[best])
        for s in seats[1:]:
            key = showing_high_key(up_cards[s])
            if key > best_key:
                best, best_key = s, key
        return best
    best = seats[0]
    best_low = showing_low_key(up_cards[best])
    for s in seats[1:]:
        key = showing_low_key(up_cards[s])
        if key < best_low:
            best, best_low = s, key
    return best
