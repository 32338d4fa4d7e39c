"""Equity: each player's share of the pot from what the table knows at one moment.

Pure and deterministic given a seed: no clocks, no files, randomness only through the
``rng`` argument. Exact enumeration where it is cheap (hold'em and Omaha pre-flop by rank
pattern, see :mod:`hub.equity.boards`), Monte Carlo with a 99.9 % error bound otherwise,
and :func:`refine` for an anytime answer. :func:`outs` lists the cards that change the
leader; :func:`describe_hands` names the hands made so far.

>>> from hub.equity import Spot, equity
>>> r = equity(Spot.parse("holdem", ["AsAh", "KdKc"]))
>>> [round(p.equity, 4) for p in r.players], r.exact
([0.8126, 0.1874], True)
"""

from hub.equity.calculator import (
    DEFAULT_SAMPLES,
    EXACT_BUDGET,
    deals_possible,
    equity,
    exact_cost,
    exact_equity,
    refine,
    sample_equity,
)
from hub.equity.errors import EquityError, SpotError, TooExpensiveError
from hub.equity.result import EquityResult, PlayerEquity
from hub.equity.spot import EquityGame, Kind, Spot, game_for_code, game_named

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_BUDGET",
    "EquityError",
    "EquityGame",
    "EquityResult",
    "Kind",
    "PlayerEquity",
    "Spot",
    "SpotError",
    "TooExpensiveError",
    "deals_possible",
    "equity",
    "exact_cost",
    "exact_equity",
    "game_for_code",
    "game_named",
    "refine",
    "sample_equity",
]
