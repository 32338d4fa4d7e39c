"""The frames of the serial reader-board protocol and their payload encodings.

``docs/serial-protocol.md`` is the contract; this module is its executable form for the
payloads (the framing — header, CRC, COBS — lives in :mod:`firmware_bridge.framing`).
Every frame is a frozen dataclass that checks its own fields, so a frame that exists is a
frame that can be sent; :func:`decode_payload` turns bytes back into one or raises
:class:`~firmware_bridge.errors.FrameError` with the drop reason.

>>> inv = Inventory(antenna=2, uids=(bytes.fromhex("045EED01C0DE80"),))
>>> decode_payload(FrameType.INVENTORY, encode_payload(inv)) == inv
True
>>> inv.hex_uids()
frozenset({'045EED01C0DE80'})
"""

from __future__ import annotations

import enum
import re
import struct
from dataclasses import dataclass
from typing import ClassVar, Final

from feltwire.protocol import LightPattern
from firmware_bridge.errors import FrameError

PROTOCOL_VERSION: Final = 1
"""The serial protocol version this bridge speaks (byte 0 of every frame)."""

MAX_PAYLOAD: Final = 1024
"""Largest payload a frame may carry, in bytes."""

MAX_UIDS: Final = 64
"""Most tags one INVENTORY may list (the MQTT ``ReaderInventory`` limit)."""

MAX_ANTENNAS: Final = 32
"""Most antennas one board may announce in its HELLO."""

BOARD_ANTENNA: Final = 0xFF
"""The antenna index an ERROR uses for the board as a whole."""

UID_LENGTHS: Final = (4, 7, 10)
"""ISO 14443-A uid sizes: single, double and triple size."""

_BOARD_ID_RE: Final = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_TEXT_RE: Final = re.compile(r"^[\x20-\x7e]{0,16}$")


class FrameType(enum.IntEnum):
    """Byte 1 of a frame: what it carries. Board → host below 0x80, host → board above."""

    HELLO = 0x01
    HEARTBEAT = 0x02
    INVENTORY = 0x03
    ERROR = 0x04
    REQUEST_HELLO = 0x81
    REQUEST_INVENTORY = 0x82
    SET_LIGHT = 0x83


BOARD_FRAME_TYPES: Final = frozenset(
    {FrameType.HELLO, FrameType.HEARTBEAT, FrameType.INVENTORY, FrameType.ERROR}
)
"""Frame types a board sends (what the host accepts)."""

HOST_FRAME_TYPES: Final = frozenset(
    {FrameType.REQUEST_HELLO, FrameType.REQUEST_INVENTORY, FrameType.SET_LIGHT}
)
"""Frame types the host sends (what a board accepts)."""


class ErrorCode(enum.IntEnum):
    """What an ERROR frame reports; boards may send codes this list does not know yet."""

    NO_READER = 1
    """The antenna's RC522 does not answer (VersionReg reads 00 or FF): wiring or power."""
    READER_FAULT = 2
    """The RC522 reported an error or timed out in a way a retry did not fix."""
    TOO_MANY_TAGS = 3
    """More tags lie on the antenna than the board resolves; the inventory is truncated."""
    COLLISION = 4
    """Anticollision could not separate the tags on the antenna this sweep."""
    BAD_COMMAND = 5
    """The board dropped a frame from the host (``detail`` = the board's drop count)."""
    RESTARTED = 6
    """The board restarted after a fault (watchdog, exception); ``detail`` = cause code."""


LIGHT_CODES: Final[dict[LightPattern, int]] = {
    LightPattern.OFF: 0,
    LightPattern.IDLE: 1,
    LightPattern.ACTING: 2,
    LightPattern.ERROR: 3,
    LightPattern.ALLIN: 4,
    LightPattern.FOLDED: 5,
}
"""Wire code of each seat-light pattern in SET_LIGHT."""

_LIGHT_BY_CODE: Final = {code: pattern for pattern, code in LIGHT_CODES.items()}


def _malformed(message: str) -> FrameError:
    return FrameError("malformed", message)


def _check_u(name: str, value: int, bits: int) -> None:
    if not 0 <= value < 1 << bits:
        raise _malformed(f"{name} {value} does not fit in {bits} bits")


@dataclass(frozen=True, slots=True)
class Hello:
    """What a board says first, and again on request: who it is and what antennas it has.

    ``antennas`` holds one name per antenna index — a reader id such as ``seat3``, or ``""``
    for an antenna the board leaves for the bridge's config to name.

    >>> Hello("rp2040-a", "0.1.0", 1, 1000, ("seat1", "seat2")).antennas[1]
    'seat2'
    """

    TYPE: ClassVar[FrameType] = FrameType.HELLO

    board_id: str
    firmware: str
    protocol: int
    heartbeat_ms: int
    antennas: tuple[str, ...]

    def __post_init__(self) -> None:
        if not _BOARD_ID_RE.match(self.board_id):
            raise _malformed(f"board id {self.board_id!r} must be 1-32 of A-Z a-z 0-9 _ -")
        if not _TEXT_RE.match(self.firmware):
            raise _malformed(f"firmware version {self.firmware!r} must be 0-16 printable ASCII")
        _check_u("protocol", self.protocol, 8)
        if not 1 <= self.heartbeat_ms <= 0xFFFF:
            raise _malformed(f"heartbeat interval {self.heartbeat_ms} ms out of 1-65535")
        if len(self.antennas) > MAX_ANTENNAS:
            raise _malformed(f"{len(self.antennas)} antennas; at most {MAX_ANTENNAS}")
        for name in self.antennas:
            if not _TEXT_RE.match(name):
                raise _malformed(f"antenna name {name!r} must be 0-16 printable ASCII")


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The board's periodic sign of life with its counters (all wrap at 2**32)."""

    TYPE: ClassVar[FrameType] = FrameType.HEARTBEAT

    uptime_ms: int
    sweeps: int
    read_errors: int
    rx_dropped: int

    def __post_init__(self) -> None:
        for name in ("uptime_ms", "sweeps", "read_errors", "rx_dropped"):
            _check_u(name, getattr(self, name), 32)


@dataclass(frozen=True, slots=True)
class Inventory:
    """Every tag on one antenna now (sent when it changes, and on request)."""

    TYPE: ClassVar[FrameType] = FrameType.INVENTORY

    antenna: int
    uids: tuple[bytes, ...]

    def __post_init__(self) -> None:
        _check_u("antenna", self.antenna, 8)
        if self.antenna == BOARD_ANTENNA:
            raise _malformed("antenna index 255 is reserved for the board")
        if len(self.uids) > MAX_UIDS:
            raise _malformed(f"{len(self.uids)} uids; at most {MAX_UIDS}")
        for uid in self.uids:
            if len(uid) not in UID_LENGTHS:
                raise _malformed(f"uid {uid.hex().upper()} has {len(uid)} bytes, not 4, 7 or 10")
        if len(set(self.uids)) != len(self.uids):
            raise _malformed("uids repeat")

    def hex_uids(self) -> frozenset[str]:
        """The uids as the MQTT protocol writes them: upper-case hex."""
        return frozenset(uid.hex().upper() for uid in self.uids)


@dataclass(frozen=True, slots=True)
class BoardErrorReport:
    """An ERROR frame: something went wrong on one antenna (or, with 255, the board)."""

    TYPE: ClassVar[FrameType] = FrameType.ERROR

    antenna: int
    code: int
    detail: int = 0

    def __post_init__(self) -> None:
        _check_u("antenna", self.antenna, 8)
        _check_u("code", self.code, 8)
        _check_u("detail", self.detail, 16)

    @property
    def code_name(self) -> str:
        """The code's name, or ``code<N>`` for one this bridge does not know."""
        try:
            return ErrorCode(self.code).name.lower()
        except ValueError:
            return f"code{self.code}"


@dataclass(frozen=True, slots=True)
class RequestHello:
    """Host → board: send HELLO, then the INVENTORY of every antenna."""

    TYPE: ClassVar[FrameType] = FrameType.REQUEST_HELLO


@dataclass(frozen=True, slots=True)
class RequestInventory:
    """Host → board: send the INVENTORY of every antenna (after a lost frame)."""

    TYPE: ClassVar[FrameType] = FrameType.REQUEST_INVENTORY


@dataclass(frozen=True, slots=True)
class SetLight:
    """Host → board: show ``pattern`` on seat light ``light`` (1-10)."""

    TYPE: ClassVar[FrameType] = FrameType.SET_LIGHT

    light: int
    pattern: LightPattern

    def __post_init__(self) -> None:
        if not 1 <= self.light <= 255:
            raise _malformed(f"light {self.light} out of 1-255")


Frame = (
    Hello | Heartbeat | Inventory | BoardErrorReport | RequestHello | RequestInventory | SetLight
)
"""Any frame of the protocol."""


def _text(value: str) -> bytes:
    raw = value.encode("ascii")
    return bytes([len(raw)]) + raw


def encode_payload(frame: Frame) -> bytes:
    """The payload bytes of ``frame`` (without header and CRC)."""
    if isinstance(frame, Hello):
        out = bytearray([frame.protocol])
        out += _text(frame.board_id) + _text(frame.firmware)
        out += struct.pack("<HB", frame.heartbeat_ms, len(frame.antennas))
        for name in frame.antennas:
            out += _text(name)
        return bytes(out)
    if isinstance(frame, Heartbeat):
        return struct.pack(
            "<IIII", frame.uptime_ms, frame.sweeps, frame.read_errors, frame.rx_dropped
        )
    if isinstance(frame, Inventory):
        out = bytearray([frame.antenna, len(frame.uids)])
        for uid in frame.uids:
            out.append(len(uid))
            out += uid
        return bytes(out)
    if isinstance(frame, BoardErrorReport):
        return struct.pack("<BBH", frame.antenna, frame.code, frame.detail)
    if isinstance(frame, SetLight):
        return bytes([frame.light, LIGHT_CODES[frame.pattern]])
    return b""


class _Cursor:
    """Reads fields off a payload, refusing to run past its end."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise _malformed(f"payload ends after {len(self.data)} bytes, expected more")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def unpack(self, fmt: str) -> tuple[int, ...]:
        values: tuple[int, ...] = struct.unpack(fmt, self.take(struct.calcsize(fmt)))
        return values

    def text(self) -> str:
        raw = self.take(self.u8())
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise _malformed(f"text {raw!r} is not ASCII") from None

    def end(self) -> None:
        if self.pos != len(self.data):
            raise _malformed(f"{len(self.data) - self.pos} bytes left over after the payload")


def decode_payload(frame_type: int, payload: bytes) -> Frame:
    """Turn a frame's type and payload back into a frame.

    Raises FrameError ``unknown_type`` for a type this bridge does not know and
    ``malformed`` for a payload that does not parse or breaks a field's rule.
    """
    try:
        ftype = FrameType(frame_type)
    except ValueError:
        raise FrameError("unknown_type", f"unknown frame type 0x{frame_type:02X}") from None
    c = _Cursor(payload)
    frame: Frame
    if ftype is FrameType.HELLO:
        protocol = c.u8()
        board_id = c.text()
        firmware = c.text()
        heartbeat_ms, count = c.unpack("<HB")
        names = tuple(c.text() for _ in range(count))
        frame = Hello(board_id, firmware, protocol, heartbeat_ms, names)
    elif ftype is FrameType.HEARTBEAT:
        frame = Heartbeat(*c.unpack("<IIII"))
    elif ftype is FrameType.INVENTORY:
        antenna = c.u8()
        count = c.u8()
        uids = tuple(c.take(c.u8()) for _ in range(count))
        frame = Inventory(antenna, uids)
    elif ftype is FrameType.ERROR:
        frame = BoardErrorReport(*c.unpack("<BBH"))
    elif ftype is FrameType.SET_LIGHT:
        light = c.u8()
        code = c.u8()
        if code not in _LIGHT_BY_CODE:
            raise _malformed(f"unknown light pattern code {code}")
        frame = SetLight(light, _LIGHT_BY_CODE[code])
    elif ftype is FrameType.REQUEST_HELLO:
        frame = RequestHello()
    else:
        frame = RequestInventory()
    c.end()
    return frame


__all__ = [
    "BOARD_ANTENNA",
    "BOARD_FRAME_TYPES",
    "HOST_FRAME_TYPES",
    "LIGHT_CODES",
    "MAX_ANTENNAS",
    "MAX_PAYLOAD",
    "MAX_UIDS",
    "PROTOCOL_VERSION",
    "UID_LENGTHS",
    "BoardErrorReport",
    "ErrorCode",
    "Frame",
    "FrameType",
    "Heartbeat",
    "Hello",
    "Inventory",
    "RequestHello",
    "RequestInventory",
    "SetLight",
    "decode_payload",
    "encode_payload",
]
