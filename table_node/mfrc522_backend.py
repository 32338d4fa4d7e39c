"""A reader backend on the PyPI ``mfrc522`` package, for existing single-card builds.

Builds that already wire one RC522 per Pi for the popular ``mfrc522`` library can keep
it: this wraps ``mfrc522.MFRC522`` behind our :class:`~table_node.reader.Reader`
interface. Its limits, measured against the emulated chip
(``tests/hardware/table_node/test_mfrc522_backend.py``, ``docs/benchmarks.md``):

- **one card per antenna**: it has no anticollision; two tags on an antenna read as
  nothing (a collision), so it suits the burn or a single-card box, not a seat;
- **7-byte UIDs are truncated**: an NTAG sticker reads as ``88`` + its first three UID
  bytes (the cascade level-1 answer); NXP tags all start with ``04``, so only two bytes
  tell cards apart — register the deck with this same backend, and prefer 4-byte MIFARE
  Classic tags;
- **slow polls**: its wait loop tests with ``~`` where ``not`` is meant, so an empty
  antenna costs ≈ 2,000 SPI transfers (≈ 60 ms on a Pi 4) instead of ≈ 8 with
  :mod:`table_node.rc522`;
- **every other read**: a card left on the antenna is not halted, so it answers only
  every other request; ``misses_before_gone`` (default 2) keeps it from flickering.

The library imports ``RPi.GPIO`` and ``spidev`` when imported, so it only loads on a Pi
(or in tests, with fakes).
"""

from __future__ import annotations

import importlib
from typing import Any


class Mfrc522Reader:
    """One antenna read through ``mfrc522.MFRC522`` (one card at a time)."""

    def __init__(
        self,
        reader_id: str,
        *,
        bus: int = 0,
        device: int = 0,
        pin_rst: int = -1,
        misses_before_gone: int = 2,
        library: Any = None,
    ) -> None:
        lib = library if library is not None else importlib.import_module("mfrc522")
        self._id = reader_id
        self._chip = lib.MFRC522(bus=bus, device=device, pin_rst=pin_rst)
        self._misses_before_gone = misses_before_gone
        self._present: dict[str, int] = {}  # uid -> consecutive misses

    @property
    def reader_id(self) -> str:
        """The protocol's name of this antenna."""
        return self._id

    def _read_once(self) -> str | None:
        chip = self._chip
        status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
        if status != chip.MI_OK:
            return None
        status, uid = chip.MFRC522_Anticoll()
        if status != chip.MI_OK:
            return None
        return bytes(uid[:4]).hex().upper()

    def inventory(self) -> frozenset[str]:
        """The card on the antenna, debounced over ``misses_before_gone`` sweeps."""
        seen = self._read_once()
        for uid in list(self._present):
            if uid != seen:
                self._present[uid] += 1
                if self._present[uid] >= self._misses_before_gone:
                    del self._present[uid]
        if seen is not None:
            self._present[seen] = 0
        return frozenset(self._present)

    def close(self) -> None:
        """Release the SPI device (the library also resets the GPIO settings)."""
        self._chip.Close_MFRC522()
