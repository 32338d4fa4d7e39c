"""Emulated reader hardware: an MFRC522 at register level with ISO/IEC 14443-3 type A
tags on its antenna, and the bus and GPIO fakes that wire it to driver code.

It exists so that RC522 driver code — ours and the PyPI libraries — runs unmodified in CI:
the emulator is handed to a driver as its SPI object and answers ``xfer2`` the way the
chip does (SPI address bytes, registers, FIFO, commands, timer, interrupt bits) while tags
placed on its antenna follow the ISO 14443-3 state machine (IDLE → READY → ACTIVE → HALT,
bit-oriented anticollision with real collisions, cascade levels, CRC_A, HLTA).

Time is virtual: every SPI transfer advances a :class:`VirtualClock` by an assumed cost and
air-interface events (end of transmission, tag answer, timer expiry) happen at the virtual
instant they would on a real antenna. A driver that sleeps should sleep on the same clock
(``clock.sleep``); one that busy-polls simply spends transfers, as it would on a Pi.

Written from the NXP MFRC522 data sheet and ISO/IEC 14443-3, independently of
``table_node.rc522`` (it shares no constants with the driver on purpose). Modelling choices
the data sheet leaves open are listed in :class:`MFRC522Emulator`'s docstring.

The modules, by what they emulate:

- :mod:`~table_node.emulation.chip` — the MFRC522 (:class:`MFRC522Emulator`), with its
  register map in :mod:`~table_node.emulation.registers`;
- :mod:`~table_node.emulation.tags` — the tags (:class:`Tag`, :class:`TagState`), with
  the air interface's timing, codes and CRC_A in :mod:`~table_node.emulation.iso14443`;
- :mod:`~table_node.emulation.bus` — a shared SPI bus with chip selects
  (:class:`EmulatedSpiBus`) and a ``spidev`` look-alike (:func:`fake_spidev_module`);
- :mod:`~table_node.emulation.gpio` — an ``RPi.GPIO`` look-alike (:class:`FakeGpio`);
- :mod:`~table_node.emulation.pi` — both look-alikes as the modules a library imports
  (:func:`fake_pi_modules`);
- :mod:`~table_node.emulation.clock` — :class:`VirtualClock`.

>>> chip = MFRC522Emulator()
>>> chip.xfer2([0x37 << 1 | 0x80, 0])  # read VersionReg
[0, 146]
>>> chip.place(Tag.from_hex("04A2249A6B1D80"))
>>> len(chip.tags)
1
"""

from __future__ import annotations

from table_node.emulation.bus import EmulatedSpiBus, FakeSpiDev, fake_spidev_module
from table_node.emulation.chip import MFRC522Emulator
from table_node.emulation.clock import VirtualClock
from table_node.emulation.gpio import FakeGpio, fake_rpi_modules
from table_node.emulation.iso14443 import BIT_US, FDT_US, crc_a
from table_node.emulation.pi import fake_pi_modules
from table_node.emulation.tags import Tag, TagState

__all__ = [
    "BIT_US",
    "FDT_US",
    "EmulatedSpiBus",
    "FakeGpio",
    "FakeSpiDev",
    "MFRC522Emulator",
    "Tag",
    "TagState",
    "VirtualClock",
    "crc_a",
    "fake_pi_modules",
    "fake_rpi_modules",
    "fake_spidev_module",
]
