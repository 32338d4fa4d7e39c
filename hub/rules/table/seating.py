"""Seating: the players in the seats between hands, how they come into the game, and the
order of the seats round the table (clockwise, seat ``total`` followed by seat 1).

>>> next_seat(6, 5, [1, 2, 5]), between(6, 5, 2, 1), hand_order(6, 2, [1, 2, 5])
(1, True, (5, 1, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "NO_FACE",
    "Entry",
    "Owed",
    "PlayerFace",
    "SeatedPlayer",
    "between",
    "hand_order",
    "next_seat",
]


class Entry(Enum):
    """How a new or returning player comes into the game."""

    POST = "post"
    """Post what is owed at once and be dealt in (R-BLIND-3, R-BLIND-4, R-BLIND-5, R-BLIND-7)."""
    WAIT_FOR_BIG_BLIND = "wait for the big blind"
    """Be dealt in when the big blind reaches the seat (R-BLIND-3, R-BLIND-5)."""


class Owed(Enum):
    """Blinds a player missed and must post to be dealt in again."""

    NOTHING = "nothing"
    SMALL_BLIND = "small blind"
    """Missed only the small blind: a live small blind (R-BLIND-7, *seed*)."""
    BOTH_BLINDS = "both blinds"
    """Missed the big blind: big blind live + small blind dead (R-BLIND-4, R-BLIND-5)."""


@dataclass(frozen=True, slots=True)
class PlayerFace:
    """What a broadcast shows of a player beside their name: a country (ISO 3166 alpha-2,
    a flag) and a photo (a file name); empty: none. The rules never read it."""

    country: str = ""
    photo: str = ""


NO_FACE = PlayerFace()
"""A player record without a country or photo."""


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player in a seat, as the table sees them between hands."""

    name: str
    stack: int
    """Chips in play (table stakes, R-BUY-5)."""
    pending: int = 0
    """Chips bought during a hand: delivered when it ends, up to the maximum (R-BUY-4),
    so they play from the next hand (R-BUY-5)."""
    pending_override: int = 0
    """Of :attr:`pending`, chips a manager allowed beyond the limits (R-BUY-4): delivered
    in full."""
    sitting_out: bool = False
    entry: Entry = Entry.POST
    new: bool = True
    """Not dealt in since sitting down (R-BLIND-3, R-BLIND-6)."""
    owes: Owed = Owed.NOTHING
    joined_at: float = 0.0
    club_id: str = ""
    """The player's club id, when one was given at sit-down (empty: none)."""
    face: PlayerFace = NO_FACE
    """The player's country and photo, when given at sit-down (for the overlay)."""


def next_seat(total: int, seat: int, among: Sequence[int] | Mapping[int, object]) -> int | None:
    """First seat clockwise strictly after ``seat`` in ``among`` (wrapping; ``seat``
    itself last) at a table of ``total`` seats; None when ``among`` is empty."""
    for k in range(1, total + 1):
        s = (seat - 1 + k) % total + 1
        if s in among:
            return s
    return None


def between(total: int, a: int, b: int, s: int) -> bool:
    """True when ``s`` lies strictly clockwise after ``a`` and before ``b``."""
    da = (s - a) % total
    db = (b - a) % total
    return 0 < da < db if db else da > 0


def hand_order(total: int, button: int, seats: Sequence[int]) -> tuple[int, ...]:
    """``seats`` in the hand's order: clockwise from the first seat left of ``button``."""
    return tuple(sorted(seats, key=lambda s: (s - button - 1) % total))
