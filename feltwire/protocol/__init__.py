"""The wire protocol: every MQTT topic and payload and every page frame, in one place.

The contract is documented in ``docs/protocol.md`` and published as JSON Schema in
``docs/protocol.schema.json`` (``feltwire protocol schema``); this package is its
executable form and every process imports it:

* :mod:`~feltwire.protocol.topics` — the topic grammar ``feltwire/v1/<table>/…``;
* :mod:`~feltwire.protocol.payloads` — the MQTT payloads of nodes and the hub's light
  commands, with their strict reader (each carries the schema version ``v``);
* :mod:`~feltwire.protocol.alerts` — alert frames and the alerts topic's payload;
* :mod:`~feltwire.protocol.table`, :mod:`~feltwire.protocol.events`,
  :mod:`~feltwire.protocol.console`, :mod:`~feltwire.protocol.overlay` — the page frames;
* :mod:`~feltwire.protocol.frames` — each feed's discriminated union;
* :mod:`~feltwire.protocol.schema` — the JSON Schema document of all of it.

>>> reader_tags_topic("t1", "pi-north", "seat3")
'feltwire/v1/t1/node/pi-north/reader/seat3/tags'
>>> topic = parse_topic("feltwire/v1/t1/node/pi-north/reader/seat3/tags")
>>> topic.kind, topic.table, topic.node, topic.target
(<TopicKind.READER_TAGS: 'reader_tags'>, 't1', 'pi-north', 'seat3')
"""

from feltwire.protocol.alerts import (
    AlertAckFrame,
    AlertFrame,
    AlertPayload,
    ConsoleAlert,
)
from feltwire.protocol.console import ConsoleStateFrame
from feltwire.protocol.events import (
    ActionTakenFrame,
    ActionUndoneFrame,
    BoardDealtFrame,
    BurnDealtFrame,
    DiscardedFrame,
    HandMuckedFrame,
    HandVoidedFrame,
    OverlayHandEvent,
    OverlayHandShownFrame,
    OverlayHoleCardDealtFrame,
    PotAwardedFrame,
    PublicHandEvent,
    PublicHandShownFrame,
    PublicHoleCardDealtFrame,
)
from feltwire.protocol.frames import (
    ConsoleFrame,
    OverlayFrame,
    PublicFeedFrame,
    PublicFrame,
    PublicTopicPayload,
)
from feltwire.protocol.overlay import (
    EquityFrame,
    OverlayPicture,
    OverlaySnapshotFrame,
    OverlayStateFrame,
)
from feltwire.protocol.payloads import (
    AVAILABILITY_OFFLINE,
    AVAILABILITY_ONLINE,
    DEFAULT_MAX_PAYLOAD_BYTES,
    PROTOCOL_VERSION,
    SCHEMA_VERSION,
    Availability,
    ButtonPress,
    LightCommand,
    LightPattern,
    ReaderInventory,
    SchemaVersion,
    WireModel,
    decode,
    decode_button_press,
    decode_inventory,
    decode_light_command,
    encode,
    read_payload,
)
from feltwire.protocol.table import (
    ButtonFrame,
    ClockFrame,
    FaceDownAntennaFrame,
    FaceUpAntennaFrame,
    HandEndFrame,
    HandFrame,
    OverlayAntennaFrame,
    PublicAntennaFrame,
    PublicSnapshotFrame,
    SeatsFrame,
    TurnFrame,
)
from feltwire.protocol.topics import (
    KNOWN_READER_IDS,
    MAX_SEATS,
    TOPIC_PREFIX,
    ParsedTopic,
    ReaderKind,
    TopicKind,
    alerts_topic,
    availability_topic,
    button_topic,
    light_set_topic,
    parse_topic,
    public_topic,
    reader_kind,
    reader_tags_filter,
    reader_tags_topic,
    seat_of,
)

__all__ = [
    "AVAILABILITY_OFFLINE",
    "AVAILABILITY_ONLINE",
    "DEFAULT_MAX_PAYLOAD_BYTES",
    "KNOWN_READER_IDS",
    "MAX_SEATS",
    "PROTOCOL_VERSION",
    "SCHEMA_VERSION",
    "TOPIC_PREFIX",
    "ActionTakenFrame",
    "ActionUndoneFrame",
    "AlertAckFrame",
    "AlertFrame",
    "AlertPayload",
    "Availability",
    "BoardDealtFrame",
    "BurnDealtFrame",
    "ButtonFrame",
    "ButtonPress",
    "ClockFrame",
    "ConsoleAlert",
    "ConsoleFrame",
    "ConsoleStateFrame",
    "DiscardedFrame",
    "EquityFrame",
    "FaceDownAntennaFrame",
    "FaceUpAntennaFrame",
    "HandEndFrame",
    "HandFrame",
    "HandMuckedFrame",
    "HandVoidedFrame",
    "LightCommand",
    "LightPattern",
    "OverlayAntennaFrame",
    "OverlayFrame",
    "OverlayHandEvent",
    "OverlayHandShownFrame",
    "OverlayHoleCardDealtFrame",
    "OverlayPicture",
    "OverlaySnapshotFrame",
    "OverlayStateFrame",
    "ParsedTopic",
    "PotAwardedFrame",
    "PublicAntennaFrame",
    "PublicFeedFrame",
    "PublicFrame",
    "PublicHandEvent",
    "PublicHandShownFrame",
    "PublicHoleCardDealtFrame",
    "PublicSnapshotFrame",
    "PublicTopicPayload",
    "ReaderInventory",
    "ReaderKind",
    "SchemaVersion",
    "SeatsFrame",
    "TopicKind",
    "TurnFrame",
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
