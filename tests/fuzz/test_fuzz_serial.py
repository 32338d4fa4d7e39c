"""Fuzzing the serial line (issue 15): any byte stream into the bridge's deframer and
frame decoder, and into a running :class:`~firmware_bridge.bridge.Bridge` — nothing
raises, every complete segment is a frame or a drop counted by reason (and logged),
and the valid frames around the garbage are all decoded and published."""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feltwire.publisher import InventoryPublisher
from firmware_bridge.bridge import Bridge
from firmware_bridge.config import BridgeConfig
from firmware_bridge.frames import FrameType, Hello, Inventory, encode_payload
from firmware_bridge.framing import (
    HEADER,
    MAX_ENCODED,
    Deframer,
    DropReason,
    FrameEncoder,
    cobs_encode,
    crc16,
)
from tests.support.bridge import ListTransport
from tests.support.clocks import Clock
from tests.support.frame_strategies import board_frames, uids
from tests.support.fuzz_strategies import fuzz_settings


def wire(frame_type: int, payload: bytes, seq: int = 1, version: int = 1) -> bytes:
    """A frame on the wire with a right CRC around any payload (and any type, version)."""
    body = HEADER.pack(version, frame_type, seq, len(payload) & 0xFFFF) + payload
    return b"\x00" + cobs_encode(body + struct.pack("<H", crc16(body))) + b"\x00"


frame_types = st.one_of(st.sampled_from(list(FrameType)), st.integers(0, 255))
checked_garbage = st.builds(wire, frame_types, st.binary(max_size=80), st.integers(0, 0xFFFF))
"""Frames that pass the CRC with a payload of any bytes: the decoder's fields are fuzzed."""
noise = st.one_of(
    st.binary(max_size=120), st.binary(min_size=MAX_ENCODED, max_size=MAX_ENCODED + 50)
)
chunks = st.lists(st.integers(1, 300), max_size=12)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    out, i = [], 0
    for size in cuts:
        out.append(data[i : i + size])
        i += size
    return [*out, data[i:]]


def complete_segments(stream: bytes) -> int:
    """Non-empty segments that a delimiter ends (each becomes one frame or one drop)."""
    return sum(1 for part in stream.split(b"\x00")[:-1] if part)


@fuzz_settings(400)
@given(st.lists(st.one_of(noise, checked_garbage), max_size=8), chunks)
def test_any_byte_stream_is_frames_or_counted_drops(parts: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(parts) + b"\x00"
    deframer = Deframer()
    got = [r for piece in chunked(stream, cuts) for r in deframer.feed(piece)]
    assert deframer.frames == len(got)
    assert deframer.frames + deframer.dropped == complete_segments(stream)


@fuzz_settings(400)
@given(frame_types, st.binary(max_size=200))
def test_a_decoded_frame_is_exactly_its_payload(frame_type: int, payload: bytes) -> None:
    """A payload the decoder takes is the canonical encoding of the frame it makes; one
    it refuses is dropped as malformed or of an unknown type (never an exception)."""
    deframer = Deframer(accept=set(FrameType))
    got = deframer.feed(wire(frame_type, payload))
    if got:
        assert encode_payload(got[0].frame) == payload
    else:
        reasons = {r for r, n in deframer.drops.items() if n}
        assert reasons <= {DropReason.MALFORMED, DropReason.UNKNOWN_TYPE}, reasons
        assert deframer.dropped == 1


@fuzz_settings(300)
@given(
    st.lists(st.tuples(st.lists(st.one_of(noise, checked_garbage), max_size=3), board_frames)),
    chunks,
)
def test_valid_frames_around_garbage_are_all_decoded(
    steps: list[tuple[list[bytes], object]], cuts: list[int]
) -> None:
    enc = FrameEncoder()
    stream = b"".join(b"".join(junk) + enc.encode(frame) for junk, frame in steps)  # type: ignore[arg-type]
    deframer = Deframer()
    got = [r.frame for piece in chunked(stream + b"\x00", cuts) for r in deframer.feed(piece)]
    valid = [frame for _, frame in steps]
    # the valid frames come out, in order, among whatever the garbage decoded to
    it = iter(got)
    assert all(any(g == frame for g in it) for frame in valid), (valid, got)


@dataclass
class StreamPort:
    """A serial port that returns the given chunks, one per read, then nothing."""

    chunks: list[bytes]
    writes: list[bytes] = field(default_factory=list)

    def read(self, size: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        pass


HELLO = Hello("board-a", "0.1.0", 1, 1000, ("seat1", "seat2", "board"))
READER_OF = {0: "seat1", 1: "seat2", 2: "board"}
mapped_inventories = st.builds(
    Inventory, antenna=st.integers(0, 2), uids=st.lists(uids, max_size=6, unique=True).map(tuple)
)


@fuzz_settings(150)
@given(
    steps=st.lists(
        st.tuples(
            st.lists(
                st.one_of(
                    noise, checked_garbage, st.builds(wire, st.just(3), st.binary(max_size=40))
                ),
                max_size=3,
            ),
            mapped_inventories,
        ),
        min_size=1,
        max_size=10,
    )
)
def test_the_bridge_publishes_every_valid_inventory_among_garbage(
    steps: list[tuple[list[bytes], Inventory]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    transport = ListTransport()
    publisher = InventoryPublisher(
        table="t1", node="bridge1", transport=transport, clock=lambda: 1.7e9
    )
    port = StreamPort([])
    clock = Clock()
    bridge = Bridge(
        BridgeConfig(table="t1", bridge_id="bridge1", port="fake"),
        transport=transport,
        publisher=publisher,
        open_port=lambda: port,
        clock=clock,
    )
    enc = FrameEncoder()
    with caplog.at_level(logging.INFO):
        port.chunks.append(enc.encode(HELLO))
        bridge.poll_once()
        for junk, inv in steps:
            port.chunks += [*junk, enc.encode(inv)]
            while port.chunks:
                bridge.poll_once()
            clock.advance(0.01)
            # a garbage frame may be a valid HELLO that renames the antennas: only while the
            # board is the one we greeted, the read must be on its reader
            if bridge.board == HELLO:
                reader = READER_OF[inv.antenna]
                assert set(transport.latest().get(reader, [])) == inv.hex_uids()
    stats = bridge.stats()
    reasons = {
        k.removeprefix("dropped.") for k, n in stats.items() if k.startswith("dropped.") and n
    }
    said = caplog.text
    for reason in reasons:
        assert f"({reason}:" in said, f"drops of {reason} never logged"
