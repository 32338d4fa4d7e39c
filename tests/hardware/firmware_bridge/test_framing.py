"""The host's framing: any chunking decodes alike, noise never makes a frame, drops are counted."""

from __future__ import annotations

import itertools
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.errors import FrameError
from firmware_bridge.frames import (
    FrameType,
    Heartbeat,
    Hello,
    Inventory,
    decode_payload,
    encode_payload,
)
from firmware_bridge.framing import (
    HEADER,
    MAX_ENCODED,
    Deframer,
    DropReason,
    FrameEncoder,
    cobs_decode,
    cobs_encode,
    crc16,
    encode_frame,
)
from tests.support.frame_strategies import board_frames, host_frames

HB = Heartbeat(1, 2, 3, 4)


def raw_frame(ftype: int, payload: bytes, *, version: int = 1, length: int | None = None) -> bytes:
    """A frame built by hand, with a correct CRC, to reach each drop reason."""
    n = len(payload) if length is None else length
    body = HEADER.pack(version, ftype, 7, n) + payload
    body += struct.pack("<H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def test_crc_and_cobs_known_values() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert cobs_encode(b"") == b"\x01"
    assert cobs_encode(b"\x00") == b"\x01\x01"
    assert cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"
    assert cobs_decode(b"\x05\x01") is None  # code runs past the end
    assert cobs_decode(b"\x02\x00") is None  # a zero inside a block


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    enc = cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(enc) == data


@given(board_frames | host_frames)
def test_every_frame_round_trips_through_its_payload(frame: object) -> None:
    assert not isinstance(frame, str)
    payload = encode_payload(frame)  # type: ignore[arg-type]
    assert decode_payload(frame.TYPE, payload) == frame  # type: ignore[attr-defined]


@settings(max_examples=150)
@given(st.lists(board_frames, min_size=1, max_size=8), st.lists(st.integers(0, 10**6)))
def test_any_chunking_of_a_stream_decodes_to_the_same_frames(
    frames: list[object], cuts: list[int]
) -> None:
    enc = FrameEncoder(start=65530)  # crosses the seq wrap
    stream = b"".join(enc.encode(f) for f in frames)  # type: ignore[arg-type]
    deframer = Deframer()
    got = [r for part in chunked(stream, cuts) for r in deframer.feed(part)]
    assert [r.frame for r in got] == frames
    assert [r.seq for r in got] == [(65530 + i) & 0xFFFF for i in range(len(frames))]
    assert deframer.dropped == 0 and deframer.frames == len(frames)


def test_every_single_byte_boundary() -> None:
    stream = FrameEncoder().encode(Inventory(3, (b"\x04\x5e\xed\x01\xc0\xde\x80",)))
    stream += FrameEncoder().encode(HB)
    for cut in range(len(stream) + 1):
        d = Deframer()
        got = d.feed(stream[:cut]) + d.feed(stream[cut:])
        assert [r.frame for r in got] == [Inventory(3, (bytes.fromhex("045EED01C0DE80"),)), HB]
    d = Deframer()
    assert [r.frame for b in stream for r in d.feed(bytes([b]))] == [
        Inventory(3, (bytes.fromhex("045EED01C0DE80"),)),
        HB,
    ]


@settings(max_examples=200)
@given(
    st.lists(board_frames, min_size=1, max_size=6),
    st.lists(st.binary(min_size=1, max_size=64), min_size=1, max_size=7),
    st.lists(st.integers(0, 10**6)),
)
def test_noise_between_frames_never_makes_a_frame_and_loses_none(
    frames: list[object], noise: list[bytes], cuts: list[int]
) -> None:
    """Noise lands between frames (where line noise or a debug print would)."""
    enc = FrameEncoder()
    stream = b""
    for i, frame in enumerate(frames):
        stream += noise[i % len(noise)] + enc.encode(frame)  # type: ignore[arg-type]
    stream += noise[-1]
    deframer = Deframer()
    got = [r.frame for part in chunked(stream, cuts) for r in deframer.feed(part)]
    got += [r.frame for r in deframer.feed(b"\x00")]  # end of the stream
    assert got == frames
    assert deframer.frames == len(frames)


@settings(max_examples=300)
@given(board_frames, st.data())
def test_a_corrupted_byte_never_yields_a_frame(frame: object, data: st.DataObject) -> None:
    wire = bytearray(encode_frame(frame, 1))  # type: ignore[arg-type]
    pos = data.draw(st.integers(1, len(wire) - 2), label="pos")
    flip = data.draw(st.integers(1, 255), label="flip")
    wire[pos] ^= flip
    deframer = Deframer()
    got = deframer.feed(bytes(wire) + encode_frame(HB, 2))
    # the corrupted frame is dropped (a zero it gained may split it in two segments);
    # the frame after it always survives
    assert [r.frame for r in got] == [HB]
    assert deframer.dropped >= 1


def test_each_drop_reason_is_counted() -> None:
    good = encode_frame(HB, 1)
    bad_crc = bytearray(good)
    bad_crc[-2] ^= 0x40 if bad_crc[-2] != 0x40 else 0x20
    stream = (
        b"\x00hello\x00"  # not COBS: garbage
        + b"\x00\x02\x01\x00"  # COBS but 1 byte: garbage
        + bytes(bad_crc)
        + raw_frame(FrameType.HEARTBEAT, encode_payload(HB), version=2)
        + raw_frame(FrameType.HEARTBEAT, encode_payload(HB), length=3)
        + raw_frame(FrameType.INVENTORY, b"\x00\x01\x05abcde")  # uid of 5 bytes
        + raw_frame(0x42, b"")  # type nobody knows
        + raw_frame(FrameType.SET_LIGHT, b"\x01\x02")  # host's type, sent to the host
        + b"\x01" * (MAX_ENCODED + 10)  # no delimiter for too long
        + good
    )
    deframer = Deframer()
    got = deframer.feed(stream)
    assert [r.frame for r in got] == [HB]
    assert deframer.drops == {
        DropReason.GARBAGE: 2,
        DropReason.CRC: 1,
        DropReason.VERSION: 1,
        DropReason.MALFORMED: 2,
        DropReason.UNKNOWN_TYPE: 2,
        DropReason.TOO_LONG: 1,
    }
    assert deframer.dropped_bytes > MAX_ENCODED


def test_on_drop_gets_a_sentence_a_person_can_act_on() -> None:
    seen = []
    deframer = Deframer(on_drop=seen.append)
    deframer.feed(raw_frame(FrameType.HEARTBEAT, encode_payload(HB), version=3))
    assert seen[0].reason is DropReason.VERSION
    assert "v3" in seen[0].detail and "v1" in seen[0].detail


def test_reset_forgets_a_half_frame() -> None:
    wire = encode_frame(HB, 1)
    deframer = Deframer()
    deframer.feed(wire[:-4])
    deframer.reset()
    assert deframer.feed(wire[-4:]) == []
    assert deframer.dropped == 1  # the tail alone is not a frame


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"board_id": "no spaces"}, "board id"),
        ({"heartbeat_ms": 0}, "heartbeat"),
        ({"antennas": ("x" * 17,)}, "antenna name"),
        ({"antennas": ("a",) * 33}, "33 antennas"),
    ],
)
def test_frames_refuse_bad_fields(kwargs: dict[str, object], match: str) -> None:
    base: dict[str, object] = {
        "board_id": "b",
        "firmware": "1",
        "protocol": 1,
        "heartbeat_ms": 100,
        "antennas": (),
    }
    with pytest.raises(FrameError, match=match) as info:
        Hello(**(base | kwargs))  # type: ignore[arg-type]
    assert info.value.reason == "malformed" and isinstance(info.value, ValueError)


def test_inventory_refuses_bad_uids() -> None:
    with pytest.raises(FrameError, match="5 bytes"):
        Inventory(0, (b"12345",))
    with pytest.raises(FrameError, match="repeat"):
        Inventory(0, (b"1234", b"1234"))
    with pytest.raises(FrameError, match="reserved"):
        Inventory(255, ())
