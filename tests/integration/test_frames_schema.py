"""Issue 14, acceptance 3: every frame the running demo sends on ``/ws/public``,
``/ws/console`` and ``/ws/overlay``, and every MQTT payload on ``feltwire/#``, validates
against the published JSON Schema (``docs/protocol.schema.json``, Draft 2020-12).

The demo's own pieces run (:class:`simulator.demo.DemoTable`: the simulated node publishing over
the embedded broker, the dealer making a mistake in every hand, the players acting through
the console's HTTP API) at a table that also runs a tournament clock and holds the overlay
back by a delay. The dealer acknowledges an alert, seats a player out and back, pauses and
resumes the clock and presses a node's button, and the producer turns the overlay's chip
leaderboard on (a ``settings`` frame); then the hub's clock passes the delay, so
every held overlay frame is released. Each frame and payload is checked against the entry
the schema's ``x-feltwire`` names for its feed or topic: a frame of an unknown type or
shape fails the test.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from referencing import Registry, Resource
from websockets.asyncio.client import connect

from feltwire.protocol import ButtonPress, TopicKind, button_topic, encode, parse_topic
from feltwire.protocol.schema import FEEDS, SCHEMA_FILE, TOPICS
from hub.bootstrap import HubRuntime, start_hub
from hub.config import (
    HubConfig,
    HubMqttSettings,
    LevelSettings,
    PlayerSettings,
    RulesSettings,
    TournamentSettings,
    WebSettings,
)
from hub.web.auth import Role
from simulator.antennas import MotionClock
from simulator.demo import TABLE, DemoTable
from tests.support.pages import ws_url

ROOT = Path(__file__).resolve().parents[2]
SEATS = (1, 2, 3)
STACK = 20_000
"""A deep stack: nobody busts in a few hands of the freezeout."""
HANDS = 6
SEED = 7
DELAY_S = 3.0
"""The overlay's delay: three of the dealer's motions on the demo's clock."""
WAIT = 60.0

Frame = dict[str, Any]

_TOPIC_ENTRY = {
    TopicKind.READER_TAGS: "ReaderInventory",
    TopicKind.BUTTON: "ButtonPress",
    TopicKind.AVAILABILITY: "Availability",
    TopicKind.LIGHT_SET: "LightCommand",
    TopicKind.ALERTS: "AlertPayload",
    TopicKind.PUBLIC: "PublicTopicPayload",
}


def schema() -> dict[str, Any]:
    """The committed schema document."""
    doc: dict[str, Any] = json.loads((ROOT / SCHEMA_FILE).read_text(encoding="utf-8"))
    return doc


def validator(doc: dict[str, Any], ref: str) -> jsonschema.Draft202012Validator:
    """A Draft 2020-12 validator of the document's entry ``ref`` (``#/$defs/…``)."""
    registry: Registry[Any] = Registry().with_resource(doc["$id"], Resource.from_contents(doc))
    return jsonschema.Draft202012Validator({"$ref": doc["$id"] + ref}, registry=registry)


def demo_config() -> HubConfig:
    """The demo's table as :mod:`simulator.demo` sets it up, with a tournament clock and a
    delayed overlay (the demo's own shows hole cards live)."""
    levels = [LevelSettings(small_blind=5 * n, big_blind=10 * n, minutes=1) for n in (1, 2, 3)]
    return HubConfig(
        table=TABLE,
        live_equity=True,
        mqtt=HubMqttSettings(embedded_port=0),
        web=WebSettings(port=0, overlay_delay_minutes=DELAY_S / 60),
        rules=RulesSettings(
            players=[PlayerSettings(seat=s, name=f"Player {s}", buy_in=STACK) for s in SEATS],
            tick_seconds=0,
        ),
        tournament=TournamentSettings(starting_stack=STACK, levels=levels),
    )


class MqttRecorder:
    """Every message on ``feltwire/#`` at the hub's broker. The demo's broker is open on
    loopback (anonymous, like the demo's node): that is the credential that may read it."""

    def __init__(self, host: str, port: int) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._subscribed = threading.Event()
        self.client = paho.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, protocol=paho.MQTTv311
        )
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe("feltwire/#", qos=0)
        self.client.on_subscribe = lambda c, u, mid, codes, p: self._subscribed.set()
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload))
        self.client.connect(host, port)
        self.client.loop_start()

    def wait_subscribed(self) -> bool:
        """True once the broker granted the subscription (within 10 s)."""
        return self._subscribed.wait(10)

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish as a node would (QoS 1, not retained)."""
        self.client.publish(topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Feed:
    """One page's WebSocket and every frame it received."""

    path: str
    frames: list[Frame] = field(default_factory=list)
    first: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self, url: str) -> None:
        """Keep every frame until cancelled."""
        async with connect(url, max_size=None) as ws:
            async for message in ws:
                self.frames.append(json.loads(message))
                self.first.set()


@asynccontextmanager
async def feeds(hub: HubRuntime, dealer: str) -> AsyncIterator[dict[str, Feed]]:
    """The three pages' feeds open (each has its first frame) while the block runs."""
    urls = {
        "/ws/public": ws_url(f"{hub.web_url}/", "/ws/public"),
        "/ws/console": ws_url(f"{hub.web_url}/console?token={dealer}", "/ws/console"),
        "/ws/overlay": ws_url(hub.overlay_url, "/ws/overlay"),
    }
    opened = {path: Feed(path) for path in urls}
    tasks = [asyncio.create_task(opened[path].read(url)) for path, url in urls.items()]
    try:
        async with asyncio.timeout(WAIT):
            for feed in opened.values():
                await feed.first.wait()
        yield opened
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def dealer_inputs(hub: HubRuntime, dealer: str) -> None:
    """What a dealer does at the console between hands: acknowledge the first alert, sit
    a player out and back, pause and resume the tournament clock."""
    assert hub.rules is not None
    seat = max(hub.rules.desk.table.players)  # one still in the freezeout
    with httpx.Client(
        base_url=hub.web_url, headers={"Authorization": f"Bearer {dealer}"}, trust_env=False
    ) as http:
        for path, body in (
            ("/api/console/alerts/1/ack", None),
            ("/api/console/seat", {"op": "sit_out", "seat": seat}),
            ("/api/console/seat", {"op": "come_back", "seat": seat}),
            ("/api/clock/pause", None),
            ("/api/clock/resume", None),
        ):
            response = http.post(path, json=body, timeout=WAIT)
            assert response.status_code == 200, (path, response.text)


async def wait_until(done: Any, what: str) -> None:
    """Poll ``done()`` until it holds (at most :data:`WAIT` seconds)."""
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@dataclass
class Run:
    """What the demo sent: each feed's frames and the MQTT messages."""

    frames: dict[str, list[Frame]]
    messages: list[tuple[str, bytes]]


async def run_demo() -> Run:
    """Play :data:`HANDS` hands of the demo with every feed and ``feltwire/#`` recorded."""
    clock = MotionClock(time.time())
    hub = await start_hub(demo_config(), monotonic=clock)
    recorder = MqttRecorder(hub.broker.host, hub.broker.port)
    demo: DemoTable | None = None
    try:
        assert await asyncio.to_thread(recorder.wait_subscribed)
        dealer = hub.token(Role.DEALER, "frames test")
        async with feeds(hub, dealer) as opened:
            loop = asyncio.get_running_loop()
            demo = DemoTable(hub, clock, loop, seed=SEED, mistakes=1.0)
            assert await asyncio.to_thread(demo.transport.wait_connected, 10)
            await asyncio.to_thread(demo.play, HANDS)
            await asyncio.to_thread(dealer_inputs, hub, dealer)
            switched = await asyncio.to_thread(  # the producer turns the leaderboard on
                httpx.post,
                f"{hub.web_url}/api/overlay/settings?token={hub.producer_token}",
                json={"leaderboard": True},
                timeout=WAIT,
            )
            assert switched.status_code == 200, switched.text
            press = ButtonPress(v=1, node="demo-node", button="next", ts=time.time())
            await asyncio.to_thread(
                recorder.publish, button_topic(TABLE, "demo-node"), encode(press)
            )
            await wait_until(lambda: hub.service.counters.get("button.next", 0), "the button")
            clock.advance(DELAY_S + 1)  # the delay passes: every held overlay frame is due
            await wait_until(lambda: hub.service.feeds.held == 0, "the overlay's release")
            await asyncio.sleep(0.5)  # the last frames reach the pages and the recorder
        return Run({path: feed.frames for path, feed in opened.items()}, recorder.messages)
    finally:
        if demo is not None:
            demo.close()
        recorder.close()
        await hub.stop()


def kinds(frames: Iterable[Frame]) -> Counter[str]:
    """How many frames of each kind: ``type``, ``type/event`` or ``type/kind``."""
    out: Counter[str] = Counter()
    for f in frames:
        sub = f.get("event") or (f.get("kind") if f.get("type") == "antenna" else None)
        out[f"{f.get('type')}/{sub}" if sub else str(f.get("type"))] += 1
    return out


def invalid(check: jsonschema.Draft202012Validator, items: Iterable[Any]) -> list[str]:
    """The first error of each item the schema refuses (at most five)."""
    errors = []
    for item in items:
        error = jsonschema.exceptions.best_match(check.iter_errors(item))
        if error is not None:
            errors.append(f"{error.message} at {list(error.absolute_path)}: {item!r:.300}")
    return errors[:5]


def _key(frame: Frame) -> str:
    return json.dumps(frame, sort_keys=True)


def _entry(doc: dict[str, Any], topic: str) -> str:
    kind = parse_topic(topic).kind
    ref = f"#/$defs/{_TOPIC_ENTRY[kind]}"
    assert ref in doc["x-feltwire"]["topics"].values(), (topic, ref)
    return ref


async def test_every_frame_and_payload_of_the_demo_validates_against_the_schema() -> None:
    doc = schema()
    jsonschema.Draft202012Validator.check_schema(doc)
    assert (
        set(doc["x-feltwire"]["feeds"])
        == set(FEEDS)
        == {"/ws/public", "/ws/console", "/ws/overlay"}
    )
    assert len(doc["x-feltwire"]["topics"]) == len(TOPICS) == len(_TOPIC_ENTRY)
    run = await run_demo()

    for path, frames in run.frames.items():
        check = validator(doc, doc["x-feltwire"]["feeds"][path])
        assert not check.is_valid({"type": "no_such_frame"})  # the check has teeth
        assert not invalid(check, frames), (path, invalid(check, frames))

    by_entry: dict[str, list[Any]] = {}
    for topic, payload in run.messages:
        ref = _entry(doc, topic)
        text = payload.decode("utf-8")
        by_entry.setdefault(ref, []).append(
            text if ref.endswith("Availability") else json.loads(text)
        )
    for ref, payloads in by_entry.items():
        assert not invalid(validator(doc, ref), payloads), (
            ref,
            invalid(validator(doc, ref), payloads),
        )

    # the run produced every kind of frame and payload it can
    seen = {path: kinds(frames) for path, frames in run.frames.items()}
    live = {
        "antenna/seat",
        "antenna/board",
        "antenna/burn",
        "antenna/muck",
        "hand",
        "hand_end",
        "turn",
        "alert",
        "alert_ack",
        "seats",
        "clock",
        "button",
        "event/ActionTaken",
        "event/BoardDealt",
        "event/HandShown",
        "event/HandMucked",
        "event/PotAwarded",
    }
    assert live | {"snapshot"} <= set(seen["/ws/public"]), seen["/ws/public"]
    assert live | {"console"} <= set(seen["/ws/console"]), seen["/ws/console"]
    overlay = {
        "snapshot",
        "state",
        "settings",
        "antenna/seat",
        "antenna/board",
        "hand",
        "hand_end",
        "turn",
        "alert",
        "seats",
        "equity",
        "event/HoleCardDealt",
        "event/BurnDealt",
        "event/BoardDealt",
        "event/ActionTaken",
        "event/HandShown",
        "event/PotAwarded",
    }
    assert overlay <= set(seen["/ws/overlay"]), seen["/ws/overlay"]
    assert set(_TOPIC_ENTRY.values()) == {ref.rsplit("/", 1)[1] for ref in by_entry}
    # the public topic carries the same frames as /ws/public (after its snapshot)
    on_topic = Counter(_key(p) for p in by_entry["#/$defs/PublicTopicPayload"])
    on_page = Counter(_key(f) for f in run.frames["/ws/public"][1:])
    assert not on_page - on_topic, on_page - on_topic
    # the hole cards reach the overlay only: a shown hand names its cards there alone
    shown = [f for f in run.frames["/ws/overlay"] if f.get("event") == "HandShown"]
    assert all(f["cards"] for f in shown)
    assert not [f for f in run.frames["/ws/public"] if "cards" in f and f.get("kind") == "seat"]
