"""The page frames' models: each feed's union takes what the hub sends and refuses a
frame of an unknown type, an unknown field, or a hidden card on a feed that must not
carry it; a frame built from a model validates against the published JSON Schema."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter, ValidationError
from referencing import Registry, Resource

from feltwire.protocol import (
    AlertFrame,
    AlertPayload,
    ConsoleFrame,
    FaceUpAntennaFrame,
    HandFrame,
    OverlayFrame,
    OverlayHoleCardDealtFrame,
    PublicFrame,
    PublicHoleCardDealtFrame,
)
from feltwire.protocol.schema import schema_document

T = 1796144982.5

HIDDEN = [
    {"type": "event", "event": "HoleCardDealt", "seat": 2, "card": "8d", "up": False,
     "hand": 1, "t": T},
    {"type": "event", "event": "BurnDealt", "card": "7s", "hand": 1, "t": T},
    {"type": "event", "event": "HandShown", "seat": 2, "cards": ["8d", "3c"], "whole": True,
     "hand": 1, "t": T},
    {"type": "antenna", "n": 1, "t": T, "reader": "seat8", "kind": "seat", "count": 1,
     "cards": ["8d"], "arrived": ["8d"], "left": []},
    {"type": "antenna", "n": 1, "t": T, "reader": "muck", "kind": "muck", "count": 1,
     "cards": ["8d"], "arrived": [], "left": []},
]  # fmt: skip
"""Frames the overlay gets that name a hidden card: never on the public feed."""

BURN = {"key": "alert.missing_burn.message",
        "params": {"street": {"key": "street.flop", "params": {}}}}  # fmt: skip
BURN_REMEDY = {"key": "alert.missing_burn.remedy", "params": {}}

PUBLIC = [
    {"type": "antenna", "n": 1, "t": T, "reader": "seat8", "kind": "seat", "count": 1},
    {"type": "antenna", "n": 2, "t": T, "reader": "board", "kind": "board", "count": 1,
     "cards": ["Jd"]},
    {"type": "event", "event": "HandShown", "seat": 2, "whole": True, "hand": 1, "t": T},
    {"type": "event", "event": "HoleCardDealt", "seat": 2, "card": "Kd", "up": True,
     "hand": 1, "t": T},
    {"type": "alert", "id": None, "t": T, "code": "uid_on_two_antennas",
     "severity": "warning", "seat": 3, "rule": "security", "message": "m", "remedy": "r",
     "text": {"key": "alert.uid_on_two_antennas.hidden.message", "params": {"readers": {
         "key": "list.and", "params": {"head": {"key": "antenna.seat", "params": {"n": 3}},
                                       "tail": {"key": "antenna.muck", "params": {}}}}}},
     "remedy_text": {"key": "alert.uid_on_two_antennas.remedy", "params": {}},
     "readers": ["seat3", "muck"]},
    {"type": "alert_ack", "id": 1, "t": T},
    {"type": "button", "node": "n", "button": "next", "t": T},
]  # fmt: skip


def _validator(name: str) -> jsonschema.Draft202012Validator:
    doc = schema_document()
    registry: Registry[Any] = Registry().with_resource(doc["$id"], Resource.from_contents(doc))
    return jsonschema.Draft202012Validator(
        {"$ref": f"{doc['$id']}#/$defs/{name}"}, registry=registry
    )


@pytest.mark.parametrize("frame", HIDDEN)
def test_a_hidden_card_is_refused_on_the_public_feed_and_the_console(frame: dict[str, Any]) -> None:
    for union, name in ((PublicFrame, "PublicFrame"), (ConsoleFrame, "ConsoleFrame")):
        with pytest.raises(ValidationError):
            TypeAdapter(union).validate_python(frame)
        assert not _validator(name).is_valid(frame)
    TypeAdapter(OverlayFrame).validate_python(frame)
    assert _validator("OverlayFrame").is_valid(frame)


@pytest.mark.parametrize("frame", PUBLIC)
def test_public_frames_are_taken(frame: dict[str, Any]) -> None:
    TypeAdapter(PublicFrame).validate_python(frame)
    assert _validator("PublicFrame").is_valid(frame)
    assert _validator("PublicTopicPayload").is_valid(frame)


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "no_such_frame", "t": T},
        {"n": 1, "t": T, "reader": "seat8", "kind": "seat", "count": 1},  # no type
        {"type": "antenna", "n": 1, "t": T, "reader": "seat8", "kind": "seat", "count": 1,
         "extra": 1},
        {"type": "event", "event": "NoSuchEvent", "hand": 1, "t": T},
        {"type": "event", "event": "BoardDealt", "card": "1x", "hand": 1, "t": T},
        {"type": "turn", "hand": 1, "t": T, "acting": 11, "all_in": [], "folded": []},
        {"type": "alert_ack", "id": 1, "t": T, "v": 2},
    ],
)  # fmt: skip
def test_an_unknown_type_or_shape_is_refused(frame: dict[str, Any]) -> None:
    for union, name in ((PublicFrame, "PublicFrame"), (OverlayFrame, "OverlayFrame")):
        with pytest.raises(ValidationError):
            TypeAdapter(union).validate_python(frame)
        assert not _validator(name).is_valid(frame)


def test_frames_built_from_the_models_carry_the_version_and_validate() -> None:
    frames = [
        HandFrame(
            hand=1, t=T, button=1, seats=[2, 3, 1], small_blind=2, big_blind=3,
            stacks=[(2, 1000), (3, 1000), (1, 1000)], names=[(2, "Bo"), (3, "Cy"), (1, "Al")],
            posts=[(2, "blind", 5), (3, "blind", 10)],
        ),
        FaceUpAntennaFrame(n=3, t=T, reader="board", kind="board", count=1, cards=["Jd"]),
        PublicHoleCardDealtFrame(hand=1, t=T, seat=3, card="Ah", up=True),
        AlertFrame(id=2, hand=1, t=T, code="missing_burn", severity="warning", seat=None,
                   rule="R-DEAL-3", message="m", remedy="r", text=BURN, remedy_text=BURN_REMEDY),
    ]  # fmt: skip
    for frame in frames:
        data = json.loads(frame.model_dump_json())
        assert data["v"] == 1 and data["type"] == frame.type
        assert _validator("PublicFrame").is_valid(data), data
        assert TypeAdapter(PublicFrame).validate_python(data) == frame
    overlay = OverlayHoleCardDealtFrame(hand=1, t=T, seat=3, card="Ah", up=False)
    assert _validator("OverlayFrame").is_valid(json.loads(overlay.model_dump_json()))


def test_the_alerts_topic_payload_is_the_frame_with_the_table_and_no_type() -> None:
    frame = AlertFrame(id=1, hand=3, t=T, code="missing_burn", severity="warning", seat=4,
                       rule="R-DEAL-3", message="m", remedy="r", text=BURN,
                       remedy_text=BURN_REMEDY)  # fmt: skip
    payload = json.loads(AlertPayload.from_frame("t1", frame).model_dump_json())
    assert payload["v"] == 1 and payload["table"] == "t1" and "type" not in payload
    assert _validator("AlertPayload").is_valid(payload)
    sent = {"v": 1, "table": "t1"} | frame.model_dump(exclude={"type", "v"})
    assert _validator("AlertPayload").is_valid(sent)
