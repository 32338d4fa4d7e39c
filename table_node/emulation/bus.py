"""SPI stand-ins wired to emulated chips: a shared bus with chip selects, and a
``spidev`` look-alike for the PyPI RC522 libraries."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping

from table_node.emulation.chip import MFRC522Emulator
from table_node.emulation.clock import VirtualClock
from table_node.errors import EmulatorError


class EmulatedSpiBus:
    """One SPI bus (MOSI, MISO, SCK) shared by several emulated chips.

    Each chip listens only while its chip-select line is low; ``attach`` says how to tell
    (for a gpiozero mock pin: ``lambda: pin.state == 0``). Drivers use the bus itself as
    their SPI object and drive their own chip selects. ``log`` records, per transfer, the
    names of the chips that were selected.

    >>> clock = VirtualClock()
    >>> bus = EmulatedSpiBus(clock)
    >>> a, b = MFRC522Emulator(clock=clock, name="a"), MFRC522Emulator(clock=clock, name="b")
    >>> selected = {"a": False, "b": True}
    >>> bus.attach(a, lambda: selected["a"]); bus.attach(b, lambda: selected["b"])
    >>> bus.xfer2([0x37 << 1 | 0x80, 0]), bus.log
    ([0, 146], [('b',)])
    """

    def __init__(self, clock: VirtualClock, *, call_overhead_us: float = 30.0) -> None:
        self.clock = clock
        self.call_overhead_us = call_overhead_us
        self.spi_hz = 1_000_000
        self._chips: list[tuple[MFRC522Emulator, Callable[[], bool]]] = []
        self.log: list[tuple[str, ...]] = []

    def attach(self, chip: MFRC522Emulator, selected: Callable[[], bool]) -> None:
        """Wire a chip to the bus; ``selected()`` is True while its NSS line is low."""
        if chip.clock is not self.clock:
            raise EmulatorError("chips on one bus must share the bus's clock")
        self._chips.append((chip, selected))

    def xfer2(self, data: list[int]) -> list[int]:
        """One transaction; every selected chip sees MOSI, MISO is their wired AND."""
        chosen = [chip for chip, selected in self._chips if selected()]
        self.log.append(tuple(chip.name for chip in chosen))
        self.clock.advance_us(self.call_overhead_us + len(data) * 8 * 1e6 / self.spi_hz)
        if not chosen:
            return [0] * len(data)
        replies = []
        for chip in chosen:
            replies.append(chip.xfer2_on_bus(data))
        wired_and = []
        for column in zip(*replies, strict=True):
            value = 0xFF
            for byte in column:
                value &= byte
            wired_and.append(value)
        return wired_and


class FakeSpiDev:
    """A ``spidev.SpiDev`` look-alike whose ``/dev/spidevB.D`` are emulated chips.

    Built by :func:`fake_spidev_module`; ``open(bus, device)`` fails like the real one when
    nothing is wired there.
    """

    devices: Mapping[tuple[int, int], MFRC522Emulator] = {}

    def __init__(self, bus: int | None = None, device: int | None = None) -> None:
        self.max_speed_hz = 500_000
        self.mode = 0
        self.bits_per_word = 8
        self.no_cs = False
        self._chip: MFRC522Emulator | None = None
        if bus is not None and device is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        """Open ``/dev/spidev<bus>.<device>``."""
        try:
            self._chip = self.devices[(bus, device)]
        except KeyError:
            raise FileNotFoundError(2, "No such file or directory") from None

    def close(self) -> None:
        """Close the device."""
        self._chip = None

    def xfer2(self, data: list[int], *_: object) -> list[int]:
        """One transaction with chip select held active."""
        if self._chip is None:
            raise OSError(9, "Bad file descriptor")
        self._chip.spi_hz = self.max_speed_hz
        return self._chip.xfer2(list(data))


def fake_spidev_module(devices: Mapping[tuple[int, int], MFRC522Emulator]) -> types.ModuleType:
    """A stand-in ``spidev`` module whose SPI devices are the given emulated chips."""
    module = types.ModuleType("spidev")
    spi_class = type("SpiDev", (FakeSpiDev,), {"devices": dict(devices)})
    module.SpiDev = spi_class  # type: ignore[attr-defined]
    return module
