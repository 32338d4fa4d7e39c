"""The public page in a real headless Chromium: whose turn it is, the dealer's alerts and
the pot award — and still no hole card."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, PlayerSettings, RulesSettings, WebSettings
from hub.rules.procedure import Act, ConsoleAction
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable

DECK = simulated_deck()
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


async def test_public_page_shows_the_acting_seat_an_alert_and_the_pot_award(browser: Any) -> None:
    hub = await start_hub(
        HubConfig(
            table="t1",
            live_equity=False,
            mqtt=HubMqttSettings(embedded_port=0),
            web=WebSettings(port=0),
            rules=RulesSettings(
                players=[PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
            ),
        )
    )
    assert hub.rules is not None and hub.rules.desk.setup is not None
    table = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table="t1", node="n"
    )
    publisher = InventoryPublisher(table="t1", node="n", transport=transport)
    node = Node(list(table.readers.values()), publisher)

    async def sweep() -> None:
        """The node reads once; wait until the hub has taken what it sent."""
        node.poll_once()
        assert await asyncio.to_thread(hub.service.wait_handled, publisher.published, 10)

    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(hub.web_url + "/?lang=en")
        await page.wait_for_selector("#status[data-state=live]")
        sb, bb, button = hub.rules.desk.setup.seats
        held: dict[int, list[str]] = {s: [] for s in (sb, bb, button)}
        cards = iter(HOLE)
        for _ in range(2):
            for seat in (sb, bb, button):
                card = next(cards)
                held[seat].append(card)
                table.reader(f"seat{seat}").place(DECK.uid_for(card))
                await sweep()
        await page.wait_for_selector(f"#seats .seat[data-seat='{button}'].acting")
        assert await page.locator("#seats .seat.acting").count() == 1
        # the small blind's call entered out of turn: refused, and the page says why
        step = hub.rules.console(ConsoleAction(sb, Act.CALL, 0.0))
        assert step is not None and step.refused
        alert = page.locator("#alert-list li.alert[data-code='action_out_of_turn']")
        await alert.wait_for()
        text = await alert.inner_text()
        assert f"seat {sb}" in text and "R-BET-10" in text and "let seat" in text
        assert "warning" in (await alert.get_attribute("class") or "")
        # the button and the small blind fold at the muck: the big blind takes the pot
        for seat in (button, sb):
            for card in held[seat]:
                table.move(DECK.uid_for(card), f"seat{seat}", "muck")
            await sweep()
        award = page.locator("#awards .award")
        await award.first.wait_for()
        assert f"seat {bb} takes" in await award.first.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "public-alerts-1280x900.png"))
        html = await page.content()
        assert await page.locator(".card[data-card]").count() == 0
        assert not [c for c in HOLE if f'data-card="{c}"' in html or f">{c}<" in html]
    finally:
        transport.close()
        await hub.stop()
