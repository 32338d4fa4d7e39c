"""Alerts: the frame every page gets, and the payload of the table's alerts topic.

An alert is raised by the rules (it has an ``id`` the dealer acknowledges and the
``hand`` it belongs to) or by the hub itself (security, the event log, a node's stream:
``id`` None, and ``node``/``readers`` where it concerns them). What it says is two texts
of the message catalog, ``text`` and ``remedy_text`` (what the pages render, in their
language), with their English renderings ``message`` and ``remedy`` (for MQTT consumers
and logs). It never names a hole card.

>>> frame = AlertFrame(id=1, hand=3, t=12.5, code="missing_burn", severity="warning",
...                    seat=None, rule="R-DEAL-3",
...                    text={"key": "alert.missing_burn.message",
...                          "params": {"street": {"key": "street.flop", "params": {}}}},
...                    remedy_text={"key": "alert.missing_burn.remedy", "params": {}},
...                    message="the flop came without a burn card", remedy="burn one")
>>> AlertPayload.from_frame("t1", frame).text.params["street"].key
'street.flop'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from feltwire.protocol.payloads import SchemaVersion
from feltwire.protocol.texts import TextFrame
from feltwire.protocol.values import (
    FrameModel,
    HandNumber,
    ReaderId,
    Seat,
    Severity,
    TableId,
    Timestamp,
    VersionedFrame,
)

AlertCode = Annotated[
    str, Field(pattern=r"^[a-z][a-z0-9_]{0,63}$", description="what went wrong, snake_case")
]
"""An alert's code (``missing_burn``, ``uid_on_two_antennas``, ``reads_lost`` …)."""


class AlertBody(FrameModel):
    """What an alert says, wherever it goes (the fields of :class:`AlertFrame` and
    :class:`AlertPayload`)."""

    id: int | None = Field(
        ge=1, description="the rules' alert number (acknowledged by it); None: the hub's own"
    )
    hand: HandNumber | None = Field(None, description="the hand it happened in, when any")
    t: Timestamp
    code: AlertCode
    severity: Severity = Field(description="info, warning or misdeal")
    seat: Seat | None = Field(description="the seat it concerns, when one")
    rule: str = Field(description="the rule it enforces (R-DEAL-3 …), security or system")
    text: TextFrame = Field(description="what happened: an alert.<code>.….message text")
    remedy_text: TextFrame = Field(description="what to do: an alert.<code>.….remedy text")
    message: str = Field(description="what happened, in English (never a hole card)")
    remedy: str = Field(description="what the dealer does about it, in English")
    node: str | None = Field(None, description="the node whose stream it concerns")
    readers: list[ReaderId] | None = Field(None, description="the antennas it concerns")
    clears: AlertCode | None = Field(
        None,
        description=(
            "the code of the hub's alert this one ends, for the same node or antennas "
            "(node_online ends node_offline, reader_back reader_silent, broker_back "
            "broker_lost); left out otherwise"
        ),
    )


class AlertFrame(AlertBody, VersionedFrame):
    """An alert on the public, console and overlay feeds (``{"type": "alert", …}``)."""

    type: Literal["alert"] = "alert"


class ConsoleAlert(AlertFrame):
    """An alert in the console's state: the frame, whether the dealer acknowledged it,
    whether its cause is gone (``cleared``: the doubled card taken back), the seats it
    concerns (its seat and its antennas' seats: the console highlights them) and the key
    the console acknowledges it by (a rules' alert: its id; the hub's own: code and time)."""

    acknowledged: bool
    cleared: bool = Field(False, description="its cause is gone (the card was taken back)")
    seats: list[Seat] = Field(default_factory=list, description="the seats it concerns")
    key: str = Field("", max_length=96, description="what the console acknowledges it by")


class AlertAckFrame(VersionedFrame):
    """The dealer acknowledged alert ``id`` at the console (public feed)."""

    type: Literal["alert_ack"] = "alert_ack"
    id: int = Field(ge=1, description="the alert acknowledged")
    t: Timestamp


class AlertPayload(AlertBody):
    """An alert on ``feltwire/v1/<table>/alerts`` (not retained): the alert frame without
    its ``type``, with the schema version and the table."""

    v: SchemaVersion = Field(description="schema version")
    table: TableId

    @classmethod
    def from_frame(cls, table: str, frame: AlertBody) -> AlertPayload:
        """The topic's payload for an alert frame of ``table``."""
        fields = frame.model_dump(exclude={"type", "v"})
        return cls.model_validate({"v": 1, "table": table, **fields})


__all__ = [
    "AlertAckFrame",
    "AlertBody",
    "AlertCode",
    "AlertFrame",
    "AlertPayload",
    "ConsoleAlert",
]
