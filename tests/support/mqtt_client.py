"""A paho client on a guarded broker (TLS, passwords, the ACL) that records what happened
to it — refused, granted, closed, the messages it got — for the broker security tests."""

from __future__ import annotations

import ssl
import threading
import time
import uuid
from dataclasses import dataclass, field

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from tests.support.guarded_brokers import Credential, Guarded, TableSecrets

QUIET = 1.5  # seconds a message that must not arrive is waited for


@dataclass
class Client:
    """A paho client and what happened to it."""

    paho: paho.Client
    connected: threading.Event = field(default_factory=threading.Event)
    closed: threading.Event = field(default_factory=threading.Event)
    refused: list[str] = field(default_factory=list)
    granted: list[list[int]] = field(default_factory=list)
    messages: list[tuple[str, bytes]] = field(default_factory=list)
    subscribed: threading.Event = field(default_factory=threading.Event)

    def subscribe(self, topic_filter: str) -> list[int]:
        """Subscribe (QoS 1) and wait for the SUBACK; returns its return codes."""
        self.subscribed.clear()
        self.paho.subscribe(topic_filter, qos=1)
        assert self.subscribed.wait(5), "no SUBACK"
        return self.granted[-1]

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Publish QoS 1 and wait for the broker's PUBACK (sent even when it drops it)."""
        info = self.paho.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(timeout=5)
        assert info.is_published()

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


def connect(
    broker: Guarded,
    secrets: TableSecrets,
    cred: Credential | None,
    *,
    password: str | None = None,
    tls: bool = True,
    client_cert: bool = False,
    client_id: str | None = None,
    clean_session: bool = True,
    wait: float = 5.0,
) -> Client:
    """Connect a client; returns it whether or not the broker accepted it."""
    c = paho.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=client_id or f"test-{uuid.uuid4().hex[:12]}",
        protocol=paho.MQTTv311,
        clean_session=clean_session,
    )
    client = Client(c)
    if cred is not None:
        c.username_pw_set(cred.username, password if password is not None else cred.password)
    if tls:
        c.tls_set(
            ca_certs=str(secrets.ca),
            certfile=str(secrets.node_cert) if client_cert else None,
            keyfile=str(secrets.node_key) if client_cert else None,
            cert_reqs=ssl.CERT_REQUIRED,
        )

    def on_connect(cl: paho.Client, u: object, f: object, reason: object, p: object) -> None:
        if getattr(reason, "is_failure", False):
            client.refused.append(str(reason))
            client.closed.set()
        else:
            client.connected.set()

    def on_disconnect(cl: paho.Client, u: object, f: object, reason: object, p: object) -> None:
        client.closed.set()

    def on_subscribe(cl: paho.Client, u: object, mid: int, codes: list[object], p: object) -> None:
        client.granted.append([int(getattr(rc, "value", rc)) for rc in codes])  # type: ignore[call-overload]
        client.subscribed.set()

    def on_message(cl: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        client.messages.append((msg.topic, bytes(msg.payload)))

    c.on_connect = on_connect
    c.on_disconnect = on_disconnect
    c.on_subscribe = on_subscribe
    c.on_message = on_message
    try:
        c.connect("127.0.0.1", broker.port, keepalive=30)
    except (OSError, ssl.SSLError):
        client.closed.set()
        return client
    c.loop_start()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and not (client.connected.is_set() or client.closed.is_set()):
        time.sleep(0.01)
    if not client.connected.is_set():
        c.disconnect()
        c.loop_stop()
    return client


def wait_for(cond: object, timeout: float) -> bool:
    """Poll ``cond`` until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False
