"""Texts on the wire: what a frame tells a person, as a catalog key and its parameters.

A :class:`TextFrame` is :meth:`feltwire.text.Text.as_json` as a model — ``{"key",
"params"}``, each parameter an int, a str, a seat (``{"seat": n}``), a hand's player
(``{"player": i}``) or a nested text — which a page renders in its language from the
message catalog (``hub/web/static/messages/<lang>.json``). A frame that carries a text
also carries its English rendering (``message``) for MQTT consumers and logs that do not
render; nobody parses it.

>>> from feltwire.text import Seat, Text
>>> t = Text("award.share.plain", {"seat": Seat(5), "amount": 30})
>>> TextFrame.model_validate(t.as_json()).params["seat"]
SeatParam(seat=5)
>>> AwardLine(text=t.as_json(), message="seat 5 takes 30").text.key
'award.share.plain'
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field, StrictInt, StrictStr

from feltwire.protocol.values import FrameModel, Seat

TEXT_KEY_PATTERN: Final = r"^[a-z0-9_]+(\.[a-z0-9_]+)*$"
"""A catalog key: dotted lower-case words (``alert.missing_burn.message``)."""
PARAM_NAME_PATTERN: Final = r"^[a-z_][a-z0-9_]*$"
"""A parameter's name: a lower-case identifier (``seat``, ``street``)."""


class SeatParam(FrameModel):
    """A table seat as a text's parameter (the catalog's ``seat`` entry names it)."""

    seat: Seat


class PlayerParam(FrameModel):
    """A hand's player (0-based, as the engine numbers them) as a text's parameter."""

    player: int = Field(ge=0, description="the hand's player, from 0 (rendered p1 …)")


class TextFrame(FrameModel):
    """A catalog key and its parameters (never a hole card)."""

    key: str = Field(pattern=TEXT_KEY_PATTERN, description="the message catalog's key")
    params: dict[
        Annotated[str, Field(pattern=PARAM_NAME_PATTERN)],
        StrictInt | StrictStr | SeatParam | PlayerParam | TextFrame,
    ] = Field(default_factory=dict, description="the values of the key's {placeholders}")


class AwardLine(FrameModel):
    """One pot's award as the dealer reads it out: the text and its English rendering."""

    text: TextFrame = Field(description="an award.line.* entry of the catalog")
    message: str = Field(description="the text in English")


__all__ = [
    "PARAM_NAME_PATTERN",
    "TEXT_KEY_PATTERN",
    "AwardLine",
    "PlayerParam",
    "SeatParam",
    "TextFrame",
]
