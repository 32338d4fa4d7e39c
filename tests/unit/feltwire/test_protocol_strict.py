"""Strict decoding (issue #12, item 11): every payload is taken exactly as
docs/protocol.md types it — no coercion of ``v``, ``seq``, ``ts`` or ``pattern``, no
Infinity or NaN, no key given twice — and each refusal keeps its reason."""

from __future__ import annotations

import json

import pytest

from feltwire.errors import ProtocolError
from feltwire.protocol import (
    ButtonPress,
    LightPattern,
    decode_button_press,
    decode_inventory,
    decode_light_command,
)

INVENTORY = {"v": 1, "node": "n1", "seq": 7, "ts": 1.5, "reader": "seat3", "uids": ["04A1B2C3"]}
BUTTON = {"v": 1, "node": "n1", "button": "undo", "ts": 1.5}


def with_raw(base: dict[str, object], key: str, raw: str) -> bytes:
    """``base`` as JSON with the value of ``key`` written as ``raw`` — by hand, so that
    what a standard encoder never writes (``NaN``, ``1e999``) can be sent."""
    assert key in base
    parts = [f"{json.dumps(k)}: {raw if k == key else json.dumps(v)}" for k, v in base.items()]
    return ("{" + ", ".join(parts) + "}").encode()


def refused(decode: object, payload: bytes) -> str:
    with pytest.raises(ProtocolError) as err:
        decode(payload)  # type: ignore[operator]
    return err.value.reason


def test_the_documented_payloads_are_taken() -> None:
    inv = decode_inventory(json.dumps(INVENTORY).encode())
    assert (inv.v, inv.seq, inv.ts, inv.uids) == (1, 7, 1.5, ["04A1B2C3"])
    assert decode_inventory(with_raw(INVENTORY, "ts", "1733000000")).ts == 1733000000.0
    press = decode_button_press(json.dumps(BUTTON).encode())
    assert press == ButtonPress(v=1, node="n1", button="undo", ts=1.5)
    assert decode_light_command(b'{"v": 1, "pattern": "acting"}').pattern is LightPattern.ACTING


@pytest.mark.parametrize(
    ("key", "raw", "reason"),
    [
        ("v", "true", "schema_version"),
        ("v", "1.0", "schema_version"),
        ("v", '"1"', "schema_version"),
        ("v", "null", "schema_version"),
        ("seq", '"123"', "malformed"),
        ("seq", "12.0", "malformed"),
        ("seq", "true", "malformed"),
        ("seq", "1e3", "malformed"),
        ("ts", "Infinity", "malformed"),
        ("ts", "-Infinity", "malformed"),
        ("ts", "NaN", "malformed"),
        ("ts", "1e999", "malformed"),  # json.loads reads this as inf
        ("ts", '"1.5"', "malformed"),
        ("ts", "true", "malformed"),
        ("node", "7", "malformed"),
        ("reader", '["seat3"]', "malformed"),
        ("uids", '"04A1B2C3"', "malformed"),
        ("uids", "[4]", "malformed"),
    ],
)
def test_inventory_fields_are_not_coerced(key: str, raw: str, reason: str) -> None:
    assert refused(decode_inventory, with_raw(INVENTORY, key, raw)) == reason


@pytest.mark.parametrize(
    "payload",
    [
        b'{"v": 1, "v": 1, "node": "n1", "seq": 7, "ts": 1.5, "reader": "seat3", "uids": []}',
        b'{"v": 1, "node": "n1", "seq": 7, "seq": 8, "ts": 1.5, "reader": "seat3", "uids": []}',
        b'{"v": 1, "node": "n1", "seq": 7, "ts": 1.5, "reader": "seat3", "reader": "board",'
        b' "uids": []}',
    ],
)
def test_a_key_given_twice_is_refused(payload: bytes) -> None:
    assert refused(decode_inventory, payload) == "malformed"


def test_deep_nesting_is_refused_not_raised() -> None:
    # 2,000 nested arrays fit the size limit, and Python's JSON reader recurses into each
    payload = b'{"v": 1, "x": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    assert len(payload) < 4096
    assert refused(decode_inventory, payload) == "malformed"


@pytest.mark.parametrize(
    ("key", "raw", "reason"),
    [
        ("v", "true", "schema_version"),
        ("v", "1.0", "schema_version"),
        ("ts", "Infinity", "malformed"),
        ("ts", "NaN", "malformed"),
        ("ts", '"1.5"', "malformed"),
        ("button", "1", "malformed"),
        ("node", "null", "malformed"),
    ],
)
def test_button_press_fields_are_not_coerced(key: str, raw: str, reason: str) -> None:
    assert refused(decode_button_press, with_raw(BUTTON, key, raw)) == reason


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b'{"v": true, "pattern": "acting"}', "schema_version"),
        (b'{"v": "1", "pattern": "acting"}', "schema_version"),
        (b'{"v": 1, "pattern": "acting", "pattern": "off"}', "malformed"),
        (b'{"v": 1, "pattern": "ACTING"}', "malformed"),
        (b'{"v": 1, "pattern": 1}', "malformed"),
        (b'{"v": 1, "pattern": "acting", "blink": true}', "malformed"),
        (b'{"v": 1}', "malformed"),
        (b"[1]", "malformed"),
        (b"\xff", "malformed"),
        (b" " * 5000, "oversized"),
    ],
)
def test_light_commands_are_decoded_as_strictly(payload: bytes, reason: str) -> None:
    assert refused(decode_light_command, payload) == reason


def test_models_built_in_code_are_as_strict() -> None:
    with pytest.raises(ValueError):
        ButtonPress(v=1, node="n1", button="undo", ts=float("inf"))
    with pytest.raises(ValueError):
        ButtonPress(v=True, node="n1", button="undo", ts=1.5)
    with pytest.raises(ValueError):
        ButtonPress.model_validate_json('{"v": 1.0, "node": "n1", "button": "undo", "ts": 1}')
