"""A node's messages reach the broker in the order it published them, whenever it
publishes: before the connection is up, while the broker's CONNACK is on its way, or
during a reconnect with a message still unacknowledged. The broker keeps the last
retained message of each topic, so a message overtaken by an older one leaves a stale
state there — a bridge shown offline while its board is online, an old inventory.

A small proxy between the node and a real Mosquitto holds back what the broker sends (its
CONNACK, its PUBACKs) until the test lets it through, and drops the connection on demand.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from feltwire.config import MqttClientSettings
from feltwire.mqtt import PahoTransport
from feltwire.outbox import Outbox
from feltwire.protocol import AVAILABILITY_OFFLINE, AVAILABILITY_ONLINE, availability_topic
from tests.support.bridge import retained, wait_for
from tests.support.mosquitto import MosquittoProcess


class HoldingProxy:
    """127.0.0.1:``port`` → the broker; the broker's bytes wait while :attr:`hold` is set."""

    def __init__(self, upstream: int) -> None:
        self._upstream = upstream
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self.hold = threading.Event()
        self.connections = 0
        self._socks: list[socket.socket] = []
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            broker = socket.create_connection(("127.0.0.1", self._upstream))
            self._socks += [client, broker]
            threading.Thread(target=self._pipe, args=(client, broker, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(broker, client, True), daemon=True).start()
            self.connections += 1

    def _pipe(self, src: socket.socket, dst: socket.socket, held: bool) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                while held and self.hold.is_set() and not self._stop.is_set():
                    time.sleep(0.01)
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.close()

    def drop(self) -> None:
        """Close every connection (the node reconnects)."""
        for s in self._socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self._socks.clear()

    def close(self) -> None:
        self._stop.set()
        self._server.close()
        self.drop()


@contextlib.contextmanager
def proxy_to(broker: MosquittoProcess) -> Iterator[HoldingProxy]:
    proxy = HoldingProxy(broker.port)
    try:
        yield proxy
    finally:
        proxy.close()


def test_a_message_sent_while_the_connack_is_on_its_way_does_not_overtake_older_ones(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    """The bridge's CI failure: ``offline`` waited from before the connection, ``online``
    was published while the CONNACK travelled — and the broker was left with ``offline``."""
    topic = availability_topic("t1", "b1")
    box = Outbox(tmp_path / "outbox.sqlite")
    box.add(topic, AVAILABILITY_OFFLINE, qos=1, retain=True)  # left by the last run
    box.close()
    with proxy_to(mosquitto) as proxy:
        proxy.hold.set()  # the CONNACK waits
        transport = PahoTransport(
            MqttClientSettings(url=f"mqtt://127.0.0.1:{proxy.port}"),
            table="t1",
            node="b1",
            outbox=Outbox(tmp_path / "outbox.sqlite"),
            online_on_connect=False,
        )
        try:
            wait_for(lambda: proxy.connections == 1, what="the node's connection")
            time.sleep(0.3)  # its CONNECT is at the broker
            transport.publish(topic, AVAILABILITY_ONLINE, qos=1, retain=True)
            time.sleep(0.3)
            proxy.hold.clear()
            wait_for(lambda: transport.unacknowledged == 0, what="every message acknowledged")
            time.sleep(0.3)  # anything paho still resends
            assert retained(mosquitto.port, topic) == AVAILABILITY_ONLINE
        finally:
            transport.close(graceful=False)


def test_after_a_reconnect_an_unacknowledged_message_does_not_overtake_a_newer_one(
    mosquitto: MosquittoProcess,
) -> None:
    topic = "feltwire/v1/t1/node/n1/reader/seat1/tags"
    with proxy_to(mosquitto) as proxy:
        transport = PahoTransport(
            MqttClientSettings(url=f"mqtt://127.0.0.1:{proxy.port}"), table="t1", node="n1"
        )
        try:
            assert transport.wait_connected(10)
            proxy.hold.set()  # its PUBACK will not come back
            transport.publish(topic, b"old", qos=1, retain=True)
            wait_for(lambda: retained(mosquitto.port, topic) == b"old", what="old at the broker")
            proxy.drop()  # the node reconnects; the CONNACK waits
            wait_for(lambda: proxy.connections == 2, timeout=15, what="the reconnection")
            time.sleep(0.3)
            transport.publish(topic, b"new", qos=1, retain=True)
            time.sleep(0.3)
            proxy.hold.clear()
            wait_for(lambda: transport.unacknowledged == 0, what="every message acknowledged")
            time.sleep(0.3)
            assert retained(mosquitto.port, topic) == b"new"
        finally:
            transport.close(graceful=False)
