"""The overlay page in a real headless Chromium: cards and equity appear as they arrive."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.config import HubConfig, HubMqttSettings, WebSettings
from hub.runtime import start_hub
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable

DECK = simulated_deck()
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


async def test_overlay_page_shows_cards_and_equity_updating(browser: Any) -> None:
    hub = await start_hub(
        HubConfig(
            table="t1",
            mqtt=HubMqttSettings(embedded_port=0),
            web=WebSettings(port=0, overlay_delay_minutes=0, allow_live_hole_cards=True),
        )
    )
    table = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table="t1", node="n"
    )
    node = Node(
        list(table.readers.values()), InventoryPublisher(table="t1", node="n", transport=transport)
    )
    stop = threading.Event()
    poller = threading.Thread(target=node.run, args=(stop, 0.005), daemon=True)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        poller.start()
        page = await browser.new_page(viewport={"width": 1280, "height": 720})
        await page.goto(hub.overlay_url)
        await page.wait_for_selector("#status:text('live')")
        for reader, card in (("seat1", "As"), ("seat2", "Kd"), ("seat1", "Ah"), ("seat2", "Kc")):
            table.reader(reader).place(DECK.uid_for(card))
        await page.wait_for_selector("#ant-seat1 .card[data-card='Ah']")
        await page.wait_for_function(
            "document.querySelector('#ant-seat1 .equity').textContent.startsWith('81.3%')"
        )
        assert await page.inner_text("#ant-seat2 .equity") == "18.7%"
        for card in ("Ks", "7d", "2c"):
            table.reader("board").place(DECK.uid_for(card))
        await page.wait_for_function(
            "parseFloat(document.querySelector('#ant-seat2 .equity').dataset.equity) > 0.9"
        )
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "overlay-equity-1280x720.png"))
        # the public page never gets the hole cards nor the equity
        public = await browser.new_page()
        await public.goto(hub.web_url + "/")
        await public.wait_for_selector("#ant-board .card[data-card='Ks']")
        assert await public.locator("#ant-seat1 .card[data-card]").count() == 0
        assert await public.inner_text("#ant-seat1 .equity") == ""
    finally:
        stop.set()
        if poller.is_alive():
            poller.join(2)
        transport.close()
        await hub.stop()
