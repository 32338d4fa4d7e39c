"""Several tables in one hub (issue #7): one MQTT connection serves every table, each read
reaches only its own table's feeds (``?table=``), each light goes to its own table's
topic, and an unknown table is a 404. Through the embedded broker and a real Mosquitto,
with 2 and 5 tables; plus the ``[[tables]]`` config and where the event logs lie."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from feltwire.config import MqttClientSettings, parse_config, parse_mqtt_url
from feltwire.deck import simulated_deck
from feltwire.errors import ConfigError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import LightCommand, LightPattern, hub_client_id
from feltwire.publisher import InventoryPublisher
from hub.adapters.eventlog.files import EVENT_LOG_FILE
from hub.adapters.eventlog.store import EventLog
from hub.adapters.mqtt import HubLink
from hub.app.records import InputKind
from hub.bootstrap import HubRuntime, start_hub
from hub.config import HubConfig, HubMqttSettings, TableSettings, WebSettings
from tests.support.clocks import FakeClock
from tests.support.mosquitto import MosquittoProcess
from tests.support.postgres import PostgresServer
from tests.support.readme import toml_block_after
from tests.support.service import hub_service

DECK = simulated_deck()
CARDS = ["As", "Kd", "Qh", "Jc", "Ts"]
BOARD = ["2c", "3d", "4h", "5s", "6c"]


def live_web() -> WebSettings:
    return WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True)


@dataclass
class Rig:
    """A hub of several tables, a node per table, and a listener on every light topic."""

    hub: HubRuntime
    nodes: dict[str, InventoryPublisher]
    lights: dict[tuple[str, int], LightPattern] = field(default_factory=dict)

    def tables(self) -> list[str]:
        return list(self.hub.services)

    def ws(self, feed: str, table: str) -> str:
        base = self.hub.web_url.replace("http://", "ws://")
        token = f"&token={self.hub.producer_token}" if feed == "overlay" else ""
        return f"{base}/ws/{feed}?table={table}{token}"


@pytest.fixture(params=["embedded", "mosquitto"])
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "embedded":
        yield HubMqttSettings(embedded_port=0)
        return
    mosq = MosquittoProcess(tmp_path)
    mosq.start()
    try:
        yield HubMqttSettings(url=mosq.url)
    finally:
        mosq.stop()


@pytest.fixture(params=[2, 5])
async def rig(request: pytest.FixtureRequest, broker: HubMqttSettings) -> AsyncIterator[Rig]:
    names = [f"t{i}" for i in range(1, request.param + 1)]
    config = HubConfig(
        live_equity=False,
        mqtt=broker,
        web=live_web(),
        tables=[TableSettings(table=name) for name in names],
    )
    hub = await start_hub(config)
    rig = Rig(hub, {})
    listener = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    lock = threading.Lock()

    def on_light(c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        parts = msg.topic.split("/")  # feltwire/v1/<table>/seat/<n>/light/set
        with lock:
            rig.lights[(parts[2], int(parts[4]))] = LightCommand.model_validate_json(
                msg.payload
            ).pattern

    listener.on_message = on_light
    listener.on_connect = lambda c, *_: c.subscribe("feltwire/v1/+/seat/+/light/set", qos=1)
    transports = []
    try:
        listener.connect(hub.broker.host, hub.broker.port)
        listener.loop_start()
        url = f"mqtt://{hub.broker.host}:{hub.broker.port}"
        for name in names:
            transport = PahoTransport(MqttClientSettings(url=url), table=name, node="pi")
            transports.append(transport)
            rig.nodes[name] = InventoryPublisher(table=name, node="pi", transport=transport)
        for transport in transports:
            assert await asyncio.to_thread(transport.wait_connected, 10)
        for service in hub.services.values():
            await asyncio.wait_for(service.subscribed.wait(), 10)
        yield rig
    finally:
        for transport in transports:  # off the loop: the embedded broker must answer
            await asyncio.to_thread(transport.close)
        listener.disconnect()
        listener.loop_stop()
        await hub.stop()


async def until(cond: Callable[[], bool], limit: float = 10) -> None:
    async with asyncio.timeout(limit):
        while not cond():
            await asyncio.sleep(0.02)


async def antenna_frames_until(ws: ClientConnection, reader: str) -> list[dict[str, Any]]:
    """Every antenna frame of a feed up to and including the first one of ``reader``."""
    frames = []
    async with asyncio.timeout(10):
        while True:
            ev = json.loads(await ws.recv())
            if ev.get("type") == "antenna":
                frames.append(ev)
                if ev["reader"] == reader:
                    return frames


async def test_each_tables_reads_reach_only_its_own_feeds_and_lights(rig: Rig) -> None:
    tables = rig.tables()
    async with contextlib.AsyncExitStack() as stack:
        feeds = {
            (t, f): await stack.enter_async_context(connect(rig.ws(f, t)))
            for t in tables
            for f in ("public", "overlay")
        }
        for (table, _), ws in feeds.items():
            snap = json.loads(await ws.recv())
            assert snap["type"] == "snapshot" and snap["table"] == table
        # round 1: table i gets card i on seat i
        for i, table in enumerate(tables, start=1):
            rig.nodes[table].update(f"seat{i}", frozenset({DECK.uid_for(CARDS[i - 1])}))

        def seated() -> bool:
            services = rig.hub.services
            return all(
                services[t].intake.presence.cards_on(f"seat{i}") for i, t in enumerate(tables, 1)
            )

        await until(seated)
        # round 2: a board card per table, after every table took its seat card: a frame
        # of another table leaking into a feed would come before this one
        for i, table in enumerate(tables, start=1):
            rig.nodes[table].update("board", frozenset({DECK.uid_for(BOARD[i - 1])}))
        for i, table in enumerate(tables, start=1):
            overlay = await antenna_frames_until(feeds[(table, "overlay")], "board")
            assert [(f["reader"], f["cards"]) for f in overlay] == [
                (f"seat{i}", [CARDS[i - 1]]),
                ("board", [BOARD[i - 1]]),
            ]
            public = await antenna_frames_until(feeds[(table, "public")], "board")
            assert [(f["reader"], f["count"]) for f in public] == [(f"seat{i}", 1), ("board", 1)]
            assert "cards" not in public[0]  # a hole card never reaches the public feed
    # the lights: exactly one lit seat per table, on that table's topic
    expected = {(table, i) for i, table in enumerate(tables, start=1)}
    await until(lambda: set(rig.lights) >= expected)
    assert set(rig.lights) == expected
    assert all(p is not LightPattern.OFF for p in rig.lights.values())
    # each table's snapshot and stats are its own
    async with httpx.AsyncClient(base_url=rig.hub.web_url) as http:
        for i, table in enumerate(tables, start=1):
            snap = (await http.get("/api/public", params={"table": table})).json()
            counts = {a["reader"]: a["count"] for a in snap["antennas"] if a["count"]}
            assert counts == {f"seat{i}": 1, "board": 1}
            stats = (await http.get("/api/stats", params={"table": table})).json()
            assert stats["table"] == table and stats["counters"]["accepted"] == 2
        tables_list = (await http.get("/api/tables")).json()
        assert [t["table"] for t in tables_list] == tables
        # no ?table= means the first table
        assert (await http.get("/api/public")).json()["table"] == tables[0]


async def test_an_unknown_table_is_404(rig: Rig) -> None:
    async with httpx.AsyncClient(base_url=rig.hub.web_url) as http:
        response = await http.get("/api/public", params={"table": "nope"})
        assert response.status_code == 404 and "nope" in response.json()["detail"]
        assert (await http.get("/", params={"table": "nope"})).status_code == 404
    with pytest.raises(InvalidStatus):
        async with connect(rig.ws("public", "nope")):
            pass


# ---------------------------------------------------------------- the config


def test_the_readme_example_of_several_tables_validates() -> None:
    cfg = parse_config(HubConfig, toml_block_after("with several tables:"), source="README")
    tables = cfg.table_configs()
    assert len(tables) >= 2 and len({t.table for t in tables}) == len(tables)
    assert any(t.game != cfg.game or t.rules is not cfg.rules for t in tables)


def test_a_one_table_config_is_one_table() -> None:
    (only,) = parse_config(HubConfig, {"table": "red", "game": "PO"}, source="t").table_configs()
    assert (only.table, only.game) == ("red", "PO")


def test_tables_take_the_top_level_values_they_leave_out() -> None:
    cfg = parse_config(
        HubConfig,
        {
            "game": "PO",
            "readers": ["seat1", "seat2", "board"],
            "rules": {"big_blind": 20, "small_blind": 10},
            "tables": [
                {"table": "a"},
                {
                    "table": "b",
                    "game": "NT",
                    "live_equity": False,
                    "rules": {"small_blind": 2, "big_blind": 4},
                },
            ],
        },
        source="t",
    )
    a, b = cfg.table_configs()
    assert (a.table, a.game, a.readers, a.live_equity) == (
        "a",
        "PO",
        ["seat1", "seat2", "board"],
        True,
    )
    assert a.rules is not None and a.rules.big_blind == 20
    assert (b.game, b.live_equity) == ("NT", False)
    assert b.rules is not None and (b.rules.small_blind, b.rules.big_blind) == (2, 4)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"tables": [{"table": "a"}, {"table": "a"}]}, "table 'a' is listed twice"),
        ({"table": "x", "tables": [{"table": "a"}]}, "remove the top-level table key"),
        ({"tables": [{"table": "a", "readers": ["seat99"]}]}, "unknown reader ids"),
        ({"tables": [{"table": "bad id!"}]}, "tables.0.table"),
        ({"tables": [{"table": "a", "colour": "red"}]}, "tables.0.colour"),
        (
            {
                "tables": [
                    {"table": "a"},
                    {"table": "b", "rules": {"small_blind": 10, "big_blind": 5}},
                ]
            },
            "[[tables]] 'b': [rules]: R-BLIND-1",
        ),
    ],
)
def test_bad_tables_are_refused_with_a_clear_error(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(HubConfig, data, source="hub.toml")
    assert message in str(err.value)


# ---------------------------------------------------------------- event logs


async def test_each_table_keeps_its_own_event_log_and_an_old_state_dir_still_works(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    mqtt = HubMqttSettings(embedded_port=0)
    # a one-table hub, as before: state/events.sqlite
    one = await start_hub(
        HubConfig(table="t1", live_equity=False, mqtt=mqtt, web=live_web(), state_dir=state)
    )
    try:
        one.service.handle_message(*_read("t1", "seat1", "As", seq=1))
        assert one.service.intake.presence.cards_on("seat1") == ("As",)
    finally:
        await one.stop()
    assert (state / EVENT_LOG_FILE).exists()
    # the same state dir under a hub of two tables: t1 keeps its old log, t2 gets its own
    two_config = HubConfig(
        live_equity=False,
        mqtt=mqtt,
        web=live_web(),
        state_dir=state,
        tables=[TableSettings(table="t1"), TableSettings(table="t2")],
    )
    two = await start_hub(two_config)
    try:
        assert two.services["t1"].replayed == 1
        assert two.services["t1"].intake.presence.cards_on("seat1") == ("As",)
        assert two.services["t2"].replayed == 0
        two.services["t2"].handle_message(*_read("t2", "seat2", "Kd", seq=1))
        assert two.logs["t1"].path == state / EVENT_LOG_FILE
        assert two.logs["t2"].path == state / "t2" / EVENT_LOG_FILE
    finally:
        await two.stop()
    # and after a restart each table is where it was, nothing mixed up
    again = await start_hub(two_config)
    try:
        assert again.services["t1"].intake.presence.snapshot() == {"seat1": ("As",)}
        assert again.services["t2"].intake.presence.snapshot() == {"seat2": ("Kd",)}
    finally:
        await again.stop()


async def test_every_tables_log_in_one_postgresql_database(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """``event_log_url``: each table's inputs in the database, apart by table, none in a
    file; after a restart each table is where it was."""
    url = postgres.new_database()
    config = HubConfig(
        live_equity=False,
        mqtt=HubMqttSettings(embedded_port=0),
        web=live_web(),
        state_dir=tmp_path / "state",
        event_log_url=url,
        tables=[TableSettings(table="t1"), TableSettings(table="t2")],
    )
    hub = await start_hub(config)
    try:
        assert {name: log.where for name, log in hub.logs.items()} == {"t1": url, "t2": url}
        hub.services["t1"].handle_message(*_read("t1", "seat1", "As", seq=1))
        hub.services["t2"].handle_message(*_read("t2", "seat2", "Kd", seq=1))
        hub.services["t2"].handle_message(*_read("t2", "seat3", "Qh", seq=2))
    finally:
        await hub.stop()
    assert not list((tmp_path / "state").rglob("events.sqlite*"))
    again = await start_hub(config)
    try:
        assert again.services["t1"].intake.presence.snapshot() == {"seat1": ("As",)}
        assert again.services["t2"].intake.presence.snapshot() == {
            "seat2": ("Kd",),
            "seat3": ("Qh",),
        }
        assert (again.logs["t1"].last_seq, again.logs["t2"].last_seq) == (1, 2)
    finally:
        await again.stop()


def _read(table: str, reader: str, card: str, *, seq: int) -> tuple[str, bytes]:
    body = {
        "v": 1,
        "node": "n",
        "seq": seq,
        "ts": 0,
        "reader": reader,
        "uids": [DECK.uid_for(card)],
    }
    return f"feltwire/v1/{table}/node/n/reader/{reader}/tags", json.dumps(body).encode()


# ---------------------------------------------------------------- the ingest path


async def test_a_read_written_off_the_loop_is_applied_in_log_order(tmp_path: Path) -> None:
    """take_message writes a read to the log in the table's writer thread; an input recorded while
    that write is under way (a button press here) is logged and applied after the read,
    never before it, so a replay of the log rebuilds exactly what happened."""
    clock = FakeClock()
    log = EventLog(tmp_path / EVENT_LOG_FILE, "t1")
    svc = hub_service(clock, log=log)
    try:
        with svc.public.subscribe() as feed:
            topic, payload = _read("t1", "seat1", "As", seq=1)
            taking = asyncio.create_task(svc.take_message(topic, payload))
            await asyncio.sleep(0)  # the read's write has started, the read is not applied
            assert svc.intake.presence.cards_on("seat1") == ()
            svc.record(InputKind.BUTTON, {"node": "n", "button": "undo"}, clock.now)
            await taking
            kinds = [e["type"] for e in _drain(feed)]
        assert kinds == ["antenna", "button"]  # applied: the read first, then the button
        assert svc.changes == 1 and svc.handled == 1  # the read was applied once
        assert [r.kind for r in log.records()] == [InputKind.INVENTORY, InputKind.BUTTON]
    finally:
        svc.close()
        log.close()


def _drain(feed: Any) -> list[dict[str, Any]]:
    out = []
    while not feed.queue.empty():
        out.append(feed.queue.get_nowait())
    return out


async def test_a_hub_alone_takes_every_tables_reads_on_one_session(tmp_path: Path) -> None:
    """A hub alone connects once for all of its tables, on the session named after its
    first table (one connection per table cost the read → overlay path five times its
    median at 50 tables: docs/scaling.md) — Mosquitto's own log names each client."""
    mosq = MosquittoProcess(tmp_path)
    mosq.start()
    names = ["t1", "t2", "t3"]
    config = HubConfig(
        live_equity=False,
        mqtt=HubMqttSettings(url=mosq.url),
        web=live_web(),
        tables=[TableSettings(table=name) for name in names],
    )
    hub = await start_hub(config)
    try:
        for service in hub.services.values():
            await asyncio.wait_for(service.subscribed.wait(), 10)
        sessions = sorted(
            set(
                re.findall(
                    r"New client connected from \S+ as (feltwire-hub-\S+)", mosq.log.read_text()
                )
            )
        )
        assert sessions == [hub_client_id("t1", alone=True)]
    finally:
        await hub.stop()
        mosq.stop()


async def test_a_table_that_joins_the_hubs_link_while_connected_takes_its_reads(
    mosquitto: MosquittoProcess,
) -> None:
    """A table linked after the connection came up is subscribed to at once: its node's
    read reaches it, and the first table still takes its own."""
    brokers = [parse_mqtt_url(mosquitto.url)]
    link = HubLink(brokers, session=hub_client_id("t1", alone=True))
    first = hub_service(FakeClock())
    second = hub_service(FakeClock(), table="t2")
    links = [asyncio.create_task(link.run_table(first))]
    transports: list[PahoTransport] = []
    try:
        await asyncio.wait_for(first.subscribed.wait(), 10)
        links.append(asyncio.create_task(link.run_table(second)))
        await asyncio.wait_for(second.subscribed.wait(), 10)
        for app in (first, second):
            transport = PahoTransport(
                MqttClientSettings(url=mosquitto.url), table=app.table, node="pi"
            )
            transports.append(transport)
            assert await asyncio.to_thread(transport.wait_connected, 10)
            InventoryPublisher(table=app.table, node="pi", transport=transport).update(
                "seat1", frozenset({DECK.uid_for("As")})
            )
        await until(lambda: second.intake.presence.cards_on("seat1") == ("As",))
        await until(lambda: first.intake.presence.cards_on("seat1") == ("As",))
    finally:
        for transport in transports:
            await asyncio.to_thread(transport.close)
        for task in links:
            task.cancel()
        await asyncio.gather(*links, return_exceptions=True)
        first.close()
        second.close()
