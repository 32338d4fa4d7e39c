"""Dealer buttons: push buttons on the node, each press sent to the hub.

A button is a gpiozero :class:`~gpiozero.Button` (to GND, internal pull-up, debounced);
every press publishes a :class:`~feltwire.protocol.ButtonPress` on
``…/node/<node>/button`` with QoS 1 through the node's transport (and outbox).

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory
>>> Device.pin_factory = MockFactory()
>>> sent = []
>>> class T:
...     def publish(self, topic, payload, *, qos, retain): sent.append(topic)
>>> buttons = DealerButtons({"undo": 21}, table="t1", node="n1", transport=T())
>>> Device.pin_factory.pin(21).drive_low()
>>> sent
['feltwire/v1/t1/node/n1/button']
>>> buttons.close(); Device.pin_factory = None
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from feltwire.protocol import ButtonPress, button_topic, encode
from feltwire.publisher import Transport


class DealerButtons:
    """The dealer's push buttons of one node, by name."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        table: str,
        node: str,
        transport: Transport,
        clock: Callable[[], float] = time.time,
        bounce_time: float = 0.05,
    ) -> None:
        from gpiozero import Button

        self._topic = button_topic(table, node)
        self._node = node
        self._transport = transport
        self._clock = clock
        self.presses = 0
        self._buttons: dict[str, Any] = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, bounce_time=bounce_time)
            button.when_pressed = self._sender(name)
            self._buttons[name] = button

    def _sender(self, name: str) -> Callable[[], None]:
        def send() -> None:
            self.presses += 1
            press = ButtonPress(v=1, node=self._node, button=name, ts=self._clock())
            self._transport.publish(self._topic, encode(press), qos=1, retain=False)

        return send

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons.values():
            button.close()
