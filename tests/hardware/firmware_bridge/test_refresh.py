"""The bridge re-sends a quiet antenna's inventory every ``inventory_refresh_s``, as a
table node does (issue 15): a board reports an antenna only when its tags change, and
without the re-send the hub could not tell a reader that stopped from one where nothing
moves. It re-sends only what the board vouches for — not an antenna the board reports
NO_READER or READER_FAULT for, not while the board's heartbeats say it stopped sweeping.

The first tests step the bridge against a simulated board on an in-memory wire, on a
clock the test moves; the last runs ``feltwire bridge`` over a pseudo-terminal against a
real Mosquitto.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.deck import simulated_uid
from feltwire.publisher import InventoryPublisher
from firmware_bridge.bridge import Bridge, LinkState
from firmware_bridge.config import BridgeConfig
from firmware_bridge.frames import ErrorCode
from firmware_bridge.simboard import SimBoard
from tests.support.bridge import ListTransport, WirePort, board_on_a_pty
from tests.support.clocks import Clock
from tests.support.mosquitto import MosquittoProcess

UID0 = simulated_uid(0)
READERS = ("seat1", "seat2", "board")


class Rig:
    """A bridge with ``inventory_refresh_s = 5`` on a wire to a simulated board; the
    bridge and its publisher run on one clock the test moves."""

    def __init__(self) -> None:
        self.board = SimBoard(antennas=READERS)
        self.transport = ListTransport()
        self.clock = Clock()
        config = BridgeConfig(table="t1", bridge_id="bridge1", port="fake")
        publisher = InventoryPublisher(
            table="t1",
            node="bridge1",
            transport=self.transport,
            clock=lambda: 1.7e9,
            refresh_s=config.inventory_refresh_s or None,
            monotonic=self.clock,
        )
        self.bridge = Bridge(
            config,
            transport=self.transport,
            publisher=publisher,
            open_port=lambda: WirePort(self.board),
            clock=self.clock,
        )
        self.board.boot()
        self.board.take_output()
        self.step()
        assert self.bridge.state is LinkState.ONLINE

    def step(self) -> None:
        for _ in range(3):
            self.bridge.poll_once()

    def later(self, seconds: float, *, sweeping: bool = True) -> list[dict[str, object]]:
        """Let ``seconds`` pass (the board heartbeating every second, its sweep count
        moving or not); the inventories published meanwhile."""
        before = len(self.transport.inventories())
        for _ in range(round(seconds * 10)):
            self.clock.advance(0.1)
            if round(self.clock.now * 10) % 10 == 0:
                if not sweeping:
                    self.board.sweeps -= 1  # the same count again: its sweep loop hung
                self.board.heartbeat()
            self.step()
        return self.transport.inventories()[before:]


def readers(msgs: list[dict[str, object]]) -> list[object]:
    return sorted(str(m["reader"]) for m in msgs)


def test_a_quiet_antenna_is_sent_again_every_inventory_refresh_s() -> None:
    rig = Rig()
    rig.board.place(0, UID0)
    rig.step()
    assert rig.transport.latest()["seat1"] == [UID0]
    assert BridgeConfig().inventory_refresh_s == 5.0  # the node's default
    assert rig.later(4.5) == []  # nothing changed, not due yet
    again = rig.later(1.0)
    assert readers(again) == sorted(READERS)
    assert [m["uids"] for m in again if m["reader"] == "seat1"] == [[UID0]]
    assert all(m["refresh_s"] == 5.0 for m in again)
    seqs = [m["seq"] for m in rig.transport.inventories()]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert readers(rig.later(5.0)) == sorted(READERS)
    assert rig.bridge.stats()["refreshed"] == 6


def test_an_antenna_the_board_says_failed_is_not_vouched_for() -> None:
    rig = Rig()
    # seat2's reader stops answering: the board says so once a second
    sent: list[dict[str, object]] = []
    for _ in range(12):
        rig.board.report_error(1, ErrorCode.NO_READER)
        sent += rig.later(1.0)
    assert "seat2" not in readers(sent)
    assert readers(sent).count("seat1") == 2 and readers(sent).count("board") == 2
    # the reader is back: the board reports the antenna again, and it is refreshed again
    rig.board.place(1, UID0)
    rig.step()
    assert readers(rig.later(5.5)).count("seat2") == 1


def test_a_board_that_stopped_sweeping_is_not_vouched_for() -> None:
    rig = Rig()
    assert rig.later(12.0, sweeping=False) == []  # heartbeats, but no sweep done
    assert rig.bridge.state is LinkState.ONLINE  # the board still talks
    assert readers(rig.later(1.5)) == sorted(READERS)  # sweeping again: re-sent at once


def test_the_bridge_process_refreshes_what_it_publishes(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    got: list[dict[str, object]] = []
    twice = threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="refresh-test")

    def on_message(_c: paho.Client, _u: object, msg: paho.MQTTMessage) -> None:
        got.append(json.loads(msg.payload))
        if len(got) >= 3:
            twice.set()

    client.on_message = on_message
    client.connect("127.0.0.1", mosquitto.port)
    client.subscribe("feltwire/v1/t1/node/b1/reader/seat1/tags", qos=1)
    client.loop_start()
    try:
        with board_on_a_pty(tmp_path, mosquitto.url, "inventory_refresh_s = 0.3\n") as cfg:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "import sys; from firmware_bridge.main import main; "
                    "sys.exit(main(sys.argv[1:]))",
                    "--config",
                    str(cfg),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            try:
                # the first inventory, then two re-sends (a slow CI box starts Python slowly)
                done = twice.wait(30)
                proc.send_signal(signal.SIGTERM)
                out, _ = proc.communicate(timeout=20)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    finally:
        client.disconnect()
        client.loop_stop()
    assert done, (got, out)
    assert {json.dumps(m["uids"]) for m in got} == {"[]"}  # the same, empty antenna
    assert all(m["refresh_s"] == 0.3 for m in got)
    seqs = [int(str(m["seq"])) for m in got]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
