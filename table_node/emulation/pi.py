"""The Raspberry Pi modules the PyPI RC522 libraries import, faked: ``spidev`` with
emulated chips as its SPI devices and ``RPi.GPIO`` backed by a :class:`FakeGpio`."""

from __future__ import annotations

import types
from collections.abc import Mapping

from table_node.emulation.bus import fake_spidev_module
from table_node.emulation.chip import MFRC522Emulator
from table_node.emulation.gpio import FakeGpio, fake_rpi_modules


def fake_pi_modules(
    devices: Mapping[tuple[int, int], MFRC522Emulator], gpio: FakeGpio | None = None
) -> dict[str, types.ModuleType]:
    """``spidev`` whose (bus, device) pairs are ``devices``, ``RPi`` and ``RPi.GPIO``
    backed by ``gpio`` (None: a fresh :class:`FakeGpio`), to put into ``sys.modules``.

    >>> modules = fake_pi_modules({(0, 0): MFRC522Emulator()})
    >>> sorted(modules)
    ['RPi', 'RPi.GPIO', 'spidev']
    """
    return {"spidev": fake_spidev_module(devices), **fake_rpi_modules(gpio or FakeGpio())}
