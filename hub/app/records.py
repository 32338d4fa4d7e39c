"""What the event log records: the kinds of input, a logged input, the console's and the
table's commands, an accepted loss. Values only — no storage, no I/O — so the layers above
the log can import them without SQLite."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hub.rules import procedure
from hub.rules.table.seating import NO_FACE, PlayerFace

ConsoleInput = (
    procedure.ConsoleAction
    | procedure.ShowHand
    | procedure.MuckHand
    | procedure.ManualCard
    | procedure.DeclareMisdeal
    | procedure.UndoAction
)
"""What the dealer console may enter (actions and dealer commands)."""

Item = tuple["InputKind", Mapping[str, Any], float, float | None]
"""One input for :meth:`EventLog.append_many`: kind, payload, table time ``t``, wall time."""


class SeatOp(enum.StrEnum):
    """What the dealer does for a seat at the console (the table's rules decide whether
    it is allowed: :class:`hub.rules.table.Table`'s ``verify_…`` methods)."""

    SIT = "sit"
    """A player sits down in an empty seat with a buy-in."""
    TOP_UP = "top_up"
    """The player adds chips (from the next hand when the seat is in a hand)."""
    SIT_OUT = "sit_out"
    """The player sits out from the next hand."""
    COME_BACK = "come_back"
    """The player sitting out is back from the next hand."""
    LEAVE = "leave"
    """The player leaves the table with their chips."""


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A seat command entered at the console, logged as a :attr:`InputKind.TABLE` input.

    ``name`` and ``amount`` (the buy-in) belong to :attr:`SeatOp.SIT`, ``amount`` also to
    :attr:`SeatOp.TOP_UP`; ``wait`` (sit down or come back) waits for the big blind
    instead of posting at once (R-BLIND-3, R-BLIND-5).

    >>> SeatCommand(SeatOp.SIT, 4, name="Bo", amount=800).op.value
    'sit'
    """

    op: SeatOp
    seat: int
    name: str = ""
    amount: int = 0
    wait: bool = False
    club_id: str = ""
    """The player's club id (sit; empty: none given): the hands store's person."""
    face: PlayerFace = NO_FACE
    """The player's country and photo (sit; empty: none given): for the overlay."""


@dataclass(frozen=True, slots=True)
class AckAlert:
    """The dealer acknowledged alert ``alert`` (the id the console shows)."""

    alert: int


TableCommand = SeatCommand | AckAlert
"""A table command besides the opening of the table (which the table service logs)."""


class InputKind(enum.StrEnum):
    """What one logged input is."""

    INVENTORY = "inventory"
    """An accepted reader inventory (cards mapped from tags, unknown uids kept apart)."""
    BUTTON = "button"
    """A dealer button pressed on a node."""
    CONSOLE = "console"
    """A betting action, a shown or mucked hand entered at the dealer console."""
    DEALER = "dealer"
    """A dealer command: a card entered by hand, a misdeal declared, an undo."""
    TICK = "tick"
    """Time passed without a read while a hand ran, and changed it (a departure or a
    doubled card became certain, an alert's red light went back): a tick that would
    change nothing is not logged."""
    TABLE = "table"
    """A table command: the table opened with its seated players and buy-ins, a seat
    command entered at the console (:class:`SeatCommand`), an alert acknowledged
    (:class:`AckAlert`)."""


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One input as logged."""

    table: str
    seq: int
    t: float
    """The input's table time (seconds): the clock when it is replayed."""
    kind: InputKind
    payload: dict[str, Any]
    wall: float | None = None
    """The wall-clock time of the input (seconds since the epoch), for records; None in
    rows logged before schema 2, or when the hub gave none."""

    def __repr__(self) -> str:
        return (
            f"LogRecord(table={self.table!r}, seq={self.seq}, t={self.t}, "
            f"kind={self.kind!r}, payload={{...}})"
        )


@dataclass(frozen=True, slots=True)
class AcceptedLoss:
    """A loss the operator accepted with ``feltwire event-log accept-loss``, as recorded
    in the log: when, and what was dropped."""

    at: float
    """When the loss was accepted (seconds since the epoch)."""
    description: str
    """What was wrong, what was dropped, where the damaged files went."""

    def __str__(self) -> str:
        return f"{local_time(self.at)}: {self.description}"


def local_time(t: float | None) -> str:
    """A time for a person: local, to the second, with its UTC offset (a message
    names the last good input by it)."""
    if t is None or not math.isfinite(t):
        return "an unknown time"
    try:
        return datetime.fromtimestamp(t, UTC).astimezone().isoformat(sep=" ", timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return f"t={t}"
