"""The registration pad of ``feltwire deck register``: one simulated antenna (``register``)
read by a node of its own (``reg``) that publishes to a broker while the test lays tags on
it — what a dealer does when registering a deck."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from feltwire.config import MqttClientSettings
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from table_node.node import Node
from table_node.simulated import SimulatedReader


@contextmanager
def registration_pad(broker_url: str, table: str = "t1") -> Iterator[SimulatedReader]:
    """The pad, its node connected to the broker at ``broker_url`` and polling every 5 ms
    in a thread; stops the node and disconnects afterwards."""
    pad = SimulatedReader("register")
    transport = PahoTransport(MqttClientSettings(url=broker_url), table=table, node="reg")
    assert transport.wait_connected(10)
    node = Node([pad], InventoryPublisher(table=table, node="reg", transport=transport))
    stop = threading.Event()
    poller = threading.Thread(target=node.run, args=(stop, 0.005), daemon=True)
    poller.start()
    try:
        yield pad
    finally:
        stop.set()
        poller.join(2)
        transport.close()
