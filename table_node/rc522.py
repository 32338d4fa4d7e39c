"""Our MFRC522 (RC522) driver: every ISO 14443-A tag on one antenna, in a few SPI transfers.

The driver talks to an SPI object it is given (anything with spidev's ``xfer2``: a real
``spidev.SpiDev`` from :func:`open_spidev`, or :class:`~table_node.emulation.
MFRC522Emulator` in tests) and, optionally, gpiozero output devices for a GPIO chip select
and the chip's reset line. Nothing touches hardware at import time.

What it does differently from the PyPI libraries (``mfrc522``, ``pi-rc522``):

- it waits on the chip with a logical test of ComIrqReg (RxIRq, IdleIRq, TimerIRq, ErrIRq)
  and sleeps for the expected air time instead of reading the register 2,000 times;
- the timer is set to 1 ms (a tag answers ~90 µs after a frame), not 15 ms;
- registers are read in bursts (status in one transfer, the FIFO in one transfer) and CRC_A
  is computed here, not with CalcCRC round trips;
- one sweep finds every tag on the antenna: WUPA, bit-oriented anticollision with
  collision resolution (a binary walk of the UID tree), SELECT at every cascade level
  (4-, 7- and 10-byte UIDs), HLTA each tag once read.

The reader boards' MicroPython driver, ``hardware/firmware/rc522.py``, is this driver's
twin on purpose (the board cannot import this module): see ``hardware/firmware/README.md``.

>>> from table_node.emulation import MFRC522Emulator, Tag
>>> chip = MFRC522Emulator()
>>> chip.place(Tag.from_hex("04A2249A6B1D80")); chip.place(Tag.from_hex("DEADBEEF"))
>>> reader = RC522(chip, sleep=chip.clock.sleep)
>>> sorted(uid.hex().upper() for uid in reader.inventory())
['04A2249A6B1D80', 'DEADBEEF']
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from table_node.errors import ReaderChipError

log = logging.getLogger(__name__)

__all__ = [
    "RC522",
    "ChipSelect",
    "SpiDevice",
    "crc_a",
    "gpio_chip_select",
    "open_spidev",
]

# Registers (MFRC522 data sheet, section 9).
COMMAND_REG = 0x01
COM_IRQ_REG = 0x04
ERROR_REG = 0x06
FIFO_DATA_REG = 0x09
FIFO_LEVEL_REG = 0x0A
CONTROL_REG = 0x0C
BIT_FRAMING_REG = 0x0D
COLL_REG = 0x0E
MODE_REG = 0x11
TX_CONTROL_REG = 0x14
TX_ASK_REG = 0x15
RF_CFG_REG = 0x26
T_MODE_REG = 0x2A
T_PRESCALER_REG = 0x2B
T_RELOAD_H_REG = 0x2C
T_RELOAD_L_REG = 0x2D
VERSION_REG = 0x37

# Commands.
CMD_IDLE = 0x00
CMD_TRANSMIT = 0x04
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

# ComIrqReg bits.
TIMER_IRQ = 0x01
ERR_IRQ = 0x02
IDLE_IRQ = 0x10
RX_IRQ = 0x20
TX_IRQ = 0x40
# ErrorReg bits.
PROTOCOL_ERR = 0x01
PARITY_ERR = 0x02
CRC_ERR = 0x04
COLL_ERR = 0x08
BUFFER_OVFL = 0x10
TEMP_ERR = 0x40
WR_ERR = 0x80
_HARD_ERRORS = PROTOCOL_ERR | PARITY_ERR | CRC_ERR | BUFFER_OVFL | TEMP_ERR | WR_ERR

# ISO 14443-3 type A.
WUPA = 0x52
HLTA = 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
CASCADE_BIT = 0x04
KNOWN_VERSIONS = {0x88: "FM17522", 0x90: "v0.0", 0x91: "v1.0", 0x92: "v2.0", 0xB2: "FM17522"}

_BIT_US = 128 / 13.56  # one bit at 106 kbit/s
_FDT_US = 1236 / 13.56  # reader frame end → tag answer start
_TIMER_TICK_US = 339 / 13.56  # TPrescaler 0xA9 (169): 2·169 + 1 = 339 carrier cycles = 25 µs
_MARGIN_US = 15.0
_POLL_US = 100.0


class SpiDevice(Protocol):
    """What the driver needs of an SPI device: spidev's ``xfer2`` (chip select held low)."""

    def xfer2(self, data: list[int]) -> list[int]: ...


class ChipSelect(Protocol):
    """A GPIO chip select: ``on()`` selects the chip (drives NSS low), ``off()`` releases it.

    A gpiozero ``DigitalOutputDevice`` built with ``active_high=False`` is one; see
    :func:`gpio_chip_select`. Hardware chip selects (CE0, CE1, SPI1's CE2) need none.
    """

    def on(self) -> None: ...

    def off(self) -> None: ...


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A of ISO/IEC 14443-3 (preset 6363), low byte first, as it goes on the air.

    >>> crc_a(b"\\x50\\x00").hex().upper()
    '57CD'
    """
    crc = 0x6363
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def _pcd_frame_us(nbits: int) -> float:
    return (1 + nbits + nbits // 8 + 2) * _BIT_US


def _picc_frame_us(nbits: int) -> float:
    return (1 + nbits + nbits // 8 + 1) * _BIT_US


def open_spidev(bus: int, device: int, *, speed_hz: int = 1_000_000, no_cs: bool = False) -> Any:
    """Open ``/dev/spidev<bus>.<device>`` (needs the ``pi`` extra; imported only here).

    ``no_cs`` asks the kernel not to drive that device's CE line — for a bus whose readers
    all use GPIO chip selects.
    """
    import spidev  # lazy: only a real Pi has it

    spi = spidev.SpiDev()
    spi.open(bus, device)
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    if no_cs:
        spi.no_cs = True
    return spi


def gpio_chip_select(pin: int | str, *, pin_factory: Any = None) -> Any:
    """A gpiozero output for an active-low chip select on ``pin``, released (high) now."""
    from gpiozero import DigitalOutputDevice

    return DigitalOutputDevice(pin, active_high=False, initial_value=False, pin_factory=pin_factory)


@dataclass(frozen=True)
class _Reply:
    """What came back from a transceive: FIFO bytes, valid bits, first collision."""

    data: bytes
    bits: int  # valid bits in ``data``, the RxAlign offset included
    collision: int | None  # 0-based bit index (in ``data``) of the first collision


@dataclass(frozen=True)
class _Branch:
    """A place in the UID tree still to visit: resolved levels and a known prefix."""

    levels: tuple[bytes, ...]
    known: bytes  # the current cascade level's 5 bytes (UID part + BCC), unknown bits 0
    nbits: int  # how many bits of ``known`` are known


class RC522:
    """An MFRC522 on an SPI bus, read as the list of tags on its antenna.

    ``spi`` is anything with ``xfer2``; ``cs`` an optional GPIO chip select (see
    :class:`ChipSelect`; omit it for hardware CE lines); ``reset`` an optional gpiozero
    output on NRSTPD; ``sleep`` how to wait (``time.sleep``, or an emulator clock's
    ``sleep``); ``bus_lock`` a lock shared by every reader on the same bus when several
    threads sweep them. ``timeout_us`` is how long to wait for a tag's answer.

    The constructor initialises the chip; :meth:`inventory` sweeps the antenna.
    ``transfers`` counts SPI transfers, ``errors`` garbled exchanges (retried next sweep).

    >>> from table_node.emulation import MFRC522Emulator, Tag
    >>> chip = MFRC522Emulator()
    >>> reader = RC522(chip, sleep=chip.clock.sleep, name="seat3")
    >>> reader.inventory()
    []
    >>> chip.place(Tag.from_hex("04A2249A6B1D80"))
    >>> [uid.hex() for uid in reader.inventory()]
    ['04a2249a6b1d80']
    """

    def __init__(
        self,
        spi: SpiDevice,
        *,
        cs: ChipSelect | None = None,
        reset: Any = None,
        name: str = "rc522",
        timeout_us: float = 1000.0,
        rx_gain: int | None = None,
        sleep: Callable[[float], None] = time.sleep,
        bus_lock: contextlib.AbstractContextManager[Any] | None = None,
        power_up_s: float = 0.005,
        max_branches: int = 64,
    ) -> None:
        if rx_gain is not None and not 0 <= rx_gain <= 7:
            raise ValueError("rx_gain is RFCfgReg.RxGain, 0 (18 dB) to 7 (48 dB)")
        self._spi = spi
        self._cs = cs
        self._reset = reset
        self.name = name
        self.timeout_us = timeout_us
        self._rx_gain = rx_gain
        self._sleep = sleep
        self._lock: contextlib.AbstractContextManager[Any] = (
            bus_lock if bus_lock is not None else contextlib.nullcontext()
        )
        self._power_up_s = power_up_s
        self._max_branches = max_branches
        self._framing = 0
        self.version = 0
        self.transfers = 0
        self.errors = 0
        self.init()

    # ----------------------------------------------------------------- SPI

    def _xfer(self, data: list[int]) -> list[int]:
        self.transfers += 1
        with self._lock:
            if self._cs is None:
                return self._spi.xfer2(data)
            self._cs.on()
            try:
                return self._spi.xfer2(data)
            finally:
                self._cs.off()

    def _write(self, reg: int, *values: int) -> None:
        """Write one register (several values: a burst into the same register, e.g. FIFO)."""
        self._xfer([(reg << 1) & 0x7E, *values])

    def _read(self, *regs: int) -> list[int]:
        """Read registers in one burst: ``[a|80, b|80, …, 00]`` → values of a, b, …"""
        return self._xfer([((reg << 1) & 0x7E) | 0x80 for reg in regs] + [0])[1:]

    # ----------------------------------------------------------------- set-up

    def init(self) -> None:
        """Reset and configure the chip: short timer, 100 % ASK, CRC preset, antenna on."""
        if self._reset is not None and not self._reset.value:
            self._reset.on()  # out of hard power-down; the oscillator needs time
            self._sleep(0.05)
        self._write(COMMAND_REG, CMD_SOFT_RESET)
        for _ in range(50):
            command, version = self._read(COMMAND_REG, VERSION_REG)
            if version in (0x00, 0xFF):
                raise ReaderChipError(
                    f"{self.name}: no RC522 answers (VersionReg reads {version:02X}); "
                    "check its power, MISO and chip-select wiring"
                )
            if not command & 0x10:  # PowerDown bit clears when the chip is ready
                break
            self._sleep(0.001)
        else:
            raise ReaderChipError(f"{self.name}: the RC522 does not come out of its reset")
        if version not in KNOWN_VERSIONS:
            log.warning("%s: unknown RC522 version %02X (a clone?)", self.name, version)
        self.version = version
        reload = max(0, math.ceil(self.timeout_us / _TIMER_TICK_US) - 1)
        self._write(T_MODE_REG, 0x80)  # TAuto: the timer starts when a frame has been sent
        self._write(T_PRESCALER_REG, 0xA9)  # 25 µs ticks
        self._write(T_RELOAD_H_REG, reload >> 8)
        self._write(T_RELOAD_L_REG, reload & 0xFF)
        self._write(TX_ASK_REG, 0x40)  # Force100ASK: type A needs 100 % ASK
        self._write(MODE_REG, 0x3D)  # CRC preset 6363 (ISO 14443-3) for CalcCRC
        self._write(COLL_REG, 0x00)  # ValuesAfterColl = 0: bits after a collision read 0
        if self._rx_gain is not None:
            self._write(RF_CFG_REG, self._rx_gain << 4)
        self._write(TX_CONTROL_REG, 0x83)  # antenna drivers TX1 and TX2 on
        self._framing = 0
        self._sleep(self._power_up_s)  # ISO 14443-3: tags may take 5 ms to power up

    def antenna_off(self) -> None:
        """Switch the RF field off (every tag on the antenna loses power)."""
        self._write(TX_CONTROL_REG, 0x80)

    def close(self) -> None:
        """Switch the field off; the SPI object and pins belong to whoever made them."""
        with contextlib.suppress(OSError):
            self.antenna_off()

    # ----------------------------------------------------------------- exchanges

    def _load(self, frame: bytes) -> None:
        """Stop whatever runs, clear the interrupt bits and put ``frame`` in the FIFO."""
        self._write(COMMAND_REG, CMD_IDLE)
        self._write(COM_IRQ_REG, 0x7F)  # Set1 = 0: clear every bit written as 1
        self._write(FIFO_LEVEL_REG, 0x80)  # FlushBuffer
        self._write(FIFO_DATA_REG, *frame)

    def _wait(self, first_us: float, limit_us: float) -> tuple[int, int, int, int, int]:
        """Sleep for the expected air time, then read status until the command is over.

        Over means RxIRq, IdleIRq or TimerIRq, or ErrIRq with an error other than a
        collision (a collision is flagged mid-frame; the frame itself is still coming).
        """
        self._sleep(first_us / 1e6)
        waited = first_us
        for _ in range(40):
            irq, error, level, control, coll = self._read(
                COM_IRQ_REG, ERROR_REG, FIFO_LEVEL_REG, CONTROL_REG, COLL_REG
            )
            if irq == 0xFF and error == 0xFF:
                raise ReaderChipError(f"{self.name}: the RC522 reads FF (not connected?)")
            if error & TEMP_ERR:
                raise ReaderChipError(f"{self.name}: the RC522 overheated; antenna is off")
            done = irq & (RX_IRQ | IDLE_IRQ | TIMER_IRQ)
            if done or (irq & ERR_IRQ and error & ~COLL_ERR):
                return irq, error, level, control, coll
            nap = limit_us + _MARGIN_US - waited if waited < limit_us else _POLL_US
            self._sleep(nap / 1e6)
            waited += nap
        raise ReaderChipError(f"{self.name}: the RC522 never ended a command (timer not running?)")

    def _transceive(
        self, frame: bytes, *, tx_last_bits: int = 0, rx_align: int = 0, reply_bits: int
    ) -> _Reply | None:
        """Send a frame, return the answer (None: no tag answered, or a garbled answer)."""
        self._load(frame)
        self._write(COMMAND_REG, CMD_TRANSCEIVE)
        self._framing = (rx_align << 4) | tx_last_bits
        self._write(BIT_FRAMING_REG, 0x80 | self._framing)  # StartSend
        nbits = len(frame) * 8 - ((8 - tx_last_bits) % 8)
        tx_us = _pcd_frame_us(nbits)
        irq, error, level, control, coll = self._wait(
            tx_us + _FDT_US + _picc_frame_us(reply_bits) + _MARGIN_US, tx_us + self.timeout_us
        )
        if error & _HARD_ERRORS:
            self.errors += 1
            log.debug("%s: garbled answer (ErrorReg %02X)", self.name, error)
            return None
        if not irq & RX_IRQ:
            return None  # the timer ran out: nobody answered
        data = bytes(self._read(*[FIFO_DATA_REG] * level)) if level else b""
        last = control & 0x07
        bits = (level - 1) * 8 + last if last and level else level * 8
        collision = None
        if error & COLL_ERR:
            if coll & 0x20:  # CollPosNotValid
                self.errors += 1
                return None
            collision = (coll & 0x1F or 32) - 1
        return _Reply(data, bits, collision)

    def _transmit(self, frame: bytes) -> None:
        """Send a frame that gets no answer (HLTA) and stop the timer it starts."""
        self._load(frame)
        if self._framing & 0x07:  # TxLastBits must be 0 for a whole-byte frame
            self._framing = 0
            self._write(BIT_FRAMING_REG, 0x00)
        self._write(COMMAND_REG, CMD_TRANSMIT)
        tx_us = _pcd_frame_us(len(frame) * 8)
        self._wait(tx_us + _MARGIN_US, tx_us + _MARGIN_US)
        self._write(CONTROL_REG, 0x80)  # TStopNow: no stale TimerIRq in the next exchange

    # ----------------------------------------------------------------- ISO 14443-3

    def _wupa(self) -> bool:
        """WUPA: wakes IDLE and HALT tags; True if anything answered (collided or not)."""
        reply = self._transceive(bytes([WUPA]), tx_last_bits=7, reply_bits=16)
        return reply is not None and reply.bits > 0

    def _select(self, level: int, part: bytes) -> int | None:
        """SELECT one UID part (4 bytes + BCC); the SAK, or None if nobody answered."""
        frame = bytes([SEL[level], 0x70]) + part
        reply = self._transceive(frame + crc_a(frame), reply_bits=24)
        if reply is None or reply.collision is not None or reply.bits != 24:
            return None
        if crc_a(reply.data[:1]) != reply.data[1:3]:
            self.errors += 1
            return None
        return reply.data[0]

    def _anticollision(self, level: int, branch: _Branch, pending: list[_Branch]) -> bytes | None:
        """Resolve one UID part below ``branch``; push the untaken sides of collisions."""
        known, nbits = bytearray(branch.known), branch.nbits
        while nbits < 32:
            whole, extra = divmod(nbits, 8)
            frame = bytes([SEL[level], ((2 + whole) << 4) | extra]) + bytes(
                known[: whole + (1 if extra else 0)]
            )
            reply = self._transceive(
                frame, tx_last_bits=extra, rx_align=extra, reply_bits=40 - nbits
            )
            if reply is None or not reply.data:
                return None
            for i, byte in enumerate(reply.data):  # merge: the first byte shares bits
                if whole + i < 5:
                    known[whole + i] = (known[whole + i] if i == 0 else 0) | byte
            if reply.collision is None:
                if extra + 40 - nbits != reply.bits:
                    self.errors += 1
                    return None
                nbits = 40
                break
            at = whole * 8 + reply.collision  # bit index within the UID part
            if at < nbits or at >= 32:
                self.errors += 1
                return None
            prefix = _keep_bits(known, at)
            zero = bytearray(prefix)
            pending.append(_Branch(branch.levels, bytes(zero), at + 1))
            prefix[at // 8] |= 1 << (at % 8)
            known, nbits = prefix, at + 1
        if nbits < 40:
            known[4] = known[0] ^ known[1] ^ known[2] ^ known[3]
        elif known[4] != known[0] ^ known[1] ^ known[2] ^ known[3]:
            self.errors += 1  # BCC wrong: a garbled answer
            return None
        return bytes(known)

    def _resolve(self, branch: _Branch, pending: list[_Branch]) -> bytes | None:
        """Wake the field, walk to ``branch``, finish one tag's UID and halt it."""
        if not self._wupa():
            return None
        uid = bytearray()
        for level, done in enumerate(branch.levels):
            sak = self._select(level, done)
            if sak is None or not sak & CASCADE_BIT:
                return None  # the tags of this branch have gone
            uid += done[1:4]
        levels = branch.levels
        while True:
            level = len(levels)
            if level >= len(SEL):
                self.errors += 1
                return None
            start = branch if len(levels) == len(branch.levels) else _Branch(levels, bytes(5), 0)
            part = self._anticollision(level, start, pending)
            if part is None:
                return None
            sak = self._select(level, part)
            if sak is None:
                return None
            if sak & CASCADE_BIT:
                if part[0] != CASCADE_TAG:
                    self.errors += 1
                    return None
                uid += part[1:4]
                levels = (*levels, part)
                continue
            uid += part[:4]
            self._transmit(bytes([HLTA, 0x00]) + crc_a([HLTA, 0x00]))
            return bytes(uid)

    def inventory(self) -> list[bytes]:
        """Every tag on the antenna now, as UIDs (4, 7 or 10 bytes), each tag halted."""
        found: list[bytes] = []
        pending = [_Branch((), bytes(5), 0)]
        visited = 0
        while pending:
            visited += 1
            if visited > self._max_branches:
                self.errors += 1
                log.warning("%s: too many collisions in one sweep; stopping", self.name)
                break
            uid = self._resolve(pending.pop(), pending)
            if uid is not None and uid not in found:
                found.append(uid)
        return found


def _keep_bits(data: bytearray, nbits: int) -> bytearray:
    """``data`` with every bit from index ``nbits`` on cleared."""
    out = bytearray(len(data))
    for i in range(nbits):
        if data[i // 8] >> (i % 8) & 1:
            out[i // 8] |= 1 << (i % 8)
    return out
