"""The overlay's delay holds its frames compactly (:class:`hub.app.feeds.DelayedRelease`):
what it releases — which events, in what order, at which call — is what a plain heap of
the events released (the code before, kept here as the oracle), through sealed blocks,
release times out of push order, ties and a snapshot's encode and restore; and a table
dealt under a 30-minute delay holds its frames in a few dozen bytes each, not kilobytes.
"""

from __future__ import annotations

import gc
import heapq
import itertools
import json
import random
import tracemalloc
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.app.feeds import DelayedRelease
from hub.app.publisher import encode_held
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from hub.views.frames import Event
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface


@dataclass(order=True)
class _Entry:
    release_at: float
    order: int
    event: Event = field(compare=False)


class HeapOfEvents:
    """The delay before its frames were held compactly: a heap of the events themselves."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.heap: list[_Entry] = []
        self.counter = itertools.count()

    def push(self, event: Event, now: float) -> None:
        heapq.heappush(self.heap, _Entry(now + self.delay, next(self.counter), event))

    def due(self, now: float) -> list[Event]:
        out = []
        while self.heap and self.heap[0].release_at <= now:
            out.append(heapq.heappop(self.heap).event)
        return out

    def next_release(self) -> float | None:
        return self.heap[0].release_at if self.heap else None


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
EVENTS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["state", "antenna", "equity", "alert"]),
        "t": st.floats(0, 1e6, allow_nan=False),
        "n": st.integers(-(2**40), 2**40),
    },
    optional={
        "state": st.recursive(
            st.none() | st.booleans() | st.integers() | TEXT,
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
            max_leaves=12,
        ),
        "name": st.sampled_from(["Player 1", "a\nb", " lead ", "\u00e9t\u00e9 \u2660", ""]),
    },
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("push"), EVENTS, st.sampled_from([0.0, 0.0, 0.25, 3.0, 40.0])),
        st.tuples(st.just("tick"), st.sampled_from([0.0, 0.5, 1.0, 7.0, 60.0])),
        st.tuples(st.just("restart"), st.sampled_from(["ours", "spaced", "indented"])),
    ),
    max_size=120,
)


def kept(event: Event) -> bool:
    return event["type"] != "equity"


@settings(max_examples=150, deadline=None)
@given(
    steps=STEPS,
    delay=st.sampled_from([0.0, 5.0, 30.0]),
    block=st.sampled_from([1, 3, 64]),
)
def test_the_delay_releases_what_a_heap_of_the_events_released(
    steps: list[tuple[Any, ...]], delay: float, block: int
) -> None:
    """Each call releases the same events in the same order as the heap of dicts did; a
    snapshot holds exactly the kept ones, and a delay restored from it goes on alike."""
    old = HeapOfEvents(delay)
    new = DelayedRelease(delay, keep=kept, block=block)
    now = 1000.0
    for step in steps:
        if step[0] == "push":
            _, event, lag = step
            old.push(event, now - lag)  # an equity frame goes out as of the cards it read
            new.push(event, now - lag)
        elif step[0] == "tick":
            now += step[1]
            assert new.due(now) == old.due(now)
        else:  # a restart from a snapshot: only the kept frames come back, as JSON does
            text = encode_held(new.held())
            held = sorted(json.loads(text))
            assert held == sorted(
                [e.release_at, e.order, e.event] for e in old.heap if kept(e.event)
            )
            if step[1] == "spaced":  # what the code before wrote has no spaces either
                text = json.dumps(held, ensure_ascii=False)
            elif step[1] == "indented":
                text = json.dumps(held, indent=1)
            old.heap = [e for e in old.heap if kept(e.event)]
            heapq.heapify(old.heap)
            old.counter = itertools.count(max((e.order for e in old.heap), default=-1) + 1)
            new = DelayedRelease(delay, keep=kept, block=block)
            new.restore(new.parse(text))
        assert new.next_release() == old.next_release()
        assert len(new) == len(old.heap)
        assert sorted(map(tuple, new.held().decoded())) == sorted(
            (e.release_at, e.order, e.event) for e in old.heap
        )
    now += delay + 100
    assert new.due(now) == old.due(now)
    assert len(new) == 0 and new.next_release() is None


PLAYERS = [PlayerSettings(seat=s, name=f"Player {s}", buy_in=1000) for s in range(1, 7)]
DELAY_S = 1800.0


def deal(delay_s: float, hands: int) -> tuple[TableApp, FakeClock, list[tuple[float, Event]]]:
    """A six-max table with the rules, ``hands`` hands dealt at a motion a second; the
    overlay frames released during it, each with the table time it was released at."""
    clock = FakeClock()
    app = hub_service(
        clock,
        overlay_delay_s=delay_s,
        rules=RulesSettings(players=PLAYERS, rebuy=True),
        opened=False,
    )
    rules = app.rules
    assert rules is not None
    surface = ServiceSurface(app, rules, clock)
    released: list[tuple[float, Event]] = []
    with app.overlay.subscribe("overlay") as sub:
        app.open()

        def after_motion() -> None:
            if rules.in_hand:
                rules.tick()
            app.feeds.release_due()
            while not sub.queue.empty():
                released.append((clock.now, sub.queue.get_nowait()))

        surface.after_motion.append(after_motion)
        rng = random.Random(7)
        for _ in range(hands):
            setup = rules.desk.setup
            assert setup is not None
            mistake = choose_mistake(rng, 0.3, setup.game, rules.desk.profile)
            SimulatedDealer(rng, setup, rules.desk.profile, surface, mistake).play()
            surface.clear()
    return app, clock, released


def test_a_delayed_overlay_shows_the_live_frames_each_a_delay_later() -> None:
    """The same hands with the delay off and at 60 s: the same frames, each released a
    delay after it went out live."""
    _, _, live = deal(0, 3)
    app, clock, late = deal(60.0, 3)
    with app.overlay.subscribe("overlay") as sub:
        clock.now += 61
        app.feeds.release_due()
        while not sub.queue.empty():
            late.append((clock.now, sub.queue.get_nowait()))
    assert [e for _, e in late] == [e for _, e in live]
    for (live_at, _), (late_at, _) in zip(live, late, strict=True):
        # taken at the motion after it happened (live) / at the first release_due a
        # delay after it happened (delayed; the last ones: when the clock jumped)
        assert live_at - 1.0 <= late_at - 60.0 <= live_at or late_at == clock.now
    assert app.feeds.held == 0


def test_a_table_under_a_30_minute_delay_holds_its_frames_in_a_few_dozen_bytes_each() -> None:
    """Traced memory: what the held frames of a few hands take, over how many are held —
    some 1.8 KB a frame as dicts, some 25–100 bytes held as compressed JSON."""
    gc.collect()
    tracemalloc.start()
    try:
        app, clock, released = deal(DELAY_S, 4)
        assert released == []
        gc.collect()
        held, with_held = app.feeds.held, tracemalloc.get_traced_memory()[0]
        clock.now += DELAY_S + 1
        assert app.feeds.release_due() == held
        gc.collect()
        without = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held > 400
    assert (with_held - without) / held < 400, f"{(with_held - without) / held:.0f} B a frame"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{}",
        "[1]",
        "[[1, 2]]",
        '[[1, 2, "x"]]',
        "[[true, 2, {}]]",
        "[[1, 2.5, {}]]",
        "[[1, 2, {}] [3, 4, {}]]",
        "[[1, 2, {}],]",
        "[[1, 2, {}]] x",
        "[[1, 2, {}]",
    ],
)
def test_held_frames_that_are_not_a_list_of_entries_are_refused(text: str) -> None:
    """A snapshot's held frames that are not ``[[release_at, order, event], …]``: the
    snapshot is not used (its restore raises; :mod:`hub.app.snapshot` skips it)."""
    with pytest.raises(ValueError):
        DelayedRelease(30).parse(text)
