"""The broker's acknowledgements come late: the hub's messages still go out as they come.

Every message the hub sends (the public topic, alerts, light commands) is QoS 1 on one
connection, and its MQTT client keeps each in flight until the broker's PUBACK. A client
that keeps only a few in flight (paho's default is 20) sends nothing more until an
acknowledgement returns — and a PUBACK is only read when the hub's event loop reaches its
socket, so under load the round trip is the loop's lag. At 50 tables and ten times a
dealer's pace the hub queued 17,000 messages in its client in three minutes (memory
growing ~10 MB a minute, the seat lights seconds behind the hand: docs/reliability.md,
"The fifth run"). Here the broker's PUBACKs to the hub are held back by a proxy
(:meth:`~tests.support.mqtt_proxy.MqttFaultProxy.hold_acks`) while a node's reads make
the hub publish one public-topic frame each: a subscriber must get every one of them,
in order, before any acknowledgement has come back, and ``/metrics`` must show them
waiting (``feltwire_mqtt_outgoing_waiting``); once they are released the gauge falls to
nothing and the next read's frame goes out on the same connection.
"""

from __future__ import annotations

import json
import threading
import time
from functools import partial
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from tests.support.loop_thread import LoopThread
from tests.support.mosquitto import MosquittoProcess
from tests.support.mqtt_client import wait_for
from tests.support.mqtt_proxy import Faults, MqttFaultProxy
from tests.support.ports import free_port
from tests.support.table_procs import HubProc, hub_gauge, rules, write_hub_config

READS = 60
"""Reads sent while the acknowledgements are held: three times paho's default in flight."""
WAIT = 30.0


async def _proxy_up(upstream: int) -> MqttFaultProxy:
    proxy = MqttFaultProxy(upstream, Faults(duplicate=0.0, delay_chance=0.0))
    await proxy.start()
    return proxy


class Subscriber:
    """The board's antenna frames on the table's public topic, as a scoreboard sees them."""

    def __init__(self, port: int) -> None:
        self.frames: list[dict[str, object]] = []
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id="scoreboard")
        self.client.on_connect = lambda c, *_: c.subscribe("feltwire/v1/t1/public", qos=1)
        self.client.on_subscribe = lambda *_: self.ready.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.ready.wait(10), "the subscriber did not subscribe"

    def _message(self, c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        frame = json.loads(msg.payload)
        if frame.get("type") == "antenna" and frame.get("reader") == "board":
            with self.lock:
                self.frames.append(frame)

    def count(self) -> int:
        with self.lock:
            return len(self.frames)

    def counts(self) -> list[object]:
        """The board's card count in each frame, in the order they came."""
        with self.lock:
            return [f["count"] for f in self.frames]

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def waiting(hub: HubProc) -> float:
    """The hub's ``feltwire_mqtt_outgoing_waiting`` for table ``t1`` (``/metrics``)."""
    return hub_gauge(hub.url, "feltwire_mqtt_outgoing_waiting")


def taken(hub: HubProc, reads: int) -> bool:
    """Whether ``hub`` has taken ``reads`` reads in all."""
    return int(hub.stats()["counters"].get("accepted", 0)) >= reads


def test_the_hubs_messages_go_out_while_the_brokers_acknowledgements_are_late(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    proxy = LoopThread(lambda: _proxy_up(mosquitto.port), lambda p: p.stop(), name="mqtt-proxy")
    via = proxy.start()
    web_port = free_port()
    config = write_hub_config(tmp_path, f"mqtt://127.0.0.1:{via.port}", web_port)
    hub = HubProc(config, web_port, tmp_path / "hub.log")
    scoreboard = Subscriber(mosquitto.port)
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://127.0.0.1:{mosquitto.port}"), table="t1", node="n1"
    )
    node = InventoryPublisher(table="t1", node="n1", transport=transport)
    ace = frozenset({simulated_deck().uid_for("As")})
    try:
        hub.start()
        assert transport.wait_connected(10)
        hub.until(lambda s: rules(s)["in_hand"], what="hand 1")
        time.sleep(1.0)  # the hub's first messages (its lights) acknowledged
        via.hold_acks()
        accepted = hub.stats()["counters"].get("accepted", 0)
        for i in range(READS):  # the ace laid on the board and taken back, read by read
            assert node.update("board", ace if i % 2 == 0 else frozenset())
            assert wait_for(partial(taken, hub, accepted + i + 1), WAIT), f"read {i + 1} not taken"
        got = wait_for(lambda: scoreboard.count() >= READS, WAIT)
        assert got, f"{READS} board frames on the public topic, got {scoreboard.count()}"
        assert via.held_acks >= READS  # nothing the hub sent was acknowledged meanwhile
        assert scoreboard.counts()[:READS] == [1, 0] * (READS // 2)  # each read's, in order
        assert waiting(hub) >= READS  # the operator sees them waiting for the broker
        via.release_acks()
        assert wait_for(lambda: via.held_acks == 0 and waiting(hub) == 0, WAIT), waiting(hub)
        assert node.update("board", ace)  # the connection goes on
        assert wait_for(lambda: scoreboard.count() > READS, WAIT), "no frame after the release"
        assert scoreboard.counts()[READS:] == [1]
        hub.check_alive()
    finally:
        scoreboard.close()
        transport.close()
        hub.stop()
        proxy.stop()
