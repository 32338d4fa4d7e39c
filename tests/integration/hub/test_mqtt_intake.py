"""The hub's MQTT intake takes every message that has reached it in one go.

The hub takes all its tables' reads on one connection, and two things took them one at
a time, each after everything else the event loop had ready: paho reads one packet each
time aiomqtt finds the socket readable (:mod:`hub.adapters.paho_socket`), and aiomqtt's
message iterator makes a task and a wait for each message — three turns of the loop
(:func:`hub.adapters.mqtt.arrivals`). At 150 tables the reads waited seconds. Through a
real Mosquitto: 500 messages reach the hub's client while its loop is held; once let go,
it takes them in a few turns of the loop, in order, none lost (501 turns without the
socket's buffer, 1,499 with aiomqtt's iterator). TLS: the hub's connections in
``tests/integration/security`` run over it."""

from __future__ import annotations

import asyncio
import time

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.config import parse_mqtt_url
from hub.adapters.mqtt import _client, arrivals
from tests.support.mosquitto import MosquittoProcess

COUNT = 500
TOPIC = "feltwire/test/burst"


def _publish_burst(port: int) -> None:
    """COUNT messages, numbered, as fast as the broker takes them."""
    pub = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    pub.connect("127.0.0.1", port)
    pub.loop_start()
    try:
        infos = [pub.publish(TOPIC, f"{i:05d}".encode() * 20, qos=0) for i in range(COUNT)]
        for info in infos:
            info.wait_for_publish(10)
    finally:
        pub.loop_stop()
        pub.disconnect()


async def _turns_to_take_burst(url: str, port: int) -> tuple[int, list[int]]:
    """Connect the hub's client, hold its loop while a burst reaches its socket, then
    count the turns of the loop until it has taken every message."""
    client = _client(parse_mqtt_url(url), "hub-intake-test", 30, None)
    got: list[int] = []
    async with client:
        await client.subscribe(TOPIC, qos=0)
        # the loop held while the burst is published and reaches the client's socket
        _publish_burst(port)
        time.sleep(1.0)  # noqa: ASYNC251 — the broker's deliveries wait in the socket
        turns = 0

        async def count_turns() -> None:
            nonlocal turns
            while True:
                await asyncio.sleep(0)  # once each turn of the loop
                turns += 1

        counter = asyncio.create_task(count_turns())
        try:
            async with asyncio.timeout(30):
                async for message in arrivals(client):
                    got.append(int(bytes(message.payload)[:5]))
                    if len(got) == COUNT:
                        break
        finally:
            counter.cancel()
    return turns, got


def test_a_backlog_at_the_hubs_socket_is_taken_in_a_few_turns_of_the_loop(
    mosquitto: MosquittoProcess,
) -> None:
    turns, got = asyncio.run(_turns_to_take_burst(mosquitto.url, mosquitto.port))
    assert got == list(range(COUNT)), "messages lost or out of order"
    print(f"{COUNT} messages taken in {turns} turns of the loop")  # pytest -s
    assert turns < COUNT // 10, f"{COUNT} messages took {turns} turns of the loop"
