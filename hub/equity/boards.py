"""Exact board enumeration by rank pattern: hold'em and Omaha with every hole card known.

Walking all 1,712,304 heads-up pre-flop boards one by one is slow in Python. Here boards
are counted, not listed:

1. **Ranks.** Ignoring suits, a board is a multiset of ranks; how many boards share it
   is a product of binomials (``C(cards of rank r left, copies of r)``). Each player's
   non-flush value depends on the ranks only, so at most 6,175 groups cover every board.
2. **Flushes.** A flush needs three or more board cards of one suit (two of the player's
   own in hold'em and Omaha alike, or more). For each suit those boards are listed as
   *(which ranks of that suit, the other cards' rank multiset)* — a few thousand groups —
   and for them the count from step 1 is taken back and replaced by the true values. Only
   groups where some player really holds a flush differ, so only those are counted again.

>>> from hub.equity.spot import Spot
>>> r = exact_boards(Spot.parse("holdem", ["AsAh", "KdKc"]))
>>> round(r.shares()[0], 4), int(r.weight)
(0.8126, 1712304)
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
from numpy.typing import NDArray

from hub.equity import tables as t
from hub.equity.deals import combos
from hub.equity.kernels import OmahaHands, board_multisets
from hub.equity.result import Tally
from hub.equity.spot import EquityGame, Kind, Spot

IntArray = NDArray[np.int64]
_COMB = np.array([[comb(n, k) for k in range(6)] for n in range(5)], dtype=np.float64)


def supports(spot: Spot) -> bool:
    """True when this path can value the spot: a board game, hole cards known, <= 2 on board."""
    return spot.game.board == 5 and spot.holes_known and len(spot.board) <= 2


@cache
def _multisets(size: int) -> tuple[IntArray, IntArray, IntArray]:
    """Rank multisets of ``size`` cards: rows, rank counts and rank-key sums."""
    rows = t.rank_multisets(size)
    return rows, t.rank_counts(rows), t.RANK_KEYS[rows].sum(axis=1)


def _multiset_weights(size: int, avail: IntArray) -> tuple[IntArray, NDArray[np.float64]]:
    """Key sums of the rank multisets of ``size`` stub cards and how many card sets have each."""
    _, counts, keys = _multisets(size)
    w = _COMB[avail[None, :], counts].prod(axis=1)
    keep = w > 0
    return keys[keep], w[keep]


def exact_boards(spot: Spot) -> Tally:
    """Tally every board of a spot that :func:`supports` allows."""
    game = spot.game
    u = spot.board_unknown
    stub = np.array(spot.stub, dtype=np.int64)
    avail = np.bincount(stub >> 2, minlength=13)
    board = np.array(spot.board, dtype=np.int64)
    board_key = int(t.RANK_KEYS[board >> 2].sum())
    tally = Tally(spot.players, game.kind is Kind.OMAHA_HILO)
    valuer = _Valuer(spot)

    # 1. every board by its rank multiset, non-flush values
    keys, w = _multiset_weights(u, avail)
    hi, lo = valuer.values(board_key + keys)
    his, los, ws = [hi], [lo], [w]

    # 2. boards with >= 3 cards of one suit: replace their non-flush values
    for s in range(4):
        kb = int(((board & 3) == s).sum())
        kmin = valuer.min_suited(s, kb)
        s_ranks = stub[(stub & 3) == s] >> 2
        if kmin > min(u, len(s_ranks)):
            continue
        ns_avail = avail - np.bincount(s_ranks, minlength=13)
        known_mask = int((np.int64(1) << (board[(board & 3) == s] >> 2)).sum())
        g_keys, g_masks, g_ws = [], [], []
        for k in range(kmin, min(u, len(s_ranks)) + 1):
            pick = s_ranks[combos(len(s_ranks), k)]  # (nS, k)
            s_key = t.RANK_KEYS[pick].sum(axis=1)
            s_mask = (np.int64(1) << pick).sum(axis=1) | known_mask
            n_key, nw = _multiset_weights(u - k, ns_avail)
            g_keys.append((board_key + s_key[:, None] + n_key[None, :]).ravel())
            g_masks.append(np.repeat(s_mask, len(n_key)))
            g_ws.append(np.tile(nw, len(s_key)))
        g_key = np.concatenate(g_keys)
        g_w = np.concatenate(g_ws)
        flush = valuer.flush(s, np.concatenate(g_masks))
        cand = flush.any(axis=0)
        plain, lo = valuer.values(g_key[cand])
        true = np.maximum(plain, flush[:, cand])
        differ = (true != plain).any(axis=0)
        w_d = g_w[cand][differ]
        lo_d = None if lo is None else lo[:, differ]
        his += [true[:, differ], plain[:, differ]]
        los += [lo_d, lo_d]
        ws += [w_d, -w_d]
    lo_all = None if lo is None else np.hstack([x for x in los if x is not None])
    tally.add(np.hstack(his), lo_all, np.concatenate(ws))
    return tally


class _Valuer:
    """Per-player values of board groups given as rank-key sums (and a flush suit/mask)."""

    def __init__(self, spot: Spot) -> None:
        self.game = spot.game
        self.omaha = (
            OmahaHands(list(spot.hands), spot.game is EquityGame.OMAHA8)
            if spot.game.hole == 4
            else None
        )
        holes = [np.array(h, dtype=np.int64) for h in spot.hands]
        self.hole_keys = np.array([int(t.RANK_KEYS[h >> 2].sum()) for h in holes])
        self.suit_masks = np.array(
            [[int((np.int64(1) << (h[(h & 3) == s] >> 2)).sum()) for s in range(4)] for h in holes]
        )
        self.suit_counts = np.array([[int(((h & 3) == s).sum()) for s in range(4)] for h in holes])

    def min_suited(self, suit: int, known: int) -> int:
        """Fewest unknown board cards of ``suit`` for which someone could hold a flush."""
        own = int(self.suit_counts[:, suit].max())
        need = max(3, 5 - own) if self.omaha is None else (3 if own >= 2 else 99)
        return max(1, need - known)

    def values(self, keys: IntArray) -> tuple[IntArray, IntArray | None]:
        """Non-flush ``(high, low)`` per player for boards with these rank-key sums."""
        if self.omaha is not None:
            ms_keys, _ = board_multisets()
            idx = np.searchsorted(ms_keys, keys)
            hi = np.stack([nf[idx] for nf in self.omaha.nonflush])
            if not self.omaha.lows:
                return hi, None
            return hi, np.stack([lo[idx] for lo in self.omaha.low])
        table = t.high_table(7)
        return np.stack([table[k + keys] for k in self.hole_keys]).astype(np.int64), None

    def flush(self, suit: int, masks: IntArray) -> IntArray:
        """Each player's best flush (0 for none) on boards holding ranks ``masks`` of ``suit``."""
        if self.omaha is not None:
            return np.stack([fl[suit][masks] for fl in self.omaha.flush])
        fl = t.flush_table()
        return np.stack([fl[m | masks] for m in self.suit_masks[:, suit]]).astype(np.int64)
