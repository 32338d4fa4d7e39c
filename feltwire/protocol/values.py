"""The values page frames are made of: cards, seats, chips, times, and the frame base.

A page frame is a JSON object the hub sends to a web page (``/ws/public``,
``/ws/console``, ``/ws/overlay``) or to the table's public MQTT topic. Each frame type is
a :class:`FrameModel` with a ``type`` literal; the feeds' unions are in
:mod:`feltwire.protocol.frames`.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(Card).validate_python("Td")
'Td'
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from feltwire.protocol.payloads import PROTOCOL_VERSION
from feltwire.protocol.topics import ID_PATTERN, MAX_SEATS, READER_ID_PATTERN

CARD_PATTERN: Final = r"^[2-9TJQKA][cdhs]$"
"""A card code: rank (2-9, T, J, Q, K, A) and suit (c, d, h, s), as in ``Td``."""

Card = Annotated[str, Field(pattern=CARD_PATTERN, description="a card code such as Td")]
"""A card, named (only where the feed may name it)."""

Seat = Annotated[int, Field(ge=1, le=MAX_SEATS, description="a table seat, 1-10")]
"""A seat at the table (the seat's number, never an index into a hand)."""

Chips = Annotated[int, Field(ge=0, description="chips")]
"""An amount of chips (never negative)."""

HandNumber = Annotated[int, Field(ge=0, description="the hand's number at the table; 0: none")]
"""The number of a hand (1 for the first; 0 before the first hand)."""

Timestamp = Annotated[float, Field(description="the hub's clock, seconds")]
"""When it happened, on the hub's clock (:class:`hub.app.table_time.TableTime`)."""

ReaderId = Annotated[str, Field(pattern=READER_ID_PATTERN, description="a reader id")]
"""An antenna's reader id (``seat3``, ``board``, ``muck`` …)."""

TableId = Annotated[str, Field(pattern=ID_PATTERN, description="table id")]
"""The id of a table (as in its topics)."""

Severity = Literal["info", "warning", "misdeal"]
"""How bad an alert is: noted, fix it now, the hand is void."""

ActionKind = Literal["fold", "check", "call", "bet", "raise", "bring-in", "complete"]
"""What a seat did in a betting round."""

Share = Annotated[float, Field(ge=0, le=1, description="a share, 0 to 1")]
"""A probability or a share of a pot."""


DISCRIMINATORS: Final = ("type", "event")
"""The fields that say what a frame is: a builder fills them in, a reader needs them."""


def _discriminators_required(schema: dict[str, Any], _model: type[Any]) -> None:
    # a discriminator has a default (constructors need not repeat it), so pydantic would
    # leave it out of "required": the schema must not accept a frame that lacks it
    properties = schema.get("properties", {})
    needed = [name for name in DISCRIMINATORS if "const" in properties.get(name, {})]
    if needed:
        schema["required"] = sorted({*schema.get("required", []), *needed})


class FrameModel(BaseModel):
    """Base of every page frame and of each object inside one: immutable, no unknown
    field. A frame's optional ``v`` is the protocol version; frames built from these
    models carry it (``model_dump`` writes it), frames built as plain dicts may not."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, json_schema_extra=_discriminators_required
    )

    _discriminators: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._discriminators = tuple(n for n in DISCRIMINATORS if n in cls.model_fields)

    def model_post_init(self, context: Any, /) -> None:
        """Count the discriminators among the fields set, so a dump of only the fields a
        builder set (``model_dump(exclude_unset=True)``, what :func:`hub.views.frames.frame`
        sends) still says what the frame is."""
        self.__pydantic_fields_set__.update(self._discriminators)


class VersionedFrame(FrameModel):
    """A top-level frame: one message on a feed, with the protocol version."""

    v: Literal[1] = Field(PROTOCOL_VERSION, description="protocol version (may be left out)")


__all__ = [
    "CARD_PATTERN",
    "ActionKind",
    "Card",
    "Chips",
    "FrameModel",
    "HandNumber",
    "ReaderId",
    "Seat",
    "Severity",
    "Share",
    "TableId",
    "Timestamp",
    "VersionedFrame",
]
