"""Fuzzing every MQTT input (issue 15): what the hub's table application takes on the
topics the hub subscribes to (reader inventories, buttons), and the light commands the
node and the bridge take.

For the hub: streams of garbage — any bytes, JSON of the wrong shape, inventories
and button presses with a field mutated or written raw, on valid and invalid topics —
with valid inventories of one node interleaved, handed to the real
:meth:`~hub.app.table_app.TableApp.handle_message` (a real in-memory event log, no
broker). Nothing raises; every message is either accepted or counted under exactly
one refusal reason (``received == accepted + rejected + duplicate + stale``, and
``rejected`` is the sum of its reasons); every reason counted is logged (throttled);
and every valid message is accepted, on the event log and in the presence.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feltwire.deck import simulated_deck
from feltwire.errors import ProtocolError
from feltwire.protocol import (
    AVAILABILITY_OFFLINE,
    AVAILABILITY_ONLINE,
    MAX_SEATS,
    LightPattern,
    TopicKind,
    button_topic,
    parse_topic,
    reader_tags_topic,
)
from firmware_bridge.main import forward_light
from hub.adapters.eventlog import EventLog
from hub.app.records import InputKind
from hub.config import default_readers
from table_node.lights import SeatLights
from tests.support.clocks import FakeClock
from tests.support.fuzz_strategies import fuzz_settings, ids, levels, uids, wrong_payloads
from tests.support.service import hub_service

TABLE = "t1"
GOOD = "good-node"
READERS = default_readers()
DECK = simulated_deck()
CARDS = sorted(DECK.tags.values())
WALL_MS = 1_733_000_000_000
"""A plausible sequence number (a fresh node count starts at the wall clock in ms)."""


def inventory(node: str, seq: int, reader: str, uid_list: list[str]) -> dict[str, Any]:
    return {"v": 1, "node": node, "seq": seq, "ts": 1.7e9, "reader": reader, "uids": uid_list}


other_nodes = ids.filter(lambda n: n != GOOD)
wrong_nodes = st.one_of(other_nodes, levels.filter(lambda n: n != GOOD))


@st.composite
def garbage_inventory(draw: st.DrawFn) -> tuple[str, bytes]:
    node = draw(wrong_nodes)
    reader = draw(st.one_of(st.sampled_from(READERS), levels))
    table = draw(st.one_of(st.just(TABLE), levels))
    topic = f"feltwire/v1/{table}/node/{node}/reader/{reader}/tags"
    seq = draw(st.one_of(st.integers(0, 2**64), st.just(WALL_MS)))
    uid_list = draw(st.lists(st.one_of(st.sampled_from(sorted(DECK.tags)), uids), max_size=5))
    payload = draw(wrong_payloads(inventory(node, seq, reader, uid_list)))
    return topic, payload


@st.composite
def garbage_button(draw: st.DrawFn) -> tuple[str, bytes]:
    node = draw(wrong_nodes)
    topic = f"feltwire/v1/{draw(st.one_of(st.just(TABLE), levels))}/node/{node}/button"
    template = {"v": 1, "node": node, "button": draw(levels), "ts": 1.7e9}
    return topic, draw(wrong_payloads(template))


@st.composite
def garbage_availability(draw: st.DrawFn) -> tuple[str, bytes]:
    """Another node's availability, valid or not: it never touches the good node's reads."""
    node = draw(wrong_nodes)
    topic = f"feltwire/v1/{draw(st.one_of(st.just(TABLE), levels))}/node/{node}/availability"
    said = st.sampled_from([AVAILABILITY_ONLINE, AVAILABILITY_OFFLINE])
    return topic, draw(st.one_of(said, st.binary(max_size=20)))


garbage = st.one_of(
    garbage_inventory(),
    garbage_button(),
    garbage_availability(),
    st.tuples(st.text(max_size=80), st.binary(max_size=100)),
    st.tuples(
        st.builds(lambda a, b: f"feltwire/v1/{TABLE}/{a}/{b}", levels, levels),
        st.binary(max_size=50),
    ),
)
"""One message the hub may refuse (or take: another node's valid inventory)."""

good_cards = st.lists(st.sampled_from(CARDS), unique=True, max_size=3)
steps = st.lists(st.one_of(garbage, good_cards), min_size=1, max_size=30)
"""Garbage messages and, by their cards, the good node's valid inventories."""


def refusal_counts(counters: dict[str, int]) -> int:
    return sum(v for k, v in counters.items() if k.startswith("rejected."))


@fuzz_settings(300)
@given(steps=steps)
def test_garbage_never_crashes_the_hub_and_every_valid_read_is_taken(
    steps: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    log = EventLog(":memory:", TABLE)
    app = hub_service(FakeClock(), log=log)
    seq = WALL_MS - 1000
    good: list[tuple[int, str, list[str]]] = []
    with caplog.at_level(logging.INFO):
        for step in steps:
            before = app.counters
            if isinstance(step, tuple):
                topic, payload = step
                app.handle_message(topic, payload)
                after = app.counters
                assert after["received"] == before.get("received", 0) + 1
                outcomes = ("accepted", "rejected", "duplicate", "stale")
                moved = {k: after.get(k, 0) - before.get(k, 0) for k in outcomes}
                said = topic.endswith("/availability") and payload in (
                    AVAILABILITY_ONLINE,
                    AVAILABILITY_OFFLINE,
                )
                pressed = any(
                    after.get(k, 0) > before.get(k, 0) for k in after if k.startswith("button.")
                )
                # a node's availability or a button press taken is no read: it moves no
                # outcome but the node's state or the button's count; anything else is one
                taken = (said or pressed) and moved["rejected"] == 0
                assert sum(moved.values()) == (0 if taken else 1), (step, moved)
                assert not app.intake.health.unknown_readers() & {r for _, r, _ in good}
                continue
            seq += 1
            reader = READERS[len(good) % len(READERS)]
            cards = step
            payload = inventory(GOOD, seq, reader, [DECK.uid_for(c) for c in cards])
            topic = reader_tags_topic(TABLE, GOOD, reader)
            app.handle_message(topic, json.dumps(payload).encode())
            after = app.counters
            assert after["accepted"] == before.get("accepted", 0) + 1, (payload, after)
            assert set(app.intake.presence.cards_on(reader)) == set(cards)
            good.append((seq, reader, sorted(cards)))

    counters = app.counters
    assert counters.get("rejected", 0) == refusal_counts(counters)
    logged = {
        r.args[2]
        for r in caplog.records
        if isinstance(r.args, tuple) and r.msg.startswith("refused message on")
    }
    reasons = {k.removeprefix("rejected.") for k in counters if k.startswith("rejected.")}
    assert reasons <= logged, f"refused but never logged: {reasons - logged}"
    # nothing accepted lost: every valid read is on the log, in order
    logged_good = [
        (int(r.payload["seq"]), str(r.payload["reader"]), sorted(r.payload["cards"]))
        for r in log.records()
        if r.kind is InputKind.INVENTORY and r.payload["node"] == GOOD
    ]
    assert logged_good == good
    log.close()


TOPIC_SHAPES = [
    "{}/node/{}/reader/{}/tags",
    "{}/node/{}/button",
    "{}/node/{}/availability",
    "{}/seat/{}/light/set",
    "{}/alerts",
    "{}/public",
]
shaped_topics = st.builds(
    lambda shape, table, parts: "feltwire/v1/" + shape.format(table, *parts),
    st.sampled_from(TOPIC_SHAPES),
    st.one_of(st.just(TABLE), levels),
    st.lists(st.one_of(levels, st.integers(-5, 300).map(str)), min_size=3, max_size=3),
)
"""Topics of the contract's shapes, each level anything."""


@fuzz_settings(2000)
@given(
    topic=st.one_of(st.text(max_size=80), st.lists(levels, max_size=9).map("/".join), shaped_topics)
)
def test_any_topic_parses_or_is_refused_as_bad_topic(topic: str) -> None:
    for full in (topic, f"feltwire/v1/{topic}", f"feltwire/v1/{TABLE}/{topic}"):
        try:
            parsed = parse_topic(full)
        except ProtocolError as exc:
            assert exc.reason == "bad_topic"
            continue
        if parsed.kind is TopicKind.LIGHT_SET:
            assert parsed.target is not None
            assert parsed.target.isascii() and 1 <= int(parsed.target) <= MAX_SEATS


@pytest.mark.parametrize("seat", ["²", "٣", "³", "①"])
def test_a_seat_of_unicode_digits_is_a_bad_topic(seat: str) -> None:
    """Found by the fuzzer: ``"²".isdigit()`` is true, so ``seat/²/light/set`` raised
    ValueError from int() (the node's handler died with a traceback, uncounted), and
    ``seat/٣/…`` was taken as seat 3."""
    with pytest.raises(ProtocolError) as err:
        parse_topic(f"feltwire/v1/{TABLE}/seat/{seat}/light/set")
    assert err.value.reason == "bad_topic"


class FakeLight:
    """A seat light that remembers what it shows."""

    def __init__(self) -> None:
        self.pattern: LightPattern | None = None

    def show(self, pattern: LightPattern) -> None:
        self.pattern = pattern

    def close(self) -> None:
        pass


light_payloads = st.one_of(
    wrong_payloads({"v": 1, "pattern": "acting"}),
    st.sampled_from(list(LightPattern)).map(lambda p: json.dumps({"v": 1, "pattern": p}).encode()),
)


@fuzz_settings(300)
@given(seat=st.integers(-5, 300), payload=light_payloads)
def test_the_node_takes_or_counts_every_light_command(seat: int, payload: bytes) -> None:
    light = FakeLight()
    lights = SeatLights({3: light})  # type: ignore[dict-item]
    shown = lights.handle(seat, payload)
    if seat != 3:
        assert shown is None and lights.refused == 0
    elif shown is None:
        assert lights.refused == 1 and light.pattern is None
    else:
        assert light.pattern is shown and lights.refused == 0


class FakeBridge:
    def __init__(self) -> None:
        self.lights: list[tuple[int, LightPattern]] = []

    def set_light(self, light: int, pattern: LightPattern) -> None:
        self.lights.append((light, pattern))


@fuzz_settings(300)
@given(seat=levels, payload=light_payloads)
def test_the_bridge_forwards_or_ignores_every_light_command(seat: str, payload: bytes) -> None:
    bridge = FakeBridge()
    forwarded = forward_light(bridge, f"feltwire/v1/{TABLE}/seat/{seat}/light/set", payload)  # type: ignore[arg-type]
    assert forwarded == bool(bridge.lights)
    for light, _ in bridge.lights:
        assert 1 <= light <= MAX_SEATS


def test_button_topics_are_refused_or_taken_for_their_node_only() -> None:
    """A valid press is taken; the same press on another node's topic is refused."""
    app = hub_service(FakeClock())
    press = json.dumps({"v": 1, "node": GOOD, "button": "undo", "ts": 1.7e9}).encode()
    app.handle_message(button_topic(TABLE, GOOD), press)
    app.handle_message(button_topic(TABLE, "other"), press)
    counters = Counter(app.counters)
    assert counters["button.undo"] == 1
    assert counters["rejected.node_mismatch"] == 1
