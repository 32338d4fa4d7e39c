"""A node's reads applied in the node's sequence order, whatever order they arrive in.

MQTT keeps the order of one topic only, and each antenna has its own: a read of one
antenna can overtake an earlier read of another (a proxy, a broker's redelivery, a QoS 1
resend). The hub holds a live read whose ``seq`` skips ahead of its node's next one until
the gap fills or the reorder grace (``[health] reorder_grace_s``) passes on the hub's
clock; only then is what is still missing lost. A table's application on a clock the test
moves; what the test looks at is what the dealer and the public see (frames, alerts), what
the event log holds, and a replay of it.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltwire.deck import simulated_uid
from hub.adapters.eventlog.store import EventLog
from hub.app.nodes import MAX_GAP
from hub.app.table_app import TableApp
from hub.app.tasks import run_security
from tests.support.clocks import FakeClock
from tests.support.service import hub_service

AS, KD, QH = simulated_uid(51), simulated_uid(45), simulated_uid(37)
GRACE = 0.5


def inv(reader: str, seq: int, uids: list[str], node: str = "n1") -> tuple[str, bytes]:
    body = {"v": 1, "node": node, "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    return f"feltwire/v1/t1/node/{node}/reader/{reader}/tags", json.dumps(body).encode()


def app(clock: FakeClock, log: EventLog | None = None, **over: Any) -> TableApp:
    return hub_service(clock, log=log, reorder_grace_s=GRACE, **over)


def drained(sub: Any) -> list[dict[str, Any]]:
    return [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]


def antennas(frames: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(f["reader"], f["count"]) for f in frames if f["type"] == "antenna"]


def alerts(frames: list[dict[str, Any]]) -> list[str]:
    return [f["code"] for f in frames if f["type"] == "alert"]


def logged(log: EventLog) -> list[tuple[str, int]]:
    return [(r.payload["reader"], r.payload["seq"]) for r in log.records() if "seq" in r.payload]


def test_a_read_overtaken_within_the_grace_is_applied_in_the_nodes_order() -> None:
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 1, [AS]))
        clock.now += 0.1
        svc.handle_message(*inv("board", 3, [KD]))  # overtook seq 2: held
        assert antennas(drained(pub)) == [("seat1", 1)]
        assert svc.node_stats()["n1"]["held"] == 1
        clock.now += 0.2
        svc.handle_message(*inv("seat1", 2, []))  # the gap fills: 2, then 3
        frames = drained(pub)
    assert antennas(frames) == [("seat1", 0), ("board", 1)]
    assert alerts(frames) == []  # no reads_lost: nothing was
    assert logged(log) == [("seat1", 1), ("seat1", 2), ("board", 3)]
    assert svc.counters["accepted"] == 3 and svc.counters.get("lost", 0) == 0
    assert svc.node_stats()["n1"]["lost"] == 0 and svc.node_stats()["n1"]["held"] == 0
    assert svc.release_held() == 0


def test_a_gap_that_never_fills_is_lost_after_the_grace_and_the_held_reads_applied() -> None:
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 1, [AS]))
        svc.handle_message(*inv("burn", 5, [QH]))  # 2..4 missing
        clock.now += 0.1
        svc.handle_message(*inv("board", 6, [KD]))
        clock.now += GRACE - 0.2
        assert svc.release_held() == 0  # still within the grace of the first held
        assert antennas(drained(pub)) == [("seat1", 1)]
        clock.now += 0.15  # the first held read's grace is over
        assert svc.release_held() == 2
        frames = drained(pub)
    assert antennas(frames) == [("burn", 1), ("board", 1)]
    [lost] = [f for f in frames if f["type"] == "alert"]
    assert lost["code"] == "reads_lost" and lost["node"] == "n1"
    assert lost["text"]["params"] == {"node": "n1", "lost": 3, "seqs": "2-4"}
    assert svc.counters["lost"] == 3 and svc.node_stats()["n1"]["lost_seqs"] == [[2, 4]]
    assert logged(log) == [("seat1", 1), ("burn", 5), ("board", 6)]
    assert svc.counters["accepted"] == 3
    # a straggler after that is still taken (its antenna's latest), not lost twice
    svc.handle_message(*inv("muck", 3, []))
    assert svc.counters["accepted"] == 4 and svc.counters["lost"] == 3


def test_the_next_message_releases_what_waited_past_its_grace() -> None:
    clock = FakeClock()
    svc = app(clock)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 1, [AS]))
        svc.handle_message(*inv("board", 3, [KD]))
        clock.now += GRACE + 0.1
        svc.handle_message(*inv("burn", 4, [QH]))  # no timer ran: this message does it
        frames = drained(pub)
    assert antennas(frames) == [("seat1", 1), ("board", 1), ("burn", 1)]
    assert alerts(frames) == ["reads_lost"] and svc.counters["lost"] == 1


def test_copies_of_held_and_of_applied_reads_are_duplicates() -> None:
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 1, [AS]))
        svc.handle_message(*inv("seat1", 1, [AS]))  # a copy of an applied read
        svc.handle_message(*inv("board", 3, [KD]))
        svc.handle_message(*inv("board", 3, [KD]))  # a copy of a held read
        svc.handle_message(*inv("seat1", 2, []))
        svc.handle_message(*inv("board", 3, [KD]))  # a copy of it, now applied
        frames = drained(pub)
    assert antennas(frames) == [("seat1", 1), ("seat1", 0), ("board", 1)]
    assert alerts(frames) == []
    assert svc.counters["duplicate"] == 3 and svc.counters["accepted"] == 3
    assert svc.counters.get("stale", 0) == 0 and svc.counters.get("lost", 0) == 0
    assert logged(log) == [("seat1", 1), ("seat1", 2), ("board", 3)]


def test_retained_reads_at_subscribe_time_are_applied_at_once_in_any_order() -> None:
    clock = FakeClock()
    svc = app(clock)
    with svc.public.subscribe() as pub:
        for reader, seq in (("board", 40), ("seat1", 12), ("burn", 31)):
            svc.handle_message(*inv(reader, seq, [AS] if reader == "seat1" else []), retained=True)
        svc.handle_message(*inv("seat2", 41, [KD]))  # the first live read: the baseline
        frames = drained(pub)
    assert antennas(frames) == [("seat1", 1), ("seat2", 1)]  # board, burn were empty
    assert svc.counters["accepted"] == 4 and alerts(frames) == []
    assert svc.intake.next_due() is None


def test_a_node_that_restarts_its_count_is_not_held_and_what_waited_goes_first() -> None:
    clock = FakeClock()
    svc = app(clock)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 10, [AS]))
        svc.handle_message(*inv("board", 12, [KD]))  # held for 11
        svc.handle_message(*inv("seat1", 12 + MAX_GAP + 100, []))  # a fresh count
        frames = drained(pub)
    assert antennas(frames) == [("seat1", 1), ("board", 1), ("seat1", 0)]
    assert svc.intake.next_due() is None  # nothing waits for the old count
    assert svc.counters["accepted"] == 3


def test_a_reset_of_the_node_lets_what_is_held_go_at_once() -> None:
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    svc.handle_message(*inv("seat1", 500, [AS]))
    svc.handle_message(*inv("board", 502, [KD]))  # held for 501
    svc.reset_node("n1")  # the operator resets the node's count
    assert svc.release_held() == 1  # the reset ends the wait: no grace to sit out
    svc.handle_message(*inv("seat1", 3, []))  # its new count is taken
    assert logged(log) == [("seat1", 500), ("board", 502), ("seat1", 3)]
    assert svc.intake.presence.snapshot() == {"seat1": (), "board": ("Kd",)}
    again = app(clock, log)
    again.replay()
    assert again.intake.presence.snapshot() == svc.intake.presence.snapshot()


def test_a_batch_is_logged_and_applied_in_the_nodes_order() -> None:
    """The running hub's path (:meth:`TableApp.take_batch`, one log write per batch)."""
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    batch = [(*inv(r, s, u), False) for r, s, u in [("seat1", 1, [AS]), ("board", 3, [KD])]]
    batch += [(*inv("burn", 4, [QH]), False), (*inv("seat1", 2, []), False)]
    with svc.public.subscribe() as pub:
        asyncio.run(svc.take_batch(batch))
        frames = drained(pub)
    svc.close()
    assert antennas(frames) == [("seat1", 1), ("seat1", 0), ("board", 1), ("burn", 1)]
    assert logged(log) == [("seat1", 1), ("seat1", 2), ("board", 3), ("burn", 4)]
    assert svc.counters["accepted"] == 4 and alerts(frames) == []


def test_a_held_read_is_released_by_the_hubs_timer_when_nothing_else_comes() -> None:
    """The running hub's security task also ends each read's wait on time."""
    svc = hub_service(time.monotonic, reorder_grace_s=0.2)  # type: ignore[arg-type]  # real time

    async def scene() -> list[dict[str, Any]]:
        task = asyncio.create_task(run_security(svc))
        try:
            with svc.public.subscribe() as pub:
                svc.handle_message(*inv("seat1", 1, [AS]))
                svc.handle_message(*inv("board", 3, [KD]))
                await asyncio.sleep(0.05)
                assert antennas(drained(pub)) == [("seat1", 1)]
                deadline = time.monotonic() + 5
                while svc.intake.next_due() is not None and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                return drained(pub)
        finally:
            task.cancel()

    frames = asyncio.run(scene())
    assert antennas(frames) == [("board", 1)] and alerts(frames) == ["reads_lost"]


# ---------------------------------------------------------------- replay equals live

READERS = ["seat1", "seat2", "board", "burn", "muck"]
CARD_UIDS = [AS, KD, QH, simulated_uid(1), simulated_uid(2)]
reads = st.lists(
    st.tuples(st.sampled_from(READERS), st.lists(st.sampled_from(CARD_UIDS), unique=True)),
    min_size=1,
    max_size=25,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sent=reads,
    data=st.data(),
)
def test_reads_taken_in_any_arrival_order_replay_to_the_same_state(
    sent: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    """A node sends reads seq 1..n (one topic per antenna: each antenna's in order); the
    first arrives first (the hub's baseline), the rest interleaved across antennas, some
    copied, some never; the clock moves between arrivals. Unless the hub gave up on a read
    (lost: never when all came within the grace), it applied all that came, in seq order;
    and a replay of its log reaches the same state."""
    clock, log = FakeClock(), EventLog.memory("t1")
    live = app(clock, log)
    per_topic: dict[str, list[tuple[int, list[str]]]] = {}
    for seq, (reader, uids) in enumerate(sent, start=1):
        per_topic.setdefault(reader, []).append((seq, uids))
    later = range(2, len(sent) + 1)
    dropped = data.draw(st.sets(st.sampled_from(later)) if later else st.just(set()))
    patient = data.draw(st.booleans(), label="all within the grace")
    steps = [0.0, 0.01] if patient else [0.0, 0.05, 0.3, GRACE + 0.1]
    first = sent[0][0]
    while any(per_topic.values()):
        if per_topic[first] and per_topic[first][0][0] == 1:
            reader = first
        else:
            reader = data.draw(st.sampled_from(sorted(r for r, q in per_topic.items() if q)))
        seq, uids = per_topic[reader].pop(0)
        clock.now += data.draw(st.sampled_from(steps))
        live.release_held()
        if seq in dropped:
            continue
        for _ in range(1 + data.draw(st.integers(0, 1), label="copies")):
            live.handle_message(*inv(reader, seq, uids))
    clock.now += GRACE + 0.1
    live.release_held()
    assert live.intake.next_due() is None
    seqs = [s for _, s in logged(log)]
    if patient and not dropped:  # the whole run within the grace: nothing lost
        assert live.counters.get("lost", 0) == 0
    if live.counters.get("lost", 0) == 0:
        arrived = max(set(range(1, len(sent) + 1)) - dropped)
        assert all(s > arrived for s in dropped)  # only the last ones can vanish unseen
        assert seqs == [s for s in range(1, len(sent) + 1) if s not in dropped]
    assert live.counters["accepted"] == len(sent) - len(dropped)
    again = app(clock, log)
    again.replay()
    assert again.intake.presence.snapshot() == live.intake.presence.snapshot()
    assert again.public_snapshot() == live.public_snapshot()
    assert again.intake.ingest._last_seq == live.intake.ingest._last_seq


def test_a_retained_repeat_that_overtakes_its_live_copy_holds_nothing_back() -> None:
    """A hub restarted on a persistent session gets, on subscribing, each antenna's
    retained read and the live ones the broker queued for it, in no set order: when an
    antenna's retained repeat comes before its live copy, the reads after that one must
    not wait for it as if it were missing (it came) — no hold, no false ``reads_lost``."""
    clock, log = FakeClock(), EventLog.memory("t1")
    svc = app(clock, log)
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat1", 3, [AS]))  # the node's count so far
        svc.handle_message(*inv("seat2", 4, [KD]), retained=True)  # the repeat first ...
        svc.handle_message(*inv("seat2", 4, [KD]))  # ... then its live copy (a duplicate)
        svc.handle_message(*inv("muck", 5, [QH]))  # the next one: applied at once
        assert antennas(drained(pub)) == [("seat1", 1), ("seat2", 1), ("muck", 1)]
        clock.now += GRACE + 0.1
        assert svc.release_held() == 0
        frames = drained(pub)
    assert alerts(frames) == [] and svc.counters.get("lost", 0) == 0
    assert svc.node_stats()["n1"]["lost"] == 0 and svc.counters["duplicate"] == 1
    assert logged(log) == [("seat1", 3), ("seat2", 4), ("muck", 5)]
