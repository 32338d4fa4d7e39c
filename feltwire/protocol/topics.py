"""MQTT topics: the grammar ``feltwire/v1/<table>/…`` and the reader ids it allows.

Every process builds its topics here and splits incoming ones with :func:`parse_topic`.

>>> reader_tags_topic("t1", "pi-north", "seat3")
'feltwire/v1/t1/node/pi-north/reader/seat3/tags'
>>> topic = parse_topic("feltwire/v1/t1/node/pi-north/reader/seat3/tags")
>>> topic.kind, topic.table, topic.node, topic.target
(<TopicKind.READER_TAGS: 'reader_tags'>, 't1', 'pi-north', 'seat3')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from feltwire.errors import ProtocolError
from feltwire.readers import (
    KNOWN_READER_IDS,
    MAX_SEATS,
    READER_ID_PATTERN,
    ReaderKind,
    reader_kind,
    seat_of,
)

TOPIC_PREFIX: Final = "feltwire/v1"

HUB_CLIENT_ID_PREFIX: Final = "feltwire-hub-"
"""What the hub's MQTT client ids begin with (:func:`hub_client_id`)."""

ID_PATTERN: Final = r"^[A-Za-z0-9_-]{1,32}$"
"""What a table, node, reader or button id may be: 1-32 of A-Z a-z 0-9 _ -."""
_ID_RE: Final = re.compile(ID_PATTERN)


def hub_client_id(table: str, *, alone: bool = False) -> str:
    """The client id, and so the persistent session, of the hub's connection for
    ``table``.

    In a room of several hubs each table has a session of its own, ``feltwire-hub-<table>``,
    which whichever hub serves the table connects (the reads queued in it move with the
    table). A hub alone has one connection for all of its tables, on the session
    ``feltwire-hub-.<table>`` named after its first table: the dot, which no table id has,
    keeps it apart from every table's own.

    >>> hub_client_id("t1"), hub_client_id("t1", alone=True)
    ('feltwire-hub-t1', 'feltwire-hub-.t1')
    """
    return f"{HUB_CLIENT_ID_PREFIX}{'.' if alone else ''}{table}"


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
        # ASCII digits only: "²".isdigit() is true (int() then raises), "٣" is int 3
        if not (rest[1].isascii() and rest[1].isdigit()) or not 1 <= int(rest[1]) <= MAX_SEATS:
            raise ProtocolError("bad_topic", f"bad seat in topic {topic!r}")
        return ParsedTopic(TopicKind.LIGHT_SET, table, rest[1])
    if rest == ["alerts"]:
        return ParsedTopic(TopicKind.ALERTS, table)
    if rest == ["public"]:
        return ParsedTopic(TopicKind.PUBLIC, table)
    raise ProtocolError("bad_topic", f"unknown feltwire topic: {topic!r}")


__all__ = [
    "HUB_CLIENT_ID_PREFIX",
    "ID_PATTERN",
    "KNOWN_READER_IDS",
    "MAX_SEATS",
    "READER_ID_PATTERN",
    "TOPIC_PREFIX",
    "ParsedTopic",
    "ReaderKind",
    "TopicKind",
    "alerts_topic",
    "availability_topic",
    "button_topic",
    "hub_client_id",
    "light_set_topic",
    "parse_topic",
    "public_topic",
    "reader_kind",
    "reader_tags_filter",
    "reader_tags_topic",
    "seat_of",
]
