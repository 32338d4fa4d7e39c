"""The broker goes down for 30 s while tags move, and the node restarts in between:
after recovery the hub has every change, in order, none twice."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.outbox import Outbox
from feltwire.publisher import InventoryPublisher, SeqCounter
from hub.bootstrap import start_hub
from table_node.node import Node
from table_node.simulated import SimulatedTable
from tests.support.hub_configs import hub_on_broker
from tests.support.mosquitto import MosquittoProcess

DECK = simulated_deck()
READERS = ["seat1", "seat2", "board"]


class NodeUnderTest:
    """A node with a state dir, as `feltwire node` builds it."""

    def __init__(self, state: Path, url: str, table: SimulatedTable) -> None:
        self.transport = PahoTransport(
            MqttClientSettings(url=url),
            table="t1",
            node="n1",
            outbox=Outbox(state / "outbox.sqlite"),
        )
        self.node = Node(
            list(table.readers.values()),
            InventoryPublisher(
                table="t1", node="n1", transport=self.transport, seq=SeqCounter(state / "seq")
            ),
        )


async def test_broker_outage_and_node_restart_lose_nothing(tmp_path: Path) -> None:
    broker = MosquittoProcess(
        tmp_path,
        extra_config=f"persistence true\npersistence_location {tmp_path}/\nautosave_interval 1\n",
    )
    broker.start()
    hub = await start_hub(hub_on_broker(broker.url, READERS))
    seen: list[tuple[str, tuple[str, ...]]] = []
    expected: list[tuple[str, tuple[str, ...]]] = []
    table = SimulatedTable(READERS)
    state = tmp_path / "node-state"
    caught_up = asyncio.Event()

    def move(card: str, src: str | None, dst: str | None, node: Node) -> None:
        before = {r: table.reader(r).inventory() for r in READERS}
        table.move(DECK.uid_for(card), src, dst)
        node.poll_once()  # the node publishes changed antennas in its reader order
        for r in READERS:
            now = table.reader(r).inventory()
            if now != before[r]:
                expected.append((r, tuple(sorted(now))))

    async def collect(sub: Any) -> None:
        while True:
            ev = await sub.get()
            if ev.get("type") != "antenna":
                continue
            uids = tuple(sorted(DECK.uid_for(c) for c in ev["cards"]))
            seen.append((ev["reader"], uids))
            caught_up.set()

    try:
        with hub.service.overlay.subscribe() as sub:
            collector = asyncio.create_task(collect(sub))
            a = NodeUnderTest(state, broker.url, table)
            assert await asyncio.to_thread(a.transport.wait_connected, 10)
            a.node.poll_once()  # empty antennas: no change at the hub
            move("As", None, "seat1", a.node)
            move("Kd", None, "seat2", a.node)
            await asyncio.sleep(0.5)
            assert len(seen) == 2

            broker.stop()  # the broker is gone for 30 s
            down_at = time.monotonic()
            move("7h", None, "board", a.node)
            move("As", "seat1", "board", a.node)
            # the node dies without a goodbye: paho's in-memory queue is lost with it
            a.transport.close(graceful=False)
            assert len(Outbox(state / "outbox.sqlite")) >= 2

            b = NodeUnderTest(state, broker.url, table)  # restarted node, same state dir
            move("Qc", None, "seat1", b.node)
            move("Kd", "seat2", None, b.node)
            await asyncio.sleep(max(0.0, 30 - (time.monotonic() - down_at)))
            broker.start()

            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(30):
                    while len(seen) < len(expected):
                        await caught_up.wait()
                        caught_up.clear()
            await asyncio.sleep(0.5)  # anything extra (a duplicate) would arrive now
            collector.cancel()
            b.transport.close()
    finally:
        await hub.stop()
        broker.stop()

    assert seen == expected
    counters = hub.service.counters
    assert counters.get("rejected", 0) == 0
