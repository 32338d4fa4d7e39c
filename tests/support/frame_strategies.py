"""Hypothesis strategies for frames of the serial protocol, shared by the framing tests."""

from __future__ import annotations

from hypothesis import strategies as st

from feltwire.protocol import LightPattern
from firmware_bridge.frames import (
    BoardErrorReport,
    Frame,
    Heartbeat,
    Hello,
    Inventory,
    RequestHello,
    RequestInventory,
    SetLight,
)

u32 = st.integers(0, 2**32 - 1)
uids = st.one_of(st.binary(min_size=n, max_size=n) for n in (4, 7, 10))
names = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=16)
board_ids = st.from_regex(r"[A-Za-z0-9_-]{1,32}", fullmatch=True)

hellos = st.builds(
    Hello,
    board_id=board_ids,
    firmware=names,
    protocol=st.just(1),
    heartbeat_ms=st.integers(1, 0xFFFF),
    antennas=st.lists(names, max_size=32).map(tuple),
)
heartbeats = st.builds(Heartbeat, u32, u32, u32, u32)
inventories = st.builds(
    Inventory,
    antenna=st.integers(0, 254),
    uids=st.lists(uids, max_size=64, unique=True).map(tuple),
)
errors = st.builds(
    BoardErrorReport, st.integers(0, 255), st.integers(0, 255), st.integers(0, 0xFFFF)
)
board_frames: st.SearchStrategy[Frame] = st.one_of(hellos, heartbeats, inventories, errors)
host_frames: st.SearchStrategy[Frame] = st.one_of(
    st.just(RequestHello()),
    st.just(RequestInventory()),
    st.builds(SetLight, st.integers(1, 255), st.sampled_from(list(LightPattern))),
)
