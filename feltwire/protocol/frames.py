"""The feeds: which frames each page's WebSocket and the public MQTT topic carry.

Each feed is a discriminated union on ``type`` (antenna frames nest a union on ``kind``,
hand events one on ``event``):

* ``/ws/public`` — :data:`PublicFrame`: the public snapshot, then the public feed
  (:data:`PublicFeedFrame`), which never names a hole card;
* ``/ws/console`` — :data:`ConsoleFrame`: the console's state, then the public feed, each
  burst followed by a fresh state;
* ``/ws/overlay`` — :data:`OverlayFrame`: the overlay's snapshot, then every released
  frame (every card), each change followed by a ``state`` frame;
* ``feltwire/v1/<table>/public`` — :data:`PublicTopicPayload`: the public feed's frames.

>>> from pydantic import TypeAdapter
>>> frame = TypeAdapter(PublicFrame).validate_json(
...     '{"type": "antenna", "n": 4, "t": 2.5, "reader": "seat2", "kind": "seat", "count": 1}')
>>> type(frame).__name__
'FaceDownAntennaFrame'
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from feltwire.protocol.alerts import AlertAckFrame, AlertFrame
from feltwire.protocol.console import ConsoleStateFrame
from feltwire.protocol.events import OverlayHandEvent, PublicHandEvent
from feltwire.protocol.overlay import (
    EquityFrame,
    OverlaySettingsFrame,
    OverlaySnapshotFrame,
    OverlayStateFrame,
    PlateStatsFrame,
)
from feltwire.protocol.table import (
    ButtonFrame,
    ClockFrame,
    HandEndFrame,
    HandFrame,
    OverlayAntennaFrame,
    PublicAntennaFrame,
    PublicSnapshotFrame,
    SeatsFrame,
    TurnFrame,
)

PublicFeedFrame = Annotated[
    PublicAntennaFrame
    | PublicHandEvent
    | HandFrame
    | HandEndFrame
    | SeatsFrame
    | TurnFrame
    | AlertFrame
    | AlertAckFrame
    | ButtonFrame
    | ClockFrame,
    Field(discriminator="type"),
]
"""A frame of the public feed: what ``/ws/public`` and ``/ws/console`` send after their
first frame, and what the public MQTT topic carries. Never a hole card."""

PublicTopicPayload = PublicFeedFrame
"""The payload of ``feltwire/v1/<table>/public`` (not retained): a public feed frame, as
JSON (it carries no ``v`` today, unlike every other MQTT payload)."""

PublicFrame = Annotated[PublicSnapshotFrame | PublicFeedFrame, Field(discriminator="type")]
"""A frame of ``/ws/public``: the snapshot, then the public feed."""

ConsoleFrame = Annotated[ConsoleStateFrame | PublicFeedFrame, Field(discriminator="type")]
"""A frame of ``/ws/console``: the console's state, then the public feed."""

OverlayFrame = Annotated[
    OverlaySnapshotFrame
    | OverlayStateFrame
    | OverlaySettingsFrame
    | PlateStatsFrame
    | OverlayAntennaFrame
    | OverlayHandEvent
    | HandFrame
    | HandEndFrame
    | SeatsFrame
    | TurnFrame
    | AlertFrame
    | EquityFrame,
    Field(discriminator="type"),
]
"""A frame of ``/ws/overlay`` (every card, behind the delay)."""


__all__ = [
    "ConsoleFrame",
    "OverlayFrame",
    "PublicFeedFrame",
    "PublicFrame",
    "PublicTopicPayload",
]
