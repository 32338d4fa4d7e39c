"""The reader ids the protocol allows and what each antenna is for — plain data, no
models: the equity workers use it without the protocol's models (:mod:`feltwire.protocol`
re-exports it, and the topics' grammar is built on it).

>>> reader_kind("flop2"), seat_of("up10")
(<ReaderKind.BOARD: 'board'>, 10)
"""

from __future__ import annotations

import enum
from typing import Final

from feltwire.errors import ProtocolError

MAX_SEATS: Final = 10


class ReaderKind(enum.StrEnum):
    """What an antenna is for, derived from its reader id."""

    SEAT = "seat"
    UP = "up"  # a seat's stud up-card antenna
    BOARD = "board"
    BURN = "burn"
    MUCK = "muck"
    REGISTER = "register"


_BOARD_IDS: Final = ("board", "flop1", "flop2", "flop3", "turn", "river")
KNOWN_READER_IDS: Final[tuple[str, ...]] = (
    *(f"seat{n}" for n in range(1, MAX_SEATS + 1)),
    *(f"up{n}" for n in range(1, MAX_SEATS + 1)),
    *_BOARD_IDS,
    "burn",
    "muck",
    "register",
)
"""Every reader id the protocol allows (a table profile uses a subset)."""
READER_ID_PATTERN: Final = f"^(?:{'|'.join(KNOWN_READER_IDS)})$"
"""A regular expression matching exactly the ids of :data:`KNOWN_READER_IDS`."""


def _kind_of(reader: str) -> ReaderKind:
    if reader.startswith("seat"):
        return ReaderKind.SEAT
    if reader.startswith("up"):
        return ReaderKind.UP
    if reader in _BOARD_IDS:
        return ReaderKind.BOARD
    return ReaderKind(reader)


_KINDS: Final = {reader: _kind_of(reader) for reader in KNOWN_READER_IDS}
_SEATS: Final = {
    reader: int(reader[4:] if kind is ReaderKind.SEAT else reader[2:])
    for reader, kind in _KINDS.items()
    if kind in (ReaderKind.SEAT, ReaderKind.UP)
}


def reader_kind(reader: str) -> ReaderKind:
    """The kind of antenna a reader id names; raises ProtocolError for an unknown id.

    >>> reader_kind("seat10"), reader_kind("flop2")
    (<ReaderKind.SEAT: 'seat'>, <ReaderKind.BOARD: 'board'>)
    """
    kind = _KINDS.get(reader)
    if kind is None:
        raise ProtocolError("unknown_reader", f"unknown reader id {reader!r}")
    return kind


def seat_of(reader: str) -> int | None:
    """The seat number (1–10) of a ``seatN``/``upN`` reader, else None (an unknown id
    raises ProtocolError, as :func:`reader_kind`).

    >>> seat_of("seat3"), seat_of("up10"), seat_of("board")
    (3, 10, None)
    """
    seat = _SEATS.get(reader)
    if seat is None and reader not in _KINDS:
        raise ProtocolError("unknown_reader", f"unknown reader id {reader!r}")
    return seat
