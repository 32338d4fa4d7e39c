"""The producer's overlay feed is held back: every frame is released no earlier than the
configured delay after what it shows happened, in order, and none is dropped.

Two hub services run the same table on one fake clock and get the same inputs — reads of
whole hands, the dealer's actions, and a burst of reads in one instant: one with the
overlay live (the reference), one delayed. The delayed feed must end up exactly the live
one, each frame released at least the delay after the live one appeared. A WebSocket
client of a running hub's ``/ws/overlay`` sees no card before its delay either.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

from hub.app.feeds import Event, Subscription
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.config import PlayerSettings, RulesSettings
from hub.rules.procedure import Act, ConsoleAction
from hub.web.auth import Role
from tests.support.clocks import FakeClock, MovableClock
from tests.support.node_reports import DECK, NodeReports
from tests.support.service import hub_service
from tests.support.web_hub import running_hub

DELAY = 1800.0
PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]


@dataclass
class Side:
    """One service, its rules, and every overlay frame it sent with the clock at the time."""

    service: TableApp
    rules: TableConsole
    sub: Subscription
    frames: list[tuple[float, Event]] = field(default_factory=list)

    def drain(self, now: float) -> None:
        while not self.sub.queue.empty():
            self.frames.append((now, self.sub.queue.get_nowait()))


class Table:
    """The same inputs to a live and a delayed service, on one fake clock."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.reports = NodeReports()
        self.sides: list[Side] = []
        self._stack = contextlib.ExitStack()  # the subscriptions last as long as the table
        for delay in (0.0, DELAY):
            settings = RulesSettings(players=PLAYERS, tick_seconds=0)
            service = hub_service(clock, overlay_delay_s=delay, rules=settings, opened=False)
            sub = self._stack.enter_context(service.overlay.subscribe())
            service.open()
            rules = service.rules
            assert rules is not None
            self.sides.append(Side(service, rules, sub))
        self.live, self.delayed = self.sides

    def read(self, reader: str, cards: list[str]) -> None:
        message = self.reports.read(reader, *cards)
        for side in self.sides:
            side.service.handle_message(*message)

    def act(self, seat: int, act: Act, to: int = 0) -> None:
        for side in self.sides:
            side.rules.console(ConsoleAction(seat, act, self.clock.now, to))

    def step(self, seconds: float) -> None:
        """Take the frames the inputs so far sent, let ``seconds`` pass, and take what the
        delayed side releases then."""
        for side in self.sides:
            side.drain(self.clock.now)
        self.clock.now += seconds
        self.delayed.service.feeds.release_due()
        self.delayed.drain(self.clock.now)


def play(table: Table, rng: random.Random, hands: int) -> None:
    """Whole hands of hold'em, dealt card by card at random pace, the odd action between."""
    for _ in range(hands):
        cards = rng.sample(sorted(DECK.tags.values()), 11)
        hole = {s: cards[2 * i : 2 * i + 2] for i, s in enumerate((1, 2, 3))}
        for n in range(2):
            for seat in (1, 2, 3):
                table.read(f"seat{seat}", hole[seat][: n + 1])
                table.step(rng.uniform(0, 5))
        for seat in (1, 2, 3):
            table.act(seat, rng.choice([Act.CALL, Act.CHECK, Act.FOLD]))
            table.step(rng.uniform(0, 30))
        board = cards[6:]
        for n in (3, 4, 5):
            table.read("board", board[:n])
            table.step(rng.uniform(0, 90))
        for seat in (1, 2, 3):
            table.read(f"seat{seat}", [])
        table.read("board", [])
        table.read("muck", cards)
        table.step(rng.uniform(0, 600))
        table.read("muck", [])
        table.step(rng.uniform(0, 60))


def frame_key(frame: Event) -> str:
    return json.dumps(frame, sort_keys=True)


def test_delayed_overlay_releases_every_frame_after_the_delay_in_order() -> None:
    clock = FakeClock()
    table = Table(clock)
    rng = random.Random(8)
    play(table, rng, hands=6)
    # a burst: a flickering antenna reports 200 times in one instant
    for n in range(200):
        table.read("burn", ["2c"] if n % 2 == 0 else [])
    table.step(0)
    play(table, rng, hands=3)
    end = clock.now
    while clock.now < end + DELAY:  # the delayed side catches up
        table.step(rng.uniform(0, 120))
    table.step(DELAY)

    live, delayed = table.live.frames, table.delayed.frames
    assert len(live) > 500, "the run should be a real load"
    kinds = {f["type"] for _, f in live}
    assert {"antenna", "event", "state"} <= kinds, kinds
    # none dropped, none added, same order: the delayed feed is the live one, later
    assert [frame_key(f) for _, f in delayed] == [frame_key(f) for _, f in live]
    for (shown, frame), (released, _) in zip(live, delayed, strict=True):
        assert released >= shown + DELAY, (frame["type"], shown, released)
        if "t" in frame and frame["t"] is not None:
            assert released >= frame["t"] + DELAY
    # and the burst came through whole
    burn = [f for _, f in delayed if f.get("reader") == "burn" and f["type"] == "antenna"]
    assert len(burn) == 200


def test_nothing_is_released_a_moment_early() -> None:
    clock = FakeClock()
    table = Table(clock)
    table.read("seat1", ["As"])
    table.read("seat2", ["Kd"])
    table.step(0)
    hole = [f for _, f in table.live.frames if f["type"] == "antenna"]
    assert len(hole) == 2 and table.delayed.frames == []
    table.step(DELAY - 0.001)
    assert table.delayed.frames == []
    table.step(0.001)
    released = [f for _, f in table.delayed.frames if f["type"] == "antenna"]
    assert [f["cards"] for f in released] == [["As"], ["Kd"]]


def cards_in(frames: list[Any]) -> str:
    return " ".join(json.dumps(f) for f in frames)


async def test_overlay_websocket_gets_no_card_before_its_delay() -> None:
    clock = MovableClock()  # the hub's monotonic clock: the delay runs on it
    async with running_hub(monotonic=clock, overlay_delay_minutes=1) as hub:
        service, delay = hub.service, 60.0
        url = hub.web_url.replace("http", "ws", 1) + f"/ws/overlay?token={hub.token(Role.PRODUCER)}"
        seq = 0

        def read(reader: str, cards: list[str]) -> None:
            nonlocal seq
            seq += 1
            body = {"v": 1, "node": "n", "seq": seq, "ts": 0, "reader": reader}
            body["uids"] = [DECK.uid_for(c) for c in cards]
            topic = f"feltwire/v1/t1/node/n/reader/{reader}/tags"
            service.handle_message(topic, json.dumps(body).encode())

        async with connect(url) as ws:
            snapshot = json.loads(await ws.recv())
            assert snapshot["type"] == "snapshot"
            start = clock.now
            read("seat3", ["As"])  # A, due at start + delay
            clock.now += 1
            read("seat4", ["Kd"])  # B, due a second later
            clock.now = start + delay - 0.5
            assert service.feeds.release_due() == 0
            clock.now = start + delay
            assert service.feeds.release_due() >= 1  # A only
            received: list[Any] = []
            while "As" not in cards_in(received):
                received.append(json.loads(await ws.recv()))
            # B was not due: had it gone out live it would have come before A
            assert "Kd" not in cards_in(received)
            async with connect(url) as late:
                assert "Kd" not in cards_in([json.loads(await late.recv())])
            clock.now = start + 1 + delay
            assert service.feeds.release_due() >= 1
            while "Kd" not in cards_in(received):
                received.append(json.loads(await ws.recv()))
