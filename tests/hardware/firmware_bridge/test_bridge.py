"""The bridge's logic, driven step by step over an in-memory wire to a simulated board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from feltwire.deck import simulated_uid
from feltwire.protocol import LightPattern, ReaderInventory
from feltwire.publisher import InventoryPublisher
from firmware_bridge.bridge import Bridge, LinkState
from firmware_bridge.config import BridgeConfig
from firmware_bridge.errors import PortError
from firmware_bridge.frames import ErrorCode
from firmware_bridge.simboard import SimBoard
from tests.support.bridge import ListTransport, WirePort
from tests.support.clocks import Clock

UID0, UID1, UID2 = simulated_uid(0), simulated_uid(1), simulated_uid(2)


@dataclass
class Rig:
    board: SimBoard
    bridge: Bridge
    transport: ListTransport
    clock: Clock
    ports: list[WirePort] = field(default_factory=list)
    cable_in: bool = True

    def open_port(self) -> WirePort:
        if not self.cable_in:
            raise PortError("cannot open serial port fake: no such device")
        port = WirePort(self.board)
        self.ports.append(port)
        return port

    def step(self, n: int = 3) -> None:
        for _ in range(n):
            self.bridge.poll_once()

    @property
    def port(self) -> WirePort:
        return self.ports[-1]


def make_rig(board: SimBoard | None = None, **config: Any) -> Rig:
    board = board or SimBoard(antennas=("seat1", "seat2", "board"))
    transport = ListTransport()
    clock = Clock()
    publisher = InventoryPublisher(
        table="t1", node="bridge1", transport=transport, clock=lambda: 1.7e9
    )
    cfg = BridgeConfig(table="t1", bridge_id="bridge1", port="fake", **config)
    rig = Rig(board, None, transport, clock)  # type: ignore[arg-type]
    rig.bridge = Bridge(
        cfg, transport=transport, publisher=publisher, open_port=rig.open_port, clock=clock
    )
    board.boot()
    board.take_output()  # the boot HELLO went out before anyone listened
    return rig


def test_board_comes_online_and_every_antenna_is_published() -> None:
    rig = make_rig()
    rig.board.place(2, UID1)
    rig.step()
    assert rig.bridge.state is LinkState.ONLINE
    assert rig.transport.availability() == [b"offline", b"online"]
    assert rig.transport.latest() == {"seat1": [], "seat2": [], "board": [UID1]}
    for topic, payload, qos, retain in rig.transport.sent:
        if topic.endswith("/tags"):
            msg = ReaderInventory.model_validate_json(payload)  # exactly a node's message
            assert topic == f"feltwire/v1/t1/node/bridge1/reader/{msg.reader}/tags"
            assert msg.node == "bridge1" and qos == 1 and retain
        else:
            assert topic == "feltwire/v1/t1/node/bridge1/availability"


def test_only_changes_are_published_with_rising_seq() -> None:
    rig = make_rig()
    rig.step()
    before = len(rig.transport.inventories())
    rig.board.place(0, UID0)
    rig.board.place(0, UID1)
    rig.board.lift(0, UID0)
    rig.board.receive(b"")  # nothing
    rig.step()
    msgs = rig.transport.inventories()[before:]
    assert [m["uids"] for m in msgs] == [[UID0], sorted([UID0, UID1]), [UID1]]
    seqs = [m["seq"] for m in rig.transport.inventories()]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    # a full resend (as after a resync) publishes nothing new
    rig.board.receive(b"")
    rig.bridge._ask_inventory(rig.clock())
    rig.step()
    assert len(rig.transport.inventories()) == before + 3


def test_noise_and_crc_errors_are_counted_and_never_read() -> None:
    rig = make_rig()
    rig.step()
    published = len(rig.transport.inventories())
    rig.port.noise += b"\x00Traceback (most recent call last):\r\n\x00\xff\xfe\x01"
    rig.board.corrupt_next()
    rig.board.place(1, UID2)  # this INVENTORY arrives corrupted
    rig.step(1)
    stats = rig.bridge.stats()
    assert stats["dropped.garbage"] >= 1 and stats["dropped.crc"] == 1
    assert stats["resyncs"] == 1
    # the bridge asked for the inventory again: the lost change still arrives, once
    rig.step()
    assert rig.transport.latest()["seat2"] == [UID2]
    assert len(rig.transport.inventories()) == published + 1
    assert all(m["uids"] in ([], [UID2]) for m in rig.transport.inventories())


def test_a_seq_gap_asks_for_the_inventory() -> None:
    rig = make_rig()
    rig.step()
    rig.board.place(0, UID0)
    rig.board.take_output()  # lost on the line without a trace
    rig.board.heartbeat()
    rig.step()
    stats = rig.bridge.stats()
    assert stats["seq_gaps"] == 1 and stats["lost_frames"] == 1
    assert rig.transport.latest()["seat1"] == [UID0]


def test_a_lost_resync_request_is_repeated() -> None:
    rig = make_rig()
    rig.step()
    rig.board.place(0, UID0)
    rig.board.take_output()  # lost on the line
    rig.board.heartbeat()  # shows the gap
    rig.board.silent = True  # deaf for a moment: the REQUEST_INVENTORY is lost
    rig.step()
    rig.board.silent = False
    rig.step()
    assert rig.transport.latest()["seat1"] == []
    rig.clock.advance(1.0)  # hello_retry_s: the bridge asks again
    rig.step()
    assert rig.transport.latest()["seat1"] == [UID0]


def test_missed_heartbeats_mark_the_board_offline_until_it_says_hello() -> None:
    rig = make_rig(heartbeat_timeout_s=2.0)
    rig.step()
    rig.board.silent = True
    rig.clock.advance(1.0)
    rig.step()
    assert rig.bridge.state is LinkState.ONLINE
    rig.clock.advance(1.5)
    rig.step()
    assert rig.bridge.state is LinkState.WAITING_HELLO
    assert rig.transport.availability() == [b"offline", b"online", b"offline"]
    assert rig.bridge.stats()["heartbeat_timeouts"] == 1
    rig.board.silent = False
    rig.clock.advance(1.0)  # the bridge asks for HELLO again
    rig.step()
    assert rig.bridge.state is LinkState.ONLINE
    assert rig.transport.availability() == [b"offline", b"online", b"offline", b"online"]


def test_pulled_cable_reconnects_with_backoff_and_continues() -> None:
    rig = make_rig(reconnect_min_s=0.5, reconnect_max_s=2.0)
    rig.step()
    rig.port.unplugged = True
    rig.cable_in = False
    rig.step(1)
    assert rig.bridge.state is LinkState.DISCONNECTED
    assert rig.transport.availability() == [b"offline", b"online", b"offline"]
    for wait in (0.5, 1.0, 2.0, 2.0):  # each failed open doubles the wait, up to the max
        rig.clock.advance(wait - 0.25)
        rig.step(1)
        opens_before = rig.bridge.stats().get("open_failures", 0)
        rig.clock.advance(0.25)
        rig.step(1)
        assert rig.bridge.stats()["open_failures"] == opens_before + 1
    rig.cable_in = True
    rig.board.boot()  # replugging powers the board up again
    rig.board.take_output()
    rig.board.place(1, UID1)
    rig.clock.advance(2.0)
    rig.step()
    assert rig.bridge.state is LinkState.ONLINE
    assert rig.transport.latest()["seat2"] == [UID1]
    assert rig.ports[0].closed and len(rig.ports) == 2


def test_inventories_before_hello_are_ignored() -> None:
    rig = make_rig()
    rig.board.silent = True  # the board ignores the first REQUEST_HELLO
    rig.step(1)
    rig.board.silent = False
    rig.board.place(0, UID0)
    rig.step(1)
    assert rig.transport.inventories() == []
    assert rig.bridge.stats()["ignored.not_ready"] == 1
    rig.clock.advance(1.0)
    rig.step()
    assert rig.transport.latest()["seat1"] == [UID0]


def test_config_antenna_map_wins_and_unknown_names_are_not_published() -> None:
    board = SimBoard(antennas=("seat1", "", "antenna-x", "muck"))
    rig = make_rig(board, antennas={0: "seat5", 1: "board"})
    board.place(2, UID0)
    rig.step()
    assert rig.bridge.reader_of == {0: "seat5", 1: "board", 3: "muck"}
    assert set(rig.transport.latest()) == {"seat5", "board", "muck"}
    assert rig.bridge.stats()["ignored.unmapped_antenna"] >= 1


def test_only_configured_antennas_without_board_names() -> None:
    rig = make_rig(antennas={2: "board"}, use_board_names=False)
    rig.step()
    assert set(rig.transport.latest()) == {"board"}


def test_frames_of_another_version_are_refused_and_counted() -> None:
    rig = make_rig()
    rig.step()
    rig.board.send_other_version(2)
    rig.step(1)
    assert rig.bridge.stats()["dropped.version"] == 1
    assert rig.bridge.state is LinkState.ONLINE


def test_board_errors_are_counted_by_code() -> None:
    rig = make_rig()
    rig.step()
    rig.board.report_error(1, ErrorCode.NO_READER)
    rig.board.report_error(255, ErrorCode.RESTARTED, 3)
    rig.step()
    stats = rig.bridge.stats()
    assert stats["board_error.no_reader"] == 1 and stats["board_error.restarted"] == 1


def test_set_light_reaches_the_board() -> None:
    rig = make_rig()
    rig.step()
    rig.bridge.set_light(3, LightPattern.ACTING)
    rig.step(1)
    assert rig.board.lights == {3: LightPattern.ACTING}


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"antennas": {0: "seat11"}}, "unknown reader"),
        ({"antennas": {0: "seat1", 1: "seat1"}}, "same reader id"),
        ({"antennas": {300: "seat1"}}, "out of 0-254"),
        ({"reconnect_min_s": 5, "reconnect_max_s": 1}, "reconnect_max_s"),
        ({"bridge_id": "a/b"}, "pattern"),
    ],
)
def test_config_refuses_bad_values(config: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        BridgeConfig(**config)
