"""Spoofing (issue #8): one registered tag read on two antennas at once raises the
``uid_on_two_antennas`` security alert — in a hand or not, on the public feed (without
naming a card that lies on a secret antenna), on the alerts topic, and in ``/api/stats``.
A card moved from one antenna to another, read on both for a moment, raises nothing."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from websockets.asyncio.client import connect

from feltwire.protocol import alerts_topic
from hub.app.feeds import Subscription
from hub.app.table_app import TableApp
from hub.bootstrap import start_hub
from hub.config import PlayerSettings, RulesSettings
from hub.views.alerts import DOUBLED_UID_ALERT
from hub.views.frames import Event
from hub.views.public import FLOOR_CALLED
from tests.support.clocks import FakeClock
from tests.support.hub_configs import embedded_hub_config
from tests.support.node_reports import DECK, NodeReports
from tests.support.service import hub_service

CODE = DOUBLED_UID_ALERT
CARD_NAMES = ("As", "Kd", "7h")


def reporting_table(**options: Any) -> tuple[FakeClock, TableApp, NodeReports]:
    """A hub service on a clock the test moves (``options`` go to
    :func:`~tests.support.service.hub_service`) and a node's reports for it."""
    clock = FakeClock()
    return clock, hub_service(clock, **options), NodeReports()


def drain(sub: Subscription) -> list[Event]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def alerts(events: list[Event]) -> list[Event]:
    return [e for e in events if e.get("type") == "alert" and e.get("code") == CODE]


def sent_alerts(svc: TableApp) -> list[dict[str, Any]]:
    out = []
    while not svc.outgoing.empty():
        topic, payload, retain = svc.outgoing.get_nowait()
        if topic == alerts_topic(svc.table):
            assert not retain
            out.append(json.loads(payload))
    return out


def test_a_tag_on_two_seats_raises_one_alert_that_names_no_card() -> None:
    clock, svc, node = reporting_table()
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.read("seat3", "As", "Kd"))
        clock.now += 0.1
        svc.handle_message(*node.read("seat5", "As"))  # the same tag turns up on seat 5
        assert alerts(drain(pub)) == []  # not yet: it could be a card on its way
        clock.now += svc.intake.doubled_after_s
        assert svc.check_doubled(clock.now) == 1
        clock.now += 5
        assert svc.check_doubled(clock.now) == 0  # one alert per spell, not one per check
        raised = alerts(drain(pub))
    assert len(raised) == 1
    alert = raised[0]
    assert alert["readers"] == ["seat3", "seat5"] and alert["seat"] == 3
    assert alert["severity"] == "warning" and alert["message"] and alert["remedy"]
    for name in CARD_NAMES:
        assert name not in json.dumps(alert)
    topic_alerts = sent_alerts(svc)
    assert [a["code"] for a in topic_alerts] == [CODE]
    assert topic_alerts[0]["table"] == "t1" and "As" not in json.dumps(topic_alerts[0])
    assert svc.counters[f"security.{CODE}"] == 1


def test_a_card_moved_between_antennas_raises_nothing() -> None:
    clock, svc, node = reporting_table()
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.read("seat3", "As", "Kd"))
        clock.now += 1
        svc.handle_message(*node.read("muck", "As", "Kd"))  # the fold lands in the muck ...
        clock.now += 0.2
        svc.handle_message(*node.read("seat3"))  # ... and the seat antenna lets go
        clock.now += 10
        svc.check_doubled(clock.now)
        assert alerts(drain(pub)) == []
    assert sent_alerts(svc) == []
    assert svc.counters.get(f"security.{CODE}", 0) == 0


def test_the_alert_comes_again_when_the_tag_doubles_again() -> None:
    _, svc, node = reporting_table(doubled_after_s=0)
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.read("seat1", "7h"))
        svc.handle_message(*node.read("seat2", "7h"))
        svc.handle_message(*node.read("seat2"))
        svc.handle_message(*node.read("burn", "7h"))
        raised = alerts(drain(pub))
    assert [a["readers"] for a in raised] == [["seat1", "seat2"], ["burn", "seat1"]]
    assert svc.counters[f"security.{CODE}"] == 2


def test_face_up_antennas_name_the_card() -> None:
    _, svc, node = reporting_table(readers=["board", "up1", "up2", "seat1"], doubled_after_s=0)
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.read("up1", "7h"))
        svc.handle_message(*node.read("board", "7h"))
        raised = alerts(drain(pub))
    assert len(raised) == 1 and "7h" in raised[0]["message"]
    assert raised[0]["seat"] == 1  # up1 holds seat 1's face-up cards


def test_the_alert_is_raised_while_a_hand_runs_too() -> None:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
    settings = RulesSettings(players=players, debounce_seconds=0)
    _, svc, node = reporting_table(doubled_after_s=0, rules=settings)
    rules = svc.rules
    assert rules is not None
    assert rules.in_hand
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.read("seat2", "As"))
        svc.handle_message(*node.read("seat3", "As"))
        raised = alerts(drain(pub))
    assert len(raised) == 1 and raised[0]["hand"] == rules.hand_number
    assert "As" not in json.dumps(raised[0])


def test_a_replayed_log_does_not_raise_the_alert_again() -> None:
    from hub.adapters.eventlog.store import EventLog

    log = EventLog.memory("t1")
    clock, svc, node = reporting_table(log=log, doubled_after_s=0)
    svc.handle_message(*node.read("seat1", "As"))
    svc.handle_message(*node.read("seat4", "As"))
    assert svc.counters[f"security.{CODE}"] == 1
    again = hub_service(clock, log=log, doubled_after_s=0)
    with again.public.subscribe() as pub:
        assert again.replay() == 2
        assert alerts(drain(pub)) == []
    assert sent_alerts(again) == [] and again.counters.get(f"security.{CODE}", 0) == 0


async def test_a_running_hub_raises_it_on_time_on_every_channel() -> None:
    """Through the embedded broker: the alert reaches the alerts topic by itself (no
    further read needed) and the public view's WebSocket as the neutral floor notice only
    (issue 17: the room is not told which antennas), and /api/stats counts it."""
    hub = await start_hub(embedded_hub_config())
    received: list[bytes] = []
    got_alert = threading.Event()
    subscribed = threading.Event()
    listener = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)

    def on_message(c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        received.append(bytes(msg.payload))
        got_alert.set()

    listener.on_message = on_message
    listener.on_connect = lambda c, *_: c.subscribe(alerts_topic("t1"), qos=1)
    listener.on_subscribe = lambda *_: subscribed.set()
    node = NodeReports()
    publisher = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    try:
        listener.connect(hub.broker.host, hub.broker.port)
        listener.loop_start()
        publisher.connect(hub.broker.host, hub.broker.port)
        publisher.loop_start()
        assert await asyncio.to_thread(subscribed.wait, 10)
        await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        async with connect(hub.web_url.replace("http://", "ws://") + "/ws/public") as ws:
            assert json.loads(await ws.recv())["type"] == "snapshot"
            for topic, payload in (node.read("seat2", "Kd"), node.read("seat6", "Kd")):
                info = publisher.publish(topic, payload, qos=1, retain=True)
                await asyncio.to_thread(info.wait_for_publish, 5)
            async with asyncio.timeout(10):
                while True:
                    frame = json.loads(await ws.recv())
                    assert frame.get("code") != CODE, frame
                    if frame.get("code") == FLOOR_CALLED:
                        break
        assert frame["seat"] is None and "readers" not in frame and "Kd" not in json.dumps(frame)
        assert await asyncio.to_thread(got_alert.wait, 10)
        on_topic = json.loads(received[0])
        assert on_topic["code"] == CODE and on_topic["readers"] == ["seat2", "seat6"]
        assert "Kd" not in received[0].decode()
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            stats = (await http.get("/api/stats")).json()
        assert stats["counters"][f"security.{CODE}"] == 1
    finally:
        for client in (listener, publisher):
            client.disconnect()
            client.loop_stop()
        await hub.stop()


def test_a_tag_not_in_the_deck_raises_an_alert_when_no_hand_runs() -> None:
    _, svc, node = reporting_table()
    forged = "04C0FFEE000001"
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.inventory("seat4", forged))
        svc.handle_message(*node.inventory("seat4", forged))  # still there: no new alert
        svc.handle_message(*node.inventory("seat4", forged, DECK.uid_for("As")))
        svc.handle_message(*node.inventory("seat4"))
        svc.handle_message(*node.inventory("board", forged))  # turns up elsewhere: again
        raised = [e for e in drain(pub) if e.get("type") == "alert"]
    assert [(a["code"], a["readers"], a["seat"]) for a in raised] == [
        ("unknown_tag", ["seat4"], 4),
        ("unknown_tag", ["board"], None),
    ]
    assert "not in the registered deck" in raised[0]["message"]
    assert [a["code"] for a in sent_alerts(svc)] == ["unknown_tag", "unknown_tag"]
    assert svc.counters["security.unknown_tag"] == 2
    assert svc.counters["unknown_tag"] >= 4  # the ingest still counts every such read


def test_in_a_hand_the_rules_raise_the_unknown_tag_alert_once() -> None:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
    _, svc, node = reporting_table(rules=RulesSettings(players=players))
    rules = svc.rules
    assert rules is not None
    assert rules.in_hand
    with svc.public.subscribe() as pub:
        svc.handle_message(*node.inventory("seat2", "04C0FFEE000002"))
        raised = [e for e in drain(pub) if e.get("type") == "alert"]
    assert [a["code"] for a in raised] == ["unknown_tag"]
    assert raised[0]["hand"] == 1  # the dealing monitor's alert, tied to the hand
    assert svc.counters.get("security.unknown_tag", 0) == 0
