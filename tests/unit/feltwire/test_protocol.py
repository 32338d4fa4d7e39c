from __future__ import annotations

import json

import pytest

from feltwire.errors import ProtocolError
from feltwire.protocol import (
    ParsedTopic,
    ReaderInventory,
    ReaderKind,
    TopicKind,
    availability_topic,
    button_topic,
    decode_inventory,
    encode,
    light_set_topic,
    parse_topic,
    reader_kind,
    reader_tags_filter,
    reader_tags_topic,
    seat_of,
)


def _good(**over: object) -> bytes:
    msg = {"v": 1, "node": "n1", "seq": 7, "ts": 1.5, "reader": "seat3", "uids": ["04A1B2C3"]}
    msg.update(over)
    return json.dumps(msg).encode()


def test_topics_round_trip() -> None:
    assert parse_topic(reader_tags_topic("t1", "pi-a", "seat3")) == ParsedTopic(
        TopicKind.READER_TAGS, "t1", "seat3", "pi-a"
    )
    assert parse_topic(availability_topic("t1", "pi-a")) == ParsedTopic(
        TopicKind.AVAILABILITY, "t1", "pi-a", "pi-a"
    )
    assert parse_topic(button_topic("t1", "pi-a")) == ParsedTopic(
        TopicKind.BUTTON, "t1", "pi-a", "pi-a"
    )
    assert parse_topic(light_set_topic("t1", 10)) == ParsedTopic(TopicKind.LIGHT_SET, "t1", "10")


@pytest.mark.parametrize(
    "topic",
    [
        "other/v1/t1/node/n1/reader/seat1/tags",
        "feltwire/v1/t1/node/n1/reader/seat1",
        "feltwire/v1/t1/reader/seat1/tags",  # the topic before the node moved into it
        "feltwire/v1/t1/node/n+1/reader/seat1/tags",
        "feltwire/v1/t1/node/n1/reader/seat 1/tags",
        "feltwire/v1/t 1/alerts",
        "feltwire/v1/t1/seat/11/light/set",
    ],
)
def test_bad_topics_refused(topic: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_topic(topic)
    assert err.value.reason == "bad_topic"


def test_reader_filter_matches_every_nodes_topic_of_the_reader() -> None:
    assert reader_tags_filter("t1") == "feltwire/v1/t1/node/+/reader/+/tags"
    assert reader_tags_filter("t1", "register") == "feltwire/v1/t1/node/+/reader/register/tags"
    with pytest.raises(ProtocolError):
        reader_tags_filter("t1", "seat#")


def test_reader_ids() -> None:
    assert reader_kind("seat10") is ReaderKind.SEAT
    assert reader_kind("up4") is ReaderKind.UP and seat_of("up4") == 4
    assert reader_kind("river") is ReaderKind.BOARD and seat_of("river") is None
    with pytest.raises(ProtocolError):
        reader_kind("seat11")


def test_inventory_round_trip() -> None:
    inv = decode_inventory(_good())
    assert inv.uids == ["04A1B2C3"] and inv.seq == 7
    assert decode_inventory(encode(inv)) == inv


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"{not json", "malformed"),
        (b"[1, 2]", "malformed"),
        (_good(v=2), "schema_version"),
        (json.dumps({"node": "n1"}).encode(), "schema_version"),
        (_good(uids=["xyz"]), "malformed"),
        (_good(uids=["04A1B2C3", "04A1B2C3"]), "malformed"),
        (_good(seq=-1), "malformed"),
        (_good(extra=1), "malformed"),
        (b" " * 5000, "oversized"),
    ],
)
def test_bad_payloads_refused_with_reason(payload: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_inventory(payload)
    assert err.value.reason == reason


def test_models_are_frozen() -> None:
    inv = ReaderInventory(v=1, node="n", seq=0, ts=0, reader="board", uids=[])
    with pytest.raises(ValueError):
        inv.seq = 3  # type: ignore[misc]
