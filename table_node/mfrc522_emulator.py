"""A register-level MFRC522 emulator with ISO/IEC 14443-3 type A tags on its antenna.

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

>>> chip = MFRC522Emulator()
>>> chip.xfer2([0x37 << 1 | 0x80, 0])  # read VersionReg
[0, 146]
>>> chip.place(Tag.from_hex("04A2249A6B1D80"))
>>> len(chip.tags)
1
"""

from __future__ import annotations

import enum
import random
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from table_node.errors import EmulatorError

__all__ = [
    "BIT_US",
    "FDT_US",
    "EmulatedSpiBus",
    "FakeGpio",
    "MFRC522Emulator",
    "Tag",
    "TagState",
    "VirtualClock",
    "crc_a",
    "fake_rpi_modules",
    "fake_spidev_module",
]

#: One bit on the air at 106 kbit/s (128 carrier cycles of 13.56 MHz), in microseconds.
BIT_US = 128 / 13.56
#: Frame delay time reader → tag answer for REQA/WUPA/ANTICOLLISION/SELECT (n = 9), in µs.
FDT_US = 1236 / 13.56
#: A rough MIFARE Classic three-pass authentication on the air, in µs.
AUTH_US = 2000.0

# Register addresses (MFRC522 data sheet, table 20).
_COMMAND = 0x01
_COM_IEN = 0x02
_DIV_IEN = 0x03
_COM_IRQ = 0x04
_DIV_IRQ = 0x05
_ERROR = 0x06
_STATUS1 = 0x07
_STATUS2 = 0x08
_FIFO_DATA = 0x09
_FIFO_LEVEL = 0x0A
_WATER_LEVEL = 0x0B
_CONTROL = 0x0C
_BIT_FRAMING = 0x0D
_COLL = 0x0E
_MODE = 0x11
_TX_MODE = 0x12
_RX_MODE = 0x13
_TX_CONTROL = 0x14
_TX_ASK = 0x15
_CRC_RESULT_H = 0x21
_CRC_RESULT_L = 0x22
_DEMOD = 0x19
_T_MODE = 0x2A
_T_PRESCALER = 0x2B
_T_RELOAD_H = 0x2C
_T_RELOAD_L = 0x2D
_T_COUNTER_H = 0x2E
_T_COUNTER_L = 0x2F
_VERSION = 0x37

_READ_ONLY = frozenset(
    {_ERROR, _STATUS1, _CRC_RESULT_H, _CRC_RESULT_L, _T_COUNTER_H, _T_COUNTER_L, _VERSION}
)
_RESET_VALUES = {
    _COMMAND: 0x20,
    _COM_IEN: 0x80,
    _WATER_LEVEL: 0x08,
    _CONTROL: 0x10,
    _COLL: 0xA0,
    _MODE: 0x3F,
    _TX_CONTROL: 0x80,
    0x16: 0x10,  # TxSelReg
    0x17: 0x84,  # RxSelReg
    0x18: 0x84,  # RxThresholdReg
    _DEMOD: 0x4D,
    0x1C: 0x62,  # MfTxReg
    0x1F: 0xEB,  # SerialSpeedReg
    _CRC_RESULT_H: 0xFF,
    _CRC_RESULT_L: 0xFF,
    0x24: 0x26,  # ModWidthReg
    0x26: 0x48,  # RFCfgReg
    0x27: 0x88,  # GsNReg
    0x28: 0x20,  # CWGsPReg
    0x29: 0x20,  # ModGsPReg
    0x33: 0x80,  # TestPinEnReg
    0x36: 0x40,  # AutoTestReg
}

# ComIrqReg bits.
_TIMER_IRQ = 0x01
_ERR_IRQ = 0x02
_LO_ALERT_IRQ = 0x04
_HI_ALERT_IRQ = 0x08
_IDLE_IRQ = 0x10
_RX_IRQ = 0x20
_TX_IRQ = 0x40
# DivIrqReg bits.
_CRC_IRQ = 0x04
# ErrorReg bits.
_PROTOCOL_ERR = 0x01
_PARITY_ERR = 0x02
_CRC_ERR = 0x04
_COLL_ERR = 0x08
_BUFFER_OVFL = 0x10
_RX_ERRORS = _PROTOCOL_ERR | _PARITY_ERR | _CRC_ERR | _COLL_ERR
# Commands.
_IDLE = 0x0
_MEM = 0x1
_GENERATE_RANDOM_ID = 0x2
_CALC_CRC = 0x3
_TRANSMIT = 0x4
_NO_CMD_CHANGE = 0x7
_RECEIVE = 0x8
_TRANSCEIVE = 0xC
_MF_AUTHENT = 0xE
_SOFT_RESET = 0xF
_KNOWN_COMMANDS = {
    _IDLE,
    _MEM,
    _GENERATE_RANDOM_ID,
    _CALC_CRC,
    _TRANSMIT,
    _NO_CMD_CHANGE,
    _RECEIVE,
    _TRANSCEIVE,
    _MF_AUTHENT,
    _SOFT_RESET,
}

# ISO 14443-3 type A.
_REQA = 0x26
_WUPA = 0x52
_SEL_CODES = (0x93, 0x95, 0x97)
_CASCADE_TAG = 0x88
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)


def crc_a(data: Iterable[int], preset: int = 0x6363) -> int:
    """CRC_A of ISO/IEC 14443-3 (x^16 + x^12 + x^5 + 1, LSB first) as a 16-bit number.

    It goes on the air low byte first.

    >>> hex(crc_a(b"\\x50\\x00"))  # HLTA: sent as 57 CD
    '0xcd57'
    """
    crc = preset
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


def _crc_bytes(data: Iterable[int]) -> bytes:
    crc = crc_a(data)
    return bytes((crc & 0xFF, crc >> 8))


def _crc_ok(frame: bytes) -> bool:
    return len(frame) >= 3 and _crc_bytes(frame[:-2]) == frame[-2:]


def _bits(data: bytes, nbits: int) -> list[int]:
    """The first ``nbits`` bits of ``data`` in air order (LSB of each byte first)."""
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(nbits)]


def _bcc(part: bytes) -> int:
    return part[0] ^ part[1] ^ part[2] ^ part[3]


def _pcd_frame_us(nbits: int) -> float:
    """Air time of a reader frame: start bit, data with a parity bit per whole byte, end."""
    return (1 + nbits + nbits // 8 + 2) * BIT_US


def _picc_frame_us(nbits: int) -> float:
    """Air time of a tag answer: start bit, data with parity per whole byte, end."""
    return (1 + nbits + nbits // 8 + 1) * BIT_US


class VirtualClock:
    """Virtual time shared by emulated chips and the code driving them.

    >>> clock = VirtualClock()
    >>> clock.sleep(0.0015); clock.now_us
    1500.0
    """

    def __init__(self) -> None:
        self.now_us = 0.0

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass (use it as the driver's ``sleep``)."""
        if seconds > 0:
            self.now_us += seconds * 1e6

    def advance_us(self, microseconds: float) -> None:
        """Let ``microseconds`` of virtual time pass."""
        if microseconds > 0:
            self.now_us += microseconds

    def monotonic(self) -> float:
        """The virtual time in seconds, like :func:`time.monotonic`."""
        return self.now_us / 1e6


class TagState(enum.Enum):
    """The ISO 14443-3 states a type A tag can be in while powered."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass(frozen=True)
class Tag:
    """A type A tag: its UID and, optionally, its memory.

    ``sak`` defaults to ``08`` (MIFARE Classic 1K) for 4-byte UIDs and ``00`` (Ultralight /
    NTAG21x) for 7- and 10-byte ones; ``atqa`` follows the UID size. ``blocks`` is the
    memory: 16-byte blocks for a Classic (sector trailers hold the keys), 4-byte pages for a
    type 2 tag; empty means a blank factory image is made up when the tag is placed.

    >>> Tag.from_hex("04A2249A6B1D80").cascade_parts()
    [b'\\x88\\x04\\xa2$', b'\\x9ak\\x1d\\x80']
    """

    uid: bytes
    sak: int | None = None
    atqa: bytes | None = None
    blocks: tuple[bytes, ...] = ()

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7, 10):
            raise EmulatorError(f"a type A UID has 4, 7 or 10 bytes, not {len(self.uid)}")
        if self.uid[0] == _CASCADE_TAG or (len(self.uid) == 10 and self.uid[3] == _CASCADE_TAG):
            raise EmulatorError("88 (the cascade tag) cannot start a UID part (ISO 14443-3)")
        if self.atqa is not None and len(self.atqa) != 2:
            raise EmulatorError("an ATQA has two bytes")

    @classmethod
    def from_hex(cls, uid: str, *, sak: int | None = None) -> Tag:
        """A tag from its UID in hex (``04A2249A6B1D80``)."""
        return cls(bytes.fromhex(uid), sak=sak)

    @classmethod
    def classic_1k(
        cls, uid: bytes, data: Mapping[int, bytes] | None = None, key_a: bytes = b"\xff" * 6
    ) -> Tag:
        """A MIFARE Classic 1K with a factory image, ``data`` written into its blocks."""
        return cls(uid, sak=0x08, blocks=tuple(_classic_image(uid, data or {}, key_a)))

    @property
    def select_sak(self) -> int:
        """The SAK the tag sends when its UID is complete."""
        if self.sak is not None:
            return self.sak & ~0x04 & 0xFF
        return 0x08 if len(self.uid) == 4 else 0x00

    @property
    def atqa_bytes(self) -> bytes:
        """The ATQA as sent on the air (low byte first)."""
        if self.atqa is not None:
            return self.atqa
        return {4: b"\x04\x00", 7: b"\x44\x00", 10: b"\x84\x00"}[len(self.uid)]

    @property
    def is_classic(self) -> bool:
        """Whether the tag is a MIFARE Classic (needs authentication to read)."""
        return bool(self.select_sak & 0x08)

    def cascade_parts(self) -> list[bytes]:
        """The 4-byte UID part of each cascade level (with the cascade tag where due)."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([_CASCADE_TAG]) + u[:3], u[3:]]
        return [bytes([_CASCADE_TAG]) + u[:3], bytes([_CASCADE_TAG]) + u[3:6], u[6:]]

    def factory_memory(self) -> list[bytearray]:
        """The memory the tag starts with when placed."""
        if self.blocks:
            return [bytearray(b) for b in self.blocks]
        if self.is_classic:
            return [bytearray(b) for b in _classic_image(self.uid, {}, b"\xff" * 6)]
        # Type 2 tag (NTAG213-like, 45 pages): UID with its two BCCs in pages 0-2.
        u = self.uid if len(self.uid) == 7 else (self.uid + bytes(7))[:7]
        bcc0 = _CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]
        bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        head = bytes([*u[:3], bcc0, *u[3:], bcc1, 0x48, 0x00, 0x00, 0xE1, 0x10, 0x12, 0x00])
        pages = [bytearray(head[i : i + 4]) for i in range(0, 16, 4)]
        return pages + [bytearray(4) for _ in range(41)]


def _classic_image(uid: bytes, data: Mapping[int, bytes], key_a: bytes) -> list[bytes]:
    """64 blocks of a MIFARE Classic 1K: manufacturer block, trailers with ``key_a``."""
    blocks = [bytes(16)] * 64
    head = uid[-4:]
    blocks[0] = head + bytes([_bcc(head), 0x08, 0x04, 0x00]) + bytes(8)
    for sector in range(16):
        blocks[sector * 4 + 3] = key_a + b"\xff\x07\x80\x69" + b"\xff" * 6
    for number, content in data.items():
        if number % 4 == 3 or number == 0 or not 0 < number < 64:
            raise EmulatorError(f"block {number} is not a data block of a Classic 1K")
        blocks[number] = bytes(content).ljust(16, b"\x00")[:16]
    return blocks


class _TagOnAntenna:
    """A placed tag's mutable state (the :class:`Tag` itself is a value)."""

    def __init__(self, tag: Tag, powered_at_us: float) -> None:
        self.tag = tag
        self.parts = [p + bytes([_bcc(p)]) for p in tag.cascade_parts()]
        self.memory = tag.factory_memory()
        self.powered_at_us = powered_at_us
        self.state = TagState.IDLE
        self.from_halt = False
        self.level = 1
        self.auth_sector: int | None = None

    def power_off(self) -> None:
        self.state = TagState.IDLE
        self.from_halt = False
        self.level = 1
        self.auth_sector = None

    def _fall_back(self) -> None:
        """Anything unexpected: back to IDLE (or HALT if woken from HALT), silently."""
        self.state = TagState.HALT if self.from_halt else TagState.IDLE
        self.level = 1
        self.auth_sector = None

    def hear(self, data: bytes, nbits: int, encrypted: bool) -> list[int] | None:
        """React to a reader frame; the answer's bits, or None for silence."""
        if self.state in (TagState.IDLE, TagState.HALT):
            if nbits == 7 and not encrypted:
                command = data[0] & 0x7F
                if command == _WUPA or (command == _REQA and self.state is TagState.IDLE):
                    self.from_halt = self.state is TagState.HALT
                    self.state = TagState.READY
                    self.level = 1
                    return _bits(self.tag.atqa_bytes, 16)
            return None
        if nbits == 7 or encrypted != (self.auth_sector is not None):
            self._fall_back()
            return None
        if self.state is TagState.READY:
            return self._anticollision_or_select(data, nbits)
        return self._active_command(data, nbits)

    def _anticollision_or_select(self, data: bytes, nbits: int) -> list[int] | None:
        if nbits < 16 or data[0] != _SEL_CODES[self.level - 1]:
            self._fall_back()
            return None
        part = self.parts[self.level - 1]
        nvb = data[1]
        if nvb == 0x70:  # SELECT
            if nbits != 72 or not _crc_ok(data[:9]) or data[2:7] != part:
                self._fall_back()  # another tag's SELECT, or a corrupted one
                return None
            complete = self.level == len(self.parts)
            sak = self.tag.select_sak if complete else 0x04
            if complete:
                self.state = TagState.ACTIVE
            else:
                self.level += 1
            return _bits(bytes([sak]) + _crc_bytes([sak]), 24)
        whole, extra = nvb >> 4, nvb & 0x0F
        known = (whole - 2) * 8 + extra
        if not 2 <= whole <= 6 or extra > 7 or known >= 40 or nbits != 16 + known:
            self._fall_back()
            return None
        if _bits(data[2:], known) != _bits(part, known):
            return None  # not this tag's prefix: stay READY, keep quiet
        return _bits(part, 40)[known:]

    def _active_command(self, data: bytes, nbits: int) -> list[int] | None:
        frame = data[: nbits // 8]
        if nbits % 8 or len(frame) != 4 or not _crc_ok(frame):
            self._fall_back()
            return None
        if frame[0] == 0x50 and frame[1] == 0x00:  # HLTA
            self.state = TagState.HALT
            self.from_halt = True
            self.auth_sector = None
            return None
        if frame[0] == 0x30:  # READ
            return self._read(frame[1])
        self._fall_back()
        return None

    def _read(self, address: int) -> list[int] | None:
        if self.tag.is_classic:
            if address >= len(self.memory) or self.auth_sector != address // 4:
                self._fall_back()
                return _bits(b"\x04", 4)  # NAK
            block = bytes(self.memory[address])
        else:
            if address >= len(self.memory):
                self._fall_back()
                return _bits(b"\x00", 4)  # NAK: invalid argument
            pages = [self.memory[(address + i) % len(self.memory)] for i in range(4)]
            block = b"".join(bytes(p) for p in pages)
        return _bits(block + _crc_bytes(block), 144)

    def authenticate(self, command: int, block: int, key: bytes, uid4: bytes) -> bool:
        """The three-pass MIFARE authentication, without the cipher; True if it succeeds."""
        if (
            self.state is not TagState.ACTIVE
            or not self.tag.is_classic
            or command not in (0x60, 0x61)
            or block >= len(self.memory)
        ):
            self._fall_back()
            return False
        trailer = self.memory[block | 3]
        expected = trailer[0:6] if command == 0x60 else trailer[10:16]
        if bytes(expected) != key or uid4 != self.tag.uid[-4:]:
            self._fall_back()  # the tag answered its nonce; the reader's answer is wrong
            return False
        self.auth_sector = block // 4
        return True


@dataclass(order=True)
class _Event:
    at_us: float
    seq: int
    action: Callable[[], None] = field(compare=False)
    timer: bool = field(default=False, compare=False)


class MFRC522Emulator:
    """An emulated MFRC522 on the end of an SPI bus, with tags on its antenna.

    Hand it to a driver wherever a ``spidev.SpiDev`` would go (it implements ``xfer2``),
    put tags on the antenna with :meth:`place`, take them off with :meth:`remove`.
    ``transfers`` counts SPI transfers (one ``xfer2`` call each) and ``air_us`` the time the
    RF link was busy; :meth:`reset_counters` zeroes both.

    Each transfer costs ``call_overhead_us`` plus 8 bits per byte at ``spi_hz`` of virtual
    time (defaults: 30 µs, 1 MHz — a Python ``xfer2`` call on a Raspberry Pi 4).

    Modelling choices where the data sheet is silent or the detail does not matter here:

    - StartSend, FlushBuffer, TStartNow and TStopNow are write-only triggers (read as 0).
    - Tags react to a frame when its transmission starts; the answer, the end-of-frame and
      timer interrupts arrive at the virtual times they would on the air. Writing the
      CommandReg (or a new StartSend) abandons a reception in progress.
    - Tags hear the reader only with 100 % ASK (TxASKReg.Force100ASK) and the antenna on; a
      field switched off (TxControlReg, soft reset, power-down) resets every tag to IDLE.
    - A collision sets CollErr/ErrIRq when the colliding bit arrives and no ParityErr;
      CollPos counts from bit 0 of the first FIFO byte, RxAlign offset included, as NXP's
      reference HAL reads it. With ValuesAfterColl = 0 the colliding bit and all later
      bits read 0, otherwise colliding bits read 1.
    - TxCRCEn appends CRC_A and RxCRCEn checks and strips it (preset 6363 at 106 kBd);
      CalcCRC uses ModeReg.CRCPreset; MSBFirst, TAutoRestart, parity errors, the IRQ pin,
      speeds above 106 kBd and the Crypto1 cipher itself are not modelled (an
      authenticated MIFARE Classic is read in plain text, but only while MFCrypto1On).
    - ``power_up_us``: how long a tag needs in the field before it answers (ISO allows up
      to 5 ms); 0 by default.

    >>> clock = VirtualClock()
    >>> chip = MFRC522Emulator(clock=clock)
    >>> chip.place(Tag(bytes.fromhex("DEADBEEF")))
    >>> _ = chip.xfer2([0x15 << 1, 0x40])  # TxASKReg: 100 % ASK
    >>> _ = chip.xfer2([0x14 << 1, 0x83])  # TxControlReg: antenna on
    >>> _ = chip.xfer2([0x09 << 1, 0x52])  # FIFO ← WUPA
    >>> _ = chip.xfer2([0x01 << 1, 0x0C])  # Transceive
    >>> _ = chip.xfer2([0x0D << 1, 0x87])  # StartSend, 7 bits
    >>> clock.sleep(0.001)
    >>> chip.xfer2([0x0A << 1 | 0x80, 0x09 << 1 | 0x80, 0x09 << 1 | 0x80, 0])  # level, ATQA
    [0, 2, 4, 0]
    """

    def __init__(
        self,
        *,
        clock: VirtualClock | None = None,
        version: int = 0x92,
        call_overhead_us: float = 30.0,
        spi_hz: int = 1_000_000,
        power_up_us: float = 0.0,
        name: str = "rc522",
    ) -> None:
        self.clock = clock if clock is not None else VirtualClock()
        self.version = version
        self.call_overhead_us = call_overhead_us
        self.spi_hz = spi_hz
        self.power_up_us = power_up_us
        self.name = name
        self.transfers = 0
        self.bytes_transferred = 0
        self.air_us = 0.0
        self._tags: list[_TagOnAntenna] = []
        self._random = random.Random(0x522)
        self._internal_buffer = bytearray(25)
        self._reset_state()

    # ----------------------------------------------------------------- public surface

    @property
    def tags(self) -> list[Tag]:
        """The tags on the antenna, in the order they were placed."""
        return [t.tag for t in self._tags]

    def tag_state(self, tag: Tag) -> TagState:
        """The ISO 14443-3 state a placed tag is in now."""
        self._run_until(self.clock.now_us)
        return self._find(tag).state

    def place(self, tag: Tag) -> None:
        """Put a tag on the antenna (it powers up if the field is on)."""
        if any(t.tag == tag for t in self._tags):
            raise EmulatorError(f"tag {tag.uid.hex().upper()} is already on {self.name}")
        self._tags.append(_TagOnAntenna(tag, self.clock.now_us))

    def remove(self, tag: Tag) -> None:
        """Take a tag off the antenna; EmulatorError if it is not there."""
        self._tags.remove(self._find(tag))

    def clear(self) -> list[Tag]:
        """Take every tag off the antenna; returns what was there."""
        gone = self.tags
        self._tags.clear()
        return gone

    def reset_counters(self) -> None:
        """Zero ``transfers``, ``bytes_transferred`` and ``air_us``."""
        self.transfers = 0
        self.bytes_transferred = 0
        self.air_us = 0.0

    def hard_reset(self) -> None:
        """What pulling NRSTPD low and high again does: every register to its reset value."""
        self._reset_state()

    def xfer2(self, data: list[int]) -> list[int]:
        """One SPI transaction with chip select held low throughout (``spidev`` semantics)."""
        self._account(len(data))
        return self._transaction(data)

    @property
    def field_on(self) -> bool:
        """Whether the antenna drivers are on."""
        return bool(self._regs[_TX_CONTROL] & 0x03) and not self._power_down

    # ----------------------------------------------------------------- SPI handling

    def _account(self, nbytes: int) -> None:
        self.transfers += 1
        self.bytes_transferred += nbytes
        self.clock.advance_us(self.call_overhead_us + nbytes * 8 * 1e6 / self.spi_hz)

    def _transaction(self, data: list[int]) -> list[int]:
        self._run_until(self.clock.now_us)
        if not data:
            return []
        out = [0] * len(data)
        address = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:  # read burst: each byte names the next register to read
            for i in range(1, len(data)):
                out[i] = self._read(address)
                address = (data[i] >> 1) & 0x3F
        else:  # write burst: every data byte goes to the same register
            for value in data[1:]:
                self._write(address, value & 0xFF)
        return out

    # ----------------------------------------------------------------- state

    def _reset_state(self) -> None:
        was_on = getattr(self, "_regs", None) is not None and self.field_on
        self._regs = [0] * 64
        for reg, value in _RESET_VALUES.items():
            self._regs[reg] = value
        self._command = _IDLE
        self._power_down = False
        self._rcv_off = True
        self._com_irq = _IDLE_IRQ | _LO_ALERT_IRQ
        self._div_irq = 0
        self._error = 0
        self._crypto1_on = False
        self._fifo = bytearray()
        self._crc = 0xFFFF
        self._crc_ready = False
        self._events: list[_Event] = []
        self._seq = 0
        self._timer_end: float | None = None
        self._timer_token = 0
        self._receiving = False
        if was_on:
            self._field_changed(False)

    def _find(self, tag: Tag) -> _TagOnAntenna:
        for placed in self._tags:
            if placed.tag == tag:
                return placed
        raise EmulatorError(f"tag {tag.uid.hex().upper()} is not on {self.name}")

    def _schedule(self, at_us: float, action: Callable[[], None], *, timer: bool = False) -> None:
        self._seq += 1
        self._events.append(_Event(at_us, self._seq, action, timer))
        self._events.sort()

    def _cancel_exchange(self) -> None:
        self._events = [e for e in self._events if e.timer]
        self._receiving = False

    def _run_until(self, now_us: float) -> None:
        while self._events and self._events[0].at_us <= now_us:
            self._events.pop(0).action()

    # ----------------------------------------------------------------- registers

    def _read(self, reg: int) -> int:
        if reg == _COMMAND:
            return (
                (0x20 if self._rcv_off else 0) | (0x10 if self._power_down else 0) | (self._command)
            )
        if reg == _COM_IRQ:
            return self._com_irq & 0x7F
        if reg == _DIV_IRQ:
            return self._div_irq & 0x7F
        if reg == _ERROR:
            return self._error
        if reg == _STATUS1:
            return self._status1()
        if reg == _STATUS2:
            return (
                (self._regs[_STATUS2] & 0xC0)
                | (0x08 if self._crypto1_on else 0)
                | (self._modem_state())
            )
        if reg == _FIFO_DATA:
            if not self._fifo:
                return 0
            value = self._fifo.pop(0)
            self._fifo_changed()
            return value
        if reg == _FIFO_LEVEL:
            return len(self._fifo)
        if reg == _BIT_FRAMING:
            return self._regs[reg] & 0x7F
        if reg == _CRC_RESULT_H:
            return self._crc >> 8
        if reg == _CRC_RESULT_L:
            return self._crc & 0xFF
        if reg in (_T_COUNTER_H, _T_COUNTER_L):
            value = self._timer_counter()
            return value >> 8 if reg == _T_COUNTER_H else value & 0xFF
        if reg == _VERSION:
            return self.version
        return self._regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == _COMMAND:
            self._write_command(value)
        elif reg == _COM_IRQ:
            if value & 0x80:
                self._com_irq |= value & 0x7F
            else:
                self._com_irq &= ~value & 0x7F
        elif reg == _DIV_IRQ:
            if value & 0x80:
                self._div_irq |= value & 0x7F
            else:
                self._div_irq &= ~value & 0x7F
        elif reg == _STATUS2:
            self._regs[reg] = value & 0xC0
            if not value & 0x08:
                self._crypto1_on = False
        elif reg == _FIFO_DATA:
            self._fifo_write(value)
        elif reg == _FIFO_LEVEL:
            if value & 0x80:
                self._fifo.clear()
                self._error &= ~_BUFFER_OVFL
                self._fifo_changed()
        elif reg == _CONTROL:
            if value & 0x80:
                self._stop_timer()
            if value & 0x40:
                self._start_timer(self.clock.now_us)
        elif reg == _BIT_FRAMING:
            self._regs[reg] = value & 0x7F
            if value & 0x80 and self._command == _TRANSCEIVE:
                self._start_transmission(receive=True)
        elif reg == _COLL:
            self._regs[reg] = (self._regs[reg] & 0x7F) | (value & 0x80)
        elif reg == _TX_CONTROL:
            was_on = self.field_on
            self._regs[reg] = value
            if self.field_on != was_on:
                self._field_changed(self.field_on)
        elif reg in _READ_ONLY:
            pass
        else:
            self._regs[reg] = value

    def _status1(self) -> int:
        level = len(self._fifo)
        water = self._regs[_WATER_LEVEL] & 0x3F
        value = 0
        if self._crc_ready:
            value |= 0x20 | (0x40 if self._crc == 0 else 0)
        irq = (self._com_irq & self._regs[_COM_IEN] & 0x7F) or (
            self._div_irq & self._regs[_DIV_IEN] & 0x14
        )
        if irq:
            value |= 0x10
        if self._timer_end is not None:
            value |= 0x08
        if 64 - level <= water:
            value |= 0x02
        if level <= water:
            value |= 0x01
        return value

    def _modem_state(self) -> int:
        if self._command != _TRANSCEIVE:
            return 0
        return 0b110 if self._receiving else 0b001

    # ----------------------------------------------------------------- FIFO and CRC

    def _fifo_changed(self) -> None:
        level = len(self._fifo)
        water = self._regs[_WATER_LEVEL] & 0x3F
        if level <= water:
            self._com_irq |= _LO_ALERT_IRQ
        if 64 - level <= water:
            self._com_irq |= _HI_ALERT_IRQ

    def _fifo_write(self, value: int) -> None:
        if self._command == _CALC_CRC:  # a running CalcCRC takes each byte as it comes
            self._crc = crc_a([value], self._crc)
            self._crc_done()
            return
        if len(self._fifo) >= 64:
            self._error |= _BUFFER_OVFL
            self._com_irq |= _ERR_IRQ
            return
        self._fifo.append(value)
        self._fifo_changed()

    def _fifo_push(self, data: bytes) -> None:
        for value in data:
            if len(self._fifo) >= 64:
                self._error |= _BUFFER_OVFL
                self._com_irq |= _ERR_IRQ
                break
            self._fifo.append(value)
        self._fifo_changed()

    def _crc_done(self) -> None:
        self._crc_ready = True
        self._div_irq |= _CRC_IRQ

    # ----------------------------------------------------------------- timer

    def _timer_period_us(self) -> float:
        prescaler = ((self._regs[_T_MODE] & 0x0F) << 8) | self._regs[_T_PRESCALER]
        reload = (self._regs[_T_RELOAD_H] << 8) | self._regs[_T_RELOAD_L]
        divider = 2 * prescaler + (2 if self._regs[_DEMOD] & 0x10 else 1)
        return (reload + 1) * divider / 13.56

    def _start_timer(self, at_us: float) -> None:
        self._timer_token += 1
        token = self._timer_token
        self._timer_end = at_us + self._timer_period_us()

        def expire() -> None:
            if token == self._timer_token:
                self._timer_end = None
                self._com_irq |= _TIMER_IRQ

        self._schedule(self._timer_end, expire, timer=True)

    def _stop_timer(self) -> None:
        self._timer_token += 1
        self._timer_end = None
        self._events = [e for e in self._events if not e.timer]

    def _timer_counter(self) -> int:
        reload = (self._regs[_T_RELOAD_H] << 8) | self._regs[_T_RELOAD_L]
        if self._timer_end is None:
            return 0
        prescaler = ((self._regs[_T_MODE] & 0x0F) << 8) | self._regs[_T_PRESCALER]
        tick_us = (2 * prescaler + 1) / 13.56
        left = max(0.0, self._timer_end - self.clock.now_us)
        return min(reload, int(left / tick_us))

    # ----------------------------------------------------------------- commands

    def _write_command(self, value: int) -> None:
        was_on = self.field_on
        self._rcv_off = bool(value & 0x20)
        self._power_down = bool(value & 0x10)
        if self.field_on != was_on:
            self._field_changed(self.field_on)
        command = value & 0x0F
        if command == _NO_CMD_CHANGE:
            return
        self._cancel_exchange()
        if command == _SOFT_RESET:
            self._reset_state()
            return
        if command not in _KNOWN_COMMANDS:
            self._command = _IDLE
            self._com_irq |= _IDLE_IRQ
            return
        self._command = command
        if command == _CALC_CRC:
            self._crc = _CRC_PRESETS[self._regs[_MODE] & 0x03]
            self._crc = crc_a(self._fifo, self._crc)
            self._fifo.clear()
            self._fifo_changed()
            self._crc_done()
        elif command == _TRANSMIT:
            self._start_transmission(receive=False)
        elif command == _MF_AUTHENT:
            self._start_authent()
        elif command == _MEM:
            if self._fifo:
                self._internal_buffer[:] = bytes(self._fifo[:25]).ljust(25, b"\x00")
                del self._fifo[:25]
            else:
                self._fifo_push(bytes(self._internal_buffer))
            self._finish_command()
        elif command == _GENERATE_RANDOM_ID:
            self._internal_buffer[:10] = bytes(self._random.randrange(256) for _ in range(10))
            self._finish_command()

    def _finish_command(self) -> None:
        self._command = _IDLE
        self._com_irq |= _IDLE_IRQ

    def _field_changed(self, on: bool) -> None:
        for placed in self._tags:
            placed.power_off()
            placed.powered_at_us = self.clock.now_us
        if not on:
            self._crypto1_on = False

    def _hearing_tags(self) -> list[_TagOnAntenna]:
        """The tags that can hear the reader now (field on, 100 % ASK, powered up)."""
        if not self.field_on or not self._regs[_TX_ASK] & 0x40:
            return []
        now = self.clock.now_us
        return [t for t in self._tags if now - t.powered_at_us >= self.power_up_us]

    def _start_transmission(self, *, receive: bool) -> None:
        now = self.clock.now_us
        self._cancel_exchange()
        framing = self._regs[_BIT_FRAMING]
        tx_last_bits, rx_align = framing & 0x07, (framing >> 4) & 0x07
        data = bytes(self._fifo)
        self._fifo.clear()
        self._fifo_changed()
        nbits = (
            len(data) * 8 if tx_last_bits == 0 or not data else (len(data) - 1) * 8 + (tx_last_bits)
        )
        if self._regs[_TX_MODE] & 0x80 and nbits % 8 == 0 and data:
            data += _crc_bytes(data)
            nbits += 16
        tx_end = now + _pcd_frame_us(nbits)
        self.air_us += tx_end - now
        self._error &= ~_RX_ERRORS
        self._regs[_COLL] = (self._regs[_COLL] & 0x80) | 0x20
        answers = [
            bits
            for placed in self._hearing_tags()
            if (bits := placed.hear(data, nbits, self._crypto1_on)) is not None
        ]

        def transmitted() -> None:
            self._com_irq |= _TX_IRQ
            if not receive:
                self._finish_command()

        self._schedule(tx_end, transmitted)
        if not receive:
            return
        self._receiving = True
        if self._regs[_T_MODE] & 0x80:  # TAuto: the timer starts when transmission ends
            self._schedule(tx_end, lambda: self._start_timer(tx_end))
        if not answers or self._rcv_off:
            return
        self._schedule_answer(tx_end + FDT_US, answers, rx_align)

    def _schedule_answer(self, rx_start: float, answers: list[list[int]], rx_align: int) -> None:
        length = max(len(a) for a in answers)
        bits: list[int] = []
        collision: int | None = None
        clear_after = not self._regs[_COLL] & 0x80
        for i in range(length):
            values = {a[i] for a in answers if i < len(a)}
            if len(values) > 1 and collision is None:
                collision = i
            if collision is not None and clear_after:
                bits.append(0)
            else:
                bits.append(1 if 1 in values else 0)
        rx_us = _picc_frame_us(length)
        rx_end = rx_start + rx_us
        self.air_us += FDT_US + rx_us
        five_bits = rx_start + 5 * BIT_US

        def receiving() -> None:
            if self._timer_end is not None and not self._regs[_RX_MODE] & 0x04:
                self._stop_timer()

        self._schedule(five_bits, receiving)
        if collision is not None:
            position = rx_align + collision + 1

            def collided() -> None:
                self._error |= _COLL_ERR
                self._com_irq |= _ERR_IRQ
                if position <= 32:
                    self._regs[_COLL] = (self._regs[_COLL] & 0x80) | (position & 0x1F)
                else:
                    self._regs[_COLL] = (self._regs[_COLL] & 0x80) | 0x20

            self._schedule(rx_start + (collision + 1) * BIT_US, collided)

        def received() -> None:
            self._receiving = False
            total = rx_align + len(bits)
            buffer = bytearray((total + 7) // 8)
            for i, bit in enumerate(bits):
                if bit:
                    position = rx_align + i
                    buffer[position // 8] |= 1 << (position % 8)
            payload = bytes(buffer)
            if self._regs[_RX_MODE] & 0x80:  # RxCRCEn: check and strip CRC_A
                if total % 8 or len(payload) < 3 or not _crc_ok(payload):
                    self._error |= _CRC_ERR
                    self._com_irq |= _ERR_IRQ
                else:
                    payload = payload[:-2]
            self._fifo_push(payload)
            self._regs[_CONTROL] = (self._regs[_CONTROL] & 0xF8) | (total % 8)
            self._com_irq |= _RX_IRQ

        self._schedule(rx_end, received)

    def _start_authent(self) -> None:
        now = self.clock.now_us
        data = bytes(self._fifo)
        self._fifo.clear()
        self._fifo_changed()
        first = data[:2] + _crc_bytes(data[:2]) if len(data) >= 2 else data
        tx_end = now + _pcd_frame_us(len(first) * 8)
        self.air_us += AUTH_US
        success = False
        for placed in self._hearing_tags():
            if placed.state is TagState.ACTIVE and len(data) == 12:
                success = placed.authenticate(data[0], data[1], data[2:8], data[8:12]) or success
            else:
                placed.hear(first, len(first) * 8, self._crypto1_on)
        if self._regs[_T_MODE] & 0x80:
            self._schedule(tx_end, lambda: self._start_timer(now + AUTH_US))
        if success:

            def authenticated() -> None:
                self._crypto1_on = True
                self._stop_timer()
                self._finish_command()

            self._schedule(now + AUTH_US, authenticated)


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
            chip.transfers += 1
            chip.bytes_transferred += len(data)
            replies.append(chip._transaction(data))
        wired_and = []
        for column in zip(*replies, strict=True):
            value = 0xFF
            for byte in column:
                value &= byte
            wired_and.append(value)
        return wired_and


# --------------------------------------------------------------------- fakes for PyPI libraries


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


class FakeGpio:
    """A behavioural stand-in for ``RPi.GPIO``: numbering mode, pin directions, levels.

    It raises where the real module raises (no numbering mode set, a different mode set
    twice, output on an input, edge detection added twice) and records every level set.
    """

    BOARD = 10
    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22
    RISING = 31
    FALLING = 32
    BOTH = 33
    VERSION = "0.7.1-fake"
    RPI_INFO: Mapping[str, object] = {"P1_REVISION": 3, "TYPE": "Pi 4 Model B"}

    def __init__(self) -> None:
        self.mode: int | None = None
        self.directions: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self.history: list[tuple[int, int]] = []
        self.edge_detect: dict[int, Callable[[int], None] | None] = {}
        self.warnings = True

    def getmode(self) -> int | None:
        """The numbering mode, or None."""
        return self.mode

    def setmode(self, mode: int) -> None:
        """Choose BOARD or BCM numbering."""
        if mode not in (self.BOARD, self.BCM):
            raise ValueError("An invalid mode was passed to setmode()")
        if self.mode is not None and self.mode != mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        """Turn warnings on or off."""
        self.warnings = bool(flag)

    def _check(self, channel: int) -> None:
        if self.mode is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )
        if not isinstance(channel, int):
            raise ValueError("Channel must be an integer or list/tuple of integers")

    def setup(
        self, channel: int, direction: int, pull_up_down: int = PUD_OFF, initial: int = -1
    ) -> None:
        """Make a channel an input or an output."""
        self._check(channel)
        self.directions[channel] = direction
        if direction == self.IN:
            self.levels[channel] = 1 if pull_up_down == self.PUD_UP else 0
        elif initial != -1:
            self.output(channel, initial)

    def output(self, channel: int, value: int) -> None:
        """Drive an output channel."""
        self._check(channel)
        if self.directions.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.levels[channel] = 1 if value else 0
        self.history.append((channel, self.levels[channel]))

    def input(self, channel: int) -> int:
        """Read a channel's level."""
        self._check(channel)
        if channel not in self.directions:
            raise RuntimeError("You must setup() the GPIO channel first")
        return self.levels.get(channel, 0)

    def add_event_detect(
        self,
        channel: int,
        edge: int,
        callback: Callable[[int], None] | None = None,
        bouncetime: int | None = None,
    ) -> None:
        """Watch an input for edges."""
        self._check(channel)
        if self.directions.get(channel) != self.IN:
            raise RuntimeError("You must setup() the GPIO channel as an input first")
        if channel in self.edge_detect:
            raise RuntimeError("Conflicting edge detection already enabled for this GPIO channel")
        self.edge_detect[channel] = callback

    def remove_event_detect(self, channel: int) -> None:
        """Stop watching a channel."""
        self.edge_detect.pop(channel, None)

    def event_detected(self, channel: int) -> bool:
        """Whether an edge was seen (the fake never sees one)."""
        return False

    def cleanup(self, channel: int | None = None) -> None:
        """Release one channel, or all of them and the numbering mode."""
        if channel is None:
            self.directions.clear()
            self.edge_detect.clear()
            self.mode = None
        else:
            self.directions.pop(channel, None)
            self.edge_detect.pop(channel, None)


def fake_rpi_modules(gpio: FakeGpio) -> dict[str, types.ModuleType]:
    """``RPi`` and ``RPi.GPIO`` modules backed by ``gpio``, to put into ``sys.modules``."""
    gpio_module = types.ModuleType("RPi.GPIO")
    for name in dir(gpio):
        value = getattr(gpio, name)
        if not name.startswith("_") and (callable(value) or name.isupper()):
            setattr(gpio_module, name, value)
    package = types.ModuleType("RPi")
    package.__path__ = []
    package.GPIO = gpio_module  # type: ignore[attr-defined]
    return {"RPi": package, "RPi.GPIO": gpio_module}
