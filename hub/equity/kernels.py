"""Vectorised hand values: many deals at once, one numpy row per deal.

Each function takes card-int arrays (one row per deal) and returns strengths on the scales
of :mod:`hub.equity.tables` (higher is better; 0 = no qualifying low). :func:`showdown`
values every player of a game and is what the enumerators and samplers call.

>>> import numpy as np
>>> high(np.array([[51, 47, 43, 39, 35, 0, 1]])).tolist()  # As Ks Qs Js Ts 2c 2d
[7462]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from hub.equity import tables as t
from hub.equity.spot import EquityGame, Kind
from hub.rules.evaluator_tables import sparse_zeros

IntArray = NDArray[np.int64]

_PAIRS4 = np.array(list(combinations(range(4), 2)), dtype=np.int64)
_TRIPLES5 = np.array(list(combinations(range(5), 3)), dtype=np.int64)


def packed(cards: IntArray) -> IntArray:
    """Row sums of :data:`hub.equity.tables.CARD_PACK` (rank keys, suit counters, rank bits)."""
    out: IntArray = t.CARD_PACK[cards].sum(axis=-1)
    return out


def high(cards: IntArray) -> IntArray:
    """Best high strength of each row of 5, 6 or 7 cards."""
    return high_packed(packed(cards), cards.shape[1], lambda rows: cards[rows])


def high_packed(pack: IntArray, n: int, cards_of: Callable[[IntArray], IntArray]) -> IntArray:
    """Best high strength from packed sums of ``n`` cards; ``cards_of(rows)`` gives the cards
    of the few rows that hold five of a suit (needed only when ``n`` > 5)."""
    value: IntArray = t.high_table(n)[pack & t.KEY_MASK].astype(np.int64)
    suit = t.FLUSH_SUIT[(pack >> t.SUIT_SHIFT) & 0xFFFF]
    rows = np.nonzero(suit >= 0)[0]
    if len(rows):
        if n == 5:
            mask = (pack[rows] >> t.RANKBIT_SHIFT) & 8191
        else:
            sub = cards_of(rows)
            in_suit = (sub & 3) == suit[rows, None].astype(np.int64)
            mask = np.where(in_suit, np.int64(1) << (sub >> 2), 0).sum(axis=1)
        value[rows] = np.maximum(value[rows], t.flush_table()[mask])
    return value


def values_packed(
    kind: Kind, pack: IntArray, n: int, cards_of: Callable[[IntArray], IntArray]
) -> tuple[IntArray, IntArray | None]:
    """``(high, low)`` of one player's hands (not Omaha) from packed sums of ``n`` cards."""
    if kind is Kind.A5_LOW:
        return t.a5_table(n)[pack & t.KEY_MASK].astype(np.int64), None
    hi = high_packed(pack, n, cards_of)
    if kind is Kind.LOW27:
        return t.low27_map()[hi], None
    if kind is Kind.HILO:
        lo = t.a5_table(n)[pack & t.KEY_MASK].astype(np.int64)
        return hi, np.where(lo >= t.low8_min(), lo, 0)
    return hi, None


def a5_low(cards: IntArray) -> IntArray:
    """Best ace-to-five low strength (pairs count against, straights and flushes do not)."""
    out: IntArray = t.a5_table(cards.shape[1])[packed(cards) & t.KEY_MASK].astype(np.int64)
    return out


def low8(cards: IntArray) -> IntArray:
    """Best 8-or-better low strength of each row, 0 where no low qualifies."""
    lows = a5_low(cards)
    return np.where(lows >= t.low8_min(), lows, 0)


def low27(cards: IntArray) -> IntArray:
    """Deuce-to-seven strength of five-card rows."""
    out: IntArray = t.low27_map()[high(cards)]
    return out


def omaha(hole: IntArray, board: IntArray, lows: bool) -> tuple[IntArray, IntArray | None]:
    """Omaha values using exactly two of four hole cards and three of the (3–5) board cards."""
    triples = (
        _TRIPLES5
        if board.shape[1] == 5
        else np.array(list(combinations(range(board.shape[1]), 3)), dtype=np.int64)
    )
    pp = t.CARD_PACK[hole[:, _PAIRS4]].sum(axis=-1)  # (M, 6)
    tp = t.CARD_PACK[board[:, triples]].sum(axis=-1)  # (M, 10)
    tot = tp[:, :, None] + pp[:, None, :]
    key = tot & t.KEY_MASK
    value = t.high_table(5)[key].astype(np.int64)
    flush = t.FLUSH_SUIT[(tot >> t.SUIT_SHIFT) & 0xFFFF] >= 0
    if flush.any():
        fl = t.flush_table()[(tot[flush] >> t.RANKBIT_SHIFT) & 8191]
        value[flush] = np.maximum(value[flush], fl)
    hi: IntArray = value.max(axis=(1, 2))
    if not lows:
        return hi, None
    lo = t.a5_table(5)[key].max(axis=(1, 2)).astype(np.int64)
    return hi, np.where(lo >= t.low8_min(), lo, 0)


def showdown(
    game: EquityGame, holes: list[IntArray], board: IntArray | None
) -> tuple[IntArray, IntArray | None]:
    """Values of every player in every deal: ``(high (P, M), low (P, M) or None)``.

    ``holes[p]`` is ``(M, game.hole)``; ``board`` is ``(M, 5)`` for board games. In the
    low-only games the "high" row holds the low strength (higher still wins).
    """
    kind = game.kind
    if kind in (Kind.OMAHA_HIGH, Kind.OMAHA_HILO):
        assert board is not None
        pairs = [omaha(h, board, kind is Kind.OMAHA_HILO) for h in holes]
        his = np.stack([p[0] for p in pairs])
        if kind is Kind.OMAHA_HIGH:
            return his, None
        return his, np.stack([p[1] for p in pairs if p[1] is not None])
    hands = holes if board is None else [np.hstack([h, board]) for h in holes]
    if kind is Kind.HIGH:
        return np.stack([high(h) for h in hands]), None
    if kind is Kind.HILO:
        return np.stack([high(h) for h in hands]), np.stack([low8(h) for h in hands])
    if kind is Kind.A5_LOW:
        return np.stack([a5_low(h) for h in hands]), None
    return np.stack([low27(h) for h in hands]), None


# ---------------------------------------------------------------------------------------
# Omaha with known hole cards: per-player tables over board rank multisets
# ---------------------------------------------------------------------------------------


@cache
def board_multisets() -> tuple[IntArray, IntArray]:
    """The 6,175 five-rank board multisets: sorted key sums and the rows in that order."""
    rows = t.rank_multisets(5)
    keys = t.RANK_KEYS[rows].sum(axis=1)
    order = np.argsort(keys)
    return keys[order], rows[order]


@cache
def board_index() -> NDArray[np.int16]:
    """Rank-key sum of five cards -> index into :func:`board_multisets` (0 where no five
    ranks sum: look up only real boards). Sparse, as the key tables (13.1 MB of slots,
    ~3 MB resident)."""
    keys, _ = board_multisets()
    table: NDArray[np.int16] = sparse_zeros(int(keys[-1]) + 1, np.int16)
    table[keys] = np.arange(len(keys), dtype=np.int16)
    return table


@cache
def _board_triple_keys() -> IntArray:
    _, rows = board_multisets()
    out: IntArray = t.RANK_KEYS[rows[:, _TRIPLES5]].sum(axis=-1)  # (6175, 10)
    return out


@cache
def _flush_boards() -> tuple[IntArray, IntArray]:
    """13-bit masks with 3–5 bits and, for each, the masks of its 3-subsets (padded with 0)."""
    pop = t.popcount13()
    masks = np.nonzero((pop >= 3) & (pop <= 5))[0].astype(np.int64)
    bits = (masks[:, None] >> np.arange(13)) & 1
    pos = np.argsort(-bits, axis=1, kind="stable")[:, :5]  # set bits first
    cnt = pop[masks]
    sub = np.zeros((len(masks), 10), dtype=np.int64)
    for j, (a, b, c) in enumerate(combinations(range(5), 3)):
        ok = cnt > c
        tri = (1 << pos[:, a]) | (1 << pos[:, b]) | (1 << pos[:, c])
        sub[:, j] = np.where(ok, tri, 0)
    return masks, sub


class OmahaHands:
    """Omaha hands with every hole card known, valued against many boards quickly.

    Built once per spot (a few milliseconds per player): each player's best non-flush high
    (and 8-or-better low) for each of the 6,175 board rank multisets, and their best flush
    for each suited board-rank mask. A board is then two lookups per player.
    """

    def __init__(self, holes: list[tuple[int, ...]], lows: bool) -> None:
        self.lows = lows
        tk = _board_triple_keys()
        h5 = t.high_table(5)
        a5 = t.a5_table(5)
        fl = t.flush_table()
        masks, sub = _flush_boards()
        self.nonflush: list[IntArray] = []
        self.low: list[IntArray] = []
        self.flush: list[IntArray] = []  # (4, 8192) per player
        for hole in holes:
            cards = np.array(hole, dtype=np.int64)
            pk = t.RANK_KEYS[cards[_PAIRS4] >> 2].sum(axis=1)  # (6,)
            keys = tk[None, :, :] + pk[:, None, None]
            self.nonflush.append(np.take(h5, keys, mode="clip").max(axis=(0, 2)).astype(np.int64))
            if lows:
                lo = np.take(a5, keys, mode="clip").max(axis=(0, 2)).astype(np.int64)
                self.low.append(np.where(lo >= t.low8_min(), lo, 0))
            table = np.zeros((4, 8192), dtype=np.int64)
            for s in range(4):
                ranks = [c >> 2 for c in hole if c & 3 == s]
                best = np.zeros(len(masks), dtype=np.int64)
                for a, b in combinations(ranks, 2):
                    pm = (1 << a) | (1 << b)
                    cand = fl[np.where(sub & pm, 0, sub | pm)].max(axis=1)
                    np.maximum(best, cand, out=best)
                table[s, masks] = best
            self.flush.append(table)

    def values(
        self, ms_index: IntArray, flush_suit: IntArray, flush_mask: IntArray
    ) -> tuple[IntArray, IntArray | None]:
        """Values for boards given as multiset index, suit with >= 3 cards (or -1) and its mask."""
        suit = np.maximum(flush_suit, 0)
        mask = np.where(flush_suit >= 0, flush_mask, 0)
        hi = np.stack(
            [
                np.maximum(nf[ms_index], fl[suit, mask])
                for nf, fl in zip(self.nonflush, self.flush, strict=True)
            ]
        )
        if not self.lows:
            return hi, None
        return hi, np.stack([lo[ms_index] for lo in self.low])

    def showdown(self, boards: IntArray) -> tuple[IntArray, IntArray | None]:
        """Values of every player for full boards ``(M, 5)``."""
        pack = packed(boards)
        ms_index = board_index()[pack & t.KEY_MASK].astype(np.int64)
        counts = (pack >> t.SUIT_SHIFT) & 0xFFFF
        suit = np.full(len(boards), -1, dtype=np.int64)
        for s in range(4):
            suit[((counts >> (4 * s)) & 15) >= 3] = s
        in_suit = (boards & 3) == suit[:, None]
        mask = np.where(in_suit, np.int64(1) << (boards >> 2), 0).sum(axis=1)
        return self.values(ms_index, suit, mask)
