"""Framing of the serial reader-board protocol: header, CRC-16, COBS, zero delimiters.

Pure code, no I/O, in the manner of pyserial's threaded ``Packetizer``: the port adapter
reads whatever bytes arrived and feeds them to a :class:`Deframer`, which returns the
frames completed by them and counts everything it had to drop, by reason.
:class:`FrameEncoder` goes the other way. The byte layout is ``docs/serial-protocol.md``;
``hardware/firmware/framing.py`` is the board's implementation of the same bytes and the
tests hold the two to each other.

>>> from firmware_bridge.frames import Heartbeat
>>> enc = FrameEncoder()
>>> wire = enc.encode(Heartbeat(uptime_ms=1500, sweeps=30, read_errors=0, rx_dropped=0))
>>> deframer = Deframer()
>>> [r.frame.uptime_ms for r in deframer.feed(b"noise" + wire[:5]) + deframer.feed(wire[5:])]
[1500]
>>> deframer.drops[DropReason.GARBAGE]
1
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Final

from firmware_bridge.errors import FrameError
from firmware_bridge.frames import (
    BOARD_FRAME_TYPES,
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Frame,
    FrameType,
    decode_payload,
    encode_payload,
)

DELIMITER: Final = 0x00
"""Ends (and, from a sender, also starts) every frame on the wire."""

HEADER: Final = struct.Struct("<BBHH")
"""version, type, sequence, payload length — little-endian."""

CRC_SIZE: Final = 2
MIN_BODY: Final = HEADER.size + CRC_SIZE
"""Smallest decoded frame: a header, no payload, a CRC."""

MAX_BODY: Final = HEADER.size + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED: Final = MAX_BODY + MAX_BODY // 254 + 2
"""Longest COBS-encoded frame between two delimiters; anything longer is ``too_long``."""


def _crc_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE: Final = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 1021, init FFFF, no reflection, no final XOR).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without any zero byte, ≤ 1 byte per 254.

    >>> cobs_encode(b"\\x11\\x00\\x22").hex()
    '02110222'
    """
    out = bytearray(b"\x01")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(1)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(1)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """Undo :func:`cobs_encode`; None when ``data`` is not a valid COBS block.

    >>> cobs_decode(bytes.fromhex("02110222")).hex()
    '110022'
    """
    if 0 in data:
        return None
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out += data[i + 1 : end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(frame: Frame, seq: int, version: int = PROTOCOL_VERSION) -> bytes:
    """The wire bytes of one frame: ``00`` + COBS(header + payload + CRC) + ``00``."""
    payload = encode_payload(frame)
    body = HEADER.pack(version, frame.TYPE, seq & 0xFFFF, len(payload)) + payload
    body += struct.pack("<H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


class FrameEncoder:
    """Numbers outgoing frames (0, 1, … 65535, 0 …) and encodes them for the wire."""

    def __init__(self, start: int = 0) -> None:
        self.next_seq = start & 0xFFFF

    def encode(self, frame: Frame) -> bytes:
        """The wire bytes of ``frame`` with the next sequence number."""
        wire = encode_frame(frame, self.next_seq)
        self.next_seq = (self.next_seq + 1) & 0xFFFF
        return wire


class DropReason(enum.StrEnum):
    """Why the deframer threw a segment of the byte stream away (the counter names)."""

    GARBAGE = "garbage"
    """Bytes between delimiters that are not a COBS block, or too short for a frame."""
    TOO_LONG = "too_long"
    """More bytes than the longest frame without a delimiter; skipped up to the next one."""
    CRC = "crc"
    """A frame whose CRC-16 does not match: corrupted on the line."""
    VERSION = "version"
    """A frame of another protocol version (its CRC is right): board and bridge disagree."""
    MALFORMED = "malformed"
    """Right CRC and version, but the length or a field breaks the protocol's rules."""
    UNKNOWN_TYPE = "unknown_type"
    """A frame type this side does not accept (newer firmware, or the other direction's)."""


@dataclass(frozen=True, slots=True)
class Received:
    """A frame that arrived intact, with the sender's sequence number."""

    seq: int
    frame: Frame


@dataclass(frozen=True, slots=True)
class Drop:
    """One dropped segment: why, how many bytes, and a sentence saying what was wrong."""

    reason: DropReason
    size: int
    detail: str


class Deframer:
    """Turns arbitrary chunks of a byte stream into frames; counts what it drops.

    Feed it whatever the port returned — half a frame, three frames, noise — and it
    returns the frames completed so far. It never raises on input: every bad segment is
    counted in :attr:`drops` under a :class:`DropReason` (and handed to ``on_drop``),
    and decoding resumes at the next ``00`` delimiter. ``accept`` is the set of frame
    types this side takes (the host takes the board's, a board the host's).
    """

    def __init__(
        self,
        accept: Collection[FrameType] = BOARD_FRAME_TYPES,
        *,
        max_encoded: int = MAX_ENCODED,
        on_drop: Callable[[Drop], None] | None = None,
    ) -> None:
        self.accept = frozenset(accept)
        self.max_encoded = max_encoded
        self.on_drop = on_drop
        self.drops: dict[DropReason, int] = dict.fromkeys(DropReason, 0)
        self.frames = 0
        self.dropped_bytes = 0
        self._buf = bytearray()
        self._overflow = 0

    @property
    def dropped(self) -> int:
        """Segments dropped for any reason."""
        return sum(self.drops.values())

    def reset(self) -> None:
        """Forget a partly received frame (after the port was reopened)."""
        self._buf.clear()
        self._overflow = 0

    def feed(self, data: bytes) -> list[Received]:
        """Add bytes from the line; returns every frame they complete, in order."""
        out: list[Received] = []
        parts = data.split(b"\x00")
        last = len(parts) - 1
        for i, part in enumerate(parts):
            if self._overflow:
                self._overflow += len(part)
            else:
                self._buf += part
                if len(self._buf) > self.max_encoded:
                    self._overflow = len(self._buf)
                    self._buf.clear()
            if i < last:
                self._end_segment(out)
        return out

    def _end_segment(self, out: list[Received]) -> None:
        if self._overflow:
            size = self._overflow
            self._overflow = 0
            self._drop(
                DropReason.TOO_LONG,
                size,
                f"{size} bytes without a delimiter (longest frame is {self.max_encoded})",
            )
            return
        if not self._buf:
            return  # two delimiters in a row: the start of a frame after the end of one
        segment = bytes(self._buf)
        self._buf.clear()
        try:
            out.append(self._decode(segment))
        except FrameError as exc:
            self._drop(DropReason(exc.reason), len(segment), str(exc))
        else:
            self.frames += 1

    def _decode(self, segment: bytes) -> Received:
        body = cobs_decode(segment)
        if body is None:
            raise FrameError("garbage", f"{len(segment)} bytes that are not a COBS block")
        if len(body) < MIN_BODY:
            raise FrameError("garbage", f"{len(body)} bytes, too short for a frame")
        (crc,) = struct.unpack_from("<H", body, len(body) - CRC_SIZE)
        if crc16(body[:-CRC_SIZE]) != crc:
            raise FrameError("crc", f"CRC mismatch in a {len(body)}-byte frame")
        version, ftype, seq, length = HEADER.unpack_from(body)
        if version != PROTOCOL_VERSION:
            raise FrameError(
                "version",
                f"frame of serial protocol v{version}; this side speaks v{PROTOCOL_VERSION}",
            )
        if length != len(body) - MIN_BODY:
            raise FrameError(
                "malformed", f"length field says {length}, frame carries {len(body) - MIN_BODY}"
            )
        if ftype not in self.accept:
            raise FrameError("unknown_type", f"frame type 0x{ftype:02X} is not accepted here")
        frame = decode_payload(ftype, body[HEADER.size : -CRC_SIZE])
        return Received(seq, frame)

    def _drop(self, reason: DropReason, size: int, detail: str) -> None:
        self.drops[reason] += 1
        self.dropped_bytes += size
        if self.on_drop is not None:
            self.on_drop(Drop(reason, size, detail))


__all__ = [
    "DELIMITER",
    "HEADER",
    "MAX_ENCODED",
    "Deframer",
    "Drop",
    "DropReason",
    "FrameEncoder",
    "Received",
    "cobs_decode",
    "cobs_encode",
    "crc16",
    "encode_frame",
]
