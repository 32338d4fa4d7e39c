"""ISO/IEC 14443-3 type A tags: the value a test places (:class:`Tag`) and the state
machine of a tag lying in the field (IDLE → READY → ACTIVE → HALT, bit-oriented
anticollision, cascade levels, HLTA, READ, the MIFARE Classic authentication)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from table_node.emulation.iso14443 import (
    CASCADE_TAG,
    REQA,
    SEL_CODES,
    WUPA,
    air_bits,
    bcc,
    crc_bytes,
    crc_ok,
)
from table_node.errors import EmulatorError


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
        if self.uid[0] == CASCADE_TAG or (len(self.uid) == 10 and self.uid[3] == CASCADE_TAG):
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
        return cls(uid, sak=0x08, blocks=tuple(classic_image(uid, data or {}, key_a)))

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
            return [bytes([CASCADE_TAG]) + u[:3], u[3:]]
        return [bytes([CASCADE_TAG]) + u[:3], bytes([CASCADE_TAG]) + u[3:6], u[6:]]

    def factory_memory(self) -> list[bytearray]:
        """The memory the tag starts with when placed."""
        if self.blocks:
            return [bytearray(b) for b in self.blocks]
        if self.is_classic:
            return [bytearray(b) for b in classic_image(self.uid, {}, b"\xff" * 6)]
        # Type 2 tag (NTAG213-like, 45 pages): UID with its two BCCs in pages 0-2.
        u = self.uid if len(self.uid) == 7 else (self.uid + bytes(7))[:7]
        bcc0 = CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]
        bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        head = bytes([*u[:3], bcc0, *u[3:], bcc1, 0x48, 0x00, 0x00, 0xE1, 0x10, 0x12, 0x00])
        pages = [bytearray(head[i : i + 4]) for i in range(0, 16, 4)]
        return pages + [bytearray(4) for _ in range(41)]


def classic_image(uid: bytes, data: Mapping[int, bytes], key_a: bytes) -> list[bytes]:
    """64 blocks of a MIFARE Classic 1K: manufacturer block, trailers with ``key_a``."""
    blocks = [bytes(16)] * 64
    head = uid[-4:]
    blocks[0] = head + bytes([bcc(head), 0x08, 0x04, 0x00]) + bytes(8)
    for sector in range(16):
        blocks[sector * 4 + 3] = key_a + b"\xff\x07\x80\x69" + b"\xff" * 6
    for number, content in data.items():
        if number % 4 == 3 or number == 0 or not 0 < number < 64:
            raise EmulatorError(f"block {number} is not a data block of a Classic 1K")
        blocks[number] = bytes(content).ljust(16, b"\x00")[:16]
    return blocks


class TagOnAntenna:
    """A placed tag's mutable state (the :class:`Tag` itself is a value)."""

    def __init__(self, tag: Tag, powered_at_us: float) -> None:
        self.tag = tag
        self.parts = [p + bytes([bcc(p)]) for p in tag.cascade_parts()]
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
                if command == WUPA or (command == REQA and self.state is TagState.IDLE):
                    self.from_halt = self.state is TagState.HALT
                    self.state = TagState.READY
                    self.level = 1
                    return air_bits(self.tag.atqa_bytes, 16)
            return None
        if nbits == 7 or encrypted != (self.auth_sector is not None):
            self._fall_back()
            return None
        if self.state is TagState.READY:
            return self._anticollision_or_select(data, nbits)
        return self._active_command(data, nbits)

    def _anticollision_or_select(self, data: bytes, nbits: int) -> list[int] | None:
        if nbits < 16 or data[0] != SEL_CODES[self.level - 1]:
            self._fall_back()
            return None
        part = self.parts[self.level - 1]
        nvb = data[1]
        if nvb == 0x70:  # SELECT
            if nbits != 72 or not crc_ok(data[:9]) or data[2:7] != part:
                self._fall_back()  # another tag's SELECT, or a corrupted one
                return None
            complete = self.level == len(self.parts)
            sak = self.tag.select_sak if complete else 0x04
            if complete:
                self.state = TagState.ACTIVE
            else:
                self.level += 1
            return air_bits(bytes([sak]) + crc_bytes([sak]), 24)
        whole, extra = nvb >> 4, nvb & 0x0F
        known = (whole - 2) * 8 + extra
        if not 2 <= whole <= 6 or extra > 7 or known >= 40 or nbits != 16 + known:
            self._fall_back()
            return None
        if air_bits(data[2:], known) != air_bits(part, known):
            return None  # not this tag's prefix: stay READY, keep quiet
        return air_bits(part, 40)[known:]

    def _active_command(self, data: bytes, nbits: int) -> list[int] | None:
        frame = data[: nbits // 8]
        if nbits % 8 or len(frame) != 4 or not crc_ok(frame):
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
                return air_bits(b"\x04", 4)  # NAK
            block = bytes(self.memory[address])
        else:
            if address >= len(self.memory):
                self._fall_back()
                return air_bits(b"\x00", 4)  # NAK: invalid argument
            pages = [self.memory[(address + i) % len(self.memory)] for i in range(4)]
            block = b"".join(bytes(p) for p in pages)
        return air_bits(block + crc_bytes(block), 144)

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
