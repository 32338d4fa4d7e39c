"""What the table layer hands the dealing procedure at the start of each hand.

:class:`HandSetup` says who is dealt in, in hand order, and builds the :class:`Hand`;
:class:`TableProfile` says which antennas the table has, so the checks adapt (no burn
antenna, no burn alerts; no up-card antennas, no stud up/down placement alerts).

Seat numbers: the table numbers its seats ``1 … 10`` (reader ids ``seat1`` …); a
:class:`~hub.rules.hand.Hand` numbers the players dealt in ``0 … n-1`` clockwise from the
first seat left of the button (PHH order), the button last. ``HandSetup.seats[i]`` is
the table seat of hand seat ``i``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hub.rules.errors import HandSeat, TableSeat, seat_name
from hub.rules.games import Game, Options, Stakes
from hub.rules.hand import Hand


@dataclass(frozen=True, slots=True)
class TableProfile:
    """The antennas a table has."""

    seats: int = 10
    """Seat antennas ``seat1 … seatN``."""
    burn: bool = True
    muck: bool = True
    up_cards: bool = False
    """Stud up-card antennas ``up1 … upN`` in front of each seat."""
    board_readers: tuple[str, ...] = ("board",)
    """One ``board`` antenna, or ``flop1 flop2 flop3 turn river``."""

    def readers(self) -> tuple[str, ...]:
        """Every reader id of this table."""
        out = [f"seat{n}" for n in range(1, self.seats + 1)]
        if self.up_cards:
            out += [f"up{n}" for n in range(1, self.seats + 1)]
        out += list(self.board_readers)
        if self.burn:
            out.append("burn")
        if self.muck:
            out.append("muck")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class HandSetup:
    """One hand as the table layer sets it up."""

    number: int
    """The table's running hand number (1, 2, …)."""
    game: Game
    seats: tuple[TableSeat, ...]
    """Table seat numbers of the players dealt in, in hand order (button last): the hand's
    player ``h`` (a :data:`HandSeat`) sits in table seat ``seats[h]``."""
    button: int
    """Table seat of the button (may be an empty seat under the dead-button rule)."""
    stakes: Stakes
    starting_stacks: tuple[int, ...]
    options: Options = field(default_factory=Options)

    def new_hand(self) -> Hand:
        """The hand, with its antes and blinds posted."""
        return Hand(self.game, self.stakes, self.starting_stacks, self.options)

    def hand_seat(self, table_seat: TableSeat | int) -> HandSeat | None:
        """The hand's index for a table seat, or None when that seat is not dealt in."""
        try:
            return HandSeat(self.seats.index(TableSeat(table_seat)))
        except ValueError:
            return None

    def table_seat(self, h: HandSeat | int) -> TableSeat:
        """The table seat of the hand's player ``h``."""
        return self.seats[h]

    def seat_of(self, h: HandSeat | int) -> TableSeat | None:
        """The table seat of the hand's player ``h``, None for an index the hand has no
        player for: what :meth:`~hub.rules.errors.RulesError.text_for` takes at a table."""
        return self.seats[h] if 0 <= h < len(self.seats) else None

    def name(self, h: HandSeat) -> str:
        """The hand's player ``h`` as the table says it (``seat 5``)."""
        if 0 <= h < len(self.seats):
            return seat_name(self.seats[h])
        return f"player {h + 1} of the hand"  # an index no input can name; never a bare index
