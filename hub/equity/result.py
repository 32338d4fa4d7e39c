"""Equity results, and the tally that turns showdown values into pot shares.

Each deal gives every player a share of the pot: high-only games split it among the best
hands; hi-lo games give half to the best high and half to the best qualifying low (the
whole pot to the high when no low qualifies, R-CARD-4). Per player the result holds

* ``equity`` — the expected share of the pot;
* ``win`` — the chance of taking the whole pot alone (in hi-lo: the *scoop*);
* ``tie`` — the chance of taking part of it (a split pot; in hi-lo any split).

Hi-lo results also carry ``high_win``/``high_tie`` and ``low_win``/``low_tie`` for each
half and ``low`` (the chance that any low qualifies). Monte Carlo results carry ``error``:
a 99.9 % bound on each player's equity error (3.29 standard errors, from the sample
variance); exact results have ``error == 0``.

>>> import numpy as np
>>> tally = Tally(2, hi_lo=False)
>>> tally.add(np.array([[5, 7, 7], [6, 7, 1]]), None, None)
>>> [round(x, 3) for x in tally.shares()]
[0.5, 0.5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

Z999 = 3.2905
"""Two-sided 99.9 % normal quantile: the Monte Carlo error bound is this many standard errors."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's share of the pot, averaged over the deals still possible."""

    hand: str
    equity: float
    win: float
    tie: float
    high_win: float | None = None
    high_tie: float | None = None
    low_win: float | None = None
    low_tie: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the hi-lo fields only for hi-lo games."""
        out: dict[str, Any] = {
            "hand": self.hand,
            "win": self.win,
            "tie": self.tie,
            "equity": self.equity,
        }
        if self.high_win is not None:
            out |= {
                "scoop": self.win,
                "split": self.tie,
                "high_win": self.high_win,
                "high_tie": self.high_tie,
                "low_win": self.low_win,
                "low_tie": self.low_tie,
            }
        return out


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The equity of every player in a spot, exact or estimated."""

    game: str
    players: tuple[PlayerEquity, ...]
    exact: bool
    deals: float
    """Deals counted: every possible deal when exact, the samples otherwise."""
    error: float = 0.0
    """Monte Carlo: 99.9 % bound on any player's equity error; 0 when exact."""
    low: float | None = None
    """Hi-lo games: the chance that some low qualifies."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def equities(self) -> tuple[float, ...]:
        """Each player's equity, in seat order."""
        return tuple(p.equity for p in self.players)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"players": [...], "exact": …, "deals": …, "error": …}``."""
        out: dict[str, Any] = {
            "game": self.game,
            "players": [p.as_dict() for p in self.players],
            "exact": self.exact,
            "deals": self.deals,
            "error": self.error,
        }
        if self.low is not None:
            out["low"] = self.low
        return out


FloatArray = NDArray[np.float64]


ADD_CHUNK = 16_384
"""Deals :meth:`Tally.add` counts at a time (its temporaries are ~20 float64 per player
per deal: bounded, as an equity computation runs in each of several worker threads)."""


class Tally:
    """Accumulates pot shares over batches of deals (weighted for grouped enumeration)."""

    def __init__(self, players: int, hi_lo: bool) -> None:
        self.players = players
        self.hi_lo = hi_lo
        self.weight = 0.0
        z = np.zeros(players)
        self.share = z.copy()
        self.share_sq = z.copy()
        self.win = z.copy()
        self.tie = z.copy()
        self.high_win = z.copy()
        self.high_tie = z.copy()
        self.low_win = z.copy()
        self.low_tie = z.copy()
        self.low_any = 0.0

    def add(
        self,
        hi: NDArray[np.int64],
        lo: NDArray[np.int64] | None,
        weights: FloatArray | None,
        sign: float = 1.0,
    ) -> None:
        """Count deals whose values are ``hi`` (and ``lo``), shape ``(players, deals)``.

        ``weights`` gives how many deals each column stands for (None: one each); ``sign``
        -1 takes deals away again (used to swap a group's values for corrected ones).
        """
        n = hi.shape[1]
        if n == 0:
            return
        if n > ADD_CHUNK:  # bounded temporaries: a few MB however many deals come at once
            for a in range(0, n, ADD_CHUNK):
                part = slice(a, a + ADD_CHUNK)
                self.add(
                    hi[:, part],
                    None if lo is None else lo[:, part],
                    None if weights is None else weights[part],
                    sign,
                )
            return
        w = np.ones(n) if weights is None else weights.astype(np.float64)
        w = w * sign
        best = hi.max(axis=0)
        hw = hi == best
        nh = hw.sum(axis=0)
        if lo is None:
            # one matrix product: share, share², sole wins and ties of the high hands
            inv = 1.0 / nh
            cols = np.stack([w * inv, w * inv * inv, w * (nh == 1), w * (nh > 1)], axis=1)
            sums = hw.astype(np.float64) @ cols
            self.share += sums[:, 0]
            self.share_sq += sums[:, 1]
            self.win += sums[:, 2]
            self.tie += sums[:, 3]
            self.weight += float(w.sum())
            return
        hshare = hw / nh
        lbest = lo.max(axis=0)
        has = lbest > 0
        lw = (lo == lbest) & has
        nl = np.maximum(lw.sum(axis=0), 1)
        share = np.where(has, 0.5 * hshare + 0.5 * lw / nl, hshare)
        self.high_win += (hw & (nh == 1)) @ w
        self.high_tie += (hw & (nh > 1)) @ w
        self.low_win += (lw & (nl == 1)) @ w
        self.low_tie += (lw & (nl > 1)) @ w
        self.low_any += float(has @ w)
        self.weight += float(w.sum())
        self.share += share @ w
        self.share_sq += (share * share) @ w
        self.win += (share == 1.0) @ w
        self.tie += ((share > 0) & (share < 1)) @ w

    def merge(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name in (
            "share",
            "share_sq",
            "win",
            "tie",
            "high_win",
            "high_tie",
            "low_win",
            "low_tie",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.weight += other.weight
        self.low_any += other.low_any

    def shares(self) -> list[float]:
        """Each player's equity so far."""
        return [float(x) for x in self.share / self.weight]

    def error(self) -> float:
        """99.9 % error bound on the equities, treating each deal as an independent sample."""
        if self.weight <= 1:
            return 1.0
        n = self.weight
        mean = self.share / n
        var = np.maximum(self.share_sq / n - mean * mean, 0.0) * n / (n - 1)
        return float(Z999 * math.sqrt(float(var.max()) / n))

    def result(self, game: str, hands: list[str], exact: bool) -> EquityResult:
        """The result for these hands; ``exact`` says the tally covered every deal once."""
        n = self.weight

        def f(x: FloatArray, p: int) -> float:
            return float(x[p] / n)

        players = tuple(
            PlayerEquity(
                hand=hands[p],
                equity=f(self.share, p),
                win=f(self.win, p),
                tie=f(self.tie, p),
                high_win=f(self.high_win, p) if self.hi_lo else None,
                high_tie=f(self.high_tie, p) if self.hi_lo else None,
                low_win=f(self.low_win, p) if self.hi_lo else None,
                low_tie=f(self.low_tie, p) if self.hi_lo else None,
            )
            for p in range(self.players)
        )
        return EquityResult(
            game=game,
            players=players,
            exact=exact,
            deals=n,
            error=0.0 if exact else self.error(),
            low=self.low_any / n if self.hi_lo else None,
        )
