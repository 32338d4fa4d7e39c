"""Seat lights through a scripted hand: after every action exactly the acting seat's LED
shows "acting" (issue #7, acceptance 3).

Real parts: the hub with its rules, the embedded broker, a node whose seat LEDs are
gpiozero PWM LEDs on mock pins, subscribed to the hub's retained light commands. Cards
are laid on simulated antennas and travel node → broker → hub; actions are entered at
the hub's table service, as the console will.
"""

from __future__ import annotations

import asyncio
import threading

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.protocol import LightPattern
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, PlayerSettings, RulesSettings, WebSettings
from hub.rules.procedure import Act, ConsoleAction
from table_node.config import default_readers
from table_node.lights import SeatLight, SeatLights
from table_node.main import attach_lights
from table_node.node import Node
from table_node.simulated import SimulatedTable

DECK = simulated_deck()
SEATS = (1, 3, 4, 6)
PINS = {1: 5, 3: 6, 4: 13, 6: 19}


async def test_after_every_action_only_the_acting_seat_shows_acting() -> None:
    hub = await start_hub(
        HubConfig(
            table="t1",
            mqtt=HubMqttSettings(embedded_port=0),
            web=WebSettings(port=0),
            live_equity=False,
            rules=RulesSettings(
                players=[PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in SEATS],
                tick_seconds=0,
            ),
        )
    )
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    lights = SeatLights({seat: SeatLight.pwm(pin) for seat, pin in PINS.items()})
    antennas = SimulatedTable(default_readers())
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://{hub.broker.host}:{hub.broker.port}"), table="t1", node="n"
    )
    attach_lights(transport, "t1", lights)
    node = Node(
        list(antennas.readers.values()),
        InventoryPublisher(table="t1", node="n", transport=transport),
    )
    stop = threading.Event()
    poller = threading.Thread(target=node.run, args=(stop, 0.005), daemon=True)
    rules = hub.rules
    assert rules is not None and rules.desk.setup is not None

    async def settle_on(acting: int | None) -> None:
        """Wait until the LEDs show exactly ``acting`` as the acting seat."""
        async with asyncio.timeout(10):
            while True:
                showing = {
                    s for s, light in lights.lights.items() if light.pattern is LightPattern.ACTING
                }
                if showing == ({acting} if acting is not None else set()):
                    return
                await asyncio.sleep(0.01)

    try:
        assert await asyncio.to_thread(transport.wait_connected, 10)
        poller.start()
        order = rules.desk.setup.seats  # hand order: first left of the button … the button
        cards = iter(["As", "Kd", "7c", "2h", "Ah", "Kc", "7d", "2s"])
        for _ in range(2):
            for seat in order:
                antennas.reader(f"seat{seat}").place(DECK.uid_for(next(cards)))
                await asyncio.sleep(0.05)
        hand = rules.desk.monitor.hand if rules.desk.monitor is not None else None
        assert hand is not None
        steps = 0
        # pre-flop: everyone calls or checks around; then the flop is dealt and checked
        while hand.actor is not None:
            seat = order[hand.actor]
            await settle_on(seat)
            assert factory.pin(PINS[seat]).state == 1.0  # the acting LED is fully lit
            act = Act.CHECK if hand.legal_actions().can_check else Act.CALL
            step = rules.console(ConsoleAction(seat, act, hub.service.clock()))
            assert step is not None and not step.refused, step
            steps += 1
        await settle_on(None)  # the betting round is over: nobody is acting
        assert steps == len(order)
    finally:
        stop.set()
        if poller.is_alive():
            poller.join(2)
        transport.close()
        lights.close()
        factory.reset()
        Device.pin_factory = None
        await hub.stop()
