"""Emulated RC522 chips → our driver → node → real Mosquitto → hub, and back to a seat LED.

The node runs its real code: the RC522 driver talks SPI to register-level MFRC522
emulators, gpiozero drives mock pins. A tag laid on seat 2's emulated antenna becomes a
card at the hub, and the hub's light command lights seat 2's LED.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from websockets.asyncio.client import connect

from feltwire.config import MqttClientSettings, load_config
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.protocol import LightPattern
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import start_hub
from table_node.config import NodeConfig
from table_node.emulation import MFRC522Emulator, Tag, VirtualClock
from table_node.lights import SeatLight, SeatLights
from table_node.main import attach_lights
from table_node.node import Node
from table_node.rc522_reader import RC522Wiring, build_rc522_readers
from tests.support.hub_configs import hub_on_broker
from tests.support.mosquitto import MosquittoProcess

DECK = simulated_deck()
READERS = ["seat1", "seat2", "seat3", "board"]


async def test_tag_on_emulated_chip_becomes_card_and_lights_the_seat(
    mosquitto: MosquittoProcess,
) -> None:
    hub = await start_hub(hub_on_broker(mosquitto.url, READERS))
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    clock = VirtualClock()
    chips = {(0, i): MFRC522Emulator(clock=clock, name=r) for i, r in enumerate(READERS)}
    readers = build_rc522_readers(
        [RC522Wiring(r, bus=0, device=i) for i, r in enumerate(READERS)],
        open_spi=lambda bus, dev, hz, no_cs: chips[(bus, dev)],
        sleep=clock.sleep,
    )
    transport = PahoTransport(MqttClientSettings(url=mosquitto.url), table="t1", node="pi")
    lights = SeatLights({n: SeatLight.pwm(pin) for n, pin in ((1, 5), (2, 6), (3, 13))})
    attach_lights(transport, "t1", lights)
    node = Node(list(readers), InventoryPublisher(table="t1", node="pi", transport=transport))
    stop = threading.Event()
    poller = threading.Thread(target=node.run, args=(stop, 0.005), daemon=True)
    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        poller.start()
        url = hub.web_url.replace("http", "ws") + f"/ws/overlay?token={hub.producer_token}"
        async with connect(url) as ws:
            json.loads(await ws.recv())
            chips[(0, 1)].place(Tag.from_hex(DECK.uid_for("Qh")))
            async with asyncio.timeout(5):
                while True:
                    ev = json.loads(await ws.recv())
                    if ev.get("reader") == "seat2" and ev["cards"] == ["Qh"]:
                        break
            async with asyncio.timeout(5):
                while lights.lights[2].pattern is not LightPattern.IDLE:
                    await asyncio.sleep(0.01)
        assert factory.pin(6).state > 0  # seat 2's LED is lit
        assert factory.pin(5).state == 0 and factory.pin(13).state == 0
    finally:
        stop.set()
        if poller.is_alive():
            poller.join(2)
        transport.close()
        node.close()
        lights.close()
        factory.reset()
        Device.pin_factory = None
        await hub.stop()


def test_rc522_backend_config(tmp_path: Path) -> None:
    f = tmp_path / "node.toml"
    f.write_text(
        'backend = "rc522"\n[[rc522]]\nreader = "seat1"\ndevice = 0\n'
        '[[rc522]]\nreader = "burn"\nbus = 1\ncs_pin = 26\nreset_pin = 25\n'
    )
    cfg = load_config(NodeConfig, f)
    assert [w.reader for w in cfg.rc522] == ["seat1", "burn"] and cfg.rc522[1].cs_pin == 26
