"""Exact enumeration: known equities, an independent brute force, and poker-equity."""

from __future__ import annotations

from itertools import combinations

import pytest

from hub.equity import EXACT_BUDGET, exact_cost, exact_equity
from tests.support.equity_oracle import assert_matches_oracle, spot

ev = pytest.importorskip("hub.rules.evaluator")


def test_aces_against_kings_preflop() -> None:
    r = exact_equity(spot("holdem", ["AsAh", "KsKd"]))
    assert r.exact and r.deals == 1_712_304
    assert r.players[0].equity == pytest.approx(0.8195, abs=5e-4)
    assert r.players[1].equity == pytest.approx(0.1805, abs=5e-4)
    assert sum(r.equities) == pytest.approx(1.0)


def test_ace_king_suited_against_queens() -> None:
    r = exact_equity(spot("holdem", ["AsKs", "QdQc"]))
    # the textbook coin flip: AKs about 46 %, QQ about 54 %
    assert r.players[0].equity == pytest.approx(0.46214457, abs=1e-6)
    assert r.players[0].win + r.players[1].win + r.players[0].tie == pytest.approx(1.0)


def test_flop_spot_matches_brute_force_with_scalar_evaluator() -> None:
    s = spot("holdem", ["Ah9h", "KcKd", "7s6s"], board="Kh7h2s")
    stub = s.stub
    shares = [0.0, 0.0, 0.0]
    for turn, river in combinations(stub, 2):
        vals = [ev.evaluate_high([*h, *s.board, turn, river]) for h in s.hands]
        best = max(vals)
        winners = [p for p, v in enumerate(vals) if v == best]
        for p in winners:
            shares[p] += 1 / len(winners)
    n = len(stub) * (len(stub) - 1) / 2
    r = exact_equity(s)
    assert r.deals == n
    assert list(r.equities) == pytest.approx([x / n for x in shares], abs=1e-12)


@pytest.mark.parametrize(
    "args",
    [
        ("holdem", ["AsKs", "QdQc"], "", ""),
        ("holdem", ["7c7d", "AhKd", "Js Ts"], "", "2c3c"),
        ("holdem", ["AsKs", "QdQc", "9h8h"], "Qs7s", ""),
        ("holdem", ["AsKs", "QdQc"], "Qs7s2c", ""),
        ("holdem", ["AsKs", "QdQc"], "Qs7s2c3h", "4s5s"),
        ("holdem", ["AsKs", "????"], "Kh7d2c3h", ""),
        ("omaha", ["AsAh2d3c", "KdKcQhJh"], "Ts9s4d", ""),
        ("omaha", ["AsAh2d3c", "KdKcQhJh", "9c8c7d6d"], "Ts9s4d", ""),
        ("omaha8", ["AsAh2d3c", "KdKcQhJh"], "Ts9s4d", ""),
        ("omaha8", ["As2h3d4c", "Ac2c5d6h"], "7s8s9d", "Kd"),
        ("stud7", ["AsAh2dKc5h7d", "KdQcQh3c4c8h"], "", ""),
        ("stud8", ["As2h3d9cKh7d", "4s5h6d9sQc8h"], "", ""),
        ("razz", ["As2h3d9cKh7d", "4s5h6d9sQc8h"], "", "Td"),
        ("draw5", ["AsKsQsJs", "9c9d9h2c3d"], "", ""),
        ("draw27", ["7s5d4h3c", "8s6d4d2c3h"], "", ""),
    ],
)
def test_agrees_with_poker_equity(args: tuple[str, list[str], str, str]) -> None:
    game, hands, board, dead = args
    r = exact_equity(spot(game, hands, board, dead))
    assert r.exact
    assert_matches_oracle(r, args, 1e-9)


def test_nine_handed_preflop_sums_to_one_and_matches_oracle() -> None:
    hands = ["AsKs", "QdQc", "7h6h", "2c2d", "JsTs", "9d8c", "Ah5h", "KdJc", "3c3s"]
    s = spot("holdem", hands)
    assert exact_cost(s) <= EXACT_BUDGET
    r = exact_equity(s)
    assert sum(r.equities) == pytest.approx(1.0)
    assert_matches_oracle(r, ("holdem", hands, "", ""), 1e-9)


def test_omaha_preflop_exact_matches_oracle() -> None:
    args = ("omaha8", ["AsAh2d3c", "KdKcQhJh"], "", "")
    assert_matches_oracle(exact_equity(spot(*args)), args, 1e-9)
