"""Hand names for people: each player's made hand so far ("Two Pair, Kings and Sevens").

The words come from :mod:`hub.rules.evaluator` (``describe_high``, ``describe_low``,
``describe_27_low``); this package's strengths are on the same scales.

>>> from hub.equity.spot import Spot
>>> describe_hands(Spot.parse("holdem", ["KsKd", "7h7c"], board="Kh7s2c"))
('Three of a Kind, Kings', 'Three of a Kind, Sevens')
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from feltwire.cards import CardIndex
from hub.equity import kernels
from hub.equity.spot import Kind, Spot
from hub.rules.evaluator import describe_27_low, describe_high, describe_low


def _best(kind: Kind, cards: list[CardIndex]) -> tuple[int, int]:
    """(high or low strength, 8-or-better low or 0) of the best five of ``cards``."""
    arr = np.array([list(c) for c in combinations(cards, 5)], dtype=np.int64)
    if kind is Kind.A5_LOW:
        return int(kernels.a5_low(arr).max()), 0
    if kind is Kind.LOW27:
        return int(kernels.low27(arr).max()), 0
    lo = int(kernels.low8(arr).max()) if kind is Kind.HILO else 0
    return int(kernels.high(arr).max()), lo


def describe_hands(spot: Spot) -> tuple[str | None, ...]:
    """Each player's made hand from the cards known now; None with fewer than five."""
    out: list[str | None] = []
    kind = spot.game.kind
    for hand in spot.hands:
        if kind in (Kind.OMAHA_HIGH, Kind.OMAHA_HILO):
            if len(hand) < 4 or len(spot.board) < 3:
                out.append(None)
                continue
            hi, lo = kernels.omaha(
                np.array([hand]), np.array([spot.board]), kind is Kind.OMAHA_HILO
            )
            name = describe_high(int(hi[0]))
            if lo is not None:
                name += "; " + (describe_low(int(lo[0])) if lo[0] else "no low")
            out.append(name)
            continue
        cards = list(hand) + list(spot.board)
        if len(cards) < 5:
            out.append(None)
            continue
        value, low = _best(kind, cards)
        if kind is Kind.A5_LOW:
            out.append(describe_low(value))
        elif kind is Kind.LOW27:
            out.append(describe_27_low(value))
        elif kind is Kind.HILO:
            out.append(describe_high(value) + "; " + (describe_low(low) if low else "no low"))
        else:
            out.append(describe_high(value))
    return tuple(out)
