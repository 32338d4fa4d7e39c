"""The vectorised kernels agree with the scalar evaluator in hub.rules.evaluator."""

from __future__ import annotations

import numpy as np
import pytest

from hub.equity import kernels
from hub.equity import tables as t
from hub.equity.names import describe_hands
from hub.equity.spot import Spot

ev = pytest.importorskip("hub.rules.evaluator")


def _hands(n: int, size: int, seed: int) -> np.ndarray:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_high_matches_scalar_evaluator(size: int) -> None:
    hands = _hands(3000, size, size)
    ours = kernels.high(hands)
    theirs = [ev.evaluate_high([int(c) for c in h]) for h in hands]
    assert ours.tolist() == theirs


def test_flush_heavy_hands_match() -> None:
    rng = np.random.default_rng(1)
    spades = np.array([r * 4 + 3 for r in range(13)])
    hands = np.array(
        [np.concatenate([rng.choice(spades, 5, replace=False), [0, 5]]) for _ in range(500)]
    )
    assert kernels.high(hands).tolist() == [ev.evaluate_high([int(c) for c in h]) for h in hands]


def test_lows_match_scalar_evaluator() -> None:
    hands = _hands(3000, 7, 11)
    a5 = kernels.a5_low(hands).tolist()
    lo8 = kernels.low8(hands).tolist()
    for h, a, lo in zip(hands, a5, lo8, strict=True):
        cards = [int(c) for c in h]
        assert a == ev.evaluate_a5_low(cards)
        assert lo == (ev.evaluate_low8(cards) or 0)
    fives = _hands(3000, 5, 12)
    assert kernels.low27(fives).tolist() == [ev.evaluate_27_low([int(c) for c in h]) for h in fives]


def test_omaha_matches_scalar_evaluator() -> None:
    cards = _hands(1500, 9, 13)
    hole, board = cards[:, :4], cards[:, 4:]
    hi, lo = kernels.omaha(hole, board, True)
    assert lo is not None
    for i in range(len(cards)):
        h = [int(c) for c in hole[i]]
        b = [int(c) for c in board[i]]
        assert hi[i] == ev.evaluate_omaha_high(h, b)
        assert lo[i] == (ev.evaluate_omaha_low8(h, b) or 0)


def test_omaha_tables_match_direct_kernel() -> None:
    cards = _hands(2000, 13, 14)
    holes = [tuple(int(c) for c in cards[0, :4]), tuple(int(c) for c in cards[0, 4:8])]
    boards = cards[:, 8:13]
    clash = np.isin(boards, np.array(holes[0] + holes[1])).any(axis=1)
    boards = boards[~clash]
    fast = kernels.OmahaHands(list(holes), lows=True).showdown(boards)
    for p, hole in enumerate(holes):
        h = np.broadcast_to(np.array(hole), (len(boards), 4))
        hi, lo = kernels.omaha(h, boards, True)
        assert fast[0][p].tolist() == hi.tolist()
        assert fast[1] is not None and lo is not None
        assert fast[1][p].tolist() == lo.tolist()


def test_made_hands_are_named_from_the_scalar_evaluator() -> None:
    s = Spot.parse("stud8", ["As2d3h9c6c5d", "KdKcQhJh4h"])
    names = describe_hands(s)
    first = [int(c) for c in s.hands[0]]
    low = ev.evaluate_low8(first)
    assert low is not None
    assert names[0] == f"{ev.describe_high(ev.evaluate_high(first))}; {ev.describe_low(low)}"
    assert names[1] == "Pair of Kings; no low"
    h = describe_hands(Spot.parse("holdem", ["KsKd", "7h7c"], board="Kh7s2c3c"))
    assert h == ("Three of a Kind, Kings", "Three of a Kind, Sevens")
    assert describe_hands(Spot.parse("razz", ["As2d3h9c6c", "KdKc"])) == ("9-6 low", None)
    assert describe_hands(Spot.parse("draw27", ["7s5d4h3c2c", "2s3s4s5s6s"])) == (
        "7-5 low",
        "Straight Flush, Six high",
    )


def test_rank_keys_separate_every_multiset() -> None:
    for size in (5, 6, 7):
        keys = t.RANK_KEYS[t.rank_multisets(size)].sum(axis=1)
        assert len(set(keys.tolist())) == len(keys)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_equity_and_batch_evaluator_share_one_high_table(size: int) -> None:
    """Issue 16: the 13–16 MB key tables exist once per process, read-only, whichever of
    equity and the batch evaluator asks first; both still value hands alike."""
    from hub.rules import evaluator_tables

    hands = _hands(2000, size, 40 + size)
    assert kernels.high(hands).tolist() == ev.evaluate_high_batch(hands).tolist()
    assert t.high_table(size) is evaluator_tables.batch_tables(size).nonflush
    assert not t.high_table(size).flags.writeable
