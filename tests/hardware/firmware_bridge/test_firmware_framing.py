"""The board's framing (hardware/firmware/framing.py, MicroPython) against the host's.

The firmware module is imported by path and run under CPython: what it encodes the
bridge must decode to the same frame, byte for byte what the bridge would encode; what
the bridge sends the board must decode there; and on any byte stream the two deframers
must agree on every frame and every drop.
"""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.frames import (
    HOST_FRAME_TYPES,
    LIGHT_CODES,
    BoardErrorReport,
    Frame,
    Heartbeat,
    Hello,
    Inventory,
    SetLight,
)
from firmware_bridge.framing import Deframer, DropReason, encode_frame
from tests.support.firmware import FIRMWARE, load_firmware_module
from tests.support.frame_strategies import errors, heartbeats, hellos, host_frames, inventories

fw = load_firmware_module("framing")


def firmware_encode(frame: Frame, seq: int) -> bytes:
    """Encode a board frame with the firmware's functions."""
    if isinstance(frame, Hello):
        payload = fw.hello_payload(
            frame.board_id, frame.firmware, frame.heartbeat_ms, frame.antennas
        )
        return bytes(fw.encode_frame(fw.T_HELLO, seq, payload))
    if isinstance(frame, Heartbeat):
        payload = fw.heartbeat_payload(
            frame.uptime_ms, frame.sweeps, frame.read_errors, frame.rx_dropped
        )
        return bytes(fw.encode_frame(fw.T_HEARTBEAT, seq, payload))
    if isinstance(frame, Inventory):
        payload = fw.inventory_payload(frame.antenna, list(frame.uids))
        return bytes(fw.encode_frame(fw.T_INVENTORY, seq, payload))
    assert isinstance(frame, BoardErrorReport)
    payload = fw.error_payload(frame.antenna, frame.code, frame.detail)
    return bytes(fw.encode_frame(fw.T_ERROR, seq, payload))


@settings(max_examples=100)
@given(st.one_of(hellos, heartbeats, inventories, errors), st.integers(0, 0xFFFF))
def test_firmware_encodes_byte_for_byte_what_the_bridge_decodes(frame: Frame, seq: int) -> None:
    wire = firmware_encode(frame, seq)
    assert wire == encode_frame(frame, seq)
    got = Deframer().feed(wire)
    assert len(got) == 1 and got[0].frame == frame and got[0].seq == seq


@settings(max_examples=100)
@given(host_frames, st.integers(0, 0xFFFF))
def test_firmware_decodes_what_the_bridge_sends(frame: Frame, seq: int) -> None:
    deframer = fw.Deframer()
    got = deframer.feed(encode_frame(frame, seq))
    assert len(got) == 1
    ftype, fseq, payload = got[0]
    assert (ftype, fseq) == (frame.TYPE, seq)
    if isinstance(frame, SetLight):
        assert payload == bytes([frame.light, LIGHT_CODES[frame.pattern]])
    else:
        assert payload == b""


def _segment(kind: int, frame: Frame, junk: bytes, seq: int) -> bytes:
    wire = encode_frame(frame, seq)
    if kind == 0:
        return wire
    if kind == 1:
        return junk  # noise
    if kind == 2:  # a flipped byte inside the frame
        b = bytearray(wire)
        i = 1 + seq % (len(b) - 2)
        b[i] ^= 1 + seq % 255
        return bytes(b)
    return wire[: len(wire) // 2]  # a frame cut short


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), host_frames, st.binary(max_size=40), st.integers(0, 0xFFFF)),
        max_size=12,
    ),
    st.binary(max_size=40),
)
def test_both_deframers_agree_on_any_stream(
    segments: list[tuple[int, Frame, bytes, int]], tail: bytes
) -> None:
    stream = b"".join(_segment(*s) for s in segments) + tail + b"\x00"
    host = Deframer(HOST_FRAME_TYPES, max_encoded=fw.COMMAND_MAX_ENCODED)
    board = fw.Deframer()
    host_got = [(int(r.frame.TYPE), r.seq) for r in host.feed(stream)]
    board_got = [(t, s) for t, s, _ in board.feed(stream)]
    assert board_got == host_got
    assert {str(k): v for k, v in host.drops.items()} == board.drops
    assert host.frames == board.frames


def test_reason_words_match() -> None:
    assert set(fw.REASONS) == {str(r) for r in DropReason}


def test_crc_known_value() -> None:
    assert fw.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("name", ["framing", "rc522", "main"])
def test_firmware_uses_only_what_micropython_has(name: str) -> None:
    """No typing, dataclasses, f-string-only tricks or CPython-only modules on the board."""
    tree = ast.parse((FIRMWARE / f"{name}.py").read_text())
    allowed = {"struct", "time", "sys", "select", "machine", "micropython", "neopixel", "gc"}
    allowed |= {"framing", "rc522", "board_config"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= allowed, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module in allowed, node.module
        assert not isinstance(node, ast.AnnAssign), "annotations cost RAM on the board"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args)
        if isinstance(node, ast.Attribute):
            assert node.attr != "clear" or name != "framing", "MicroPython bytearray has no clear"


def test_rc522_crc_a_known_value() -> None:
    """The driver's software CRC_A matches ISO 14443-3 (CRC_A(50 00) = 57 CD)."""
    rc522 = load_firmware_module("rc522")
    assert rc522.crc_a(b"\x50\x00") == b"\x57\xcd"
