"""The bridge over a real pseudo-terminal (pyserial opens the slave) against a simulated board.

Everything runs for real — the board's thread writing to the pty master, pyserial, the
bridge's thread — so these tests wait for conditions with a deadline instead of stepping.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from feltwire.deck import simulated_uid
from feltwire.protocol import LightPattern
from feltwire.publisher import InventoryPublisher
from firmware_bridge.bridge import Bridge, LinkState
from firmware_bridge.config import BridgeConfig
from firmware_bridge.serial_port import SerialPort
from firmware_bridge.simboard import PtyBoard, SimBoard
from tests.support.bridge import ListTransport, wait_for

UIDS = [simulated_uid(i) for i in range(8)]


@dataclass
class PtyRig:
    board: SimBoard
    pty: PtyBoard
    bridge: Bridge
    transport: ListTransport

    def seen(self, reader: str, uids: list[str]) -> Callable[[], bool]:
        return lambda: self.transport.latest().get(reader) == sorted(uids)


@pytest.fixture(params=[False, True], ids=["whole-writes", "split-writes"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PtyRig]:
    with running_rig(tmp_path, split_writes=request.param) as r:
        yield r


@contextmanager
def running_rig(tmp_path: Path, *, split_writes: bool, high_fds: bool = False) -> Iterator[PtyRig]:
    """The board on a pty and the bridge on its other end; ``high_fds``: the board's pty
    gets descriptors above 1024 (the bridge's own stay low, as in its own process)."""
    board = SimBoard(antennas=("seat1", "seat2", "board"), heartbeat_ms=50)
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100 if high_fds else 0)]
    try:
        pty = PtyBoard(board, tmp_path / "ttyBOARD", split_writes=split_writes, seed=7).start()
    finally:
        for fd in held:
            os.close(fd)
    transport = ListTransport()
    config = BridgeConfig(
        table="t1",
        bridge_id="bridge1",
        port=str(pty.path),
        heartbeat_timeout_s=0.5,
        reconnect_min_s=0.05,
        reconnect_max_s=0.2,
        hello_retry_s=0.2,
    )
    bridge = Bridge(
        config,
        transport=transport,
        publisher=InventoryPublisher(table="t1", node="bridge1", transport=transport),
        open_port=lambda: SerialPort(config.port, config.baud, timeout=0.02),
    )
    stop = threading.Event()
    runner = threading.Thread(target=bridge.run, args=(stop,), daemon=True)
    runner.start()
    r = PtyRig(board, pty, bridge, transport)
    try:
        wait_for(lambda: bridge.state is LinkState.ONLINE, what="the board online")
        yield r
    finally:
        stop.set()
        runner.join(timeout=5)
        pty.stop()
    assert not runner.is_alive()


def test_the_board_talks_when_the_process_has_over_1024_descriptors(tmp_path: Path) -> None:
    """A long test run (or a busy process) holds more than 1024 descriptors; the board's
    pty then gets a number ``select()`` refuses — its thread died and the board went
    silent (what failed the bridge's SIGTERM test in full CI runs)."""
    with running_rig(tmp_path, split_writes=False, high_fds=True) as r:
        r.board.place(1, UIDS[3])
        wait_for(r.seen("seat2", UIDS[3:4]), what="seat2 inventory")


def test_tags_on_the_board_become_inventories(rig: PtyRig) -> None:
    rig.board.place(0, UIDS[0])
    rig.board.place(2, UIDS[1])
    rig.board.place(2, UIDS[2])
    wait_for(rig.seen("board", UIDS[1:3]), what="board inventory")
    wait_for(rig.seen("seat1", UIDS[:1]), what="seat1 inventory")
    rig.board.lift(2, UIDS[1])
    wait_for(rig.seen("board", UIDS[2:3]), what="board after a lift")
    assert rig.bridge.stats()["dropped"] == 0


def test_pulled_cable_reconnects_and_continues(rig: PtyRig) -> None:
    rig.board.place(0, UIDS[0])
    wait_for(rig.seen("seat1", UIDS[:1]))
    rig.pty.unplug()
    wait_for(lambda: rig.bridge.state is LinkState.DISCONNECTED, what="the loss noticed")
    rig.board.place(1, UIDS[3])  # while unplugged: nobody hears it
    time.sleep(0.2)
    rig.pty.replug()
    wait_for(rig.seen("seat2", UIDS[3:4]), what="the change made while unplugged")
    assert rig.bridge.state is LinkState.ONLINE
    avail = rig.transport.availability()
    assert avail[-3:] == [b"online", b"offline", b"online"]
    stats = rig.bridge.stats()
    assert stats["port_lost"] >= 1 and stats["opens"] >= 2
    rig.board.place(1, UIDS[4])
    wait_for(rig.seen("seat2", UIDS[3:5]), what="reads after the replug")


def test_noise_and_corruption_are_counted_without_false_reads(rig: PtyRig) -> None:
    rig.board.inject(b"\x00MicroPython v1.24 on 2024-11-29; Raspberry Pi Pico\r\n>>> \x00")
    rig.board.inject(bytes(range(1, 256)) * 5)  # a long run without a delimiter
    rig.board.corrupt_next(2)
    rig.board.place(0, UIDS[5])
    rig.board.place(1, UIDS[6])
    wait_for(rig.seen("seat1", UIDS[5:6]), what="seat1 after a corrupted frame")
    wait_for(rig.seen("seat2", UIDS[6:7]), what="seat2 after a corrupted frame")
    stats = rig.bridge.stats()
    assert stats["dropped.crc"] == 2
    assert stats["dropped.garbage"] + stats["dropped.too_long"] >= 2
    assert stats["resyncs"] >= 1
    every_uid = {u for m in rig.transport.inventories() for u in m["uids"]}  # type: ignore[attr-defined]
    assert every_uid == {UIDS[5], UIDS[6]}


def test_a_hung_board_goes_offline_and_comes_back(rig: PtyRig) -> None:
    rig.board.silent = True
    wait_for(lambda: rig.bridge.state is LinkState.WAITING_HELLO, what="heartbeat timeout")
    assert rig.transport.availability()[-1] == b"offline"
    rig.board.silent = False
    wait_for(lambda: rig.bridge.state is LinkState.ONLINE, what="the board back")
    assert rig.transport.availability()[-1] == b"online"


def test_lights_reach_the_board(rig: PtyRig) -> None:
    rig.bridge.set_light(2, LightPattern.ALLIN)
    wait_for(lambda: rig.board.lights.get(2) is LightPattern.ALLIN, what="the light")
