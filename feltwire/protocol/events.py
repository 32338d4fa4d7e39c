"""Hand event frames: what happened in a hand, as the feeds carry it.

Every event of the rules (``hub.rules.procedure``'s event classes) goes out as
``{"type": "event", "event": "<EventName>", "hand": N, "t": …, …}`` — the discriminator
is ``event``. The public feed (and the console, and the public MQTT topic) gets only the
public events, without a hidden card: a hole card only when it was dealt face up
(``up`` true), a shown hand without its cards, never a burn card. The overlay feed gets
every event with every card, behind its delay.

>>> from pydantic import TypeAdapter
>>> frame = TypeAdapter(PublicHandEvent).validate_python(
...     {"type": "event", "event": "BoardDealt", "card": "Qh", "hand": 2, "t": 9.0})
>>> type(frame).__name__, frame.card
('BoardDealtFrame', 'Qh')
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from feltwire.protocol.texts import TextFrame
from feltwire.protocol.values import (
    ActionKind,
    Card,
    Chips,
    FrameModel,
    HandNumber,
    Seat,
    Timestamp,
    VersionedFrame,
)


class HandEventFrame(VersionedFrame):
    """What every hand event frame has: ``type`` ``event``, the hand and the time."""

    type: Literal["event"] = "event"
    hand: HandNumber
    t: Timestamp


class PublicHoleCardDealtFrame(HandEventFrame):
    """A card dealt face up to a seat (a stud up card): public, so named."""

    event: Literal["HoleCardDealt"] = "HoleCardDealt"
    seat: Seat
    card: Card | None = Field(description="the card; None when it was not read")
    up: Literal[True] = Field(description="always true: a face-down card is never public")


class OverlayHoleCardDealtFrame(HandEventFrame):
    """A card dealt to a seat, face up or down (overlay only: it names hole cards)."""

    event: Literal["HoleCardDealt"] = "HoleCardDealt"
    seat: Seat
    card: Card | None = Field(description="the card; None when it was not read")
    up: bool = Field(description="dealt face up (a stud up card)")


class BurnDealtFrame(HandEventFrame):
    """A burn card (overlay only: a burn card is never public)."""

    event: Literal["BurnDealt"] = "BurnDealt"
    card: Card | None = Field(description="the card; None when it was not read")


class BoardDealtFrame(HandEventFrame):
    """A board card (or the stud community card): face up, so named on every feed."""

    event: Literal["BoardDealt"] = "BoardDealt"
    card: Card | None = Field(description="the card; None when it was not read")


class ActionTakenFrame(HandEventFrame):
    """A betting action the hand accepted."""

    event: Literal["ActionTaken"] = "ActionTaken"
    seat: Seat
    kind: ActionKind
    amount: Chips = Field(description="chips the action put in")
    to: Chips = Field(description="the seat's bet in this round after it")
    all_in: bool
    source: Literal["console", "muck", "pending"] = Field(
        description="entered at the console, cards to the muck in turn, or an earlier "
        "fold out of turn taking effect"
    )


class DiscardedFrame(HandEventFrame):
    """How many cards a seat discarded in a draw (the cards are not public)."""

    event: Literal["Discarded"] = "Discarded"
    seat: Seat
    count: int = Field(ge=0)


class PublicHandShownFrame(HandEventFrame):
    """A hand shown at showdown, as the public feed has it: which seat, not its cards."""

    event: Literal["HandShown"] = "HandShown"
    seat: Seat
    whole: bool = Field(description="the whole hand (False: the uncalled winner showed part)")


class OverlayHandShownFrame(HandEventFrame):
    """A hand shown at showdown, with its cards (overlay only)."""

    event: Literal["HandShown"] = "HandShown"
    seat: Seat
    cards: list[Card | None] = Field(description="the cards shown (None: not read)")
    whole: bool = Field(description="the whole hand (False: the uncalled winner showed part)")


class HandMuckedFrame(HandEventFrame):
    """A hand mucked at showdown, unshown."""

    event: Literal["HandMucked"] = "HandMucked"
    seat: Seat


class Payout(FrameModel):
    """Chips one seat takes from one pot."""

    seat: Seat
    amount: Chips
    half: Literal["whole", "high", "low"]
    odd_chip: bool = Field(description="this payout includes the odd chip")


class PotAward(FrameModel):
    """How one pot is awarded (``text``: what the dealer reads out, ``message``: the same
    in English)."""

    pot: int = Field(ge=0, description="which pot: 0 the main pot, then the side pots")
    amount: Chips
    eligible: list[Seat] = Field(description="the seats with a claim on it")
    payouts: list[Payout]
    uncontested: bool
    no_low: bool = Field(description="a hi-lo pot no low hand qualified for")
    text: TextFrame = Field(description="the read-out: an award.line.* text")
    message: str = Field(description="the read-out in English")


class PotAwardedFrame(PotAward, HandEventFrame):
    """A pot awarded."""

    event: Literal["PotAwarded"] = "PotAwarded"


class HandVoidedFrame(HandEventFrame):
    """A misdeal: the hand is void; the stacks are (seat, chips) as at its start."""

    event: Literal["HandVoided"] = "HandVoided"
    stacks: list[tuple[Seat, Chips]]


class ActionUndoneFrame(HandEventFrame):
    """The last console action was taken back."""

    event: Literal["ActionUndone"] = "ActionUndone"
    seat: Seat
    kind: ActionKind


PublicHandEvent = Annotated[
    PublicHoleCardDealtFrame
    | BoardDealtFrame
    | ActionTakenFrame
    | DiscardedFrame
    | PublicHandShownFrame
    | HandMuckedFrame
    | PotAwardedFrame
    | HandVoidedFrame
    | ActionUndoneFrame,
    Field(discriminator="event"),
]
"""A hand event as the public feed, the console and the public topic carry it."""

OverlayHandEvent = Annotated[
    OverlayHoleCardDealtFrame
    | BurnDealtFrame
    | BoardDealtFrame
    | ActionTakenFrame
    | DiscardedFrame
    | OverlayHandShownFrame
    | HandMuckedFrame
    | PotAwardedFrame
    | HandVoidedFrame
    | ActionUndoneFrame,
    Field(discriminator="event"),
]
"""A hand event as the overlay feed carries it (every card)."""


__all__ = [
    "ActionTakenFrame",
    "ActionUndoneFrame",
    "BoardDealtFrame",
    "BurnDealtFrame",
    "DiscardedFrame",
    "HandEventFrame",
    "HandMuckedFrame",
    "HandVoidedFrame",
    "OverlayHandEvent",
    "OverlayHandShownFrame",
    "OverlayHoleCardDealtFrame",
    "Payout",
    "PotAward",
    "PotAwardedFrame",
    "PublicHandEvent",
    "PublicHandShownFrame",
    "PublicHoleCardDealtFrame",
]
