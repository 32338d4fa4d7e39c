"""Helpers for the equity tests: an outside oracle (poker-equity) when it is installed."""

from __future__ import annotations

from typing import Any

import pytest

from hub.equity import EquityResult, Spot

PE_GAME = {
    "holdem": "holdem",
    "omaha": "omaha",
    "omaha8": "omaha_hi_lo",
    "stud7": "stud",
    "stud8": "stud_hi_lo",
    "razz": "razz",
    "draw5": "five_card_draw",
    "draw27": "deuce_seven",
}


def oracle(game: str, hands: list[str], board: str = "", dead: str = "") -> list[dict[str, Any]]:
    """poker-equity's exact answer (its players list); skips when it is not installed."""
    pe = pytest.importorskip("poker_equity")
    fields = [h.replace("??", "*") for h in hands]
    out = pe.exact_from_text(PE_GAME[game], fields, board, dead)
    assert out is not None, "poker-equity declined to enumerate"
    players: list[dict[str, Any]] = out["players"]
    return players


def assert_matches_oracle(result: EquityResult, spot_args: tuple[Any, ...], tol: float) -> None:
    """Equity, win and tie of every player within ``tol`` of poker-equity's exact values."""
    game, hands, board, dead = spot_args
    ref = oracle(game, hands, board, dead)
    for ours, theirs in zip(result.players, ref, strict=True):
        assert ours.equity == pytest.approx(theirs["equity"], abs=tol)
        assert ours.win == pytest.approx(theirs["win"], abs=tol)
        assert ours.tie == pytest.approx(theirs["tie"], abs=tol)


def spot(game: str, hands: list[str], board: str = "", dead: str = "") -> Spot:
    """Shorthand for :meth:`Spot.parse`."""
    return Spot.parse(game, hands, board=board, dead=dead)
