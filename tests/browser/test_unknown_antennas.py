"""Issue 15: an antenna whose node is offline is drawn as *unknown*, not as empty — on the
dealer console, the public view (the TV) and the producer's overlay, in real headless
Chromium against the real hub.

A node deals two hole cards to every seat through the embedded broker; then the broker
carries that node's ``offline`` (the retained availability its last will publishes when
its connection dies, here sent by a plain client of the test's): every page shows the
seats of its antennas greyed with a "?" and "reader offline" — Czech "čtečka offline"
after the language switch — while the console still shows what the rules know, the
public view still names no hole card. ``online`` again: the seats show their cards as
before, and no "?" is left.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.protocol import availability_topic
from hub.web.auth import Role
from tests.support.console_rig import HOLE, WAIT, Rig, rig

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NODE = "n"
"""The node id of :func:`tests.support.room.simulated_node`."""


async def say_availability(r: Rig, state: bytes) -> None:
    """Publish the node's retained availability (``offline``/``online``) as its broker
    would; returns once the broker took it."""
    broker = r.hub.broker
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="unknown-antennas-test")
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        info = client.publish(availability_topic("t1", NODE), state, qos=1, retain=True)
        await asyncio.to_thread(info.wait_for_publish, 10)
    finally:
        client.disconnect()
        client.loop_stop()


def unknown_seat(seat: int) -> str:
    return f"#seats .seat[data-seat='{seat}'].unknown .card.unknown"


async def seat_text(page: Any, seat: int) -> str:
    text: str = await page.locator(f"#seats .seat[data-seat='{seat}']").inner_text()
    return text


async def test_an_offline_node_shows_its_seats_unknown_on_every_page_and_back(
    browser: Any,
) -> None:
    async with rig(live=True) as r:
        context = await browser.new_context(viewport={"width": 1600, "height": 900})
        console = await context.new_page()
        public = await context.new_page()
        overlay = await context.new_page()
        await console.goto(f"{r.hub.web_url}/console?token={r.hub.token(Role.DEALER)}&lang=en")
        await public.goto(f"{r.hub.web_url}/?lang=en")
        await overlay.goto(f"{r.hub.overlay_url}&lang=en")
        for page in (console, public):
            await page.wait_for_selector("#status[data-state='live']", timeout=WAIT)
        held = await r.deal_hole_cards()
        seat = r.seats[0]
        # dealt: two backs on the console and the TV, the cards on the (live) overlay
        for page in (console, public):
            await page.wait_for_selector(
                f"#seats .seat[data-seat='{seat}'] .card.back >> nth=1", timeout=WAIT
            )
        assert await console.locator(".card.unknown").count() == 0
        assert await public.locator(".card.unknown").count() == 0

        await say_availability(r, b"offline")
        for page in (console, public):
            await page.wait_for_selector(unknown_seat(seat), timeout=WAIT)
        await overlay.wait_for_selector(
            f"#seats .seat[data-seat='{seat}'].unknown .badge.offline:not([hidden])",
            timeout=WAIT,
        )
        for s in r.seats:  # every seat of the node: "?", not an empty seat with no cards
            assert "reader offline" in (await seat_text(console, s)).lower()
            assert "reader offline" in (await seat_text(public, s)).lower()
            assert await public.locator(unknown_seat(s)).count() == 1
            # the TV shows no card backs for a seat nothing is known of
            backs = public.locator(f"#seats .seat[data-seat='{s}'] .card.back")
            assert await backs.count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        for name, page in (("console", console), ("public", public), ("overlay", overlay)):
            await page.screenshot(path=str(ARTIFACTS / f"{name}-reader-offline.png"))
        # the board's antenna is the node's too: a "?" there as well
        assert await console.locator("#board.unknown .card.unknown").count() == 1
        assert await public.locator("#board.unknown .card.unknown").count() == 1
        # the rules keep the seat's hand: the console still shows the player in it
        assert await console.locator(f".seat[data-seat='{seat}'].empty").count() == 0
        # in Czech
        for page in (console, public):
            await page.click(".fw-lang button[data-lang='cs']")
        await console.wait_for_selector(
            f".seat[data-seat='{seat}'] .note.offline:has-text('čtečka offline')", timeout=WAIT
        )
        await public.wait_for_selector(
            f"#seats .seat[data-seat='{seat}'] .state:has-text('Čtečka offline')", timeout=WAIT
        )
        # still no hole card on the console or the TV
        for page in (console, public):
            html = await page.content()
            assert not [c for c in HOLE if f'data-card="{c}"' in html]

        await say_availability(r, b"online")
        for page in (console, public):
            await page.wait_for_function(
                "() => !document.querySelector('.card.unknown, .seat.unknown, #board.unknown')",
                timeout=WAIT,
            )
            await page.wait_for_selector(
                f"#seats .seat[data-seat='{seat}'] .card.back >> nth=1", timeout=WAIT
            )
        await overlay.wait_for_function(
            "() => !document.querySelector('.seat.unknown, .card.unknown')", timeout=WAIT
        )
        overlay_html = await overlay.content()
        assert all(f'data-card="{c}"' in overlay_html for c in held[seat])
        await context.close()
