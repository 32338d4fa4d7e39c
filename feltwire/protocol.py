"""The wire protocol: every MQTT topic and payload feltwire sends, in one place.

The contract is documented in ``docs/protocol.md``; this module is its executable form and
every process imports it. Topics live under ``feltwire/v1/<table>/…``; payloads are JSON
objects carrying a schema version ``v``.

>>> reader_tags_topic("t1", "pi-north", "seat3")
'feltwire/v1/t1/node/pi-north/reader/seat3/tags'
>>> topic = parse_topic("feltwire/v1/t1/node/pi-north/reader/seat3/tags")
>>> topic.kind, topic.table, topic.node, topic.target
(<TopicKind.READER_TAGS: 'reader_tags'>, 't1', 'pi-north', 'seat3')
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, NoReturn, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
    field_validator,
)

from feltwire.errors import ProtocolError

SCHEMA_VERSION: Final = 1
"""Version carried in every payload's ``v``; a receiver refuses any other."""

TOPIC_PREFIX: Final = "feltwire/v1"
DEFAULT_MAX_PAYLOAD_BYTES: Final = 4096
"""A full inventory of one antenna is well under 1 KiB; anything this big is refused."""

_ID_RE: Final = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_UID_RE: Final = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")

MAX_SEATS: Final = 10


class ReaderKind(enum.StrEnum):
    """What an antenna is for, derived from its reader id."""

    SEAT = "seat"
    UP = "up"  # a seat's stud up-card antenna
    BOARD = "board"
    BURN = "burn"
    MUCK = "muck"
    REGISTER = "register"


_BOARD_IDS: Final = ("board", "flop1", "flop2", "flop3", "turn", "river")
KNOWN_READER_IDS: Final[tuple[str, ...]] = (
    *(f"seat{n}" for n in range(1, MAX_SEATS + 1)),
    *(f"up{n}" for n in range(1, MAX_SEATS + 1)),
    *_BOARD_IDS,
    "burn",
    "muck",
    "register",
)
"""Every reader id the protocol allows (a table profile uses a subset)."""


def reader_kind(reader: str) -> ReaderKind:
    """The kind of antenna a reader id names; raises ProtocolError for an unknown id.

    >>> reader_kind("seat10"), reader_kind("flop2")
    (<ReaderKind.SEAT: 'seat'>, <ReaderKind.BOARD: 'board'>)
    """
    if reader not in KNOWN_READER_IDS:
        raise ProtocolError("unknown_reader", f"unknown reader id {reader!r}")
    if reader.startswith("seat"):
        return ReaderKind.SEAT
    if reader.startswith("up"):
        return ReaderKind.UP
    if reader in _BOARD_IDS:
        return ReaderKind.BOARD
    return ReaderKind(reader)


def seat_of(reader: str) -> int | None:
    """The seat number (1–10) of a ``seatN``/``upN`` reader, else None."""
    kind = reader_kind(reader)
    if kind is ReaderKind.SEAT:
        return int(reader[4:])
    if kind is ReaderKind.UP:
        return int(reader[2:])
    return None


class TopicKind(enum.StrEnum):
    """The kinds of topic in the contract."""

    READER_TAGS = "reader_tags"
    AVAILABILITY = "availability"
    LIGHT_SET = "light_set"
    ALERTS = "alerts"
    PUBLIC = "public"
    BUTTON = "button"


@dataclass(frozen=True, slots=True)
class ParsedTopic:
    """A topic split into its parts: kind, table, the target (the reader of a reader
    topic, the node of a node topic, the seat of a light) and the node whose topic it is
    (reader, button and availability topics)."""

    kind: TopicKind
    table: str
    target: str | None = None
    node: str | None = None


def _check_id(what: str, value: str) -> str:
    if not _ID_RE.match(value):
        raise ProtocolError("bad_topic", f"{what} {value!r} must be 1-32 of A-Z a-z 0-9 _ -")
    return value


def reader_tags_topic(table: str, node: str, reader: str) -> str:
    """Retained full inventory of one antenna, published by the node that reads it
    (node/bridge → hub). The topic names the node, so the broker's ACL can bind it to
    the node's credential and the hub can check the payload's ``node`` against it."""
    return (
        f"{TOPIC_PREFIX}/{_check_id('table', table)}/node/{_check_id('node', node)}"
        f"/reader/{_check_id('reader', reader)}/tags"
    )


def reader_tags_filter(table: str, reader: str = "+") -> str:
    """Subscription filter for one table's inventories from every node: of every reader
    (``+``, the default) or of one.

    >>> reader_tags_filter("t1", "register")
    'feltwire/v1/t1/node/+/reader/register/tags'
    """
    level = reader if reader == "+" else _check_id("reader", reader)
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/node/+/reader/{level}/tags"


def availability_topic(table: str, node: str) -> str:
    """Retained ``online``/``offline`` of a node (its last will says ``offline``)."""
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/node/{_check_id('node', node)}/availability"


def button_topic(table: str, node: str) -> str:
    """A dealer button pressed on a node (node → hub; not retained)."""
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/node/{_check_id('node', node)}/button"


def light_set_topic(table: str, seat: int) -> str:
    """Retained light command for one seat (hub → node)."""
    if not 1 <= seat <= MAX_SEATS:
        raise ProtocolError("bad_topic", f"seat {seat} out of range 1-{MAX_SEATS}")
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/seat/{seat}/light/set"


def alerts_topic(table: str) -> str:
    """Dealer alerts (hub → displays); never carries a hole card."""
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/alerts"


def public_topic(table: str) -> str:
    """Retained public table state (hub → anyone allowed); never carries a hole card."""
    return f"{TOPIC_PREFIX}/{_check_id('table', table)}/public"


def parse_topic(topic: str) -> ParsedTopic:
    """Split a feltwire topic into its parts; raises ProtocolError(``bad_topic``)."""
    parts = topic.split("/")
    if len(parts) < 4 or f"{parts[0]}/{parts[1]}" != TOPIC_PREFIX:
        raise ProtocolError("bad_topic", f"not a feltwire v1 topic: {topic!r}")
    table = _check_id("table", parts[2])
    rest = parts[3:]
    if len(rest) == 5 and rest[0] == "node" and rest[2] == "reader" and rest[4] == "tags":
        node = _check_id("node", rest[1])
        return ParsedTopic(TopicKind.READER_TAGS, table, _check_id("reader", rest[3]), node)
    if len(rest) == 3 and rest[0] == "node" and rest[2] in ("availability", "button"):
        node = _check_id("node", rest[1])
        kind = TopicKind.AVAILABILITY if rest[2] == "availability" else TopicKind.BUTTON
        return ParsedTopic(kind, table, node, node)
    if len(rest) == 4 and rest[0] == "seat" and rest[2:] == ["light", "set"]:
        if not rest[1].isdigit() or not 1 <= int(rest[1]) <= MAX_SEATS:
            raise ProtocolError("bad_topic", f"bad seat in topic {topic!r}")
        return ParsedTopic(TopicKind.LIGHT_SET, table, rest[1])
    if rest == ["alerts"]:
        return ParsedTopic(TopicKind.ALERTS, table)
    if rest == ["public"]:
        return ParsedTopic(TopicKind.PUBLIC, table)
    raise ProtocolError("bad_topic", f"unknown feltwire topic: {topic!r}")


class WireModel(BaseModel):
    """Base of every payload model: immutable, no unknown field, and strict — a value
    must have its field's JSON type (``"123"`` or ``12.0`` is no int, ``true`` no number)
    and a number must be finite (no ``Infinity``, no ``NaN``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


def _integer_version(value: object) -> object:
    # Literal[1] takes true and 1.0 for 1, even in strict mode: only the integer 1 is v1
    if type(value) is not int:
        raise ValueError(f"schema version must be the integer {SCHEMA_VERSION}, not {value!r}")
    return value


SchemaVersion = Annotated[Literal[1], BeforeValidator(_integer_version)]
"""The ``v`` of every payload: exactly the JSON integer 1."""


Uid = Annotated[str, Field(description="Tag UID, upper-case hex: 4, 7 or 10 bytes")]


class ReaderInventory(WireModel):
    """Everything one antenna sees right now (``…/node/<node>/reader/<reader>/tags``,
    retained, QoS 1).

    ``seq`` increases by one with every message a node sends (over all its readers), so
    the hub can drop duplicates and stale resends after a broker outage.
    """

    v: SchemaVersion = Field(description="schema version")
    node: str = Field(pattern=_ID_RE.pattern, description="id of the node that read it")
    seq: int = Field(ge=0, lt=2**63, description="per-node sequence number")
    ts: float = Field(ge=0, description="node's clock when read, seconds since the epoch")
    reader: str = Field(pattern=_ID_RE.pattern, description="reader id, as in the topic")
    uids: list[Uid] = Field(max_length=64, description="tags on the antenna now, no repeats")

    @field_validator("uids")
    @classmethod
    def _uids_valid(cls, uids: list[str]) -> list[str]:
        for uid in uids:
            if not _UID_RE.match(uid):
                raise ValueError(f"uid {uid!r} is not 8, 14 or 20 upper-case hex digits")
        if len(set(uids)) != len(uids):
            raise ValueError("uids repeat")
        return uids


class LightPattern(enum.StrEnum):
    """What a seat light shows."""

    ACTING = "acting"
    ERROR = "error"
    ALLIN = "allin"
    FOLDED = "folded"
    IDLE = "idle"
    OFF = "off"


class LightCommand(WireModel):
    """A seat light command (``…/seat/<n>/light/set``, retained)."""

    v: SchemaVersion = Field(description="schema version")
    # strict mode would take only a LightPattern object in Python: the name is the value
    pattern: Annotated[LightPattern, Strict(False)] = Field(description="what the light shows")


class ButtonPress(WireModel):
    """A dealer button pressed on a node (``…/node/<node>/button``, QoS 1, not retained)."""

    v: SchemaVersion = Field(description="schema version")
    node: str = Field(pattern=_ID_RE.pattern, description="the node the button is wired to")
    button: str = Field(pattern=_ID_RE.pattern, description="the button's name in the config")
    ts: float = Field(ge=0, description="node's clock when pressed, seconds since the epoch")


AVAILABILITY_ONLINE: Final = b"online"
AVAILABILITY_OFFLINE: Final = b"offline"


def encode(model: WireModel) -> bytes:
    """Serialise a payload model to compact JSON bytes."""
    return model.model_dump_json().encode()


class _Refused(ValueError):
    """JSON that the standard reader takes but the protocol does not."""


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _Refused(f"key {key!r} appears twice")
        data[key] = value
    return data


def _no_constant(name: str) -> NoReturn:
    raise _Refused(f"{name} is not a JSON number")


def read_payload(payload: bytes, max_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES) -> dict[str, Any]:
    """The JSON object of a payload, read as strictly as docs/protocol.md says: at most
    ``max_bytes``, UTF-8, no key given twice, no ``Infinity``/``NaN``, ``v`` the integer
    1. Raises ProtocolError (``oversized``, ``malformed``, ``schema_version``).

    >>> read_payload(b'{"v": 1, "pattern": "off"}')
    {'v': 1, 'pattern': 'off'}
    >>> read_payload(b'{"v": true}')
    Traceback (most recent call last):
    feltwire.errors.ProtocolError: schema version True is not supported (feltwire speaks v1)
    """
    if len(payload) > max_bytes:
        raise ProtocolError(
            "oversized", f"payload of {len(payload)} bytes exceeds the limit of {max_bytes}"
        )
    try:
        data = json.loads(
            payload.decode("utf-8"),
            object_pairs_hook=_no_repeated_keys,
            parse_constant=_no_constant,
        )
    except _Refused as exc:
        raise ProtocolError("malformed", f"payload refused: {exc}") from None
    except RecursionError:
        raise ProtocolError("malformed", "payload nests too deeply") from None
    except ValueError as exc:  # UnicodeDecodeError, JSONDecodeError, too many digits
        raise ProtocolError("malformed", f"payload is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "payload is not a JSON object")
    version = data.get("v")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise ProtocolError(
            "schema_version",
            f"schema version {version!r} is not supported (feltwire speaks v{SCHEMA_VERSION})",
        )
    return data


_Model = TypeVar("_Model", bound=WireModel)


def decode(
    model: type[_Model], payload: bytes, max_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES
) -> _Model:
    """Parse and validate one payload as ``model``, refusing anything off-contract.

    Raises ProtocolError with ``reason`` ``oversized``, ``malformed`` or
    ``schema_version`` and a message that says what was wrong.
    """
    data = read_payload(payload, max_bytes)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        raise ProtocolError("malformed", f"{where}: {first['msg']}") from None


def decode_inventory(payload: bytes, max_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES) -> ReaderInventory:
    """A reader inventory (node/bridge → hub), strictly; see :func:`decode`."""
    return decode(ReaderInventory, payload, max_bytes)


def decode_button_press(payload: bytes, max_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES) -> ButtonPress:
    """A dealer button press (node → hub), strictly; see :func:`decode`."""
    return decode(ButtonPress, payload, max_bytes)


def decode_light_command(
    payload: bytes, max_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES
) -> LightCommand:
    """A seat light command (hub → node/bridge), strictly; see :func:`decode`."""
    return decode(LightCommand, payload, max_bytes)


__all__ = [
    "AVAILABILITY_OFFLINE",
    "AVAILABILITY_ONLINE",
    "DEFAULT_MAX_PAYLOAD_BYTES",
    "KNOWN_READER_IDS",
    "MAX_SEATS",
    "SCHEMA_VERSION",
    "TOPIC_PREFIX",
    "ButtonPress",
    "LightCommand",
    "LightPattern",
    "ParsedTopic",
    "ReaderInventory",
    "ReaderKind",
    "SchemaVersion",
    "TopicKind",
    "WireModel",
    "alerts_topic",
    "availability_topic",
    "button_topic",
    "decode",
    "decode_button_press",
    "decode_inventory",
    "decode_light_command",
    "encode",
    "light_set_topic",
    "parse_topic",
    "public_topic",
    "read_payload",
    "reader_kind",
    "reader_tags_filter",
    "reader_tags_topic",
    "seat_of",
]
