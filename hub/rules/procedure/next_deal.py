"""What the dealer deals next: the one card (or the draw's discards) the procedure waits
for now, and where it goes.

The dealing monitor knows the street's dealing sequence (its :class:`~.state.Slot` s,
clockwise from the first seat left of the button, one card at a time), whether the
street's burn is still owed and, in a draw, whose discards are at the muck.
:func:`next_deal` reads those and answers a :class:`NextDeal`: the burn, a seat's n-th
card (face up or down), the flop's, turn's or river's card (or stud's community card),
a seat's replacement in a draw, or a seat's turn to discard — with the antenna it goes
on, so a page can light it. Seats are table seats (1–10). Pure: it changes nothing.

>>> from hub.rules.games import Stakes, game
>>> from hub.rules.setup import HandSetup
>>> from hub.rules.procedure import DealingMonitor
>>> setup = HandSetup(1, game("NT"), seats=(2, 5, 7), button=7,
...                   stakes=Stakes.blind_game(3, 5, 10), starting_stacks=(500,) * 3)
>>> nd = DealingMonitor(setup).next_deal()
>>> nd.kind.value, nd.seat, nd.card, nd.reader
('hole', 2, 1, 'seat2')
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hub.rules.dealing import Deal, DealKind
from hub.rules.errors import TableSeat
from hub.rules.games import Family
from hub.rules.hand import Hand, Phase
from hub.rules.procedure.state import Slot, SlotStatus
from hub.rules.setup import HandSetup, TableProfile

__all__ = ["NextDeal", "NextKind", "board_reader", "next_deal"]


class NextKind(enum.Enum):
    """What the dealer does next."""

    HOLE = "hole"
    """A card to a seat (stud: face up or down)."""
    BURN = "burn"
    """The street's burn."""
    BOARD = "board"
    """A board card (the flop's, the turn, the river; stud's community card)."""
    REPLACEMENT = "replacement"
    """A draw's replacement card to a seat."""
    DISCARD = "discard"
    """A seat's turn to throw its discards to the muck (or to stand pat)."""


@dataclass(frozen=True, slots=True)
class NextDeal:
    """The next card the procedure waits for (or, in a draw, the next discards).

    ``seat`` is the table seat it goes to (None: the burn, the board); ``card`` which card
    it is — of the seat's hand (2: its second card), of the street's board cards (the
    flop's 1 to 3) or of the seat's replacements — and ``of`` how many there are in all
    (the seat's cards after this street, the street's board cards, the replacements);
    ``up`` a card dealt face up; ``street`` the engine's street name; ``reader`` the
    antenna it goes on; ``unread`` the seats passed over whose card was not read (maybe
    just not read yet)."""

    kind: NextKind
    street: str
    reader: str
    seat: TableSeat | None = None
    card: int = 1
    of: int = 1
    up: bool = False
    unread: tuple[TableSeat, ...] = ()


def board_reader(profile: TableProfile, index: int) -> str:
    """The antenna the board's card number ``index`` (0-based, in deal order) lies on:
    the one ``board`` antenna, or ``flop1 … flop3``, ``turn``, ``river``.

    >>> board_reader(TableProfile(), 3), board_reader(TableProfile(board_readers=(
    ...     "flop1", "flop2", "flop3", "turn", "river")), 3)
    ('board', 'turn')
    """
    readers = profile.board_readers
    if len(readers) <= 1:
        return readers[0] if readers else "board"
    return readers[min(index, len(readers) - 1)]


def _burned(hand: Hand) -> bool:
    """True when this street's burn is out (or none is owed: the first street)."""
    if hand.street_index == 0:
        return True
    street = hand.street_index
    return any(
        isinstance(r, Deal) and r.kind is DealKind.BURN and r.street == street for r in hand.log
    )


def _seat_reader(profile: TableProfile, tseat: int, up: bool, family: Family) -> str:
    return f"up{tseat}" if up and profile.up_cards and family is Family.STUD else f"seat{tseat}"


def next_deal(
    hand: Hand,
    setup: HandSetup,
    plan: Sequence[Slot],
    profile: TableProfile,
    discards: Mapping[int, int] | None = None,
) -> NextDeal | None:
    """The next card the dealer deals in ``hand`` (``plan``: the street's dealing
    sequence; ``discards``: in a draw, how many cards each of the hand's players has at
    the muck, not yet given to the hand), or None when no card is due (a betting round,
    the showdown, the hand over)."""
    if hand.phase is Phase.DRAWING:
        return _next_in_draw(hand, setup, profile, discards or {})
    if hand.phase is not Phase.DEALING:
        return None
    street = hand.street.name
    started = any(s.status in (SlotStatus.FILLED, SlotStatus.SKIPPED) for s in plan)
    unread = tuple(setup.seats[s.seat] for s in plan if s.status is SlotStatus.SKIPPED)
    expected = hand.expected()
    if expected and expected[0].kind is DealKind.BURN and not started:
        return NextDeal(NextKind.BURN, street, "burn")
    slot = next((s for s in plan if s.status is SlotStatus.OPEN), None)
    if slot is not None:
        h = slot.seat
        mine = [s for s in plan if s.seat == h]
        prior = sum(len(st.hole_up) for st in hand.game.streets[: hand.street_index])
        tseat = setup.seats[h]
        return NextDeal(
            NextKind.HOLE,
            street,
            _seat_reader(profile, tseat, slot.up, hand.game.family),
            seat=tseat,
            card=prior + mine.index(slot) + 1,
            of=prior + len(mine),
            up=slot.up,
            unread=unread,
        )
    boards = [e for e in expected if e.kind is DealKind.BOARD]
    if boards:
        total = len(hand.board) + len(boards)
        dealt_here = total - len(boards) - _board_before(hand)
        return NextDeal(
            NextKind.BOARD,
            street,
            board_reader(profile, len(hand.board)),
            card=dealt_here + 1,
            of=total - _board_before(hand),
            up=True,
            unread=unread,
        )
    return None


def _board_before(hand: Hand) -> int:
    """The board cards dealt on the streets before this one."""
    return sum(st.board for st in hand.game.streets[: hand.street_index])


def _next_in_draw(
    hand: Hand, setup: HandSetup, profile: TableProfile, discards: Mapping[int, int]
) -> NextDeal | None:
    """In a draw: the replacements owed (after the burn), else the next drawer's
    discards — or, once they are at the muck, that seat's replacements."""
    street = hand.street.name
    owed: dict[int, int] = {}
    for e in hand.expected():
        if e.kind is DealKind.HOLE and e.seat is not None:
            owed[e.seat] = owed.get(e.seat, 0) + 1
    drawer = hand.drawer
    if not owed and drawer is not None and discards.get(drawer, 0) > 0:
        owed = {drawer: discards[drawer]}  # thrown: the replacements come next
    if owed:
        if not _burned(hand):
            return NextDeal(NextKind.BURN, street, "burn")
        h = min(owed)
        tseat = setup.seats[h]
        thrown = owed[h] + _replaced(hand, h)
        return NextDeal(
            NextKind.REPLACEMENT,
            street,
            f"seat{tseat}",
            seat=tseat,
            card=thrown - owed[h] + 1,
            of=thrown,
        )
    if drawer is not None:
        tseat = setup.seats[drawer]
        return NextDeal(
            NextKind.DISCARD, street, "muck" if profile.muck else f"seat{tseat}", seat=tseat
        )
    return None


def _replaced(hand: Hand, h: int) -> int:
    """The replacement cards ``h`` got on this street so far."""
    street = hand.street_index
    return sum(
        1
        for r in hand.log
        if isinstance(r, Deal) and r.kind is DealKind.HOLE and r.seat == h and r.street == street
    )
