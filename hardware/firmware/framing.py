"""Framing of the feltwire serial reader-board protocol, board side (MicroPython).

The same bytes as the host's ``firmware_bridge/framing.py`` — see
``docs/serial-protocol.md``: every frame is ``00`` + COBS(body) + ``00`` where body =
version, type, sequence (u16), payload length (u16), payload, CRC-16/CCITT-FALSE (u16),
all little-endian. This module runs unchanged under MicroPython and CPython (the host's
tests import it by path and prove it encodes what the bridge decodes and decodes what the
bridge encodes), so it uses only ``struct`` and builtins: no typing, no dataclasses, no
f-strings, no ``bytearray.clear``. It is a twin of the host's module on purpose (the
board cannot import it): see README.md, "A twin of host code".
"""

import struct

VERSION = 1

# frame types, board -> host
T_HELLO = 0x01
T_HEARTBEAT = 0x02
T_INVENTORY = 0x03
T_ERROR = 0x04
# frame types, host -> board
T_REQUEST_HELLO = 0x81
T_REQUEST_INVENTORY = 0x82
T_SET_LIGHT = 0x83

HOST_TYPES = (T_REQUEST_HELLO, T_REQUEST_INVENTORY, T_SET_LIGHT)

# error codes of an ERROR frame
E_NO_READER = 1
E_READER_FAULT = 2
E_TOO_MANY_TAGS = 3
E_COLLISION = 4
E_BAD_COMMAND = 5
E_RESTARTED = 6
BOARD_ANTENNA = 0xFF

# seat light patterns of SET_LIGHT
LIGHT_OFF = 0
LIGHT_IDLE = 1
LIGHT_ACTING = 2
LIGHT_ERROR = 3
LIGHT_ALLIN = 4
LIGHT_FOLDED = 5

MAX_PAYLOAD = 1024
MIN_BODY = 8  # header (6) + CRC (2)
MAX_BODY = MIN_BODY + MAX_PAYLOAD
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
COMMAND_MAX_ENCODED = 32  # host frames are tiny; a board needs no big buffer for them

# drop reasons (the same words as the host's DropReason)
GARBAGE = "garbage"
TOO_LONG = "too_long"
CRC = "crc"
VERSION_MISMATCH = "version"
MALFORMED = "malformed"
UNKNOWN_TYPE = "unknown_type"
REASONS = (GARBAGE, TOO_LONG, CRC, VERSION_MISMATCH, MALFORMED, UNKNOWN_TYPE)


def _make_crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (poly 1021, init FFFF): crc16(b"123456789") = 29B1."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """COBS-encode ``data``: the result holds no zero byte."""
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


def cobs_decode(data):
    """Undo cobs_encode; None when ``data`` is not a valid COBS block."""
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
        out.extend(data[i + 1 : end])
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(ftype, seq, payload):
    """The wire bytes of one frame: 00 + COBS(header + payload + CRC) + 00."""
    body = struct.pack("<BBHH", VERSION, ftype, seq & 0xFFFF, len(payload)) + bytes(payload)
    body += struct.pack("<H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def _text(value):
    raw = value.encode()
    return bytes((len(raw),)) + raw


def hello_payload(board_id, firmware, heartbeat_ms, antenna_names):
    """HELLO: protocol, board id, firmware version, heartbeat interval, antenna names."""
    out = bytearray((VERSION,))
    out.extend(_text(board_id))
    out.extend(_text(firmware))
    out.extend(struct.pack("<HB", heartbeat_ms, len(antenna_names)))
    for name in antenna_names:
        out.extend(_text(name))
    return bytes(out)


def heartbeat_payload(uptime_ms, sweeps, read_errors, rx_dropped):
    """HEARTBEAT: four u32 counters (each wraps at 2**32)."""
    m = 0xFFFFFFFF
    return struct.pack("<IIII", uptime_ms & m, sweeps & m, read_errors & m, rx_dropped & m)


def inventory_payload(antenna, uids):
    """INVENTORY: antenna index and the uids (bytes of 4, 7 or 10) on it now."""
    out = bytearray((antenna, len(uids)))
    for uid in uids:
        out.append(len(uid))
        out.extend(uid)
    return bytes(out)


def error_payload(antenna, code, detail=0):
    """ERROR: antenna index (255 = the board), error code, detail (u16)."""
    return struct.pack("<BBH", antenna, code, detail & 0xFFFF)


def command_payload_ok(ftype, payload):
    """True when a host command's payload has the shape the protocol gives it."""
    if ftype == T_SET_LIGHT:
        return len(payload) == 2 and payload[0] >= 1 and payload[1] <= LIGHT_FOLDED
    return len(payload) == 0


class Deframer:
    """Turns bytes from the host into (type, seq, payload) frames; counts what it drops.

    feed() takes any chunk and returns the frames it completed; it never raises on bad
    input. ``drops`` maps each reason word to its count.
    """

    def __init__(self, accept=HOST_TYPES, max_encoded=COMMAND_MAX_ENCODED):
        self.accept = accept
        self.max_encoded = max_encoded
        self.drops = {}
        for reason in REASONS:
            self.drops[reason] = 0
        self.frames = 0
        self._buf = bytearray(max_encoded)
        self._n = 0
        self._overflow = False

    def dropped(self):
        """Segments dropped for any reason."""
        return sum(self.drops.values())

    def feed(self, data):
        """Add bytes from the line; returns the frames they complete, in order."""
        out = []
        for byte in data:
            if byte == 0:
                self._end_segment(out)
            elif self._overflow:
                pass
            elif self._n == self.max_encoded:
                self._overflow = True
            else:
                self._buf[self._n] = byte
                self._n += 1
        return out

    def _end_segment(self, out):
        if self._overflow:
            self._overflow = False
            self._n = 0
            self.drops[TOO_LONG] += 1
            return
        if self._n == 0:
            return
        segment = bytes(self._buf[: self._n])
        self._n = 0
        result = self._decode(segment)
        if isinstance(result, str):
            self.drops[result] += 1
        else:
            self.frames += 1
            out.append(result)

    def _decode(self, segment):
        body = cobs_decode(segment)
        if body is None or len(body) < MIN_BODY:
            return GARBAGE
        (crc,) = struct.unpack("<H", body[-2:])
        if crc16(body[:-2]) != crc:
            return CRC
        version, ftype, seq, length = struct.unpack("<BBHH", body[:6])
        if version != VERSION:
            return VERSION_MISMATCH
        if length != len(body) - MIN_BODY:
            return MALFORMED
        if ftype not in self.accept:
            return UNKNOWN_TYPE
        payload = body[6:-2]
        if ftype in HOST_TYPES and not command_payload_ok(ftype, payload):
            return MALFORMED
        return (ftype, seq, payload)
