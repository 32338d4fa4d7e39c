"""More of the hub's messages waiting for the broker than MQTT has packet ids: none lost.

A connection's QoS 1 messages are numbered 1–65,535 by paho, and a number comes free only
when the broker acknowledges its message. With 65,535 unacknowledged, paho refuses the
next one ("message queue full") — and the hub's sender took the refusal for a dead
connection and stopped: the table's later messages (its seat lights, its alerts, the
public topic) stayed in its queue while the connection went on, until it next ended.
Here the broker's PUBACKs to the hub's connection are held by a proxy
(:meth:`~tests.support.mqtt_proxy.MqttFaultProxy.hold_acks`) while the table's queue holds
more messages than that; the hub must count them all waiting, and once the
acknowledgements are released a subscriber must get every one, in order, and the hub must
have said, once each, that its messages wait, that it holds the rest, and that the backlog
is gone (``hub.adapters.mqtt._send_outgoing``, the real aiomqtt client, a real Mosquitto).
"""

from __future__ import annotations

import asyncio
import logging
import threading

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.config import parse_mqtt_url
from hub.adapters.mqtt import OUTGOING_UNACKNOWLEDGED_MAX, _client, _send_outgoing
from tests.support.clocks import FakeClock
from tests.support.mosquitto import MosquittoProcess
from tests.support.mqtt_client import wait_for
from tests.support.mqtt_proxy import Faults, MqttFaultProxy
from tests.support.service import hub_service

TOPIC = "feltwire/v1/t1/backlog"
MESSAGES = 65_600
"""More than paho's 65,535 packet ids."""
WAIT = 120.0


class Counter:
    """Every message on :data:`TOPIC`, as numbers, in the order they came (QoS 0)."""

    def __init__(self, port: int) -> None:
        self.got: list[int] = []
        self.lock = threading.Lock()
        ready = threading.Event()
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id="backlog-counter")
        self.client.on_connect = lambda c, *_: c.subscribe(TOPIC, qos=0)
        self.client.on_subscribe = lambda *_: ready.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert ready.wait(10), "the counter did not subscribe"

    def _message(self, c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        with self.lock:
            self.got.append(int(msg.payload))

    def count(self) -> int:
        with self.lock:
            return len(self.got)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


async def _send_held(upstream: int, counter: Counter) -> tuple[int, int]:
    """The hub's sender on a connection through a proxy to ``upstream``; with the broker's
    acknowledgements held, :data:`MESSAGES` queued; what waited (the gauge) and what
    the counter had then; then the acknowledgements released."""
    proxy = MqttFaultProxy(upstream, Faults(duplicate=0.0, delay_chance=0.0))
    await proxy.start()
    service = hub_service(FakeClock())
    client = _client(parse_mqtt_url(f"mqtt://127.0.0.1:{proxy.port}"), "hub-backlog", 60, None)
    try:
        async with client:
            sender = asyncio.create_task(_send_outgoing(service, client))
            while service.feeds.waiting():  # the table's lights, acknowledged
                await asyncio.sleep(0.05)
            proxy.hold_acks()
            await asyncio.sleep(0.2)
            for n in range(MESSAGES):
                service.outgoing.put_nowait((TOPIC, str(n).encode(), False))
            left = max(0, MESSAGES - OUTGOING_UNACKNOWLEDGED_MAX)
            while service.outgoing.qsize() > left:
                await asyncio.sleep(0.05)  # handed to the client, or waiting for room
            await asyncio.sleep(0.5)
            waiting, seen = service.feeds.waiting(), counter.count()
            proxy.release_acks()
            for _ in range(int(WAIT / 0.1)):
                if counter.count() >= MESSAGES and not service.feeds.waiting():
                    break
                await asyncio.sleep(0.1)
            sender.cancel()
            return waiting, seen
    finally:
        await proxy.stop()


def test_more_messages_than_packet_ids_wait_and_every_one_goes_out(
    mosquitto: MosquittoProcess, caplog: pytest.LogCaptureFixture
) -> None:
    counter = Counter(mosquitto.port)
    try:
        with caplog.at_level(logging.INFO, logger="hub.adapters.mqtt"):
            waiting, seen = asyncio.run(_send_held(mosquitto.port, counter))
        assert waiting == MESSAGES  # counted as waiting, none dropped
        assert seen <= 1000  # what the connection sends before an acknowledgement
        assert wait_for(lambda: counter.count() >= MESSAGES, 5), counter.count()
        assert counter.got == list(range(MESSAGES)), (
            f"{MESSAGES - len(set(counter.got))} of {MESSAGES} never came"
        )
    finally:
        counter.close()
    said = [r.getMessage() for r in caplog.records if r.name == "hub.adapters.mqtt"]
    assert sum("wait for its acknowledgement" in m for m in said) == 1, said
    assert sum(f"{OUTGOING_UNACKNOWLEDGED_MAX} messages to the broker" in m for m in said) == 1
    assert sum("acknowledges the hub's messages again" in m for m in said) == 1, said
