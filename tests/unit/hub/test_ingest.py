"""Bad input on the wire is refused with a reason and a counter; good input still flows."""

from __future__ import annotations

import json
import logging

import pytest

from feltwire.deck import simulated_deck, simulated_uid
from hub.app.ingest import Ingest
from hub.config import default_readers

TOPIC = "feltwire/v1/t1/node/n1/reader/seat3/tags"
AS = simulated_uid(51)
KD = simulated_uid(45)


def make() -> Ingest:
    return Ingest(
        table="t1", readers=default_readers(), deck=simulated_deck(), max_payload_bytes=4096
    )


def msg(seq: int, uids: list[str], **over: object) -> bytes:
    m: dict[str, object] = {
        "v": 1,
        "node": "n1",
        "seq": seq,
        "ts": 1.0,
        "reader": "seat3",
        "uids": uids,
    }
    m.update(over)
    return json.dumps(m).encode()


def test_good_inventory_maps_tags_to_cards() -> None:
    ing = make()
    [read] = ing.handle(TOPIC, msg(1, [AS, KD]))
    assert read.cards == {"As", "Kd"}
    assert ing.counters["received"] == 1 and ing.counters["rejected"] == 0


@pytest.mark.parametrize(
    ("topic", "payload", "reason"),
    [
        (TOPIC, b"\xff\xfe not json", "malformed"),
        (TOPIC, msg(1, [AS], v=2), "schema_version"),
        (TOPIC, msg(1, [AS], reader="seat4"), "malformed"),
        (
            "feltwire/v1/t1/node/n1/reader/seat11/tags",
            msg(1, [AS], reader="seat11"),
            "unknown_reader",
        ),
        ("feltwire/v1/t1/node/n1/reader/up3/tags", msg(1, [AS], reader="up3"), "unknown_reader"),
        ("feltwire/v1/other/node/n1/reader/seat3/tags", msg(1, [AS]), "bad_topic"),
        ("feltwire/v1/t1/reader/seat3/tags", msg(1, [AS]), "bad_topic"),  # the old topic
        ("feltwire/v1/t1/node/n2/reader/seat3/tags", msg(1, [AS]), "node_mismatch"),
        (TOPIC, b'{"v":1,"pad":"' + b"x" * 5000 + b'"}', "oversized"),
    ],
)
def test_bad_messages_are_refused_counted_and_logged(
    topic: str, payload: bytes, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    ing = make()
    with caplog.at_level(logging.WARNING):
        assert ing.handle(topic, payload) == []
    assert ing.counters[f"rejected.{reason}"] == 1 and ing.counters["rejected"] == 1
    assert reason in caplog.text
    # the next good message still goes through
    assert len(ing.handle(TOPIC, msg(2, [AS]))) == 1


def test_unknown_tag_is_refused_alone() -> None:
    ing = make()
    [read] = ing.handle(TOPIC, msg(1, [AS, "DEADBEEF"]))
    assert read.cards == {"As"} and read.unknown_uids == ("DEADBEEF",)
    assert ing.counters["unknown_tag"] == 1


def test_duplicates_and_stale_resends_are_dropped_per_reader() -> None:
    ing = make()
    assert len(ing.handle(TOPIC, msg(5, [AS]))) == 1
    assert ing.handle(TOPIC, msg(5, [AS])) == []
    assert ing.handle(TOPIC, msg(4, [])) == []
    # another reader of the same node with a lower seq (retained message order) is fine
    board = "feltwire/v1/t1/node/n1/reader/board/tags"
    assert len(ing.handle(board, msg(3, [KD], reader="board"))) == 1
    assert (ing.counters["duplicate"], ing.counters["stale"]) == (1, 1)


def test_a_payload_naming_another_node_cannot_pin_its_reads() -> None:
    """n2 (whose credential may publish only under node/n2/) sends n1's id with the top
    sequence number: refused, so n1's next reads are still taken."""
    ing = make()
    assert len(ing.handle(TOPIC, msg(5, [AS]))) == 1
    forged = msg(2**63 - 1, [], node="n1")
    assert ing.handle("feltwire/v1/t1/node/n2/reader/seat3/tags", forged) == []
    [read] = ing.handle(TOPIC, msg(6, [AS, KD]))
    assert read.cards == {"As", "Kd"}
    assert ing.counters["rejected.node_mismatch"] == 1 and ing.counters.get("stale", 0) == 0
