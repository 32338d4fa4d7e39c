"""The evaluator against phevaluator (test-only): 1,000,000 random 7-card hands and
100,000 Omaha hands give exactly the same hand class.

phevaluator numbers cards as we do (``rank * 4 + suit``) and ranks the 7,462 classes
from 1 (royal flush) upwards; ours counts the other way, so ``ours == 7463 - theirs``.
``FELTWIRE_PHEVAL_HANDS`` / ``FELTWIRE_PHEVAL_OMAHA`` change the sample sizes.
"""

from __future__ import annotations

import os

import numpy as np
from phevaluator import evaluate_cards, evaluate_omaha_cards

from hub.rules.evaluator import evaluate_high, evaluate_high_batch, evaluate_omaha_high

HANDS = int(os.environ.get("FELTWIRE_PHEVAL_HANDS", "1000000"))
OMAHA = int(os.environ.get("FELTWIRE_PHEVAL_OMAHA", "100000"))


def random_deals(n: int, k: int, seed: int) -> np.ndarray:
    """``n`` rows of ``k`` distinct cards."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.int64)
    step = 100_000
    for start in range(0, n, step):
        m = min(step, n - start)
        out[start : start + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def test_a_million_seven_card_hands_agree_with_phevaluator() -> None:
    hands = random_deals(HANDS, 7, seed=2026)
    ours = evaluate_high_batch(hands)
    theirs = np.fromiter((evaluate_cards(*row) for row in hands.tolist()), np.int64, HANDS)
    mismatched = np.flatnonzero(ours != 7463 - theirs)
    assert mismatched.size == 0, f"{mismatched.size} differ, e.g. {hands[mismatched[0]]}"
    # the one-hand path agrees too (a sample: it is the same table, reached differently)
    for row, want in zip(hands[:20_000].tolist(), theirs[:20_000].tolist(), strict=True):
        assert evaluate_high(row) == 7463 - want


def test_a_hundred_thousand_omaha_hands_agree_with_phevaluator() -> None:
    deals = random_deals(OMAHA, 9, seed=7).tolist()
    for row in deals:
        board, hole = row[:5], row[5:]
        assert evaluate_omaha_high(hole, board) == 7463 - evaluate_omaha_cards(*row), row
