"""Equity benchmark: hub.equity beside OMPEval (pokerfast), poker-equity, phevaluator, eval7
and PokerKit, in one run, medians, with ratios.

    .venv/bin/python bench/equity.py            # every spot, 7 repeats
    .venv/bin/python bench/equity.py --repeat 3

Peers that are not installed are skipped. The slow Python-loop peers (phevaluator, eval7,
PokerKit) run only where they finish in seconds; their figures are for scale.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.equity import Spot, equity, exact_equity, sample_equity

HU = ["AsAh", "KsKd"]
NINE = ["AsKs", "QdQc", "7h6h", "2c2d", "JsTs", "9d8c", "Ah5h", "KdJc", "3c3s"]
FLOP = (["AsKs", "QdQc"], "Qs7s2c")
OMAHA = ["AsAh2d3c", "KdKcQhJh"]
STUD4 = ["AsAh2d", "KdKcQh", "7c8c9c", "2h3h4s"]


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def first_call_ms() -> float:
    """A fresh interpreter: import hub.equity, then time the first hold'em exact call."""
    code = (
        "import time;from hub.equity import Spot, equity;t=time.perf_counter();"
        "equity(Spot.parse('holdem',['AsAh','KsKd']));print((time.perf_counter()-t)*1000)"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    return float(out.stdout.strip())


def peers() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name in ("pokerfast.equity", "poker_equity", "phevaluator", "eval7", "pokerkit"):
        with contextlib.suppress(ImportError):
            found[name] = __import__(name, fromlist=["_"])
    return found


def brute_flop(evaluate: Callable[[list[str]], int], hands: list[str], board: str) -> float:
    """Heads-up flop equity by a Python loop over every turn and river (lower value wins)."""
    cards = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    b = [board[i : i + 2] for i in range(0, len(board), 2)]
    h = [[x[:2], x[2:]] for x in hands]
    used = set(b) | {c for x in h for c in x}
    stub = [c for c in cards if c not in used]
    win = 0.0
    n = 0
    for t, r in combinations(stub, 2):
        v0 = evaluate(h[0] + b + [t, r])
        v1 = evaluate(h[1] + b + [t, r])
        win += 1.0 if v0 < v1 else 0.5 if v0 == v1 else 0.0
        n += 1
    return win / n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    rep = args.repeat
    have = peers()
    rows: list[tuple[str, str, float, str]] = []

    def run(spot: str, who: str, fn: Callable[[], Any], target: str = "", n: int = rep) -> None:
        rows.append((spot, who, median_ms(fn, n), target))

    first = first_call_ms()
    rows.append(("first call after import (HU hold'em exact)", "hub.equity", first, "<= 300"))

    hu = Spot.parse("holdem", HU)
    run("hold'em HU pre-flop exact", "hub.equity", lambda: exact_equity(hu), "<= 30")
    if "pokerfast.equity" in have:
        pf = have["pokerfast.equity"]
        run("hold'em HU pre-flop exact", "OMPEval (pokerfast)", lambda: pf.equity(HU))
    if "poker_equity" in have:
        pe = have["poker_equity"]
        run(
            "hold'em HU pre-flop exact",
            "poker-equity",
            lambda: pe.exact_from_text("holdem", HU, "", ""),
            n=max(3, rep // 2),
        )

    nine = Spot.parse("holdem", NINE)
    run("hold'em 9-handed pre-flop exact", "hub.equity", lambda: exact_equity(nine), "<= 30")
    if "poker_equity" in have:
        run(
            "hold'em 9-handed pre-flop exact",
            "poker-equity",
            lambda: have["poker_equity"].exact_from_text("holdem", NINE, "", ""),
            n=3,
        )
    if "pokerfast.equity" in have:
        six = NINE[:6]
        s6 = Spot.parse("holdem", six)
        run("hold'em 6-handed pre-flop exact", "hub.equity", lambda: exact_equity(s6))
        run(
            "hold'em 6-handed pre-flop exact",
            "OMPEval (pokerfast)",
            lambda: have["pokerfast.equity"].equity(six),
        )

    hands, board = FLOP
    flop = Spot.parse("holdem", hands, board=board)
    run("hold'em HU flop exact", "hub.equity", lambda: exact_equity(flop), "<= 2")
    if "pokerfast.equity" in have:
        pf = have["pokerfast.equity"]
        run("hold'em HU flop exact", "OMPEval (pokerfast)", lambda: pf.equity(hands, board=board))
    if "poker_equity" in have:
        pe = have["poker_equity"]
        run(
            "hold'em HU flop exact",
            "poker-equity",
            lambda: pe.exact_from_text("holdem", hands, board, ""),
        )
    if "phevaluator" in have:
        from phevaluator import evaluate_cards

        run(
            "hold'em HU flop exact",
            "phevaluator (Python loop)",
            lambda: brute_flop(lambda c: evaluate_cards(*c), hands, board),
            n=3,
        )
    if "eval7" in have:
        e7 = have["eval7"]
        run(
            "hold'em HU flop exact",
            "eval7 (Python loop)",
            lambda: brute_flop(lambda c: -e7.evaluate([e7.Card(x) for x in c]), hands, board),
            n=3,
        )
    if "pokerkit" in have:
        pk = have["pokerkit"]
        run(
            "hold'em HU flop, 990 samples",
            "PokerKit calculate_equities",
            lambda: pk.calculate_equities(
                (pk.parse_range(hands[0]), pk.parse_range(hands[1])),
                pk.Card.parse(board),
                2,
                5,
                pk.Deck.STANDARD,
                (pk.StandardHighHand,),
                sample_count=990,
            ),
            n=3,
        )

    for game, key in (("omaha", "omaha"), ("omaha8", "omaha_hi_lo")):
        s = Spot.parse(game, OMAHA, board="Ts9s4d")
        run(f"{game} HU flop exact", "hub.equity", lambda s=s: exact_equity(s), "<= 10")
        if "poker_equity" in have:
            pe = have["poker_equity"]
            run(
                f"{game} HU flop exact",
                "poker-equity",
                lambda key=key, pe=pe: pe.exact_from_text(key, OMAHA, "Ts9s4d", ""),
            )

    om = Spot.parse("omaha", OMAHA)
    run("omaha HU pre-flop exact", "hub.equity", lambda: exact_equity(om))
    for name, spot, key, cards in (
        ("omaha HU pre-flop MC 100k", om, "omaha", OMAHA),
        ("stud 4 players 3rd street MC 100k", Spot.parse("stud7", STUD4), "stud", STUD4),
    ):
        run(name, "hub.equity", lambda spot=spot: sample_equity(spot, 100_000), "<= 60")
        if "poker_equity" in have:
            pe = have["poker_equity"]
            run(
                name,
                "poker-equity (1 thread)",
                lambda key=key, cards=cards, pe=pe: pe.chunk_from_text(
                    key, cards, "", "", 100_000, 1, 1
                ),
            )
    # keep equity() referenced for readers: the auto mode is what the hub calls
    _ = equity

    ours = {spot: ms for spot, who, ms, _ in rows if who == "hub.equity"}
    print(f"{'spot':<42} {'who':<30} {'median ms':>10} {'target':>8} {'ours/them':>10}")
    for spot, who, ms, target in rows:
        ratio = ""
        if who != "hub.equity" and spot in ours:
            ratio = f"{ours[spot] / ms:.2f}"
        print(f"{spot:<42} {who:<30} {ms:>10.2f} {target:>8} {ratio:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
