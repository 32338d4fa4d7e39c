"""What is known at one moment of a hand: the game, each player's cards, the board, dead cards.

A :class:`Spot` is the input of every equity function. Cards are
:data:`~feltwire.cards.CardIndex` values ``rank * 4 + suit`` (:mod:`feltwire.cards`); a
player's unknown cards — face-down cards nobody has seen, and cards still to come in stud
and draw — are counted, not named. Dead cards (folded or mucked cards the antennas saw,
burns) are out of the deck.

>>> s = Spot.parse("holdem", ["AsKs", "??"], board="Kh7d2c", dead="9h")
>>> s.game.name, s.unknown, len(s.board), s.board_unknown
('HOLDEM', (0, 2), 3, 2)
>>> Spot.parse("stud7", ["AsAh2d", "KdKcQh"]).unknown
(4, 4)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from feltwire.cards import CARD_INDEXES, CardError, CardIndex, card_code, card_index, normalize_card
from hub.equity.errors import SpotError


class Kind(Enum):
    """How a game values hands at showdown."""

    HIGH = "high"
    OMAHA_HIGH = "omaha high"
    OMAHA_HILO = "omaha high-low 8"
    HILO = "high-low 8"
    A5_LOW = "ace-to-five low"
    LOW27 = "deuce-to-seven low"


class EquityGame(Enum):
    """The games the calculator plays; the value is the name the command line uses."""

    HOLDEM = "holdem"
    OMAHA = "omaha"
    OMAHA8 = "omaha8"
    STUD7 = "stud7"
    STUD8 = "stud8"
    RAZZ = "razz"
    STUD5 = "stud5"
    DRAW5 = "draw5"
    DRAW27 = "draw27"

    @property
    def hole(self) -> int:
        """Cards each player ends up with (besides the board)."""
        return _SHAPE[self][0]

    @property
    def board(self) -> int:
        """Community cards at showdown (5 in hold'em and Omaha, else 0)."""
        return _SHAPE[self][1]

    @property
    def kind(self) -> Kind:
        """How hands are valued."""
        return _SHAPE[self][2]

    @property
    def hi_lo(self) -> bool:
        """True for the split games (a high half and an 8-or-better low half)."""
        return self.kind in (Kind.HILO, Kind.OMAHA_HILO)


_SHAPE: dict[EquityGame, tuple[int, int, Kind]] = {
    EquityGame.HOLDEM: (2, 5, Kind.HIGH),
    EquityGame.OMAHA: (4, 5, Kind.OMAHA_HIGH),
    EquityGame.OMAHA8: (4, 5, Kind.OMAHA_HILO),
    EquityGame.STUD7: (7, 0, Kind.HIGH),
    EquityGame.STUD8: (7, 0, Kind.HILO),
    EquityGame.RAZZ: (7, 0, Kind.A5_LOW),
    EquityGame.STUD5: (5, 0, Kind.HIGH),
    EquityGame.DRAW5: (5, 0, Kind.HIGH),
    EquityGame.DRAW27: (5, 0, Kind.LOW27),
}

_BY_VARIANT_CODE: dict[str, EquityGame] = {
    "T": EquityGame.HOLDEM,
    "O": EquityGame.OMAHA,
    "O/8": EquityGame.OMAHA8,
    "7S": EquityGame.STUD7,
    "7S/8": EquityGame.STUD8,
    "R": EquityGame.RAZZ,
    "5S": EquityGame.STUD5,
    "5D": EquityGame.DRAW5,
    "2L1D": EquityGame.DRAW27,
    "2L3D": EquityGame.DRAW27,
}


def game_for_code(code: str) -> EquityGame:
    """The equity game of a :class:`hub.rules.games.Game` code (``T``, ``O/8``, ``7S`` …).

    >>> game_for_code("O/8")
    <EquityGame.OMAHA8: 'omaha8'>
    """
    try:
        return _BY_VARIANT_CODE[code]
    except KeyError:
        raise SpotError(
            f"no equity for game code {code!r} (badugi and short deck are not done)"
        ) from None


def game_named(name: str) -> EquityGame:
    """The game for a command-line name such as ``holdem`` or ``stud8``."""
    try:
        return EquityGame(name.lower())
    except ValueError:
        known = ", ".join(g.value for g in EquityGame)
        raise SpotError(f"unknown game {name!r}; known: {known}") from None


_SEP = re.compile(r"[\s,]+")


def parse_hand(text: str) -> tuple[CardIndex | None, ...]:
    """Cards of one hand from text; ``??`` is a card nobody knows (None).

    >>> parse_hand("As ??")
    (51, None)
    """
    compact = _SEP.sub("", text).replace("10", "T")
    if len(compact) % 2:
        raise SpotError(f"not a run of card codes: {text!r} (write cards as 'As', '??')")
    out: list[CardIndex | None] = []
    for i in range(0, len(compact), 2):
        part = compact[i : i + 2]
        if part == "??":
            out.append(None)
            continue
        try:
            code = normalize_card(part)
        except CardError as err:
            raise SpotError(str(err)) from None
        out.append(card_index(code))
    return tuple(out)


def parse_known(text: str, what: str) -> tuple[CardIndex, ...]:
    """Cards that must all be named (board, dead cards)."""
    cards = parse_hand(text)
    if any(c is None for c in cards):
        raise SpotError(f"{what} cards must be named, not '??': {text!r}")
    return tuple(c for c in cards if c is not None)


def format_hand(cards: tuple[CardIndex | None, ...], size: int) -> str:
    """Cards as text, unknown ones as ``??``, padded with ``??`` up to ``size``."""
    parts = ["??" if c is None else card_code(c) for c in cards]
    parts += ["??"] * (size - len(parts))
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Spot:
    """Everything known about a hand at one moment.

    ``hands[p]`` holds the cards seen for player ``p`` (in stud, down and up cards alike);
    ``unknown[p]`` how many more the player holds or will hold at showdown. ``board`` is the
    community cards seen so far, ``dead`` every other card known to be out of play.
    """

    game: EquityGame
    hands: tuple[tuple[CardIndex, ...], ...]
    unknown: tuple[int, ...]
    board: tuple[CardIndex, ...] = ()
    dead: tuple[CardIndex, ...] = ()

    def __post_init__(self) -> None:
        g = self.game
        if not self.hands:
            raise SpotError("a spot needs at least one player")
        if len(self.hands) != len(self.unknown):
            raise SpotError("one unknown-card count per player")
        for p, (known, unk) in enumerate(zip(self.hands, self.unknown, strict=True)):
            if unk < 0 or len(known) + unk != g.hole:
                raise SpotError(
                    f"player {p + 1} has {len(known) + unk} cards; {g.value} deals {g.hole}"
                )
        if len(self.board) > g.board:
            raise SpotError(f"board has {len(self.board)} cards; {g.value} has at most {g.board}")
        seen = [c for h in self.hands for c in h] + list(self.board) + list(self.dead)
        if any(not 0 <= c < 52 for c in seen):
            raise SpotError("card ints run 0 … 51")
        if len(set(seen)) != len(seen):
            dup = sorted({card_code(c) for c in seen if seen.count(c) > 1})
            raise SpotError(f"card(s) {', '.join(dup)} appear twice (R-CARD-1)")
        if self.needed > len(self.stub):
            raise SpotError(
                f"{self.needed} cards still to come but only {len(self.stub)} left in the deck"
                " (a stud community card, R-DEAL-4, is not modelled)"
            )

    @classmethod
    def parse(
        cls,
        game: str | EquityGame,
        hands: list[str] | tuple[str, ...],
        *,
        board: str = "",
        dead: str = "",
    ) -> Spot:
        """A spot from text as the command line takes it; short hands are padded with ``??``."""
        g = game if isinstance(game, EquityGame) else game_named(game)
        parsed = [parse_hand(h) for h in hands]
        for p, cards in enumerate(parsed):
            if len(cards) > g.hole:
                raise SpotError(f"player {p + 1} has {len(cards)} cards; {g.value} deals {g.hole}")
        return cls(
            game=g,
            hands=tuple(tuple(c for c in h if c is not None) for h in parsed),
            unknown=tuple(g.hole - sum(c is not None for c in h) for h in parsed),
            board=parse_known(board, "board"),
            dead=parse_known(dead, "dead"),
        )

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def board_unknown(self) -> int:
        """Board cards still to come."""
        return self.game.board - len(self.board)

    @property
    def needed(self) -> int:
        """Cards to deal from the stub to finish the hand (board and every unknown card)."""
        return self.board_unknown + sum(self.unknown)

    @property
    def stub(self) -> tuple[CardIndex, ...]:
        """Cards that may still come: the deck minus every card known to be somewhere."""
        used = {c for h in self.hands for c in h} | set(self.board) | set(self.dead)
        return tuple(c for c in CARD_INDEXES if c not in used)

    @property
    def holes_known(self) -> bool:
        """True when every player's cards are all known (only board cards to come)."""
        return not any(self.unknown)

    def hand_text(self, player: int) -> str:
        """A player's cards as text, unknown ones as ``??``."""
        return format_hand(tuple(self.hands[player]), self.game.hole)
