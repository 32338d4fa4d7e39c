"""The state of one hand, and the questions anyone may ask it.

:class:`HandState` holds what a hand is made of — the seats' chips and cards, the board,
the stub, the open betting round, the showdown — and answers the queries (whose turn,
which cards are due, the pots, the result). The parts that change it live beside it,
each in its own module: dealing (:mod:`.dealing`), the betting round
(:mod:`.betting_round`) and the showdown (:mod:`.showdown`); :class:`hub.rules.hand.Hand`
is all of them together. The award at the end is :mod:`.award`'s.

Every operation has a ``verify_x`` that raises a :class:`~hub.rules.errors.RulesError`
and a ``can_x`` made from it by :func:`asks`, so "may I?" and "do it" never disagree:

>>> from hub.rules.games import Stakes, game
>>> from hub.rules.hand import Hand
>>> hand = Hand(game("NT"), Stakes.blind_game(3, 5, 10), [1000] * 3)
>>> hand.can_fold(), hand.can_burn(), hand.to_act, hand.phase.value
(False, False, 0, 'dealing')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from operator import sub
from typing import Concatenate, ParamSpec, TypeVar

from feltwire.cards import CardIndex
from feltwire.text import Player, Text
from hub.rules.dealing import UNKNOWN, Expected
from hub.rules.errors import RulesError, ShowdownError
from hub.rules.games import Game, Options, Stakes, Street
from hub.rules.pots import Pot, PotAward

from .award import award_pots, award_uncontested, pot_parts_of
from .plan import plan_for, post_forced_bets
from .records import (
    BETTING,
    BOARD,
    BURN,
    COMPLETE,
    DEALING,
    DRAWING,
    HOLE,
    SHOWDOWN,
    STUD,
    HandResult,
    Post,
    Record,
)
from .stub import Stub, duplicate_card

__all__ = ["HandState", "asks"]

_P = ParamSpec("_P")
_S = TypeVar("_S")
_DEFAULT_OPTIONS = Options()


def asks(verify: Callable[Concatenate[_S, _P], object]) -> Callable[Concatenate[_S, _P], bool]:
    """The ``can_x`` of an operation from its ``verify_x``: True exactly when ``verify_x``
    raises no :class:`~hub.rules.errors.RulesError` (for a console's buttons)."""
    op = verify.__name__.removeprefix("verify_")

    def can(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> bool:
        try:
            verify(self, *args, **kwargs)
        except RulesError:
            return False
        return True

    can.__name__ = can.__qualname__ = f"can_{op}"
    can.__doc__ = f"True when :meth:`{op}` would be accepted (:meth:`verify_{op}` passes)."
    return can


class HandState(ABC):
    """What one hand is made of, with its queries; see :class:`hub.rules.hand.Hand`."""

    __slots__ = (
        "_acted_seq",
        "_aggressor",
        "_alt_inc",
        "_blind_opener",
        "_board_dealt",
        "_board_n",
        "_bring_in_seat",
        "_burn_rule_id",
        "_burned",
        "_clockwise",
        "_current",
        "_dead_blinds",
        "_deals_left",
        "_dealt",
        "_drawn",
        "_faced",
        "_fast_deal",
        "_full_level",
        "_full_seq",
        "_hole_up",
        "_inc",
        "_last_inc",
        "_min_bet",
        "_mucked",
        "_n_able",
        "_n_in",
        "_owed",
        "_raise_count",
        "_round_acted",
        "_show_from",
        "_show_queue",
        "_shown",
        "_street_index",
        "_stub",
        "_tabled",
        "actor",
        "awards",
        "bets",
        "board",
        "burns",
        "dead",
        "folded",
        "game",
        "hole",
        "hole_up",
        "log",
        "n",
        "options",
        "phase",
        "posts",
        "stacks",
        "stakes",
        "starting_stacks",
        "total",
    )

    def __init__(
        self,
        game: Game,
        stakes: Stakes,
        starting_stacks: Sequence[int],
        options: Options | None = None,
    ) -> None:
        n = len(starting_stacks)
        self.game = game
        self.stakes = stakes
        self.options = options if options is not None else _DEFAULT_OPTIONS
        self._fast_deal = not (self.options.strict_deal_order or self.options.burn_required)
        """No option asks more of a card than its street's due cards and a fresh card (the
        card inputs' fast paths apply)."""
        self.n = n
        plan = plan_for(game, stakes, n)
        self._burn_rule_id = plan.burn_rule
        self._blind_opener = plan.opener
        self._min_bet = plan.min_bet
        self._clockwise = plan.clockwise
        self.starting_stacks = tuple(starting_stacks)
        self.stacks = list(starting_stacks)
        self.bets = [0] * n
        self.total = [0] * n
        """Chips each seat has put in this hand (antes, dead blinds and bets)."""
        self.dead = [0] * n
        """Of :attr:`total`, the antes and dead blinds."""
        self.folded = [False] * n
        self.hole: list[list[CardIndex]] = [[] for _ in range(n)]
        self.hole_up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[CardIndex] = []
        self.burns: list[CardIndex] = []
        self.log: list[Record] = []
        """Every input accepted, in order (replaying it rebuilds the hand)."""
        self._stub = Stub(game, self.log)
        self.posts: list[Post] = []
        self.awards: tuple[PotAward, ...] = ()
        self.actor: int | None = None
        """The seat to act in a betting round, else None."""
        self.phase = DEALING
        self._shown = [False] * n
        self._mucked = [False] * n
        self._n_in = n
        self._show_from = -1
        self._show_queue: list[int] = []
        self._tabled = False
        self._aggressor = -1
        self._round_acted = False
        self._bring_in_seat = -1
        self._current = 0
        self._last_inc = 0
        self._full_level = 0
        self._raise_count = 0
        self._inc = 0
        self._alt_inc = 0
        self._faced = [-1] * n
        self._acted_seq = [0] * n
        self._full_seq = 0
        self._dealt = [0] * n
        self._drawn = [False] * n
        self._owed = [0] * n
        self._board_dealt = 0
        self._board_n = 0
        self._hole_up: tuple[bool, ...] = ()
        self._burned = False
        self._street_index = 0
        self._deals_left = 0
        self._dead_blinds = post_forced_bets(
            stakes, self.options, self.stacks, self.total, self.dead, self.bets, self.posts
        )
        """Of :attr:`dead`, the dead blinds (None when nobody posts one): they go to the
        main pot whatever the side-pot levels (R-BLIND-4)."""
        self._n_able = n - self.stacks.count(0)
        self._start_street(0)

    # ------------------------------------------------- the parts' transitions

    @abstractmethod
    def _start_street(self, index: int) -> None:
        """Open street ``index``: its cards are due (:mod:`.dealing`)."""

    @abstractmethod
    def _start_betting(self) -> None:
        """Open the street's betting round (:mod:`.betting_round`)."""

    @abstractmethod
    def _checked_shower(self) -> int:
        """Who shows first after a round everyone checked (:mod:`.showdown`)."""

    @abstractmethod
    def _start_showdown(self) -> None:
        """The last round is over: hands are shown or mucked (:mod:`.showdown`)."""

    # --------------------------------------------------------------- queries

    @property
    def button(self) -> int:
        """The button (dealer position in stud): the last seat."""
        return self.n - 1

    @property
    def street(self) -> Street:
        """The street being dealt or bet."""
        return self.game.streets[self._street_index]

    @property
    def street_index(self) -> int:
        """0 for the first street."""
        return self._street_index

    @property
    def cards_out(self) -> int:
        """Cards taken from the stub so far (dealt or burnt), less any reshuffled back."""
        return self._stub.cards_out

    @property
    def pot_total(self) -> int:
        """All chips in the middle, bets in front of the players included (0 once the pots
        are awarded)."""
        return 0 if self.phase is COMPLETE else sum(self.total)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(s for s in range(self.n) if not self.folded[s])

    @property
    def current_bet(self) -> int:
        """The largest bet of the open round (0 when none)."""
        return self._current

    @property
    def up_cards(self) -> dict[int, list[CardIndex]]:
        """The face-up cards of each seat still in the hand (stud)."""
        return {
            s: [c for c, u in zip(self.hole[s], self.hole_up[s], strict=True) if u]
            for s in range(self.n)
            if not self.folded[s]
        }

    @property
    def community_card(self) -> bool:
        """True when 7th street is one shared card because the deck ran short (R-DEAL-4)."""
        return self.game.family is STUD and bool(self.board)

    @property
    def drawer(self) -> int | None:
        """The seat to discard next in a draw, else None."""
        if self.phase is not DRAWING:
            return None
        for s in range(self.n):
            if not self.folded[s] and not self._drawn[s]:
                return s
        return None

    @property
    def shower(self) -> int | None:
        """The seat to show or muck next at showdown (R-SHOW-1/2), else None."""
        if self.phase is not SHOWDOWN:
            return None
        shown, mucked = self._shown, self._mucked
        for s in self._show_queue:
            if not shown[s] and not mucked[s]:
                return s
        return None

    @property
    def to_act(self) -> int | None:
        """The seat whose input comes next: the seat to bet, draw, show or muck, or to be
        dealt the next expected card; None when the next input is a burn or board card, or
        the hand is over. (The seat a console lights up.)"""
        if self.phase is BETTING:
            return self.actor
        if self.phase is SHOWDOWN:
            return self.shower
        if self.phase is DRAWING and self.drawer is not None:
            return self.drawer
        for e in self.expected():
            if e.kind is not BURN:
                return e.seat
        return None

    @property
    def uncalled_winner(self) -> int | None:
        """R-SHOW-3: the seat that won the pot uncontested (everyone else folded) until it
        shows or mucks — the console offers it to show all, some cards, or muck — else
        None. The pot is awarded already: its choice changes no chip."""
        if self.phase is not COMPLETE or self._n_in != 1:
            return None
        s = self.folded.index(False)
        return None if self._shown[s] or self._mucked[s] else s

    @property
    def shown(self) -> tuple[int, ...]:
        """Seats that have shown their hand."""
        return tuple(s for s in range(self.n) if self._shown[s])

    @property
    def mucked(self) -> tuple[int, ...]:
        """Seats that mucked at showdown (no claim, R-SHOW-2)."""
        return tuple(s for s in range(self.n) if self._mucked[s])

    @property
    def result(self) -> HandResult | None:
        """The awards and finishing stacks once the hand is complete."""
        if self.phase is not COMPLETE:
            return None
        stacks = self.stacks  # as many as starting_stacks: the payoffs are their differences
        return HandResult(self.awards, tuple(stacks), tuple(map(sub, stacks, self.starting_stacks)))

    def pots(self) -> list[Pot]:
        """Main pot and side pots now, bets in front of the players included (R-POT-1).
        Dead blinds are in the main pot (R-BLIND-4); antes too unless
        :attr:`Options.antes_by_level`."""
        return [Pot(amount, eligible) for amount, eligible in self._pot_parts()]

    def _pot_parts(self) -> list[tuple[int, tuple[int, ...]]]:
        return pot_parts_of(
            self.total, self.dead, self._dead_blinds, self.folded, self.options.antes_by_level
        )

    def expected(self) -> tuple[Expected, ...]:
        """The cards the hand waits for now, in dealing order (empty when none are due)."""
        out: list[Expected] = []
        if self.phase is DEALING:
            if self._street_index > 0 and not self._burned and self._nothing_dealt():
                out.append(Expected(BURN))
            k = len(self._hole_up)
            for i in range(k):
                for s in range(self.n):
                    if not self.folded[s] and self._dealt[s] <= i:
                        out.append(Expected(HOLE, s, self._hole_up[i]))
            for _ in range(self._board_n - self._board_dealt):
                out.append(Expected(BOARD, None, True))
        elif self.phase is DRAWING:
            if not self._burned and any(self._owed):
                out.append(Expected(BURN))
            for s in range(self.n):
                for _ in range(self._owed[s]):
                    out.append(Expected(HOLE, s, False))
        return tuple(out)

    def in_play(self, card: CardIndex) -> bool:
        """True when ``card`` was dealt, burned or turned in this hand (it cannot be dealt
        again: R-CARD-1), wherever it lies now."""
        return 0 <= card < 52 and bool(self._stub.seen[card])

    def _nothing_dealt(self) -> bool:
        """True when no card of the street has been dealt yet (its burn comes first)."""
        return self._board_dealt == 0 and not any(self._dealt)

    # -------------------------------------------------- cards a player names

    def _slots_of(
        self, seat: int, cards: Sequence[CardIndex], rule: str
    ) -> list[tuple[int, CardIndex]]:
        """Where ``cards`` lie in ``seat``'s hand, as ``(slot, card)`` pairs: a card the
        seat holds, or else a slot dealt unread that the card fills (then it must be a
        card of this deck not in play, R-CARD-1). Raises (``rule``) when the seat does not
        hold a card; changes nothing."""
        hole = self.hole[seat]
        stub = self._stub
        used: list[int] = []
        out: list[tuple[int, CardIndex]] = []
        learnt: set[CardIndex] = set()
        for c in cards:
            idx = -1
            if c >= 0:
                for i, h in enumerate(hole):
                    if h == c and i not in used:
                        idx = i
                        break
            if idx < 0:
                if c >= 0 and not 0 <= c < 52:
                    stub.check(c)  # not a card at all
                for i, h in enumerate(hole):
                    if h == UNKNOWN and i not in used:
                        idx = i
                        break
                if idx < 0:
                    raise ShowdownError(
                        rule, Text("refusal.showdown.not_held", {"seat": Player(seat)})
                    )
                if c >= 0:
                    if c in learnt:
                        raise duplicate_card(c)
                    stub.check(c)
                    learnt.add(c)
            used.append(idx)
            out.append((idx, c))
        return out

    def _match_cards(self, seat: int, cards: Sequence[CardIndex], rule: str) -> list[int]:
        """Slot indices in ``seat``'s hand holding ``cards`` (unknown slots are learnt)."""
        slots = self._slots_of(seat, cards, rule)
        hole, stub = self.hole[seat], self._stub
        for idx, c in slots:
            if c >= 0 and hole[idx] == UNKNOWN:
                hole[idx] = c
                stub.see(c)
        return [idx for idx, _ in slots]

    # ------------------------------------------------------------------ award

    def _award(self) -> None:
        """Award the pots (everyone else folded: the one left takes all) and end the hand."""
        self.actor = None
        if self._n_in == 1:  # everyone else folded: one pot, uncontested (R-BET-7)
            winner = self.folded.index(False)
            amount = sum(self.total)
            self.stacks[winner] += amount
            self.awards = (award_uncontested(winner, amount),)
            self.phase = COMPLETE
            return
        awards, won = award_pots(
            self.game,
            self.stakes.chip_unit,
            self._pot_parts(),
            self._mucked,
            self.hole,
            self.hole_up,
            self.board,
            self.folded,
        )
        stacks = self.stacks
        for s in range(self.n):
            stacks[s] += won[s]
        self.awards = awards
        self.phase = COMPLETE
