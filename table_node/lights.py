"""Seat lights: one LED per seat showing what the hub says (acting, error, all in …).

A light is an RGB LED (three PWM pins) or a single PWM LED, driven through gpiozero so
tests can run the real code on gpiozero's mock pins. The hub sends retained
:class:`~feltwire.protocol.LightCommand` messages on ``…/seat/<n>/light/set``.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> Device.pin_factory = MockFactory(pin_class=MockPWMPin)
>>> light = SeatLight.rgb(17, 27, 22)
>>> light.show(LightPattern.ACTING); light.color
(0.0, 1.0, 0.0)
>>> light.close(); Device.pin_factory = None
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from feltwire.errors import ProtocolError
from feltwire.protocol import LightPattern, decode_light_command

log = logging.getLogger(__name__)

Color = tuple[float, float, float]

#: steady colour, or (on colour, blink seconds) for blinking patterns
PATTERN_COLORS: Mapping[LightPattern, tuple[Color, float | None]] = {
    LightPattern.ACTING: ((0.0, 1.0, 0.0), None),
    LightPattern.ERROR: ((1.0, 0.0, 0.0), 0.25),
    LightPattern.ALLIN: ((0.0, 0.0, 1.0), None),
    LightPattern.FOLDED: ((0.0, 0.0, 0.0), None),
    LightPattern.IDLE: ((0.15, 0.15, 0.15), None),
    LightPattern.OFF: ((0.0, 0.0, 0.0), None),
}


class SeatLight:
    """One seat's LED: an RGB LED, or a single PWM LED shown at the pattern's brightness."""

    def __init__(self, device: Any, *, rgb: bool) -> None:
        self._device = device
        self._rgb = rgb
        self.pattern = LightPattern.OFF

    @classmethod
    def rgb(cls, red: int | str, green: int | str, blue: int | str) -> SeatLight:
        """An RGB LED on three PWM-capable pins (gpiozero pin names or BCM numbers)."""
        from gpiozero import RGBLED

        return cls(RGBLED(red, green, blue), rgb=True)

    @classmethod
    def pwm(cls, pin: int | str) -> SeatLight:
        """A single LED on one PWM pin: on for acting/all in/error, dim for idle."""
        from gpiozero import PWMLED

        return cls(PWMLED(pin), rgb=False)

    @property
    def color(self) -> Color:
        """What the LED shows now (a single LED reports its brightness on all three)."""
        if self._rgb:
            r, g, b = self._device.value
            return (float(r), float(g), float(b))
        v = float(self._device.value)
        return (v, v, v)

    def show(self, pattern: LightPattern) -> None:
        """Switch to a pattern."""
        color, blink = PATTERN_COLORS[pattern]
        self.pattern = pattern
        if self._rgb:
            if blink is not None:
                self._device.blink(on_time=blink, off_time=blink, on_color=color, background=True)
            else:
                self._device.color = color
            return
        level = max(color)
        if blink is not None:
            self._device.blink(on_time=blink, off_time=blink, background=True)
        else:
            self._device.value = level

    def close(self) -> None:
        """Turn off and release the pins."""
        self._device.close()


class SeatLights:
    """The lights of the seats this node owns, driven by the hub's light commands."""

    def __init__(self, lights: Mapping[int, SeatLight]) -> None:
        self.lights = dict(lights)
        self.refused = 0

    def handle(self, seat: int, payload: bytes) -> LightPattern | None:
        """Apply one ``light/set`` payload; a bad one is logged, counted and ignored."""
        light = self.lights.get(seat)
        if light is None:
            return None
        try:
            command = decode_light_command(payload)
        except ProtocolError as exc:
            self.refused += 1
            log.warning("refused light command for seat %d: %s (%s)", seat, exc, exc.reason)
            return None
        light.show(command.pattern)
        return command.pattern

    def close(self) -> None:
        """Release every light."""
        for light in self.lights.values():
            light.close()
