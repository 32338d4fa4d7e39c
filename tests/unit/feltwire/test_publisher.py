from __future__ import annotations

import json
from pathlib import Path

from feltwire.publisher import InventoryPublisher, SeqCounter
from table_node.node import Node
from table_node.simulated import SimulatedReader


class ListTransport:
    """An in-memory transport: keeps what would have gone to the broker."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, object], int, bool]] = []

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        self.sent.append((topic, json.loads(payload), qos, retain))


def test_publishes_only_changes_with_increasing_seq() -> None:
    transport = ListTransport()
    pub = InventoryPublisher(table="t1", node="n1", transport=transport, clock=lambda: 100.0)
    seat = SimulatedReader("seat1")
    node = Node([seat], pub)
    node.poll_once()  # empty antenna: first inventory is sent
    node.poll_once()  # nothing changed: nothing sent
    seat.place("045eed33c0de80")
    node.poll_once()
    assert len(transport.sent) == 2
    topic, msg, qos, retain = transport.sent[1]
    assert topic == "feltwire/v1/t1/node/n1/reader/seat1/tags" and qos == 1 and retain
    assert msg["uids"] == ["045EED33C0DE80"] and msg["v"] == 1
    seqs = [m["seq"] for _, m, _, _ in transport.sent]
    assert seqs[1] == seqs[0] + 1


def test_seq_survives_a_restart(tmp_path: Path) -> None:
    f = tmp_path / "state" / "seq"
    first = SeqCounter(f)
    taken = [first.take() for _ in range(3)]
    again = SeqCounter(f)
    assert again.take() == taken[-1] + 1


def test_seq_without_state_starts_above_earlier_runs() -> None:
    early = SeqCounter(clock=lambda: 1000.0).take()
    later = SeqCounter(clock=lambda: 1001.0).take()
    assert later > early + 999


def test_a_failing_reader_does_not_stop_the_others() -> None:
    class Broken:
        reader_id = "seat2"

        def inventory(self) -> frozenset[str]:
            raise OSError("SPI timeout")

        def close(self) -> None:
            pass

    transport = ListTransport()
    good = SimulatedReader("seat1")
    good.place("04A1B2C3")
    node = Node([Broken(), good], InventoryPublisher(table="t", node="n", transport=transport))
    assert node.poll_once() == 1 and node.read_errors == 1
