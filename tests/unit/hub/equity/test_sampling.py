"""Monte Carlo: within its stated bound of the exact answer, repeatable, and anytime."""

from __future__ import annotations

import numpy as np
import pytest

from hub.equity import equity, exact_equity, refine, sample_equity
from hub.equity.deals import random_deals
from tests.support.equity_oracle import spot

SPOTS = [
    ("holdem", ["AsKs", "QdQc", "7h6h"], "", ""),
    ("holdem", ["AsKs", "????"], "Kh7d2c", ""),
    ("omaha", ["AsAh2d3c", "KdKcQhJh"], "", ""),
    ("omaha8", ["AsAh2d3c", "KdKcQh??"], "Ts9s4d", ""),
    ("stud7", ["AsAh2dKc5h", "KdQcQh3c4c"], "", "7c7d"),
    ("stud8", ["As2h3d9cKh", "4s5h6d9sQc"], "", ""),
    ("razz", ["As2h3d9cTc", "4s5h6dQcKd"], "", ""),
    ("draw5", ["AsKsQsJs", "9c9d9h2c3d"], "", ""),
]


@pytest.mark.parametrize("args", SPOTS)
def test_estimate_within_bound_of_exact(args: tuple[str, list[str], str, str]) -> None:
    s = spot(*args)
    exact = exact_equity(s)
    est = sample_equity(s, 40_000, rng=3)
    assert not est.exact and 0 < est.error < 0.02
    for a, b in zip(est.equities, exact.equities, strict=True):
        assert abs(a - b) <= est.error


def test_stud_four_players_third_street_agrees_with_oracle_estimate() -> None:
    pe = pytest.importorskip("poker_equity")
    hands = ["AsAh2d", "KdKcQh", "7c8c9c", "2h3h4s"]
    ours = sample_equity(spot("stud7", hands), 100_000, rng=1)
    theirs = pe.chunk_from_text("stud", hands, "", "", 100_000, 5)["players"]
    for a, b in zip(ours.players, theirs, strict=True):
        # two independent estimates: their difference stays within both bounds
        assert abs(a.equity - b["equity"]) <= ours.error + 3.3 * b["std_error"]


def test_same_seed_same_answer_other_seed_other_answer() -> None:
    s = spot("stud7", ["AsAh2d", "KdKcQh"])
    a = sample_equity(s, 5_000, rng=11)
    assert sample_equity(s, 5_000, rng=11) == a
    assert sample_equity(s, 5_000, rng=np.random.default_rng(12)) != a


def test_random_deals_are_distinct_and_uniform() -> None:
    rng = np.random.default_rng(0)
    for total in (2, 5, 16):
        rows = random_deals(rng, 40, total, 20_000)
        srt = np.sort(rows, axis=1)
        assert not (srt[:, 1:] == srt[:, :-1]).any()
        counts = np.bincount(rows.ravel(), minlength=40)
        expected = 20_000 * total / 40
        assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)


def test_refine_gives_an_estimate_then_the_exact_answer() -> None:
    s = spot("holdem", ["AsKs", "????"], board="Kh7d2c")
    steps = list(refine(s, rng=5))
    assert [r.exact for r in steps] == [False, True]
    assert abs(steps[0].equities[0] - steps[1].equities[0]) <= steps[0].error


def test_refine_keeps_sampling_when_exact_is_too_dear() -> None:
    s = spot("holdem", ["AsKs", "????", "????"])
    it = refine(s, rng=5, first=2_000, batch=2_000)
    first, second = next(it), next(it)
    assert not first.exact and not second.exact
    assert second.deals == first.deals + 2_000 and second.error < first.error


def test_auto_mode_is_exact_when_cheap_and_samples_otherwise() -> None:
    assert equity(spot("holdem", ["AsKs", "QdQc"])).exact
    r = equity(spot("holdem", ["AsKs", "????", "????"]), rng=1)
    assert not r.exact and r.deals == 100_000
