"""Batch 7-card evaluation: ours beside OMPEval, phevaluator, eval7, pokerfast and PokerKit.

Every evaluator gets the same random 7-card hands (generated outside the timing); each is
timed ``--repeats`` times and the median taken. Ours runs in two ways: the numpy batch
path (``evaluate_high_batch``, one call for all hands) and the one-hand-at-a-time path
(``evaluate_high``). Peers run through their Python APIs, one hand per call, on a smaller
sample (their per-hand cost does not depend on the sample size). Prints M hands/s and
each peer's ratio to our batch path.

    .venv/bin/python bench/evaluator.py [--hands 2000000] [--peer-hands 100000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from feltwire.cards import card_code
from hub.rules.evaluator import evaluate_high, evaluate_high_batch


def timed(run: Callable[[], object], repeats: int) -> float:
    """Median seconds of ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--peer-hands", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.int64)
    small = hands[: args.peer_hands]
    rows_int = small.tolist()
    rows_str = [[card_code(c) for c in row] for row in rows_int]

    evaluate_high_batch(hands[:1000])  # build the tables outside the timing
    results: list[tuple[str, int, float]] = []
    results.append(
        (
            "feltwire batch (numpy)",
            args.hands,
            timed(lambda: evaluate_high_batch(hands), args.repeats),
        )
    )
    results.append(
        (
            "feltwire one at a time",
            len(rows_int),
            timed(lambda: [evaluate_high(r) for r in rows_int], args.repeats),
        )
    )
    try:
        from phevaluator import evaluate_cards

        results.append(
            (
                "phevaluator (C, per call)",
                len(rows_int),
                timed(lambda: [evaluate_cards(*r) for r in rows_int], args.repeats),
            )
        )
    except ImportError:
        print("phevaluator not installed: skipped")
    try:
        import eval7

        cards7 = [[eval7.Card(c) for c in row] for row in rows_str]
        results.append(
            (
                "eval7 (Cython, per call)",
                len(cards7),
                timed(lambda: [eval7.evaluate(h) for h in cards7], args.repeats),
            )
        )
    except ImportError:
        print("eval7 not installed: skipped")
    try:
        from pokerfast import eval7 as pf_eval7

        tuples = [tuple(r) for r in rows_str]
        results.append(
            (
                "pokerfast.eval7 (per call)",
                len(tuples),
                timed(lambda: [pf_eval7(t) for t in tuples], args.repeats),
            )
        )
    except ImportError:
        print("pokerfast not installed: skipped")
    try:
        from pokerfast import equity as ompeval

        if ompeval.available():
            joined = ["".join(r) for r in rows_str]
            results.append(
                (
                    "OMPEval (pokerfast.equity.evaluate, batch)",
                    len(joined),
                    timed(lambda: ompeval.evaluate(joined), args.repeats),
                )
            )
        else:
            print("pokerfast has no OMPEval library on this platform: skipped")
    except ImportError:
        print("pokerfast not installed: skipped")
    try:
        from pokerkit import StandardHighHand

        few = ["".join(r) for r in rows_str[: max(2_000, args.peer_hands // 50)]]
        results.append(
            (
                "PokerKit StandardHighHand",
                len(few),
                timed(lambda: [StandardHighHand.from_game(h[:4], h[4:]) for h in few], 1),
            )
        )
    except ImportError:
        print("pokerkit not installed: skipped")

    ours = results[0][1] / results[0][2]
    print(f"{'evaluator':<44} {'hands':>10} {'M hands/s':>10} {'ours batch ÷ it':>16}")
    for name, n, secs in results:
        rate = n / secs
        print(f"{name:<44} {n:>10,} {rate / 1e6:>10.2f} {ours / rate:>15.1f}x")


if __name__ == "__main__":
    main()
