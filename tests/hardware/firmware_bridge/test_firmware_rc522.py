"""The board's RC522 driver (hardware/firmware/rc522.py) against an emulated chip and tags.

The emulator models the registers the driver uses, the FIFO, and ISO 14443-3 tags
(IDLE / READY / ACTIVE / HALT, cascade levels, bit collisions). Its CollPos convention —
the 1-based position of the first colliding bit within the 40-bit uid part, as the
widely used Arduino MFRC522 library reads it — is an assumption to confirm on a real chip.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.support.firmware import load_firmware_module

rc = load_firmware_module("rc522")


def _ticks_ms() -> int:
    return int(time.monotonic() * 1000)


# MicroPython's time functions, for the driver under CPython
time_mod: Any = rc.time
if not hasattr(time_mod, "ticks_ms"):
    rc.time = type(
        "T",
        (),
        {
            "ticks_ms": staticmethod(_ticks_ms),
            "ticks_add": staticmethod(lambda a, b: a + b),
            "ticks_diff": staticmethod(lambda a, b: a - b),
        },
    )


def parts_of(uid: bytes) -> list[bytes]:
    """The 5-byte parts (4 uid/cascade bytes + BCC) a tag answers at each cascade level."""
    if len(uid) == 4:
        chunks = [uid]
    elif len(uid) == 7:
        chunks = [b"\x88" + uid[:3], uid[3:]]
    else:
        chunks = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
    return [c + bytes([c[0] ^ c[1] ^ c[2] ^ c[3]]) for c in chunks]


def bits(data: bytes) -> list[int]:
    return [(b >> i) & 1 for b in data for i in range(8)]  # LSB first, as on air


class Tag:
    def __init__(self, uid: str) -> None:
        self.uid = bytes.fromhex(uid)
        self.parts = parts_of(self.uid)
        self.state = "IDLE"
        self.level = 0


class FakeChip:
    """Registers, FIFO and the RF field of one RC522 with some tags on its antenna."""

    def __init__(self, tags: list[Tag]) -> None:
        self.tags = tags
        self.regs = dict.fromkeys(range(64), 0)
        self.regs[rc.VERSION] = 0x92
        self.fifo: list[int] = []
        self.selected = False

    # SPI as the driver uses it
    def write(self, buf: bytes) -> None:
        reg, value = (buf[0] >> 1) & 0x3F, buf[1]
        if reg == rc.FIFO_DATA:
            self.fifo.append(value)
        elif reg == rc.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif reg == rc.COM_IRQ:
            self.regs[reg] &= ~value & 0x7F
        elif reg == rc.BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs[rc.COMMAND] == rc.TRANSCEIVE:
                self._transceive()
        else:
            self.regs[reg] = value

    def write_readinto(self, buf: bytes, out: bytearray) -> None:
        reg = (buf[0] >> 1) & 0x3F
        if reg == rc.FIFO_DATA:
            out[1] = self.fifo.pop(0)
        elif reg == rc.FIFO_LEVEL:
            out[1] = len(self.fifo)
        else:
            out[1] = self.regs[reg]

    def _answer(self, data: bytes, last_bits: int = 0, error: int = 0) -> None:
        self.fifo = list(data)
        self.regs[rc.CONTROL] = last_bits
        self.regs[rc.ERROR] = error
        self.regs[rc.COM_IRQ] |= 0x30

    def _silence(self) -> None:
        self.fifo = []
        self.regs[rc.ERROR] = 0
        self.regs[rc.COM_IRQ] |= 0x01

    def _transceive(self) -> None:
        frame = bytes(self.fifo)
        framing = self.regs[rc.BIT_FRAMING]
        tx_bits = framing & 0x07
        if tx_bits == 7 and frame in (b"\x26", b"\x52"):
            wake = ("IDLE",) if frame == b"\x26" else ("IDLE", "HALT")
            woken = False
            for tag in self.tags:
                if tag.state in wake:
                    tag.state, tag.level, woken = "READY", 0, True
                elif tag.state in ("READY", "ACTIVE"):
                    tag.state = "IDLE"
            return self._answer(b"\x44\x00") if woken else self._silence()
        if frame[:1] == b"\x50":
            for tag in self.tags:
                if tag.state == "ACTIVE":
                    tag.state = "HALT"
            return self._silence()
        sel, nvb = frame[0], frame[1]
        level = (0x93, 0x95, 0x97).index(sel)
        if nvb == 0x70:  # SELECT with a whole part + CRC
            part = frame[2:7]
            hit = [t for t in self.tags if t.state == "READY" and t.parts[level] == part]
            for t in self.tags:
                if t.state == "READY" and t not in hit:
                    t.state = "IDLE"
            if not hit:
                return self._silence()
            tag = hit[0]
            more = level + 1 < len(tag.parts)
            sak = 0x04 if more else 0x08
            if not more:
                tag.state = "ACTIVE"
            return self._answer(bytes([sak]) + rc.crc_a(bytes([sak])))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        sent = bits(frame[2:])[:known]
        ready = [t for t in self.tags if t.state == "READY"]
        cands = [t for t in ready if bits(t.parts[level])[:known] == sent]
        if not cands:
            return self._silence()
        answers = [bits(t.parts[level]) for t in cands]
        coll = next((i for i in range(known, 40) if len({a[i] for a in answers}) > 1), None)
        reply = list(answers[0])
        end = 40 if coll is None else coll + 1
        for i in range(coll if coll is not None else 40, 40):
            reply[i] = 0
        first = known // 8
        data = bytearray()
        for byte_i in range(first, (end + 7) // 8):
            data.append(sum(reply[byte_i * 8 + j] << j for j in range(8)))
        if known % 8:
            data[0] &= ~((1 << (known % 8)) - 1) & 0xFF
        if coll is None:
            return self._answer(bytes(data))
        self.regs[rc.COLL] = (coll + 1) & 0x1F
        return self._answer(bytes(data), last_bits=end % 8, error=0x08)


def reader_for(*uids: str) -> tuple[Any, FakeChip]:
    chip = FakeChip([Tag(u) for u in uids])

    class Pin:
        def value(self, v: int | None = None) -> int:
            return 1

    reader = rc.RC522(chip, Pin())
    assert reader.init()
    return reader, chip


@pytest.mark.parametrize("uid", ["04A1B2C3", "045EED33C0DE80", "04112233445566778899"])
def test_reads_4_7_and_10_byte_uids(uid: str) -> None:
    reader, _ = reader_for(uid)
    tags, outcome = reader.inventory(8)
    assert [t.hex().upper() for t in tags] == [uid] and outcome == rc.INV_OK


def test_a_tag_left_on_the_antenna_is_read_every_sweep() -> None:
    reader, _ = reader_for("045EED33C0DE80")
    for _ in range(4):
        assert len(reader.inventory(8)[0]) == 1


def test_resolves_colliding_tags() -> None:
    uids = ["045EED01C0DE80", "045EED02C0DE80", "04A1B2C3", "80A1B2C3"]
    reader, _ = reader_for(*uids)
    tags, outcome = reader.inventory(8)
    assert sorted(t.hex().upper() for t in tags) == sorted(uids) and outcome == rc.INV_OK
    again, _ = reader.inventory(8)
    assert sorted(again) == sorted(tags)


def test_reports_more_tags_than_it_may_read() -> None:
    reader, _ = reader_for("04A1B2C3", "04A1B2C4", "04A1B2C5")
    tags, outcome = reader.inventory(2)
    assert len(tags) == 2 and outcome == rc.INV_MORE


def test_empty_antenna_and_missing_chip() -> None:
    reader, chip = reader_for()
    assert reader.inventory(8) == ([], rc.INV_OK)
    chip.regs[rc.VERSION] = 0x00
    assert not reader.init()
