"""Live equity's task: the quick figure first, the exact one after it — or alone, when it
costs no more — and no work for cards that have changed meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.app.equity_watch import EquityWatch
from hub.app.live_equity import LiveSpot, presence_spot

AA_KK = {"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc"), "board": ()}
AA_QQ = {"seat1": ("As", "Ah"), "seat3": ("Qd", "Qc"), "board": ()}


def spot(snap: dict[str, tuple[str, ...]]) -> LiveSpot:
    live = presence_spot(snap, "T")
    assert live is not None
    return live


def one_pass(spots: list[LiveSpot]) -> list[dict[str, Any]]:
    """One pass of the watch after a change; the table's spot is ``spots[0]`` at first,
    and each figure computed moves it on to the next (the cards change while it is
    computed; the last stays) — marked, as the table marks every change of its cards."""
    sent: list[dict[str, Any]] = []
    later = iter(spots[1:])
    current = [spots[0]]

    async def runner(
        fn: Callable[[LiveSpot, int], dict[str, Any]], live: LiveSpot, rng: int
    ) -> dict[str, Any]:
        figure = fn(live, rng)
        moved = next(later, None)
        if moved is not None:
            current[0] = moved
            watch.mark()
        return figure

    watch = EquityWatch(
        game="NT",
        enabled=True,
        spot=lambda: current[0],
        publish=lambda frame, t: sent.append(frame),
        clock=lambda: 5.0,
        with_rules=False,
    )
    watch.runner = runner
    watch.mark()
    asyncio.run(watch._pass(None, 0.0))
    return sent


def test_a_pre_flop_change_gets_the_estimate_then_the_exact_figure() -> None:
    sent = one_pass([spot(AA_KK)])
    assert [f["exact"] for f in sent] == [False, True]
    assert [p["equity"] for p in sent[1]["players"]] == [0.8126, 0.1874]


def test_on_the_flop_the_exact_figure_goes_out_at_once_and_alone() -> None:
    sent = one_pass([spot(AA_KK | {"board": ("7c", "8d", "9s")})])
    assert [f["exact"] for f in sent] == [True]
    assert len(sent[0]["players"]) == 2


def test_cards_that_changed_after_the_estimate_get_no_exact_figure() -> None:
    sent = one_pass([spot(AA_KK), spot(AA_QQ)])
    assert [f["exact"] for f in sent] == [False]  # the next pass computes AA v QQ
