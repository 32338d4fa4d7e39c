"""MQTT payloads: the JSON every process puts on the broker, and its strict reader.

Every payload is a JSON object carrying the schema version ``v`` (:data:`SCHEMA_VERSION`),
except a node's availability, the bare word ``online`` or ``offline``. The nodes' payloads
(inventories, button presses) and the hub's light commands are here; the hub's alerts
and public-topic payloads are in :mod:`feltwire.protocol.alerts` and
:mod:`feltwire.protocol.frames`.

>>> decode_light_command(b'{"v": 1, "pattern": "acting"}').pattern
<LightPattern.ACTING: 'acting'>
>>> Availability.model_validate(AVAILABILITY_ONLINE.decode()).root
'online'
"""

from __future__ import annotations

import enum
import json
import re
from typing import Annotated, Any, Final, Literal, NoReturn, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    SerializerFunctionWrapHandler,
    Strict,
    ValidationError,
    field_validator,
    model_serializer,
)

from feltwire.errors import ProtocolError
from feltwire.protocol.topics import ID_PATTERN

SCHEMA_VERSION: Final = 1
"""Version carried in every payload's ``v``; a receiver refuses any other."""

PROTOCOL_VERSION: Final = SCHEMA_VERSION
"""The version of the whole contract (topics, payloads, page frames): the ``v`` of every
payload and frame, and the version of the published JSON Schema."""

DEFAULT_MAX_PAYLOAD_BYTES: Final = 4096
"""A full inventory of one antenna is well under 1 KiB; anything this big is refused."""

_UID_RE: Final = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


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
    node: str = Field(pattern=ID_PATTERN, description="id of the node that read it")
    seq: int = Field(ge=0, lt=2**63, description="per-node sequence number")
    ts: float = Field(ge=0, description="node's clock when read, seconds since the epoch")
    reader: str = Field(pattern=ID_PATTERN, description="reader id, as in the topic")
    uids: list[Uid] = Field(max_length=64, description="tags on the antenna now, no repeats")
    refresh_s: float | None = Field(
        None,
        gt=0,
        le=3600,
        description=(
            "the node sends this antenna's inventory again at least this often, changed or "
            "not (the hub's sign that the reader still sweeps); None: only when it changes"
        ),
    )
    keepalive_s: int | None = Field(
        None,
        ge=1,
        le=65535,
        description=(
            "the node's MQTT keep-alive: the broker publishes its will (offline) at most "
            "1.5 times this after its last packet — the hub waits for it before it says a "
            "whole node's readers silent; None: not said"
        ),
    )

    @field_validator("uids")
    @classmethod
    def _uids_valid(cls, uids: list[str]) -> list[str]:
        for uid in uids:
            if not _UID_RE.match(uid):
                raise ValueError(f"uid {uid!r} is not 8, 14 or 20 upper-case hex digits")
        if len(set(uids)) != len(uids):
            raise ValueError("uids repeat")
        return uids

    @model_serializer(mode="wrap")
    def _without_unset_refresh(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # a node that only sends changes, or does not say its keep-alive, says nothing of
        # it (the payload as before)
        data: dict[str, Any] = handler(self)
        for optional in ("refresh_s", "keepalive_s"):
            if data.get(optional) is None:
                data.pop(optional, None)
        return data


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
    node: str = Field(pattern=ID_PATTERN, description="the node the button is wired to")
    button: str = Field(pattern=ID_PATTERN, description="the button's name in the config")
    ts: float = Field(ge=0, description="node's clock when pressed, seconds since the epoch")


AVAILABILITY_ONLINE: Final = b"online"
AVAILABILITY_OFFLINE: Final = b"offline"


class Availability(RootModel[Literal["online", "offline"]]):
    """A node's availability (``…/node/<node>/availability``, retained; the node's last
    will says ``offline``). On the wire it is the bare UTF-8 word, not JSON: decode the
    bytes as text before validating."""

    model_config = ConfigDict(frozen=True)


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
    "PROTOCOL_VERSION",
    "SCHEMA_VERSION",
    "Availability",
    "ButtonPress",
    "LightCommand",
    "LightPattern",
    "ReaderInventory",
    "SchemaVersion",
    "WireModel",
    "decode",
    "decode_button_press",
    "decode_inventory",
    "decode_light_command",
    "encode",
    "read_payload",
]
