"""A node and a hub given a list of brokers (``[mqtt] url = [...]``) move to the next one
when a broker is down, refuses them, or goes away while they are on it — real Mosquittos,
the node's paho transport and the hub's aiomqtt connection, in the test's process.

Two Mosquittos side by side are not a cluster (what one holds the other never sees), so
these tests check the moving, the order and the availability on the broker moved to;
that no read is lost or taken twice across a move is the RabbitMQ cluster's fault test
(``tests/integration/faults/test_broker_cluster.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.protocol import AVAILABILITY_OFFLINE, AVAILABILITY_ONLINE, availability_topic
from feltwire.publisher import InventoryPublisher, SeqCounter
from hub.bootstrap import start_hub
from tests.support.bridge import retained, wait_for
from tests.support.hub_configs import hub_on_broker
from tests.support.mosquitto import Mosquitto, MosquittoProcess
from tests.support.ports import free_port

READERS = ["seat1", "seat2", "board"]
UIDS = [simulated_deck().uid_for(card) for card in ("As", "Kd", "7h", "2c")]
WAIT = 30.0
"""Generous upper bound for a connection to come up (not a timing assertion)."""


def refusing_broker(workdir: Path) -> Mosquitto:
    """A Mosquitto that answers every CONNECT of ours with "not authorised" (no
    anonymous clients, and no passwords it would take)."""
    workdir.mkdir()
    port = free_port()
    return Mosquitto(
        workdir, port, f"listener {port} 127.0.0.1\nallow_anonymous false\npersistence false\n"
    )


@pytest.fixture
def two_brokers(tmp_path: Path) -> Iterator[tuple[MosquittoProcess, MosquittoProcess]]:
    """Two Mosquittos of the test's own, each in its own folder, stopped afterwards."""
    brokers = []
    for name in ("m1", "m2"):
        (tmp_path / name).mkdir()
        brokers.append(MosquittoProcess(tmp_path / name))
    for broker in brokers:
        broker.start()
    try:
        yield brokers[0], brokers[1]
    finally:
        for broker in brokers:
            broker.stop()


class Listener:
    """A paho client on one broker, keeping the seq of every inventory of node ``n1`` and
    every availability it says, in the order they come."""

    def __init__(self, port: int) -> None:
        self.seqs: list[int] = []
        self.availability: list[bytes] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *_: c.subscribe("feltwire/v1/t1/node/n1/#", qos=1)
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(10), "no SUBACK from the broker"

    def _message(self, _c: object, _u: object, msg: paho.MQTTMessage) -> None:
        with self._lock:
            if msg.topic.endswith("/availability"):
                self.availability.append(bytes(msg.payload))
            elif not msg.retain:
                self.seqs.append(int(json.loads(msg.payload)["seq"]))

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


async def test_node_and_hub_skip_a_broker_that_is_down_and_one_that_refuses_them(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    good = MosquittoProcess(tmp_path)
    refusing = refusing_broker(tmp_path / "refusing")
    dead = f"mqtt://127.0.0.1:{free_port()}"  # nothing listens there
    urls = [dead, f"mqtt://127.0.0.1:{refusing.port}", good.url]
    with contextlib.ExitStack() as cleanup:  # every broker stopped, whatever fails
        for broker in (good, refusing):
            broker.start()
            cleanup.callback(broker.stop)
        hub = await start_hub(hub_on_broker(urls, READERS))
        try:
            transport = PahoTransport(MqttClientSettings(url=urls), table="t1", node="n1")
            try:
                assert await asyncio.to_thread(transport.wait_connected, WAIT)
                await asyncio.wait_for(hub.service.subscribed.wait(), WAIT)
                publisher = InventoryPublisher(table="t1", node="n1", transport=transport)
                publisher.update("seat1", frozenset(UIDS[:2]))
                await asyncio.to_thread(
                    wait_for,
                    lambda: hub.service.counters.get("accepted", 0) == 1,
                    WAIT,
                    "the read",
                )
                assert transport.broker_failures == 2  # the one down, the one refusing
            finally:
                transport.close()
        finally:
            await hub.stop()
    said = [r.getMessage() for r in caplog.records]
    third = f"mqtt://127.0.0.1:{good.port} (3 of 3)"
    assert f"connected to the broker {third}" in said
    assert any(m.startswith(f"hub subscribed at {third}") for m in said)
    second = f"mqtt://127.0.0.1:{refusing.port} (2 of 3)"
    assert any(f"broker {second} refused the connection" in m for m in said)  # the node
    assert any(f"at {second}; connecting to {third}" in m for m in said)  # the hub


async def test_node_and_hub_move_to_the_next_broker_when_theirs_goes_away(
    tmp_path: Path, two_brokers: tuple[MosquittoProcess, MosquittoProcess]
) -> None:
    m1, m2 = two_brokers
    urls = [m1.url, m2.url]
    async with contextlib.AsyncExitStack() as cleanup:  # each part closed, whatever fails
        on_m2 = Listener(m2.port)
        cleanup.callback(on_m2.close)
        hub = await start_hub(hub_on_broker(urls, READERS))
        cleanup.push_async_callback(hub.stop)
        transport = PahoTransport(MqttClientSettings(url=urls), table="t1", node="n1")
        closed = False

        def close_transport() -> None:
            if not closed:
                transport.close()

        cleanup.callback(close_transport)
        publisher = InventoryPublisher(
            table="t1", node="n1", transport=transport, seq=SeqCounter(tmp_path / "seq")
        )
        assert await asyncio.to_thread(transport.wait_connected, WAIT)
        await asyncio.wait_for(hub.service.subscribed.wait(), WAIT)
        publisher.update("seat1", frozenset(UIDS[:1]))
        await asyncio.to_thread(
            wait_for, lambda: hub.service.counters.get("accepted", 0) == 1, WAIT, "the read"
        )
        assert on_m2.seqs == [] and on_m2.availability == []  # both are on m1

        m1.stop()  # their broker goes away; the node reads on
        first_after = int((tmp_path / "seq").read_text()) + 1
        for n in range(2, 5):
            publisher.update("seat1", frozenset(UIDS[:n]))
        last = int((tmp_path / "seq").read_text())
        # the node moved to m2: what it read after m1 went away arrives there, in order,
        # and it says online there (its will, offline, is now m2's to publish)
        await asyncio.to_thread(
            wait_for, lambda: on_m2.seqs[-1:] == [last], WAIT, "the reads on m2"
        )
        assert on_m2.seqs == list(range(on_m2.seqs[0], last + 1))
        assert on_m2.seqs[0] <= first_after
        assert on_m2.availability == [AVAILABILITY_ONLINE]
        assert retained(m2.port, availability_topic("t1", "n1")) == AVAILABILITY_ONLINE
        await asyncio.to_thread(
            wait_for, lambda: transport.unacknowledged == 0, WAIT, "m2's acknowledgements"
        )
        assert transport.broker_failures == 1  # m1 lost; m2 took it at once
        # the hub moved too: a read now reaches it through m2
        await asyncio.wait_for(hub.service.subscribed.wait(), WAIT)
        accepted = hub.service.counters.get("accepted", 0)
        publisher.update("board", frozenset(UIDS[3:]))
        await asyncio.to_thread(
            wait_for,
            lambda: hub.service.counters.get("accepted", 0) > accepted,
            WAIT,
            "a read through m2",
        )
        transport.close()  # a clean goodbye: offline, on the broker it is on
        closed = True
        assert retained(m2.port, availability_topic("t1", "n1")) == AVAILABILITY_OFFLINE
