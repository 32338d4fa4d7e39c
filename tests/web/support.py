"""What the page tests share: a simulated node reading its antennas into a running hub."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from feltwire.config import MqttClientSettings
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.runtime import HubRuntime
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable


@dataclass
class SimulatedNode:
    """Antennas the test lays tags on, and the node that publishes them to the hub."""

    table: SimulatedTable
    node: Node
    publisher: InventoryPublisher


@asynccontextmanager
async def simulated_node(hub: HubRuntime, table: str = "t1") -> AsyncIterator[SimulatedNode]:
    """A node with the standard antennas, connected to ``hub``'s broker; yields once the
    node is connected and the hub subscribed, disconnects afterwards."""
    antennas = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table=table, node="n"
    )
    publisher = InventoryPublisher(table=table, node="n", transport=transport)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        yield SimulatedNode(antennas, Node(list(antennas.readers.values()), publisher), publisher)
    finally:
        transport.close()
