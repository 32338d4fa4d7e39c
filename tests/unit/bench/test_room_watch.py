"""The card-room bench's bookkeeping (``bench/room.py``): which overlay frame ends a
street's equity measurement, and which console-feed frame ends an action's. No timing is
asserted — the figures live in bench/ and docs/benchmarks.md."""

from __future__ import annotations

from typing import Any

from bench.room import RoomWatch, feed_key

FLOP = frozenset({"As", "Kd", "2c"})


def equity(hand: int, board: list[str], *, exact: bool, players: int = 2) -> dict[str, Any]:
    return {
        "type": "equity",
        "hand": hand,
        "exact": exact,
        "board": board,
        "players": [{"seat": s, "equity": 0.5} for s in range(1, players + 1)],
    }


def test_the_exact_frame_of_the_street_s_cards_ends_the_measurement() -> None:
    w = RoomWatch("t1")
    w.open_probe(7, "flop", FLOP)
    t0 = w.probe.t0 if w.probe is not None else 0.0
    w.frame(equity(6, ["As", "Kd", "2c"], exact=True), t0 + 0.5)  # the last hand's
    w.frame(equity(7, ["As", "Kd"], exact=True), t0 + 0.5)  # other cards
    w.frame(equity(7, ["2c", "As", "Kd"], exact=True, players=0), t0 + 0.5)  # cleared
    assert w.equity == [] and w.probe is not None
    w.frame(equity(7, ["2c", "As", "Kd"], exact=False), t0 + 0.010)  # the quick estimate
    w.frame(equity(7, ["2c", "As", "Kd"], exact=True), t0 + 0.030)
    [sample] = w.equity
    assert (sample.street, sample.exact) == ("flop", True)
    assert round(sample.first_ms) == 10 and round(sample.final_ms) == 30
    assert w.probe is None and not w.superseded


def test_a_final_estimate_after_the_quick_one_is_counted_as_an_estimate() -> None:
    w = RoomWatch("t1")
    w.open_probe(3, "hole", frozenset())
    t0 = w.probe.t0 if w.probe is not None else 0.0
    w.frame(equity(3, [], exact=False), t0 + 0.1)
    w.frame(equity(3, [], exact=False), t0 + 0.4)
    [sample] = w.equity
    assert (sample.street, sample.exact, round(sample.final_ms)) == ("hole", False, 400)


def test_a_card_laid_before_the_frame_came_supersedes_the_measurement() -> None:
    w = RoomWatch("t1")
    w.open_probe(7, "turn", FLOP | {"9h"})
    w.close_probe()
    w.frame(equity(7, ["As", "Kd", "2c", "9h"], exact=True), 1e9)
    assert w.equity == [] and w.superseded == {"turn": 1}
    w.close_probe()  # nothing open: nothing counted
    assert w.superseded == {"turn": 1}


def test_an_action_s_feed_frame_is_matched_before_or_after_its_answer() -> None:
    w = RoomWatch("t1")
    call = {"type": "action", "seat": 3, "act": "call", "amount": 10}
    # the frame first (the feed beat the HTTP answer), then the answer
    w.console_frame({"type": "console", "hand": 4}, 1.0)  # a console state: not an event
    w.console_frame(call | {"hand": 4, "t": 99.0}, 1.02)
    w.answered(feed_key(4, call), 1.0)
    # the answer first, then the frame; an older identical frame does not count
    w.console_frame(call | {"hand": 5, "t": 1.0}, 1.5)
    w.answered(feed_key(5, call), 2.0)
    w.console_frame(call | {"hand": 5, "t": 2.0}, 2.05)
    assert [round(ms) for _, ms in w.feed] == [20, 50]
    assert w.waiting == {}
