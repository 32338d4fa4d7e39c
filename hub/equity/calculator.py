"""Equity of every player from what is known: exact where cheap, Monte Carlo otherwise.

:func:`equity` picks for you; :func:`exact_equity` walks every deal; :func:`sample_equity`
samples; :func:`refine` is the anytime form — a quick estimate first, better ones as you
keep asking, and the exact answer last when it is affordable. Randomness comes only from
the ``rng`` you pass (a :class:`numpy.random.Generator` or a seed), so results repeat.

>>> from hub.equity import Spot, equity
>>> r = equity(Spot.parse("holdem", ["AsAh", "KdKc"]))
>>> r.exact, [round(e, 3) for e in r.equities]
(True, [0.813, 0.187])
>>> r = equity(Spot.parse("stud7", ["AsAh2d", "KdKcQh"]), samples=20_000, rng=7)
>>> r.exact, round(r.equities[0], 2), r.error < 0.015
(False, 0.66, True)
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from hub.equity import boards
from hub.equity import tables as t
from hub.equity.deals import deal_count, every_deal, random_deals
from hub.equity.errors import TooExpensiveError
from hub.equity.kernels import OmahaHands, showdown, values_packed
from hub.equity.result import EquityResult, Tally
from hub.equity.spot import Kind, Spot

IntArray = NDArray[np.int64]

EXACT_BUDGET = 4_000_000
"""Most hand valuations :func:`equity` spends on an exact answer before it samples instead
(about a quarter of a second here)."""
DEFAULT_SAMPLES = 100_000
_BATCH = 100_000


def _omaha_units(spot: Spot) -> int:
    return 60 if spot.game.hole == 4 else 1


def exact_cost(spot: Spot) -> int:
    """Rough work of an exact answer, in hand valuations (compare with :data:`EXACT_BUDGET`)."""
    if boards.supports(spot) and spot.board_unknown >= 3:
        return 50_000 * spot.players
    groups = [spot.board_unknown, *spot.unknown]
    deals = deal_count(len(spot.stub), groups)
    return deals * spot.players * _omaha_units(spot)


def deals_possible(spot: Spot) -> int:
    """How many different deals finish the hand."""
    return deal_count(len(spot.stub), [spot.board_unknown, *spot.unknown])


def _split(spot: Spot, cards: IntArray) -> tuple[list[IntArray], IntArray | None]:
    """Full hole-card and board arrays from deal rows of stub cards (board columns first)."""
    m = len(cards)
    col = spot.board_unknown
    board = None
    if spot.game.board:
        known = np.broadcast_to(np.array(spot.board, dtype=np.int64), (m, len(spot.board)))
        board = np.hstack([known, cards[:, :col]])
    holes = []
    for known_p, unk in zip(spot.hands, spot.unknown, strict=True):
        k = np.broadcast_to(np.array(known_p, dtype=np.int64), (m, len(known_p)))
        holes.append(np.hstack([k, cards[:, col : col + unk]]))
        col += unk
    return holes, board


class _Deals:
    """Values deals of one spot (reusing Omaha tables when hole cards are known)."""

    def __init__(self, spot: Spot, many: bool) -> None:
        self.spot = spot
        self.stub = np.array(spot.stub, dtype=np.int64)
        self.omaha = (
            OmahaHands(list(spot.hands), spot.game.kind is Kind.OMAHA_HILO)
            if many and spot.game.hole == 4 and spot.holes_known
            else None
        )

    def add(self, tally: Tally, rows: IntArray) -> None:
        spot = self.spot
        cards = self.stub[rows]
        if spot.game.hole == 4:  # Omaha: exactly two hole cards and three board cards
            holes, board = _split(spot, cards)
            assert board is not None
            if self.omaha is not None:
                hi, lo = self.omaha.showdown(board)
            else:
                hi, lo = showdown(spot.game, holes, board)
            tally.add(hi, lo, None)
            return
        # everything else: packed sums, the known cards' part added once
        pack = t.CARD_PACK[cards]
        bu = spot.board_unknown
        board_pack = pack[:, :bu].sum(axis=1) + int(t.CARD_PACK[list(spot.board)].sum())
        n = spot.game.hole + spot.game.board
        his, los = [], []
        col = bu
        for known, unk in zip(spot.hands, spot.unknown, strict=True):
            mine = cards[:, col : col + unk]
            p = board_pack + pack[:, col : col + unk].sum(axis=1)
            p += int(t.CARD_PACK[list(known)].sum())
            col += unk

            def cards_of(
                r: IntArray, mine: IntArray = mine, known: tuple[int, ...] = known
            ) -> IntArray:
                fixed = np.array(known + spot.board, dtype=np.int64)
                return np.hstack(
                    [np.broadcast_to(fixed, (len(r), len(fixed))), mine[r], cards[r, :bu]]
                )

            hi, lo = values_packed(spot.game.kind, p, n, cards_of)
            his.append(hi)
            los.append(lo)
        lo_all = None if los[0] is None else np.stack([x for x in los if x is not None])
        tally.add(np.stack(his), lo_all, None)


def _hands(spot: Spot) -> list[str]:
    return [spot.hand_text(p) for p in range(spot.players)]


def exact_tally(spot: Spot) -> Tally:
    """Tally every deal that finishes the hand once (the pure core of :func:`exact_equity`)."""
    if boards.supports(spot) and spot.board_unknown >= 3:
        return boards.exact_boards(spot)
    tally = Tally(spot.players, spot.game.hi_lo)
    deals = _Deals(spot, many=deals_possible(spot) > 20_000)
    for rows in every_deal(len(spot.stub), [spot.board_unknown, *spot.unknown]):
        deals.add(tally, rows)
    return tally


def exact_equity(spot: Spot, *, budget: int | None = None) -> EquityResult:
    """Every deal counted once; raises :class:`TooExpensiveError` above ``budget`` valuations."""
    if budget is not None and exact_cost(spot) > budget:
        raise TooExpensiveError(
            f"{deals_possible(spot):,} deals to walk; exact would take too long, sample instead"
        )
    return exact_tally(spot).result(spot.game.value, _hands(spot), exact=True)


def _rng(rng: np.random.Generator | int) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def sample_tally(spot: Spot, samples: int, rng: np.random.Generator | int = 0) -> Tally:
    """Tally ``samples`` random deals (the pure core of :func:`sample_equity`)."""
    gen = _rng(rng)
    tally = Tally(spot.players, spot.game.hi_lo)
    deals = _Deals(spot, many=samples > 20_000)
    stub = len(spot.stub)
    done = 0
    while done < samples:
        n = min(_BATCH, samples - done)
        deals.add(tally, random_deals(gen, stub, spot.needed, n))
        done += n
    return tally


def sample_equity(
    spot: Spot, samples: int = DEFAULT_SAMPLES, rng: np.random.Generator | int = 0
) -> EquityResult:
    """Monte Carlo estimate from ``samples`` random deals, with its 99.9 % error bound."""
    if spot.needed == 0:
        return exact_equity(spot)
    tally = sample_tally(spot, samples, rng)
    return tally.result(spot.game.value, _hands(spot), exact=False)


def equity(
    spot: Spot,
    *,
    exact: bool | None = None,
    samples: int | None = None,
    rng: np.random.Generator | int = 0,
) -> EquityResult:
    """Each player's win, tie and equity.

    ``exact=True`` walks every deal, however many; ``exact=False`` or ``samples`` samples;
    by default the answer is exact when that costs at most :data:`EXACT_BUDGET`
    valuations, else a Monte Carlo estimate from :data:`DEFAULT_SAMPLES` deals.
    """
    if exact or (exact is None and samples is None and exact_cost(spot) <= EXACT_BUDGET):
        return exact_equity(spot)
    if spot.needed == 0:
        return exact_equity(spot)
    return sample_equity(spot, samples or DEFAULT_SAMPLES, rng)


def refine(
    spot: Spot,
    rng: np.random.Generator | int = 0,
    *,
    first: int = 5_000,
    batch: int = 50_000,
    exact_budget: int = 50 * EXACT_BUDGET,
) -> Iterator[EquityResult]:
    """Anytime equity: yields better and better results; stop iterating when out of time.

    A cheap exact answer comes at once and alone. Otherwise the first result is a
    Monte Carlo estimate from ``first`` deals; then, if the exact answer costs at most
    ``exact_budget`` valuations, it comes next and the iterator ends; else estimates keep
    coming, each adding ``batch`` deals, for as long as the caller asks.

    >>> spot = Spot.parse("holdem", ["AsKs", "????"], board="Kh7d2c")
    >>> [r.exact for r in refine(spot)]
    [False, True]
    """
    cost = exact_cost(spot)
    if cost <= EXACT_BUDGET // 8 or spot.needed == 0:
        yield exact_equity(spot)
        return
    gen = _rng(rng)
    hands = _hands(spot)
    tally = sample_tally(spot, first, gen)
    yield tally.result(spot.game.value, hands, exact=False)
    if cost <= exact_budget:
        yield exact_equity(spot)
        return
    while True:
        tally.merge(sample_tally(spot, batch, gen))
        yield tally.result(spot.game.value, hands, exact=False)
