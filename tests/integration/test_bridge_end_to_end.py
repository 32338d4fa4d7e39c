"""A tag on the simulated serial board becomes a card at the hub, through a real Mosquitto.

simulated board → pty → pyserial → bridge → paho → Mosquitto → hub (aiomqtt) → WebSocket.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck, simulated_uid
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from firmware_bridge.bridge import Bridge, LinkState
from firmware_bridge.config import BridgeConfig
from firmware_bridge.simboard import PtyBoard, SimBoard
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, WebSettings
from tests.support.bridge import retained, wait_for
from tests.support.mosquitto import MosquittoProcess

DECK = simulated_deck()


async def test_a_tag_on_the_serial_board_is_a_card_at_the_hub(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    hub = await start_hub(
        HubConfig(
            table="t1",
            mqtt=HubMqttSettings(url=mosquitto.url),
            web=WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True),
        )
    )
    board = SimBoard(antennas=("seat4", "board", "muck"), heartbeat_ms=100)
    pty = PtyBoard(board, tmp_path / "ttyBOARD", split_writes=True).start()
    config = BridgeConfig(
        table="t1",
        bridge_id="bridge1",
        port=str(pty.path),
        mqtt=MqttClientSettings(url=mosquitto.url),
        reconnect_min_s=0.05,
    )
    transport = PahoTransport(
        config.mqtt, table="t1", node="bridge1", client_id="bridge1", online_on_connect=False
    )
    bridge = Bridge(
        config,
        transport=transport,
        publisher=InventoryPublisher(table="t1", node="bridge1", transport=transport),
    )
    stop = threading.Event()
    runner = threading.Thread(target=bridge.run, args=(stop,), daemon=True)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        runner.start()
        await asyncio.to_thread(wait_for, lambda: bridge.state is LinkState.ONLINE)
        base = hub.web_url.replace("http://", "ws://")
        async with connect(f"{base}/ws/overlay?token={hub.producer_token}") as ws:
            assert json.loads(await ws.recv())["type"] == "snapshot"
            first, second = DECK.card_for(simulated_uid(0)), DECK.card_for(simulated_uid(1))
            board.place(0, simulated_uid(0))
            board.place(1, simulated_uid(1))
            seen: dict[str, Any] = {}
            async with asyncio.timeout(5):
                while not (seen.get("seat4") == [first] and seen.get("board") == [second]):
                    ev = json.loads(await ws.recv())
                    if ev.get("type") == "antenna":
                        seen[ev["reader"]] = ev["cards"]
        availability = await asyncio.to_thread(
            retained, mosquitto.port, "feltwire/v1/t1/node/bridge1/availability"
        )
        assert availability == b"online"
    finally:
        stop.set()
        await asyncio.to_thread(runner.join, 5)
        transport.close()
        pty.stop()
        await hub.stop()
    after = await asyncio.to_thread(
        retained, mosquitto.port, "feltwire/v1/t1/node/bridge1/availability"
    )
    assert after == b"offline"
