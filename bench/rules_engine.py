"""Rules engine vs PokerKit 0.7.7: hands per second replaying the same six-max hands.

The hands are generated first, outside the timed region, by the differential driver
(``tests/support/oracle_pokerkit.py``): random legal six-max hands played on both engines in
lockstep, keeping only hands that reach a showdown and on which both agree. Each hand is
then a list of inputs for each engine (cards, burns, actions, shows, all explicit). The
timed region only builds a hand and applies its inputs, on ours and on PokerKit, for
every hand. The repeats interleave the engines (ours, PokerKit, ours, PokerKit …) so
that a busy spell on a shared machine hits both; each engine's rate is the median of its
repeats, and the ratio of each repeat pair is printed too. Wall-clock time is the
measure; the CPU time of the process (which leaves out the time other processes had
the core) is timed alongside, and its ratio is printed as a cross-check.

Games: no-limit hold'em (NT), pot-limit Omaha (PO) and Omaha hi-lo. PokerKit's
"fixed-limit" Omaha hi-lo is really pot limit without a cap (docs/rules-divergences.md
D1), so like is compared with like: pot-limit Omaha hi-lo (PO/8) on both.

    .venv/bin/python bench/rules_engine.py [--hands 300] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from feltwire.cards import card_index
from hub.rules.games import game
from hub.rules.hand import Hand
from tests.support.oracle_pokerkit import (
    ORACLES,
    PK_CARDS,
    Mismatch,
    _Game,
    play_hand,
)

EVALUATOR_NOTE = "hub.rules.evaluator"

Op = tuple[str, tuple[Any, ...]]


def _scripts(log: list[str]) -> tuple[list[Op], list[Op]]:
    """The PHH-like log of a hand → (ours' inputs, PokerKit's inputs)."""
    ours: list[Op] = []
    pk: list[Op] = []
    for line in log:
        pk_only = line.startswith("# ")
        words = (line[2:] if pk_only else line).split()
        if not words or (line.startswith("#") and not pk_only):
            continue
        if words[0] == "d":
            kind = words[1]
            if kind not in ("dh", "db", "burn"):
                continue
            card = card_index(words[3] if kind == "dh" else words[2])
            if kind == "dh":
                seat = int(words[2][1:]) - 1
                ours.append(("deal_hole", (seat, card)))
                pk.append(("deal_hole", (PK_CARDS[card],)))
            elif kind == "db":
                ours.append(("deal_board", (card,)))
                pk.append(("deal_board", (PK_CARDS[card],)))
            else:
                if not pk_only:
                    ours.append(("burn", (card,)))
                pk.append(("burn_card", (PK_CARDS[card],)))
            continue
        if not words[0].startswith("p"):
            continue
        seat = int(words[0][1:]) - 1
        what = words[1]
        if what == "f":
            ours_op: Op = ("fold", (seat,))
            pk_op: Op = ("fold", ())
        elif what == "cc":
            ours_op, pk_op = ("check_or_call", (seat,)), ("check_or_call", ())
        elif what == "cbr":
            to = int(words[2])
            ours_op, pk_op = ("bet_or_raise_to", (to, seat)), ("complete_bet_or_raise_to", (to,))
        elif what == "pb":
            ours_op, pk_op = ("bring_in", (seat,)), ("post_bring_in", ())
        elif what == "sm":
            shown = len(words) > 2 and "(" not in words[2]
            ours_op = ("show" if shown else "muck", (seat,))
            pk_op = ("show_or_muck_hole_cards", (shown or pk_only, seat))
        else:
            continue
        if not pk_only:
            ours.append(ours_op)
        pk.append(pk_op)
    return ours, pk


def generate(code: str, hands: int) -> list[tuple[tuple[Any, ...], list[Op], list[Op]]]:
    """Six-max hands with a showdown on which both engines agree."""
    out = []
    seed = 0
    while len(out) < hands:
        seed += 1
        try:
            outcome = play_hand(code, seed, players=6)
        except Mismatch:
            continue
        if not outcome.showdown or outcome.filtered:
            continue
        g = _Game(code, seed, 6)  # the same set-up (stakes, stacks) again
        setup = (g.n, g.stakes, g.starting, g.options)
        ours, pk = _scripts(outcome.log)
        out.append((setup, ours, pk))
    return out


def replay_ours(code: str, hands: list[tuple[tuple[Any, ...], list[Op], list[Op]]]) -> None:
    g = game(code)
    for (_, stakes, stacks, options), ops, _ in hands:
        hand = Hand(g, stakes, stacks, options)
        for name, args in ops:
            getattr(hand, name)(*args)
        assert hand.result is not None


def replay_pokerkit(code: str, hands: list[tuple[tuple[Any, ...], list[Op], list[Op]]]) -> None:
    make = ORACLES[code]
    for (n, stakes, stacks, _), _, ops in hands:
        state = make(n, stakes, stacks, None)  # no table: the blinds name the big blind
        for name, args in ops:
            getattr(state, name)(*args)
        assert not state.status


class Timing(NamedTuple):
    """Seconds per repeat, wall clock and process CPU time."""

    wall: list[float]
    cpu: list[float]


def _time(fn: Callable[[], None], into: Timing) -> None:
    c0, t0 = time.process_time(), time.perf_counter()
    fn()
    t1, c1 = time.perf_counter(), time.process_time()
    into.wall.append(t1 - t0)
    into.cpu.append(c1 - c0)


def interleaved(
    ours: Callable[[], None], theirs: Callable[[], None], repeats: int
) -> tuple[Timing, Timing]:
    """Time ``ours`` and ``theirs`` alternately, ``repeats`` times each."""
    a, b = Timing([], []), Timing([], [])
    for _ in range(repeats):
        _time(ours, a)
        _time(theirs, b)
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description="rules engine vs PokerKit, hands/s")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    print(f"machine: nproc={os.cpu_count()} cpu={cpu!r} python={platform.python_version()}")
    print(f"our evaluator: {EVALUATOR_NOTE}")
    print(
        f"{args.hands} six-max hands with showdown per game; {args.repeats} repeats per engine,"
        " interleaved; medians"
    )
    print("load average at start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(
        f"{'game':<6} {'ours hands/s':>14} {'PokerKit hands/s':>17} {'ratio':>8}"
        f" {'CPU-time ratio':>15}  per-repeat ratios (wall)"
    )
    warnings.simplefilter("ignore")  # replays only; the differential test checks warnings
    for code in ("NT", "PO", "PO/8"):
        hands = generate(code, args.hands)
        replay_ours(code, hands)  # warm up and check every script replays
        replay_pokerkit(code, hands)
        a, b = interleaved(
            lambda h=hands, c=code: replay_ours(c, h),
            lambda h=hands, c=code: replay_pokerkit(c, h),
            args.repeats,
        )
        ours = len(hands) / statistics.median(a.wall)
        theirs = len(hands) / statistics.median(b.wall)
        cpu_ratio = statistics.median(b.cpu) / statistics.median(a.cpu)
        pairs = " ".join(f"{t / o:.1f}" for o, t in zip(a.wall, b.wall, strict=True))
        print(
            f"{code:<6} {ours:>14,.0f} {theirs:>17,.1f} {ours / theirs:>7.1f}x"
            f" {cpu_ratio:>14.1f}x  {pairs}"
        )
    print("load average at end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
