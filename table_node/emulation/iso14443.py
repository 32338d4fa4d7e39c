"""ISO/IEC 14443-3 type A on the air: timing at 106 kbit/s, command codes, CRC_A, bit order.

>>> air_bits(bytes([REQA]), 7)  # REQA, a short frame: seven bits, LSB first
[0, 1, 1, 0, 0, 1, 0]
"""

from __future__ import annotations

from collections.abc import Iterable

#: One bit on the air at 106 kbit/s (128 carrier cycles of 13.56 MHz), in microseconds.
BIT_US = 128 / 13.56
#: Frame delay time reader → tag answer for REQA/WUPA/ANTICOLLISION/SELECT (n = 9), in µs.
FDT_US = 1236 / 13.56
#: A rough MIFARE Classic three-pass authentication on the air, in µs.
AUTH_US = 2000.0

# Commands and codes of ISO 14443-3 type A.
REQA = 0x26
WUPA = 0x52
SEL_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88


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


def crc_bytes(data: Iterable[int]) -> bytes:
    crc = crc_a(data)
    return bytes((crc & 0xFF, crc >> 8))


def crc_ok(frame: bytes) -> bool:
    return len(frame) >= 3 and crc_bytes(frame[:-2]) == frame[-2:]


def air_bits(data: bytes, nbits: int) -> list[int]:
    """The first ``nbits`` bits of ``data`` in air order (LSB of each byte first)."""
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(nbits)]


def bcc(part: bytes) -> int:
    return part[0] ^ part[1] ^ part[2] ^ part[3]


def pcd_frame_us(nbits: int) -> float:
    """Air time of a reader frame: start bit, data with a parity bit per whole byte, end."""
    return (1 + nbits + nbits // 8 + 2) * BIT_US


def picc_frame_us(nbits: int) -> float:
    """Air time of a tag answer: start bit, data with parity per whole byte, end."""
    return (1 + nbits + nbits // 8 + 1) * BIT_US
