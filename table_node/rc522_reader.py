"""RC522 antennas as :class:`~table_node.reader.Reader` backends, and how a node wires them.

:class:`RC522Reader` turns a driver's sweeps into a steady presence: a tag is reported gone
only after ``misses_before_gone`` consecutive sweeps without it (2 by default), so one
missed answer does not make a card blink off the table.

:func:`build_rc522_readers` builds every reader of a node from :class:`RC522Wiring`
records. Several RC522 share one SPI bus (MOSI, MISO, SCK, and often RST); each needs
its own chip select, either a hardware CE line (SPI0 CE0/CE1, SPI1 CE0-CE2 with
``dtoverlay=spi1-3cs``: give ``device``) or any GPIO driven low by gpiozero (give
``cs_pin``; the bus is then opened once through a spidev device whose CE pin is left
unconnected, with ``no_cs``). Readers on one bus share one lock.

>>> from table_node.emulation import MFRC522Emulator, Tag, VirtualClock
>>> clock = VirtualClock()
>>> chips = {(0, 0): MFRC522Emulator(clock=clock), (0, 1): MFRC522Emulator(clock=clock)}
>>> readers = build_rc522_readers(
...     [RC522Wiring("seat1", bus=0, device=0), RC522Wiring("seat2", bus=0, device=1)],
...     open_spi=lambda bus, device, speed_hz, no_cs: chips[(bus, device)],
...     sleep=clock.sleep,
... )
>>> chips[(0, 1)].place(Tag.from_hex("04A2249A6B1D80"))
>>> {r.reader_id: sorted(r.inventory()) for r in readers}
{'seat1': [], 'seat2': ['04A2249A6B1D80']}
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from table_node.errors import ReaderWiringError
from table_node.rc522 import RC522, gpio_chip_select, open_spidev

__all__ = ["RC522Reader", "RC522Wiring", "build_rc522_readers"]


class RC522Reader:
    """One antenna read through our RC522 driver, with presence debouncing.

    >>> from table_node.emulation import MFRC522Emulator, Tag
    >>> chip = MFRC522Emulator()
    >>> seat = RC522Reader("seat3", RC522(chip, sleep=chip.clock.sleep))
    >>> card = Tag.from_hex("04A2249A6B1D80"); chip.place(card)
    >>> sorted(seat.inventory())
    ['04A2249A6B1D80']
    >>> chip.remove(card); sorted(seat.inventory()), sorted(seat.inventory())
    (['04A2249A6B1D80'], [])
    """

    def __init__(
        self,
        reader_id: str,
        driver: RC522,
        *,
        misses_before_gone: int = 2,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if misses_before_gone < 1:
            raise ValueError("misses_before_gone must be at least 1")
        self._id = reader_id
        self.driver = driver
        self.misses_before_gone = misses_before_gone
        self._misses: dict[str, int] = {}
        self._on_close = on_close
        self.sweeps = 0

    @property
    def reader_id(self) -> str:
        """The protocol's name of this antenna."""
        return self._id

    def inventory(self) -> frozenset[str]:
        """Sweep the antenna; tags seen now plus those missed fewer times than allowed."""
        seen = {uid.hex().upper() for uid in self.driver.inventory()}
        self.sweeps += 1
        for uid in seen:
            self._misses[uid] = 0
        for uid in [u for u in self._misses if u not in seen]:
            self._misses[uid] += 1
            if self._misses[uid] >= self.misses_before_gone:
                del self._misses[uid]
        return frozenset(self._misses)

    def close(self) -> None:
        """Switch the antenna off and release what was opened for this reader."""
        try:
            self.driver.close()
        finally:
            if self._on_close is not None:
                self._on_close()
                self._on_close = None


@dataclass(frozen=True)
class RC522Wiring:
    """Where one antenna's RC522 is wired to the Pi.

    ``bus``/``device``: the spidev device (``/dev/spidev<bus>.<device>``). With a hardware
    chip select that is the reader's own CE line; with ``cs_pin`` it is the device the
    shared bus is opened through, and its CE pin must not be wired to any reader.
    ``cs_pin``: a GPIO chip select (gpiozero pin name or BCM number), active low.
    ``reset_pin``: the NRSTPD line, if wired (readers may share it).
    """

    reader_id: str
    bus: int = 0
    device: int = 0
    cs_pin: int | str | None = None
    reset_pin: int | str | None = None
    speed_hz: int = 1_000_000


OpenSpi = Callable[[int, int, int, bool], Any]


def _default_open_spi(bus: int, device: int, speed_hz: int, no_cs: bool) -> Any:
    return open_spidev(bus, device, speed_hz=speed_hz, no_cs=no_cs)


def _check(wirings: Sequence[RC522Wiring]) -> None:
    ids = [w.reader_id for w in wirings]
    if len(set(ids)) != len(ids):
        raise ReaderWiringError(f"reader ids repeat: {sorted(ids)}")
    hardware = [(w.bus, w.device) for w in wirings if w.cs_pin is None]
    if len(set(hardware)) != len(hardware):
        raise ReaderWiringError("two readers on the same hardware chip select (bus, device)")
    shared = {(w.bus, w.device) for w in wirings if w.cs_pin is not None}
    clash = shared & set(hardware)
    if clash:
        raise ReaderWiringError(
            f"spidev device(s) {sorted(clash)} carry a GPIO-selected bus and a reader on "
            "their own CE line; open the shared bus through an unused CE"
        )
    pins = [str(w.cs_pin) for w in wirings if w.cs_pin is not None]
    if len(set(pins)) != len(pins):
        raise ReaderWiringError("two readers on the same GPIO chip select")


def build_rc522_readers(
    wirings: Sequence[RC522Wiring],
    *,
    open_spi: OpenSpi = _default_open_spi,
    pin_factory: Any = None,
    sleep: Callable[[float], None] = time.sleep,
    misses_before_gone: int = 2,
    timeout_us: float = 1000.0,
) -> list[RC522Reader]:
    """Open the buses and pins the wirings name and return one reader per wiring.

    ``open_spi(bus, device, speed_hz, no_cs)`` opens an SPI device (spidev by default;
    tests pass emulated chips or an :class:`~table_node.emulation.EmulatedSpiBus`);
    ``pin_factory`` is gpiozero's. A chip that does not answer raises
    :class:`~table_node.errors.ReaderChipError` naming the reader; whatever was opened
    is closed again.
    """
    _check(wirings)
    spis: dict[tuple[int, int], _Shared] = {}
    resets: dict[str, _Shared] = {}
    locks: dict[int, threading.Lock] = {}
    readers: list[RC522Reader] = []
    try:
        for wiring in wirings:
            key = (wiring.bus, wiring.device)
            if key not in spis:
                no_cs = wiring.cs_pin is not None
                spis[key] = _Shared(open_spi(wiring.bus, wiring.device, wiring.speed_hz, no_cs))
            held = [spis[key].take()]
            if wiring.reset_pin is not None:
                reset_key = str(wiring.reset_pin)
                if reset_key not in resets:
                    from gpiozero import DigitalOutputDevice

                    resets[reset_key] = _Shared(
                        DigitalOutputDevice(
                            wiring.reset_pin, initial_value=True, pin_factory=pin_factory
                        )
                    )
                held.append(resets[reset_key].take())
            cs = None
            if wiring.cs_pin is not None:
                cs = gpio_chip_select(wiring.cs_pin, pin_factory=pin_factory)
                held.append(_Shared(cs).take())
            release = _release_all(held)
            try:
                driver = RC522(
                    spis[key].thing,
                    cs=cs,
                    reset=None if wiring.reset_pin is None else resets[str(wiring.reset_pin)].thing,
                    name=wiring.reader_id,
                    sleep=sleep,
                    timeout_us=timeout_us,
                    bus_lock=locks.setdefault(wiring.bus, threading.Lock()),
                )
            except BaseException:
                release()
                raise
            readers.append(
                RC522Reader(
                    wiring.reader_id,
                    driver,
                    misses_before_gone=misses_before_gone,
                    on_close=release,
                )
            )
    except BaseException:
        for reader in readers:
            with contextlib.suppress(Exception):
                reader.close()
        raise
    return readers


class _Shared:
    """Something several readers use (a bus, a reset line); closed by its last user."""

    def __init__(self, thing: Any) -> None:
        self.thing = thing
        self.users = 0

    def take(self) -> _Shared:
        self.users += 1
        return self

    def release(self) -> None:
        self.users -= 1
        if self.users == 0 and hasattr(self.thing, "close"):
            with contextlib.suppress(Exception):
                self.thing.close()


def _release_all(held: list[_Shared]) -> Callable[[], None]:
    def release() -> None:
        for shared in reversed(held):
            shared.release()

    return release
