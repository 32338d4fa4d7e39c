"""What a broker keeps retained: a fresh client subscribes and collects what the broker
sends right after its SUBACK — the probe the broker and fault tests share."""

from __future__ import annotations

import threading
import time

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

WAIT = 30.0
"""The longest a busy broker is waited for (its SUBACK, the messages expected)."""


def retained_messages(
    port: int, topics: list[str], *, quiet: float = 1.0, expect: int | None = None
) -> list[tuple[str, bytes]]:
    """The retained messages the broker on 127.0.0.1:``port`` sends a subscription
    (QoS 1) to each of ``topics``, in the order they came: collected from its SUBACK
    until ``expect`` messages came or — without ``expect`` — none came for ``quiet``
    seconds, at most :data:`WAIT` in all. Waiting for the SUBACK first keeps a busy
    broker from being taken for one that keeps nothing."""
    got: list[tuple[str, bytes]] = []
    subscribed = threading.Event()
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, protocol=paho.MQTTv311)
    client.on_message = lambda _c, _u, msg: got.append((msg.topic, bytes(msg.payload)))
    client.on_subscribe = lambda *_: subscribed.set()
    client.connect("127.0.0.1", port)
    client.subscribe([(topic, 1) for topic in topics])
    client.loop_start()
    try:
        assert subscribed.wait(WAIT), f"no SUBACK from the broker on port {port}"
        now = time.monotonic()
        deadline, changed, seen = now + WAIT, now, 0
        while now < deadline:
            if len(got) != seen:
                changed, seen = now, len(got)
            done = seen >= expect if expect is not None else now - changed >= quiet
            if done:
                break
            time.sleep(0.02)
            now = time.monotonic()
    finally:
        client.disconnect()
        client.loop_stop()
    return list(got)
