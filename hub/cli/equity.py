"""``feltwire equity``: each player's win, tie and equity from the command line.

    feltwire equity holdem AsKs QdQc --board Qs7s2c
    feltwire equity omaha8 AsAh2d3c KdKcQhJh --samples 200000 --json
    feltwire equity stud7 AsAh2d KdKcQh --dead 7c8c   # 3rd street: the rest is to come

Hands are card strings, ``??`` for a card nobody has seen; stud and draw hands may be
short (the missing cards are still to come). Without ``--exact`` or ``--samples`` the
answer is exact when that is cheap, else a Monte Carlo estimate with its error bound.

>>> main(["holdem", "AsAh", "KdKc", "--json"])  # doctest: +ELLIPSIS
{"players": [{"hand": "AsAh", "win": 0.81..., "tie": 0.0038..., "equity": 0.812...}, ...
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from hub.equity import EquityError, Spot, equity
from hub.equity.names import describe_hands
from hub.equity.outs import outs
from hub.equity.spot import EquityGame


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="feltwire equity",
        description="Equity of every hand: exact where cheap, Monte Carlo otherwise.",
    )
    p.add_argument("game", help=", ".join(g.value for g in EquityGame))
    p.add_argument("hands", nargs="+", metavar="HAND", help="cards such as AsKs; ?? = unknown")
    p.add_argument("--board", default="", help="board cards seen so far, e.g. Qs7s2c")
    p.add_argument("--dead", default="", help="cards out of play (folded, mucked, burnt)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="walk every deal, however many")
    how.add_argument("--samples", type=int, help="Monte Carlo with this many deals")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    return p


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status (0 ok, 2 bad input)."""
    args = _parser().parse_args(argv)
    if args.samples is not None and args.samples <= 0:
        print("feltwire equity: --samples must be positive", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        spot = Spot.parse(args.game, args.hands, board=args.board, dead=args.dead)
        result = equity(
            spot, exact=True if args.exact else None, samples=args.samples, rng=args.seed
        )
    except EquityError as err:
        print(f"feltwire equity: {err}", file=sys.stderr)
        return 2
    ms = (time.perf_counter() - start) * 1000
    names = describe_hands(spot)
    heads_up_outs = None
    if spot.players == 2 and spot.game.board and spot.holes_known and len(spot.board) in (3, 4):
        heads_up_outs = outs(spot)
    if args.json:
        doc = result.as_dict()
        players = doc.pop("players")
        for p, name in zip(players, names, strict=True):
            if name is not None:
                p["made"] = name
        if heads_up_outs is not None:
            for p, cards in zip(players, heads_up_outs.cards, strict=True):
                p["outs"] = list(cards)
        print(json.dumps({"players": players, **doc, "ms": round(ms, 3)}))
        return 0
    how = "exact" if result.exact else f"Monte Carlo, ±{result.error * 100:.2f} % (99.9 %)"
    print(f"{spot.game.value}: {result.deals:,.0f} deals, {how}, {ms:.1f} ms")
    hi_lo = spot.game.hi_lo
    head = "scoop   split" if hi_lo else "  win     tie"
    print(f"{'hand':<16} {'equity':>7}  {head}  made")
    for p, name in zip(result.players, names, strict=True):
        print(
            f"{p.hand:<16} {p.equity * 100:6.2f}%  {p.win * 100:5.2f}%  {p.tie * 100:5.2f}%  "
            f"{name or ''}"
        )
    if heads_up_outs is not None:
        for p, cards in enumerate(heads_up_outs.cards):
            if cards:
                print(f"outs for {result.players[p].hand}: {' '.join(cards)} ({len(cards)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
