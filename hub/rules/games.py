"""Game definitions: the variants the engine plays and the stakes and options of a hand.

A :class:`Game` says what is dealt on each street (hole cards up or down, board cards, a
draw), how the betting is structured (no limit, pot limit, fixed limit; small or big bet
on each street), who opens each round and how hands are valued (high, low, hi-lo split).
:class:`Stakes` holds the amounts of one hand (antes, blinds, bring-in, bet sizes) and
:class:`Options` the table choices that ``RULES.md`` marks as *default* or *seed*.

Games are looked up by their PHH variant code; five-card stud and five-card draw have
codes of feltwire's own (``F5S``, ``N5D``, ``P5D``, ``F5D``; see :mod:`hub.rules.phh`).

>>> g = game("NT")
>>> g.name, g.structure.name, [s.name for s in g.streets]
("Texas hold'em", 'NO_LIMIT', ['pre-flop', 'flop', 'turn', 'river'])
>>> game("F7S").streets[0].hole_up
(False, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from feltwire.text import Text
from hub.rules.errors import ConfigurationError


class Structure(Enum):
    """Betting structure (R-BET-3); the value is the PHH letter."""

    NO_LIMIT = "N"
    POT_LIMIT = "P"
    FIXED_LIMIT = "F"


class Family(Enum):
    """How cards reach the players: a shared board, stud up/down cards, or a draw."""

    BOARD = "board"
    STUD = "stud"
    DRAW = "draw"


class Opening(Enum):
    """Who acts first in a betting round (R-BET-8, R-STUD-1, R-STUD-2)."""

    BLINDS = "blinds"
    """Left of the largest blind or straddle (pre-flop, pre-draw)."""
    POSITION = "position"
    """First active seat left of the button."""
    LOW_CARD = "low card"
    """Bring-in by the lowest up card, ace high (stud, stud hi-lo, five-card stud)."""
    HIGH_CARD = "high card"
    """Bring-in by the highest up card, ace low (razz)."""
    HIGH_HAND = "high hand"
    """The highest hand showing (stud from 4th street)."""
    LOW_HAND = "low hand"
    """The lowest hand showing, ace low (razz from 4th street)."""


class Evaluation(Enum):
    """How a hand is valued at showdown (R-CARD-2, R-CARD-4)."""

    HIGH = "high"
    OMAHA_HIGH = "omaha high"
    HIGH_LOW8 = "high-low 8 or better"
    OMAHA_HIGH_LOW8 = "omaha high-low 8 or better"
    A5_LOW = "ace-to-five low"
    DEUCE_SEVEN_LOW = "deuce-to-seven low"
    BADUGI = "badugi"
    SHORT_DECK_HIGH = "short-deck high"

    @property
    def hi_lo(self) -> bool:
        """True for the split games (a high half and an 8-or-better low half)."""
        return self in (Evaluation.HIGH_LOW8, Evaluation.OMAHA_HIGH_LOW8)


class BringInTies(Enum):
    """Which of several equal bring-in cards brings in (R-STUD-1)."""

    SEAT = "seat"
    """*seed*: the first of them left of the dealer."""
    SUIT = "suit"
    """Robert's Rules and recorded (PHH) hands: by suit, clubs lowest (spades highest in razz)."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: the cards dealt on it, an optional draw, and its betting round."""

    name: str
    hole_up: tuple[bool, ...] = ()
    """One entry per hole card each seat gets on this street: True = face up."""
    board: int = 0
    """Board cards dealt on this street."""
    draw: bool = False
    """Players discard and draw before this street's betting."""
    big_bet: bool = False
    """Fixed limit: this round uses the big bet (R-BET-9)."""
    opening: Opening = Opening.POSITION
    open_pair_big_bet: bool = False
    """An open pair showing lets any player bet the big bet on this round (R-BET-9)."""


@dataclass(frozen=True, slots=True)
class Game:
    """A poker variant: streets, betting structure, hand values and table size."""

    name: str
    code: str
    """PHH variant code without the structure letter: ``T``, ``O/8``, ``7S`` …"""
    structure: Structure
    family: Family
    streets: tuple[Street, ...]
    evaluation: Evaluation
    max_players: int
    deck_size: int = 52
    lowest_rank: int = 0
    """Rank index of the lowest card in the deck (4 = six for short deck)."""

    @property
    def variant(self) -> str:
        """The full PHH-style code, e.g. ``NT``, ``FO/8``, ``F5S``."""
        return self.structure.value + self.code

    @property
    def uses_blinds(self) -> bool:
        """True for button games with blinds (hold'em, Omaha, draw)."""
        return self.family is not Family.STUD


@dataclass(frozen=True, slots=True)
class Stakes:
    """The amounts of one hand, per seat where seats differ.

    Seats are in PHH order: seat 0 is first left of the button, the button is the last
    seat. ``blinds`` are the live blinds/straddles each seat posts (heads-up the button,
    seat 1, posts the small blind and seat 0 the big blind; :mod:`hub.rules.phh` turns the
    file's ``[SB, BB]`` into that). ``dead_blinds`` are dead parts (R-BLIND-4).

    >>> Stakes.blind_game(6, 10, 20).blinds
    (10, 20, 0, 0, 0, 0)
    """

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    dead_blinds: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    """Fixed limit: the small bet (also the completion in stud)."""
    big_bet: int = 0
    min_bet: int = 0
    """No limit / pot limit: the minimum bet (one big blind, R-BET-2)."""
    chip_unit: int = 1
    """The smallest chip in play (R-BUY-6): odd chips are counted in it."""
    big_blind_seat: int | None = None
    """The seat in the big blind, when the table knows it (a :class:`~hub.rules.table.Table`
    always says): the pre-flop action starts left of it, or of a straddle right after it
    (R-BET-8), and it keeps its option whatever the blinds' sizes (R-BLIND-2). ``None``:
    read from ``blinds`` by :func:`hub.rules.hand.big_blind_seat` (the largest of the
    first run of posted blinds), which equal blinds with a dead small blind and a late
    live post can make ambiguous."""

    @classmethod
    def blind_game(
        cls,
        seats: int,
        small_blind: int,
        big_blind: int,
        *,
        ante: int = 0,
        small_bet: int = 0,
        big_bet: int = 0,
    ) -> Stakes:
        """Stakes for a button game with the usual blinds (heads-up: seat 0 posts the BB)."""
        blinds = [0] * seats
        if seats == 2:
            blinds[0], blinds[1] = big_blind, small_blind
        else:
            blinds[0], blinds[1] = small_blind, big_blind
        return cls(
            antes=(ante,) * seats,
            blinds=tuple(blinds),
            small_bet=small_bet or big_blind,
            big_bet=big_bet or 2 * (small_bet or big_blind),
            min_bet=big_blind,
        )

    @classmethod
    def stud_game(
        cls, seats: int, ante: int, bring_in: int, small_bet: int, big_bet: int
    ) -> Stakes:
        """Stakes for a stud game (no blinds, R-POS-5)."""
        return cls(
            antes=(ante,) * seats,
            blinds=(0,) * seats,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
        )


@dataclass(frozen=True, slots=True)
class Options:
    """Table choices where ``RULES.md`` allows one; the defaults are the live-table rules."""

    burn_required: bool = False
    """Strict dealing: a burn must precede every street after the first (R-DEAL-2/3/5).
    Off by default because recorded hands (PHH) never record burns."""
    strict_deal_order: bool = False
    """Hole cards must come one at a time, clockwise from seat 0 (R-DEAL-1, R-DEAL-6)."""
    cap_heads_up: bool = True
    """R-BET-4 *default*: the fixed-limit cap applies heads-up too."""
    max_raises: int = 3
    """R-BET-4: a bet and this many raises per round (fixed limit)."""
    bring_in_ties: BringInTies = BringInTies.SEAT
    """R-STUD-1: *seed* by seat; recorded hands use :attr:`BringInTies.SUIT`."""
    antes_by_level: bool = True
    """True: antes count like bets when side pots are formed (an all-in player wins back
    only what the others matched). False: all antes go to the main pot (big-blind ante;
    PHH ``ante_trimming_status = false``). Dead blinds go to the main pot either way
    (R-BLIND-4)."""
    short_blinds_full_price: bool = True
    """R-BET-2 *default* (Robert's Rules): a blind posted short (all in for less) changes
    neither the call nor the raises: the others call the full big blind and raise by full
    bets. False: the largest blind actually posted sets the price (PokerKit; PHH files
    without ``_short_blinds_full_price``)."""
    showdown_order: bool = True
    """R-SHOW-1/2: at showdown seats show or muck in turn (last aggressor first, then
    clockwise); False accepts any order. When a player in the showdown is all in and no
    more betting was possible, every hand is tabled at once in any order (TDA practice,
    *default*), as recorded hands do."""


def _holdem_streets(hole: int) -> tuple[Street, ...]:
    return (
        Street("pre-flop", hole_up=(False,) * hole, opening=Opening.BLINDS),
        Street("flop", board=3),
        Street("turn", board=1, big_bet=True),
        Street("river", board=1, big_bet=True),
    )


def _stud7_streets(low: bool, open_pair: bool) -> tuple[Street, ...]:
    first = Opening.HIGH_CARD if low else Opening.LOW_CARD
    later = Opening.LOW_HAND if low else Opening.HIGH_HAND
    return (
        Street("3rd street", hole_up=(False, False, True), opening=first),
        Street("4th street", hole_up=(True,), opening=later, open_pair_big_bet=open_pair),
        Street("5th street", hole_up=(True,), big_bet=True, opening=later),
        Street("6th street", hole_up=(True,), big_bet=True, opening=later),
        Street("7th street", hole_up=(False,), big_bet=True, opening=later),
    )


_STUD5_STREETS = (
    Street("2nd street", hole_up=(False, True), opening=Opening.LOW_CARD),
    Street("3rd street", hole_up=(True,), opening=Opening.HIGH_HAND, open_pair_big_bet=True),
    Street("4th street", hole_up=(True,), big_bet=True, opening=Opening.HIGH_HAND),
    Street("5th street", hole_up=(True,), big_bet=True, opening=Opening.HIGH_HAND),
)


def _draw_streets(hole: int, draws: int) -> tuple[Street, ...]:
    streets = [Street("pre-draw", hole_up=(False,) * hole, opening=Opening.BLINDS)]
    names = ("first draw", "second draw", "third draw")
    for i in range(draws):
        big = i >= 1 if draws == 3 else True
        streets.append(Street(names[i] if draws > 1 else "draw", draw=True, big_bet=big))
    return tuple(streets)


_BASES: tuple[tuple[str, str, Family, tuple[Street, ...], Evaluation, int, int, int], ...] = (
    ("Texas hold'em", "T", Family.BOARD, _holdem_streets(2), Evaluation.HIGH, 10, 52, 0),
    ("Omaha", "O", Family.BOARD, _holdem_streets(4), Evaluation.OMAHA_HIGH, 10, 52, 0),
    (
        "Omaha hi-lo 8 or better",
        "O/8",
        Family.BOARD,
        _holdem_streets(4),
        Evaluation.OMAHA_HIGH_LOW8,
        10,
        52,
        0,
    ),
    ("Seven-card stud", "7S", Family.STUD, _stud7_streets(False, True), Evaluation.HIGH, 8, 52, 0),
    (
        "Seven-card stud hi-lo 8 or better",
        "7S/8",
        Family.STUD,
        _stud7_streets(False, False),
        Evaluation.HIGH_LOW8,
        8,
        52,
        0,
    ),
    ("Razz", "R", Family.STUD, _stud7_streets(True, False), Evaluation.A5_LOW, 8, 52, 0),
    ("Five-card stud", "5S", Family.STUD, _STUD5_STREETS, Evaluation.HIGH, 10, 52, 0),
    ("Five-card draw", "5D", Family.DRAW, _draw_streets(5, 1), Evaluation.HIGH, 8, 52, 0),
    (
        "Deuce-to-seven triple draw",
        "2L3D",
        Family.DRAW,
        _draw_streets(5, 3),
        Evaluation.DEUCE_SEVEN_LOW,
        6,
        52,
        0,
    ),
    (
        "Deuce-to-seven single draw",
        "2L1D",
        Family.DRAW,
        _draw_streets(5, 1),
        Evaluation.DEUCE_SEVEN_LOW,
        6,
        52,
        0,
    ),
    ("Badugi", "B", Family.DRAW, _draw_streets(4, 3), Evaluation.BADUGI, 6, 52, 0),
    (
        "Short-deck hold'em",
        "S",
        Family.BOARD,
        _holdem_streets(2),
        Evaluation.SHORT_DECK_HIGH,
        6,
        36,
        4,
    ),
)

GAMES: dict[str, Game] = {
    structure.value + code: Game(name, code, structure, family, streets, ev, mx, deck, low)
    for (name, code, family, streets, ev, mx, deck, low) in _BASES
    for structure in Structure
}
"""Every game the engine plays, by full code (``NT``, ``PO``, ``FO/8``, ``F7S``, ``F5D`` …)."""


def game(variant: str) -> Game:
    """The game for a PHH-style variant code such as ``NT``, ``FO/8`` or ``F5S``."""
    try:
        return GAMES[variant]
    except KeyError:
        known = {"variant": variant, "known": ", ".join(sorted(GAMES))}
        raise ConfigurationError(
            "R-CARD-2", Text("refusal.configuration.unknown_game", known)
        ) from None
