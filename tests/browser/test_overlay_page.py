"""The overlay page in a real headless Chromium: cards and equity appear as they arrive
(no rules: the antennas alone make the picture), quick figures first, then exact."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, WebSettings
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable
from tests.support.pages import STATIC

DECK = simulated_deck()
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000
"""Playwright's wait for a condition, in ms (generous: the machine is busy)."""


def equity_of(seat: int) -> str:
    return f"#seats .seat[data-seat='{seat}'] [data-field=equity]"


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
        await page.goto(hub.overlay_url + "&lang=en")
        await page.wait_for_function("document.body.dataset.status === 'live'", timeout=WAIT)
        for reader, card in (("seat1", "As"), ("seat2", "Kd"), ("seat1", "Ah"), ("seat2", "Kc")):
            table.reader(reader).place(DECK.uid_for(card))
        await page.wait_for_selector(
            "#seats .seat[data-seat='1'] .card[data-card='Ah']", timeout=WAIT
        )
        # the exact figure replaces the quick one
        await page.wait_for_function(
            "s => { const e = document.querySelector(s);"
            " return e && e.dataset.exact === 'true' && e.textContent.startsWith('81.3%'); }",
            arg=equity_of(1),
            timeout=WAIT,
        )
        assert await page.inner_text(equity_of(2)) == "18.7%"
        assert await page.inner_text("#seats .seat[data-seat='1'] [data-field=name]") == "Seat 1"
        for card in ("Ks", "7d", "2c"):
            table.reader("board").place(DECK.uid_for(card))
        await page.wait_for_function(
            "s => parseFloat(document.querySelector(s).dataset.equity) > 0.9",
            arg=equity_of(2),
            timeout=WAIT,
        )
        await page.wait_for_function(
            "s => document.querySelector(s).dataset.exact === 'true'",
            arg=equity_of(2),
            timeout=WAIT,
        )
        hand_name = "#seats .seat[data-seat='2'] [data-field=hand-name]"
        await page.wait_for_function(
            "s => document.querySelector(s).textContent === 'Three of a Kind, Kings'",
            arg=hand_name,
            timeout=WAIT,
        )
        outs = await page.inner_text("#seats .seat[data-seat='1'] [data-field=outs]")
        assert outs == "2 outs"  # the last two aces
        # and which: in card symbols, not codes
        assert await page.locator("#outs").is_visible()
        line = await page.inner_text("#outs")
        assert line.startswith("Seat 1 outs: ") and "Ad" not in line and "Ac" not in line
        symbols = await page.eval_on_selector_all("#outs .sym", "els => els.map(e => e.innerText)")
        assert sorted(symbols) == ["A♣", "A♦"]
        board = await page.eval_on_selector_all(
            "#board .card[data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert sorted(board) == ["2c", "7d", "Ks"]
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(
            path=str(ARTIFACTS / "overlay-equity-1280x720.png"),
            animations="disabled",
            omit_background=True,
        )
        # the public page never gets the hole cards nor the equity
        public = await browser.new_page()
        await public.goto(hub.web_url + "/")
        await public.wait_for_selector("#board .card[data-card='Ks']", timeout=WAIT)
        html = await public.content()
        assert not [c for c in ("As", "Ah", "Kd", "Kc") if f'data-card="{c}"' in html]
        assert "81.3" not in html and "Three of a Kind" not in html
    finally:
        stop.set()
        if poller.is_alive():
            poller.join(2)
        transport.close()
        await hub.stop()


def test_the_overlay_page_has_a_czech_string_for_every_english_one() -> None:
    js = (STATIC / "overlay" / "strings.js").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^ {2}(en|cs): \{\n(.*?)\n {2}\},", js, re.M | re.S))
    keys = {
        lang: set(re.findall(r'^\s+"?([\w.-]+)"?:', body, re.M)) for lang, body in blocks.items()
    }
    assert keys["en"] and keys["en"] == keys["cs"], keys["en"] ^ keys["cs"]
