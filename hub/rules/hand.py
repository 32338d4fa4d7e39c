"""The hand: a pure, deterministic state object that plays one hand of any game.

A :class:`Hand` is driven by explicit inputs — a card to a seat, a burn, a board card, a
discard, a betting action, a show or muck — each with a ``verify_…`` method (raises a
:class:`~hub.rules.errors.RulesError` naming the rule), a ``can_…`` method (bool, for a
console's buttons) and the operation itself, which returns a frozen record of what
happened. What follows from an input happens on its own: antes and blinds are posted
when the hand is created, bets are gathered and uncalled bets returned when a round
ends, the next street opens, and the pots are awarded when the last hand is shown or
mucked (or everyone else folded). Cards are never chosen by the engine: they come from
outside (RFID reads, a file), which keeps it free of randomness.

Seats are ``0 … n-1`` clockwise starting left of the button (PHH order); the button (or,
in stud, the dealer position) is the last seat, :attr:`Hand.button`.

The seed's own example (NL 10/20, six players; A is seat 2, D is seat 5):

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> hand = Hand(game("NT"), Stakes.blind_game(6, 10, 20), [2000] * 6)
>>> for seat, cards in enumerate(["AhKh", "2c7d", "QsQd", "9h8h", "3c3d", "JcTc"]):
...     for i in (0, 2):
...         _ = hand.deal_hole(seat, c(cards[i : i + 2]))
>>> _ = hand.fold(2); _ = hand.call(3); _ = hand.fold(4)
>>> hand.legal_actions().min_to, hand.legal_actions().max_to
(40, 2000)
>>> _ = hand.bet_or_raise_to(80, 5); _ = hand.fold(0); _ = hand.fold(1)
>>> hand.call(3).amount
60
>>> hand.phase.name, hand.street.name, hand.pot_total
('DEALING', 'flop', 190)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import sub
from typing import NamedTuple

from hub.rules.betting import Action, ActionKind, LegalActions
from hub.rules.dealing import (
    UNKNOWN,
    Deal,
    DealKind,
    Discard,
    Expected,
    Reshuffle,
    ShowOrMuck,
)
from hub.rules.errors import (
    BetSizeError,
    ConfigurationError,
    DealingError,
    DuplicateCardError,
    IllegalActionError,
    MisdealError,
    OutOfTurnError,
    PhaseError,
    RulesError,
    ShowdownError,
    who,
)
from hub.rules.evaluator import evaluate_high
from hub.rules.games import (
    Evaluation,
    Family,
    Game,
    Opening,
    Options,
    Stakes,
    Street,
    Structure,
)
from hub.rules.pots import (
    Half,
    Pot,
    PotAward,
    Share,
    make_award,
    make_share,
    pot_parts,
    split,
)
from hub.rules.showdown import bring_in_seat, hand_value, odd_chip_card_key, stud_opener

__all__ = ["Hand", "HandResult", "Phase", "Post", "PostKind", "big_blind_seat", "replay"]


class Phase(Enum):
    """What the hand waits for."""

    DEALING = "dealing"
    """Cards (burn, hole, board) are due: see :meth:`Hand.expected`."""
    DRAWING = "drawing"
    """Players discard in turn (:attr:`Hand.drawer`) and get replacement cards."""
    BETTING = "betting"
    """A betting round is open: :attr:`Hand.actor` is to act."""
    SHOWDOWN = "showdown"
    """Hands are shown or mucked: :attr:`Hand.shower` is next."""
    COMPLETE = "complete"
    """The pots are awarded: :attr:`Hand.result`."""


class PostKind(Enum):
    """A forced bet posted when the hand starts."""

    ANTE = "ante"
    BLIND = "blind"
    DEAD_BLIND = "dead blind"


class Post(NamedTuple):
    """A forced bet: ``amount`` may be less than asked when the seat is short (all in).
    (A ``NamedTuple``, like the other per-hand records, for speed.)"""

    seat: int
    kind: PostKind
    amount: int


# Enum members tested on every input, as module constants: on Python 3.11 an attribute
# of an enum class (``Phase.DEALING``) costs several times a global, because the enum
# metaclass defines ``__getattr__``.
_DEALING, _DRAWING, _BETTING = Phase.DEALING, Phase.DRAWING, Phase.BETTING
_SHOWDOWN, _COMPLETE = Phase.SHOWDOWN, Phase.COMPLETE
_ANTE, _BLIND, _DEAD_BLIND = PostKind.ANTE, PostKind.BLIND, PostKind.DEAD_BLIND
_HOLE, _BURN, _BOARD = DealKind.HOLE, DealKind.BURN, DealKind.BOARD
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BET, _RAISE, _BRING_IN = ActionKind.BET, ActionKind.RAISE, ActionKind.BRING_IN
_COMPLETION = ActionKind.COMPLETE
_FIXED_LIMIT, _POT_LIMIT = Structure.FIXED_LIMIT, Structure.POT_LIMIT
_STUD, _DRAW = Family.STUD, Family.DRAW
_BLINDS, _POSITION = Opening.BLINDS, Opening.POSITION
_WHOLE, _HIGH, _LOW = Half.WHOLE, Half.HIGH, Half.LOW
_HIGH_HAND = Evaluation.HIGH

_record = tuple.__new__
"""``_record(Deal, (kind, card, …))`` is ``Deal(kind, card, …)`` without the Python-level
``__new__`` of a ``NamedTuple`` (all fields given): the records made on every input."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: each pot's award and the stacks afterwards."""

    awards: tuple[PotAward, ...]
    finishing_stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    """Net result per seat (finishing minus starting stack)."""


Record = Deal | Discard | Action | ShowOrMuck | Reshuffle

_STUD_OPENINGS = (Opening.LOW_CARD, Opening.HIGH_CARD)
_BURN_RULES = {Family.BOARD: "R-DEAL-2", _STUD: "R-DEAL-3", _DRAW: "R-DEAL-5"}


def _check_setup(g: Game, st: Stakes, n: int) -> None:
    """Raise ConfigurationError unless ``n`` seats can play ``g`` at stakes ``st``."""
    if n < 2 or n > g.max_players:
        rule = {_STUD: "R-DEAL-4", _DRAW: "R-DEAL-5"}.get(g.family, "R-DEAL-5")
        raise ConfigurationError(rule, f"{g.name} is for 2 to {g.max_players} players, not {n}")
    for name in ("antes", "blinds"):
        if len(getattr(st, name)) != n:
            raise ConfigurationError("R-BLIND-1", f"{name} must list {n} seats")
    if st.dead_blinds and len(st.dead_blinds) != n:
        raise ConfigurationError("R-BLIND-4", f"dead_blinds must list {n} seats")
    if g.structure is _FIXED_LIMIT and (st.small_bet <= 0 or st.big_bet <= 0):
        raise ConfigurationError("R-BET-9", "fixed limit needs a small bet and a big bet")
    if g.family is _STUD and any(st.blinds):
        raise ConfigurationError("R-POS-5", "stud has no blinds")
    if st.big_blind_seat is not None:
        if g.family is _STUD:
            raise ConfigurationError("R-POS-5", "stud has no big blind")
        if not 0 <= st.big_blind_seat < n:
            raise ConfigurationError("R-POS-2", f"there is no {who(st.big_blind_seat)}")


def big_blind_seat(blinds: Sequence[int]) -> int:
    """The big blind's seat when the table does not say (:attr:`Stakes.big_blind_seat`),
    read from the per-seat live blinds as PHH lists them: the positional blinds are the
    first run of seats that post, small blind first; the big blind is the largest of
    them, the last of equal ones (equal blinds: the second; PokerKit reads them so).
    Heads-up the button (seat 1) posts the small blind, so of equal blinds seat 0 is
    the big blind. A live post further round (R-BLIND-3/4) is never the big blind.
    -1 when nobody posts a blind.

    >>> big_blind_seat((10, 20, 0, 0)), big_blind_seat((20, 20, 0, 0)), big_blind_seat((20, 20))
    (1, 1, 0)
    >>> big_blind_seat((10, 20, 0, 20)), big_blind_seat((0, 0, 0))
    (1, -1)
    """
    n = len(blinds)
    if n == 2:
        if not blinds[0] and not blinds[1]:
            return -1
        return 0 if blinds[0] >= blinds[1] else 1
    top = -1
    for s in range(n):
        if blinds[s]:
            if top < 0 or blinds[s] >= blinds[top]:
                top = s
        elif top >= 0:
            break
    return top


_DEFAULT_OPTIONS = Options()
_Plan = tuple[Game, Stakes, int, str, int, int, tuple[tuple[int, ...], ...]]
_SETUPS: dict[int, _Plan] = {}
_CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {}
"""For ``n`` seats: for each seat, the seats after it clockwise, ending with itself."""


def _plan(g: Game, st: Stakes, n: int) -> _Plan:
    """Check the setup and work out what every hand with it shares (kept by identity)."""
    _check_setup(g, st, n)
    blinds = st.blinds
    top = big_blind_seat(blinds) if st.big_blind_seat is None else st.big_blind_seat
    if top < 0:
        opener = 0
    else:
        # R-BET-8: left of the big blind whatever the blinds' sizes (R-BLIND-2: the big
        # blind keeps its option), or of a straddle posted on the seats right after it
        for _ in range(n - 1):
            nxt = (top + 1) % n
            if blinds[nxt] <= blinds[top]:
                break
            top = nxt
        opener = (top + 1) % n
    min_bet = st.min_bet or max(st.blinds) or st.small_bet or 1
    clockwise = _CLOCKWISE.get(n)
    if clockwise is None:
        clockwise = tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
        _CLOCKWISE[n] = clockwise
    plan = (g, st, n, _BURN_RULES[g.family], opener, min_bet, clockwise)
    if len(_SETUPS) > 512:
        _SETUPS.clear()
    _SETUPS[id(st)] = plan
    return plan


class Hand:
    """One hand of poker from the first card to the award.

    See the module docstring for an example. Queries: :attr:`phase`, :attr:`street`,
    :meth:`expected`, :attr:`to_act`, :attr:`actor`, :meth:`legal_actions`,
    :attr:`drawer`, :attr:`shower`, :meth:`pots`, :attr:`result`. Inputs: :meth:`deal_hole`,
    :meth:`burn`, :meth:`deal_board`, :meth:`discard`, :meth:`fold`, :meth:`check`,
    :meth:`call`, :meth:`check_or_call`, :meth:`bet_or_raise_to`, :meth:`bring_in`,
    :meth:`all_in`, :meth:`show`, :meth:`muck`.
    """

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
        "_deck_size",
        "_drawn",
        "_faced",
        "_fast_deal",
        "_full_level",
        "_full_seq",
        "_hole_up",
        "_inc",
        "_last_inc",
        "_lowest_rank",
        "_min_bet",
        "_mucked",
        "_n_able",
        "_n_in",
        "_owed",
        "_pile",
        "_raise_count",
        "_round_acted",
        "_seen",
        "_show_from",
        "_show_queue",
        "_shown",
        "_street_index",
        "_tabled",
        "actor",
        "awards",
        "bets",
        "board",
        "burns",
        "cards_out",
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
        self._fast_deal = not self.options.strict_deal_order
        self.n = n
        plan = _SETUPS.get(id(stakes))
        if plan is None or plan[0] is not game or plan[1] is not stakes or plan[2] != n:
            plan = _plan(game, stakes, n)
        self._burn_rule_id = plan[3]
        self._blind_opener = plan[4]
        self._min_bet = plan[5]
        self._clockwise = plan[6]
        self._deck_size = game.deck_size
        self._lowest_rank = game.lowest_rank
        self.starting_stacks = tuple(starting_stacks)
        self.stacks = list(starting_stacks)
        self.bets = [0] * n
        self.total = [0] * n
        """Chips each seat has put in this hand (antes, dead blinds and bets)."""
        self.dead = [0] * n
        """Of :attr:`total`, the antes and dead blinds."""
        self._dead_blinds: list[int] | None = None
        """Of :attr:`dead`, the dead blinds (None when nobody posts one): they go to the
        main pot whatever the side-pot levels (R-BLIND-4)."""
        self.folded = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.hole_up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.burns: list[int] = []
        self.cards_out = 0
        """Cards taken from the stub so far (dealt or burnt), less any reshuffled back."""
        self.log: list[Record] = []
        """Every input accepted, in order (replaying it rebuilds the hand)."""
        self.posts: list[Post] = []
        self.awards: tuple[PotAward, ...] = ()
        self.actor: int | None = None
        """The seat to act in a betting round, else None."""
        self.phase = _DEALING
        self._seen = bytearray(52)
        self._pile: list[tuple[int, int, int]] = []
        self._shown = [False] * n
        self._mucked = [False] * n
        self._n_in = n
        self._n_able = n
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
        self._post_forced_bets()
        self._start_street(0)

    # ----------------------------------------------------------------- setup

    def _post_forced_bets(self) -> None:
        st = self.stakes
        n = self.n
        stacks, total, dead, bets, posts = self.stacks, self.total, self.dead, self.bets, self.posts
        if any(st.antes):
            antes = [min(st.antes[s], stacks[s]) for s in range(n)]
            if self.options.antes_by_level:
                # an ante nobody else matched (the others are short) comes straight back,
                # like an uncalled bet (R-POT-1)
                top = max(antes)
                second = max(a for i, a in enumerate(antes) if i != antes.index(top))
                if antes.count(top) == 1 and top > second:
                    antes[antes.index(top)] = second
            for s in range(n):
                a = antes[s]
                if a:
                    stacks[s] -= a
                    total[s] += a
                    dead[s] += a
                    posts.append(_record(Post, (s, _ANTE, a)))
        blinds = st.blinds
        if any(st.dead_blinds):
            dead_blinds = self._dead_blinds = [0] * n
            for s in range(n):
                # R-BLIND-4: a short stack owing a live and a dead blind posts the live
                # part first; the dead part gets what is left
                a = min(st.dead_blinds[s], max(0, stacks[s] - blinds[s]))
                if a:
                    stacks[s] -= a
                    total[s] += a
                    dead[s] += a
                    dead_blinds[s] = a
                    posts.append(_record(Post, (s, _DEAD_BLIND, a)))
        for s in range(n):
            b = blinds[s]
            if b:
                if b > stacks[s]:
                    b = stacks[s]
                stacks[s] -= b
                total[s] += b
                bets[s] = b
                posts.append(_record(Post, (s, _BLIND, b)))
        self._n_able = n - stacks.count(0)

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
    def pot_total(self) -> int:
        """All chips in the middle, bets in front of the players included (0 once the pots
        are awarded)."""
        return 0 if self.phase is _COMPLETE else sum(self.total)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(s for s in range(self.n) if not self.folded[s])

    @property
    def current_bet(self) -> int:
        """The largest bet of the open round (0 when none)."""
        return self._current

    @property
    def up_cards(self) -> dict[int, list[int]]:
        """The face-up cards of each seat still in the hand (stud)."""
        return {
            s: [c for c, u in zip(self.hole[s], self.hole_up[s], strict=True) if u]
            for s in range(self.n)
            if not self.folded[s]
        }

    @property
    def community_card(self) -> bool:
        """True when 7th street is one shared card because the deck ran short (R-DEAL-4)."""
        return self.game.family is _STUD and bool(self.board)

    @property
    def drawer(self) -> int | None:
        """The seat to discard next in a draw, else None."""
        if self.phase is not _DRAWING:
            return None
        for s in range(self.n):
            if not self.folded[s] and not self._drawn[s]:
                return s
        return None

    @property
    def shower(self) -> int | None:
        """The seat to show or muck next at showdown (R-SHOW-1/2), else None."""
        if self.phase is not _SHOWDOWN:
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
        if self.phase is _BETTING:
            return self.actor
        if self.phase is _SHOWDOWN:
            return self.shower
        if self.phase is _DRAWING and self.drawer is not None:
            return self.drawer
        for e in self.expected():
            if e.kind is not _BURN:
                return e.seat
        return None

    @property
    def uncalled_winner(self) -> int | None:
        """R-SHOW-3: the seat that won the pot uncontested (everyone else folded) until it
        shows or mucks — the console offers it to show all, some cards, or muck — else
        None. The pot is awarded already: its choice changes no chip."""
        if self.phase is not _COMPLETE or self._n_in != 1:
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
        if self.phase is not _COMPLETE:
            return None
        stacks = self.stacks  # as many as starting_stacks: the payoffs are their differences
        return HandResult(self.awards, tuple(stacks), tuple(map(sub, stacks, self.starting_stacks)))

    def pots(self) -> list[Pot]:
        """Main pot and side pots now, bets in front of the players included (R-POT-1).
        Dead blinds are in the main pot (R-BLIND-4); antes too unless
        :attr:`Options.antes_by_level`."""
        return [Pot(amount, eligible) for amount, eligible in self._pot_parts()]

    def expected(self) -> tuple[Expected, ...]:
        """The cards the hand waits for now, in dealing order (empty when none are due)."""
        out: list[Expected] = []
        if self.phase is _DEALING:
            if self._street_index > 0 and not self._burned and self._nothing_dealt():
                out.append(Expected(_BURN))
            k = len(self._hole_up)
            for i in range(k):
                for s in range(self.n):
                    if not self.folded[s] and self._dealt[s] <= i:
                        out.append(Expected(_HOLE, s, self._hole_up[i]))
            for _ in range(self._board_n - self._board_dealt):
                out.append(Expected(_BOARD, None, True))
        elif self.phase is _DRAWING:
            if not self._burned and any(self._owed):
                out.append(Expected(_BURN))
            for s in range(self.n):
                for _ in range(self._owed[s]):
                    out.append(Expected(_HOLE, s, False))
        return tuple(out)

    def _nothing_dealt(self) -> bool:
        return self._board_dealt == 0 and not any(self._dealt)

    # --------------------------------------------------------------- streets

    def _start_street(self, index: int) -> None:
        self._street_index = index
        street = self.game.streets[index]
        hole_up, board_n = street.hole_up, street.board
        self._burned = False
        self._board_dealt = 0
        self._dealt = [0] * self.n
        if self.game.family is _STUD and hole_up:
            stub = self.game.deck_size - self.cards_out
            if stub - (1 if index else 0) < self._n_in * len(hole_up):
                hole_up, board_n = (), 1  # R-DEAL-4: one community card for all
                if stub < 2:
                    self._burned = True  # no card to spare for a burn
        self._hole_up = hole_up
        self._board_n = board_n
        self._deals_left = self._n_in * len(hole_up) + board_n
        if street.draw:
            self.phase = _DRAWING
            self._drawn = [False] * self.n
            self._owed = [0] * self.n
        elif hole_up or board_n:
            self.phase = _DEALING
        else:
            self._start_betting()

    def _draw_done(self) -> bool:
        for s in range(self.n):
            if not self.folded[s] and (not self._drawn[s] or self._owed[s]):
                return False
        return True

    # --------------------------------------------------------------- betting

    def _start_betting(self) -> None:
        g, st = self.game, self.stakes
        street = g.streets[self._street_index]
        n = self.n
        bets = self.bets
        current = max(bets)
        if not self._street_index and self.options.short_blinds_full_price:
            # R-BET-2 *default*: a blind posted short (all in for less) lowers neither
            # the call nor the raises: the price is the full blind
            asked = max(st.blinds)
            if asked > current:
                # ... but nobody is asked for chips no other player could match: the
                # price stops at the second-deepest reach (heads-up against a big blind
                # all in for 5 at 5/10, the small blind has already matched it)
                reach = sorted(
                    (bets[s] + self.stacks[s] for s in range(n) if not self.folded[s]),
                    reverse=True,
                )
                current = max(current, min(asked, reach[1] if len(reach) > 1 else current))
        self._current = current
        self._faced = [-1] * n
        self._acted_seq = [0] * n
        self._full_seq = 0
        self._aggressor = -1
        self._round_acted = False
        self._bring_in_seat = -1
        self._alt_inc = 0
        if g.structure is _FIXED_LIMIT:
            self._inc = st.big_bet if street.big_bet else st.small_bet
            if street.open_pair_big_bet and self._open_pair_showing():
                self._alt_inc = st.big_bet
        else:
            self._inc = 0
        min_bet = self._min_bet
        if self._current:
            self._full_level = self._current
            self._raise_count = 1
            self._last_inc = max(min_bet, self._current)
        else:
            self._full_level = 0
            self._raise_count = 0
            self._last_inc = min_bet
        opening = street.opening
        if opening is _BLINDS:
            opener = self._blind_opener
        elif opening is _POSITION:
            opener = 0
        elif opening in _STUD_OPENINGS:
            ups = {s: self._last_up(s) for s in range(n) if not self.folded[s]}
            known = {s: c for s, c in ups.items() if c >= 0} or {min(ups): 0}
            opener = bring_in_seat(opening, known, self.options.bring_in_ties)
            # *default*: when the low card is all in on the ante, the next seat clockwise
            # that can bet brings in (as PokerKit and online rooms do)
            for k in range(n):
                t = (opener + k) % n
                if not self.folded[t] and self.stacks[t] > 0:
                    opener = t
                    break
            if st.bring_in:
                self._bring_in_seat = opener
        else:
            ups_all = self.up_cards
            opener = stud_opener(
                opening, {s: [c for c in cards if c >= 0] for s, cards in ups_all.items()}
            )
        first = opener if self._needs_action(opener) else self._next_actor(opener)
        if first < 0:
            self.actor = None
            self._end_betting()
        else:
            self.actor = first
            self.phase = _BETTING

    def _last_up(self, seat: int) -> int:
        for c, u in zip(reversed(self.hole[seat]), reversed(self.hole_up[seat]), strict=True):
            if u:
                return c
        return UNKNOWN

    def _open_pair_showing(self) -> bool:
        for ups in self.up_cards.values():
            ranks = [c >> 2 for c in ups if c >= 0]
            if len(ranks) != len(set(ranks)):
                return True
        return False

    def _needs_action(self, s: int) -> bool:
        if self.folded[s] or self.stacks[s] == 0:
            return False
        if self.bets[s] < self._current:
            return True
        if self._faced[s] >= 0:
            return False
        return self._n_able > 1

    def _next_actor(self, seat: int) -> int:
        folded, stacks, bets, faced = self.folded, self.stacks, self.bets, self._faced
        current = self._current
        others = self._n_able > 1
        for s in self._clockwise[seat]:
            if folded[s] or stacks[s] == 0:
                continue
            if bets[s] < current:
                return s
            if faced[s] < 0 and others:
                return s
        return -1

    def _after_action(self, seat: int) -> None:
        self._round_acted = True
        if self._n_in == 1:
            self.actor = None
            self._end_betting()
            return
        nxt = self._next_actor(seat)
        if nxt < 0:
            self.actor = None
            self._end_betting()
        else:
            self.actor = nxt

    def _end_betting(self) -> None:
        bets = self.bets
        top = max(bets)
        if top:
            top_seat = bets.index(top)
            second = sorted(bets)[-2]  # the largest bet but one (``top`` again if tied)
            if top > second:  # R-POT-1: an uncalled bet goes back
                excess = top - second
                if self.stacks[top_seat] == 0 and not self.folded[top_seat]:
                    self._n_able += 1
                self.stacks[top_seat] += excess
                self.total[top_seat] -= excess
            self.bets = [0] * self.n
        if self._round_acted:
            self._show_from = self._aggressor if self._aggressor >= 0 else self._checked_shower()
        self._current = 0
        if self._n_in == 1:
            self._award()
        elif self._street_index + 1 < len(self.game.streets):
            self._start_street(self._street_index + 1)
        else:
            self._start_showdown()

    def _verify_actor(self, seat: int | None) -> int:
        actor = self.actor
        if self.phase is _BETTING and actor is not None and (seat is None or seat == actor):
            return actor
        if self.phase is not _BETTING or self.actor is None:
            raise PhaseError(
                "R-BET-7", f"no betting round is open (the hand is in {self.phase.value})"
            )
        if seat is not None and seat != self.actor:
            raise OutOfTurnError(
                "R-BET-10", f"{who(seat)} acted out of turn; {who(self.actor)} is to act"
            )
        return self.actor

    def _raise_bounds(self, s: int) -> tuple[int, int]:
        """(min_to, max_to) of a bet/raise/completion by ``s``; raises if none is allowed."""
        stacks, bets = self.stacks, self.bets
        stack_to = bets[s] + stacks[s]
        current = self._current
        fixed = self.game.structure is _FIXED_LIMIT
        if stack_to <= current:
            raise IllegalActionError(
                "R-BET-1", f"{who(s)} has {stacks[s]} left, not enough to raise; call or fold"
            )
        folded = self.folded
        for o in self._clockwise[s]:  # _reach(s) > current: someone can cover more
            if o != s and not folded[o] and bets[o] + stacks[o] > current:
                break
        else:
            raise IllegalActionError(
                "R-BET-7",
                "every other player is all in or cannot cover the bet; only a call or fold"
                " is possible",
            )
        faced = self._faced[s]
        if faced >= 0 and self._acted_seq[s] == self._full_seq:  # no full raise since
            if fixed:
                if (current - faced) * 2 < self._inc:
                    raise IllegalActionError(
                        "R-BET-5",
                        f"the all-in of less than half a bet does not reopen the betting for"
                        f" {who(s)}, who has acted; call {current - bets[s]} or fold",
                    )
            elif current - faced < self._last_inc:
                raise IllegalActionError(
                    "R-BET-6",
                    f"the all-in of less than a full raise does not reopen the betting for"
                    f" {who(s)}, who has acted; call {current - bets[s]} or fold",
                )
        if fixed:
            if self._raise_count >= 1 + self.options.max_raises and (
                self.options.cap_heads_up or self._n_in > 2
            ):
                raise IllegalActionError(
                    "R-BET-4",
                    f"the betting is capped (a bet and {self.options.max_raises} raises);"
                    " call or fold",
                )
            lo = self._full_level + self._inc
            hi = self._full_level + self._alt_inc if self._alt_inc else lo
            if stack_to < lo:
                return stack_to, stack_to
            return lo, min(hi, stack_to)

        lo = current + self._last_inc if current else self._last_inc
        if self.game.structure is _POT_LIMIT:
            hi = current + self.pot_total + (current - bets[s])
            hi = min(hi, stack_to)
        else:
            hi = stack_to
        if stack_to < lo:
            lo = stack_to
        return lo, max(lo, hi)

    def _reach(self, s: int) -> int:
        """The most any other live seat can have in this round (its bet plus stack)."""
        bets, stacks, folded = self.bets, self.stacks, self.folded
        return max([bets[o] + stacks[o] for o in range(self.n) if o != s and not folded[o]])

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (raises :class:`PhaseError` outside betting)."""
        s = self._verify_actor(None)
        bets, current = self.bets, self._current
        call = min(current - bets[s], self.stacks[s]) if current > bets[s] else 0
        bring_pending = s == self._bring_in_seat and not self._round_acted
        try:
            lo, hi = self._raise_bounds(s)
            can_raise = True
        except RulesError:
            lo = hi = 0
            can_raise = False
        completion = (
            self.game.family is _STUD
            and self._street_index == 0
            and self._raise_count == 0
            and self.stakes.bring_in > 0
        )
        return LegalActions(
            seat=s,
            can_fold=not bring_pending,
            can_check=call == 0 and not bring_pending,
            call_amount=call,
            can_call=call > 0,
            can_bring_in=bring_pending,
            bring_in_amount=min(self.stakes.bring_in, self.stacks[s]) if bring_pending else 0,
            can_bet_or_raise=can_raise,
            min_to=lo,
            max_to=hi,
            bet_is_raise=current > 0 and not completion,
            is_completion=completion,
        )

    # fold ------------------------------------------------------------------

    def verify_fold(self, seat: int | None = None) -> int:
        """Raise unless the seat to act (or ``seat``) may fold now; return the seat."""
        s = self._verify_actor(seat)
        if s == self._bring_in_seat and not self._round_acted:
            raise IllegalActionError("R-STUD-1", f"{who(s)} must bring in or complete")
        return s

    def can_fold(self, seat: int | None = None) -> bool:
        """True when :meth:`fold` would be accepted."""
        try:
            self.verify_fold(seat)
        except RulesError:
            return False
        return True

    def fold(self, seat: int | None = None) -> Action:
        """Fold (R-BET-1). If one player is left, they win without showing (R-BET-7)."""
        s = self.verify_fold(seat)
        self.folded[s] = True
        self._n_in -= 1
        if self.stacks[s] > 0:
            self._n_able -= 1
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        action: Action = _record(
            Action, (s, _FOLD, 0, self.bets[s], False, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    # check / call ----------------------------------------------------------

    def verify_check(self, seat: int | None = None) -> int:
        """Raise unless the seat may check (nothing to call, R-BET-1)."""
        s = self._verify_actor(seat)
        if s == self._bring_in_seat and not self._round_acted:
            raise IllegalActionError("R-STUD-1", f"{who(s)} must bring in or complete")
        if self.bets[s] < self._current:
            raise IllegalActionError(
                "R-BET-1",
                f"{who(s)} cannot check facing a bet of {self._current}; call, raise or fold",
            )
        return s

    def can_check(self, seat: int | None = None) -> bool:
        """True when :meth:`check` would be accepted."""
        try:
            self.verify_check(seat)
        except RulesError:
            return False
        return True

    def check(self, seat: int | None = None) -> Action:
        """Check."""
        return self._do_check(self.verify_check(seat))

    def _do_check(self, s: int) -> Action:
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        action: Action = _record(
            Action, (s, _CHECK, 0, self.bets[s], False, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    def verify_call(self, seat: int | None = None) -> int:
        """Raise unless the seat faces a bet it may call."""
        s = self._verify_actor(seat)
        if s == self._bring_in_seat and not self._round_acted:
            raise IllegalActionError("R-STUD-1", f"{who(s)} must bring in or complete")
        if self.bets[s] >= self._current:
            raise IllegalActionError("R-BET-1", f"{who(s)} has nothing to call; check or bet")
        return s

    def can_call(self, seat: int | None = None) -> bool:
        """True when :meth:`call` would be accepted."""
        try:
            self.verify_call(seat)
        except RulesError:
            return False
        return True

    def call(self, seat: int | None = None) -> Action:
        """Call the current bet (all in when the stack is short)."""
        s = self.verify_call(seat)
        return self._do_call(s)

    def _do_call(self, s: int) -> Action:
        bets = self.bets
        current = self._current
        amount = current - bets[s]
        stack = self.stacks[s]
        all_in = amount >= stack
        if all_in:
            amount = stack
            self._n_able -= 1
        self.stacks[s] = stack - amount
        to = bets[s] = bets[s] + amount
        self.total[s] += amount
        self._faced[s] = current
        self._acted_seq[s] = self._full_seq
        action: Action = _record(Action, (s, _CALL, amount, to, all_in, self._street_index, True))
        self.log.append(action)
        self._after_action(s)
        return action

    def check_or_call(self, seat: int | None = None) -> Action:
        """Check when nothing is to call, else call (PHH ``cc``)."""
        s = self._verify_actor(seat)
        if s == self._bring_in_seat and not self._round_acted:
            raise IllegalActionError("R-STUD-1", f"{who(s)} must bring in or complete")
        if self.bets[s] < self._current:
            return self._do_call(s)
        return self._do_check(s)

    # bring-in --------------------------------------------------------------

    def verify_bring_in(self, seat: int | None = None) -> int:
        """Raise unless the seat to act is the stud bring-in and has not posted it."""
        s = self._verify_actor(seat)
        if s != self._bring_in_seat or self._round_acted:
            raise IllegalActionError("R-STUD-1", f"{who(s)} is not the bring-in")
        return s

    def can_bring_in(self, seat: int | None = None) -> bool:
        """True when :meth:`bring_in` would be accepted."""
        try:
            self.verify_bring_in(seat)
        except RulesError:
            return False
        return True

    def bring_in(self, seat: int | None = None) -> Action:
        """Post the bring-in (R-STUD-1); it counts as the seat's bet and closes its action."""
        s = self.verify_bring_in(seat)
        amount = min(self.stakes.bring_in, self.stacks[s])
        self.stacks[s] -= amount
        self.bets[s] += amount
        self.total[s] += amount
        all_in = self.stacks[s] == 0
        if all_in:
            self._n_able -= 1
        self._current = max(self._current, self.bets[s])
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        self._aggressor = s
        action: Action = _record(
            Action, (s, _BRING_IN, amount, self.bets[s], all_in, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    # bet / raise / complete ------------------------------------------------

    def verify_bet_or_raise_to(self, to: int, seat: int | None = None) -> int:
        """Raise unless the seat may bet, raise or complete to a total of ``to`` this round."""
        s = self._verify_actor(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if to > stack_to:
            raise BetSizeError(
                "R-BUY-5", f"{who(s)} has only {stack_to} in play; it cannot bet to {to}"
            )
        lo, hi = self._raise_bounds(s)
        if to == stack_to and to < lo:
            return s
        structure = self.game.structure
        if structure is _FIXED_LIMIT:
            reach = self._reach(s)
            if to != lo and to != hi and not (self._current < to == reach < lo):
                sizes = f"{lo}" if lo == hi else f"{lo} or {hi}"
                raise BetSizeError(
                    "R-BET-9",
                    f"fixed limit: the bet or raise must be to {sizes}; {to} is not"
                    f" ({self.street.name}, R-BET-3)",
                )
            return s
        if to < lo:
            if self._current:
                raise BetSizeError(
                    "R-BET-2",
                    f"a raise must be at least {self._last_inc} (the last raise), to {lo};"
                    f" {to - self._current} is too small",
                )
            raise BetSizeError(
                "R-BET-2", f"a bet must be at least {lo} (one big blind); {to} is too small"
            )
        if to > hi:
            raise BetSizeError(
                "R-BET-3", f"pot limit: the most {who(s)} may make it is {hi}; {to} is too much"
            )
        return s

    def can_bet_or_raise_to(self, to: int, seat: int | None = None) -> bool:
        """True when :meth:`bet_or_raise_to` would be accepted."""
        try:
            self.verify_bet_or_raise_to(to, seat)
        except RulesError:
            return False
        return True

    def bet_or_raise_to(self, to: int, seat: int | None = None) -> Action:
        """Bet, raise or (stud) complete so that the seat's bet this round totals ``to``
        (PHH ``cbr``)."""
        s = self.verify_bet_or_raise_to(to, seat)
        return self._do_raise(s, to)

    def _do_raise(self, s: int, to: int) -> Action:
        bets = self.bets
        current = self._current
        added = to - bets[s]
        self.stacks[s] -= added
        bets[s] = to
        self.total[s] += added
        all_in = self.stacks[s] == 0
        if all_in:
            self._n_able -= 1
        if self.game.structure is _FIXED_LIMIT:
            bring_in_open = s == self._bring_in_seat and not self._round_acted
            if self._full_level == 0 and self._raise_count == 0 and (current or bring_in_open):
                kind = _COMPLETION
            else:
                kind = _RAISE if current else _BET
            target = self._full_level + self._inc
            full = to >= target or (to - self._full_level) * 2 >= self._inc
            if full:
                if self._alt_inc and to - self._full_level == self._alt_inc:
                    self._inc = self._alt_inc
                    self._alt_inc = 0
                self._raise_count += 1
                self._full_level = to
        else:
            kind = _RAISE if current else _BET
            increment = to - current
            full = increment >= self._last_inc
            if full:
                self._last_inc = increment
        if full:
            self._full_seq += 1
        self._current = to
        self._faced[s] = to
        self._acted_seq[s] = self._full_seq
        self._aggressor = s
        action: Action = _record(Action, (s, kind, added, to, all_in, self._street_index, full))
        self.log.append(action)
        self._after_action(s)
        return action

    def verify_all_in(self, seat: int | None = None) -> int:
        """Raise unless the seat may put in all its chips now (as a call or a raise)."""
        s = self._verify_actor(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if stack_to <= self._current:
            self.verify_call(s)
        else:
            self.verify_bet_or_raise_to(stack_to, s)
        return s

    def can_all_in(self, seat: int | None = None) -> bool:
        """True when :meth:`all_in` would be accepted."""
        try:
            self.verify_all_in(seat)
        except RulesError:
            return False
        return True

    def all_in(self, seat: int | None = None) -> Action:
        """Put in every chip: a call when that does not exceed the bet, else a raise."""
        s = self.verify_all_in(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if stack_to <= self._current:
            return self._do_call(s)
        return self._do_raise(s, stack_to)

    # --------------------------------------------------------------- dealing

    def _check_card(self, card: int, seat: int = -1, burn: bool = False) -> None:
        if card == UNKNOWN:
            return
        if not 0 <= card < 52 or card >> 2 < self.game.lowest_rank:
            raise DealingError("R-CARD-1", f"card {card} is not in the {self.game.name} deck")
        if self._seen[card] and not self._recyclable(card, seat, burn):
            from feltwire.cards import card_code

            raise DuplicateCardError(
                "R-CARD-1", f"{card_code(card)} is already in play; every card exists once"
            )

    def _recyclable(self, card: int, seat: int, burn: bool = False) -> bool:
        """True when the stub is empty and ``card`` lies in the discards and burns that the
        reshuffle for ``seat`` will turn into the new stub (R-DEAL-5); ``burn``: ``card``
        is the burn itself (no burn comes before it)."""
        pending_burn = 0 if self._burned or burn else 1
        if self.phase is not _DRAWING or self.cards_out + pending_burn < self.game.deck_size:
            return False
        street = self._street_index
        return any(c == card and not (o == seat and st == street) for c, o, st in self._pile)

    def _take_from_stub(self, seat: int) -> None:
        if self.cards_out >= self.game.deck_size:
            if self.game.family is _DRAW:
                self._reshuffle(seat)
            if self.cards_out >= self.game.deck_size:
                raise DealingError("R-DEAL-4", "the deck is empty; no card can be dealt")
        self.cards_out += 1

    def _reshuffle(self, seat: int) -> None:
        keep = [(c, o, st) for (c, o, st) in self._pile if o == seat and st == self._street_index]
        back = [c for (c, o, st) in self._pile if not (o == seat and st == self._street_index)]
        for c in back:
            if c >= 0:
                self._seen[c] = 0
        self.cards_out -= len(back)
        self._pile = keep
        self.log.append(Reshuffle(len(back), self._street_index))

    def _served_next(self) -> int:
        """The seat whose replacement cards come next in a draw (the first owed one in
        dealing order), -1 when none is owed or the hand is not drawing. When the stub runs
        out at the burn, that player is "the current player" of R-DEAL-5: his discards stay
        out of the new stub."""
        if self.phase is _DRAWING:
            for s in range(self.n):
                if self._owed[s] > 0:
                    return s
        return -1

    def _implicit_burn(self, rule: str, seat: int = -1) -> None:
        """Burn an unread card before ``seat``'s card (-1: a board card)."""
        if self._burned or self._street_index == 0:
            return
        if self.options.burn_required:
            raise DealingError(rule, "burn a card before dealing this street")
        if self.cards_out < self._deck_size:
            self.cards_out += 1
        else:
            self._take_from_stub(seat)
        street = self._street_index
        self.burns.append(UNKNOWN)
        self._pile.append((UNKNOWN, -1, street))
        self._burned = True
        self.log.append(_record(Deal, (_BURN, UNKNOWN, None, False, street, True)))

    def verify_burn(self, card: int = UNKNOWN) -> None:
        """Raise unless a burn is due now: once per street after the first, before its
        first card (R-DEAL-2, R-DEAL-3, R-DEAL-5)."""
        rule = self._burn_rule_id
        if self.phase not in (_DEALING, _DRAWING) or self._street_index == 0:
            raise PhaseError(rule, "no burn is due now")
        if self._burned:
            raise DealingError(rule, "this street's card is already burnt")
        if not self._nothing_dealt():
            raise DealingError(rule, "the burn comes before the street's first card")
        self._check_card(card, self._served_next(), burn=True)

    def in_play(self, card: int) -> bool:
        """True when ``card`` was dealt, burned or turned in this hand (it cannot be dealt
        again: R-CARD-1), wherever it lies now."""
        return 0 <= card < 52 and bool(self._seen[card])

    def can_burn(self, card: int = UNKNOWN) -> bool:
        """True when :meth:`burn` would be accepted."""
        try:
            self.verify_burn(card)
        except RulesError:
            return False
        return True

    def burn(self, card: int = UNKNOWN) -> Deal:
        """Burn a card (``UNKNOWN`` when its face was not read)."""
        street = self._street_index
        phase = self.phase
        if not (  # the common case inline; anything else goes through verify_burn
            (phase is _DEALING or phase is _DRAWING)
            and street
            and not self._burned
            and not self._board_dealt
            and -1 <= card < 52
            and (card < 0 or (not self._seen[card] and card >> 2 >= self._lowest_rank))
            and not any(self._dealt)
        ):
            self.verify_burn(card)
        if self.cards_out < self._deck_size:
            self.cards_out += 1
        else:
            self._take_from_stub(self._served_next())
        if card >= 0:
            self._seen[card] = 1
        self.burns.append(card)
        self._pile.append((card, -1, street))
        self._burned = True
        deal: Deal = _record(Deal, (_BURN, card, None, False, street, False))
        self.log.append(deal)
        return deal

    def verify_deal_hole(self, seat: int, card: int, up: bool | None = None) -> bool:
        """Raise unless ``card`` may go to ``seat`` now; return whether it is face up."""
        self._check_card(card, seat)
        if not 0 <= seat < self.n:
            raise MisdealError("R-DEAL-6", f"there is no {who(seat)}")
        if self.phase is _DRAWING:
            if self._owed[seat] <= 0:
                raise MisdealError("R-DEAL-5", f"{who(seat)} is owed no replacement card")
            expect_up = False
        elif self.phase is _DEALING and self._hole_up:
            if self.folded[seat]:
                raise MisdealError("R-DEAL-6", f"{who(seat)} is not in the hand")
            k = self._dealt[seat]
            if k >= len(self._hole_up):
                raise MisdealError(
                    "R-DEAL-6", f"{who(seat)} already has its cards for the {self.street.name}"
                )
            if self.options.strict_deal_order:
                nxt = next(e.seat for e in self.expected() if e.kind is _HOLE)
                if nxt != seat:
                    raise MisdealError(
                        "R-DEAL-6", f"the card went to {who(seat)}; {who(nxt)} was next"
                    )
            expect_up = self._hole_up[k]
        elif self.phase is _BETTING:
            raise PhaseError("R-DEAL-7", "a card was dealt before the betting round ended")
        else:
            raise PhaseError("R-DEAL-6", f"no hole card is due (the hand is in {self.phase.value})")
        if up is not None and up != expect_up:
            face = "up" if expect_up else "down"
            raise DealingError("R-DEAL-3", f"this card to {who(seat)} must be dealt face {face}")
        self._verify_stub()
        return expect_up

    def _verify_stub(self) -> None:
        need = 1 if self._burned or not self._street_index else 2
        if self.game.family is not _DRAW and self.cards_out + need > self.game.deck_size:
            raise DealingError("R-DEAL-4", "the deck is empty; no card can be dealt")

    def can_deal_hole(self, seat: int, card: int, up: bool | None = None) -> bool:
        """True when :meth:`deal_hole` would be accepted."""
        try:
            self.verify_deal_hole(seat, card, up)
        except RulesError:
            return False
        return True

    def deal_hole(self, seat: int, card: int, up: bool | None = None) -> Deal:
        """Deal ``card`` (or ``UNKNOWN``) to ``seat``; ``up`` is checked when given."""
        hole_up = self._hole_up
        dealt = self._dealt
        if (  # the common case, checked and done inline; anything else: below
            self.phase is _DEALING
            and up is None
            and self._fast_deal
            and 0 <= seat < self.n
            and dealt[seat] < len(hole_up)
            and not self.folded[seat]
            and -1 <= card < 52
            and (card < 0 or (not self._seen[card] and card >> 2 >= self._lowest_rank))
            and self.cards_out + 2 <= self._deck_size
        ):
            k = dealt[seat]
            expect_up = hole_up[k]
            street = self._street_index
            if street and not self._burned:
                self._implicit_burn(self._burn_rule_id)
            self.cards_out += 1  # the stub has a card: checked above
            if card >= 0:
                self._seen[card] = 1
            self.hole[seat].append(card)
            self.hole_up[seat].append(expect_up)
            deal: Deal = _record(Deal, (_HOLE, card, seat, expect_up, street, False))
            self.log.append(deal)
            dealt[seat] = k + 1
            self._deals_left -= 1
            if not self._deals_left:
                self._start_betting()
            return deal
        expect_up = self.verify_deal_hole(seat, card, up)
        street = self._street_index
        if street and not self._burned:
            self._implicit_burn(self._burn_rule_id, seat)
        if self.cards_out < self._deck_size:
            self.cards_out += 1
        else:
            self._take_from_stub(seat)
        if card >= 0:
            self._seen[card] = 1
        self.hole[seat].append(card)
        self.hole_up[seat].append(expect_up)
        deal = _record(Deal, (_HOLE, card, seat, expect_up, street, False))
        self.log.append(deal)
        dealt[seat] += 1
        if self.phase is _DRAWING:
            self._owed[seat] -= 1
            if self._draw_done():
                self._start_betting()
        else:
            self._deals_left -= 1
            if not self._deals_left:
                self._start_betting()
        return deal

    def verify_learn_hole(self, seat: int, card: int) -> int:
        """Raise unless ``card`` may be recorded as one of ``seat``'s hole cards that were
        dealt ``UNKNOWN``; return the slot in :attr:`hole` it fills (the first unknown)."""
        if not 0 <= seat < self.n:
            raise DealingError("R-DEAL-6", f"there is no {who(seat)}")
        if card == UNKNOWN:
            raise DealingError("R-CARD-1", "name the card that was read")
        self._check_card(card)  # R-CARD-1: in this deck, and not already in play
        hole = self.hole[seat]
        if UNKNOWN not in hole:
            raise DealingError(
                "R-CARD-1", f"{who(seat)} holds no card dealt unread; {_codes([card])} is not its"
            )
        return hole.index(UNKNOWN)

    def can_learn_hole(self, seat: int, card: int) -> bool:
        """True when :meth:`learn_hole` would be accepted."""
        try:
            self.verify_learn_hole(seat, card)
        except RulesError:
            return False
        return True

    def learn_hole(self, seat: int, card: int) -> None:
        """Record ``card`` as one of ``seat``'s hole cards dealt ``UNKNOWN`` and read later
        (e.g. by the seat's antenna): it fills the seat's first unknown slot and is in
        play from now on, so dealing it again is a :class:`DuplicateCardError` (R-CARD-1).

        Not an input of :attr:`log`: the deal stays recorded as dealt, unread; a replay
        learns the card again when the hand is shown (:meth:`show` names its cards).
        """
        slot = self.verify_learn_hole(seat, card)
        self.hole[seat][slot] = card
        self._seen[card] = 1

    def verify_deal_board(self, card: int) -> None:
        """Raise unless a board card is due now."""
        self._check_card(card)
        if self.phase is _BETTING:
            raise PhaseError("R-DEAL-7", "a board card was dealt before the betting round ended")
        if self.phase is not _DEALING or self._board_dealt >= self._board_n:
            raise PhaseError("R-DEAL-7", "no board card is due now (premature card)")
        k = len(self._hole_up)
        if k and any(self._dealt[s] < k for s in range(self.n) if not self.folded[s]):
            raise DealingError("R-DEAL-1", "the hole cards come first")
        self._verify_stub()

    def can_deal_board(self, card: int) -> bool:
        """True when :meth:`deal_board` would be accepted."""
        try:
            self.verify_deal_board(card)
        except RulesError:
            return False
        return True

    def deal_board(self, card: int) -> Deal:
        """Deal a board card (or the stud community card, R-DEAL-4)."""
        if not (  # the common case inline; anything else goes through verify_deal_board
            self.phase is _DEALING
            and not self._hole_up
            and self._board_dealt < self._board_n
            and -1 <= card < 52
            and (card < 0 or (not self._seen[card] and card >> 2 >= self._lowest_rank))
            and self.cards_out + 2 <= self._deck_size
        ):
            self.verify_deal_board(card)
        street = self._street_index
        if street and not self._burned:
            self._implicit_burn(self._burn_rule_id)
        if self.cards_out < self._deck_size:
            self.cards_out += 1
        else:
            self._take_from_stub(-1)
        if card >= 0:
            self._seen[card] = 1
        self.board.append(card)
        self._board_dealt += 1
        deal: Deal = _record(Deal, (_BOARD, card, None, True, street, False))
        self.log.append(deal)
        self._deals_left -= 1
        if not self._deals_left:
            self._start_betting()
        return deal

    # ----------------------------------------------------------------- draw

    def _match_cards(self, seat: int, cards: Sequence[int], rule: str) -> list[int]:
        """Slot indices in ``seat``'s hand holding ``cards`` (unknown slots are learnt)."""
        hole = self.hole[seat]
        used: list[int] = []
        learn: list[tuple[int, int]] = []
        for c in cards:
            idx = -1
            if c >= 0:
                for i, h in enumerate(hole):
                    if h == c and i not in used:
                        idx = i
                        break
            if idx < 0:
                for i, h in enumerate(hole):
                    if h == UNKNOWN and i not in used:
                        idx = i
                        break
                if idx < 0:
                    raise ShowdownError(rule, f"{who(seat)} does not hold {_codes([c])}")
                if c >= 0:
                    if self._seen[c]:
                        raise DuplicateCardError(
                            "R-CARD-1", f"{_codes([c])} is already in play; every card exists once"
                        )
                    learn.append((idx, c))
            used.append(idx)
        for idx, c in learn:
            hole[idx] = c
            self._seen[c] = 1
        return used

    def verify_discard(self, seat: int, cards: Sequence[int]) -> None:
        """Raise unless ``seat`` may discard ``cards`` now (its turn to draw, R-DEAL-5)."""
        if self.phase is not _DRAWING:
            raise PhaseError("R-DEAL-5", f"no draw is open (the hand is in {self.phase.value})")
        drawer = self.drawer
        if seat != drawer:
            raise OutOfTurnError(
                "R-DEAL-5", f"{who(seat)} drew out of turn; {who(drawer)} draws next"
            )
        if len(cards) > len(self.hole[seat]):
            raise IllegalActionError("R-DEAL-5", f"{who(seat)} cannot discard {len(cards)} cards")
        if len(set(c for c in cards if c >= 0)) != len([c for c in cards if c >= 0]):
            raise DuplicateCardError("R-CARD-1", "the same card was discarded twice")

    def can_discard(self, seat: int, cards: Sequence[int]) -> bool:
        """True when :meth:`discard` would be accepted (the cards are checked by it)."""
        try:
            self.verify_discard(seat, cards)
        except RulesError:
            return False
        return True

    def discard(self, seat: int, cards: Sequence[int] = ()) -> Discard:
        """Discard ``cards`` (empty: stand pat); the seat is then owed as many new cards."""
        self.verify_discard(seat, cards)
        slots = self._match_cards(seat, cards, "R-DEAL-5")
        hole, ups = self.hole[seat], self.hole_up[seat]
        thrown = tuple(hole[i] for i in slots)
        for i in sorted(slots, reverse=True):
            del hole[i]
            del ups[i]
        for c in thrown:
            self._pile.append((c, seat, self._street_index))
        self._drawn[seat] = True
        self._owed[seat] = len(thrown)
        record = Discard(seat, thrown, self._street_index)
        self.log.append(record)
        if self._draw_done():
            self._start_betting()
        return record

    # -------------------------------------------------------------- showdown

    def _betting_closed(self) -> bool:
        """True when no more betting can happen in this hand (all in, or one with chips)."""
        if self.phase is _BETTING:
            return False
        return self._n_able <= 1 and self._n_in >= 2

    def _all_in_showdown(self) -> bool:
        """True when a player in the showdown is all in: then every hand is turned face up
        at once and the order of R-SHOW-1 does not apply (TDA practice, *default*)."""
        return (
            any(self.stacks[s] == 0 and not self.folded[s] for s in range(self.n))
            and self._n_able <= 1
        )

    def _checked_shower(self) -> int:
        """R-SHOW-1: everyone checked the last round. The first player still in the hand
        clockwise from the button shows first, all in or not (seat 0 on: folded seats are
        skipped by :meth:`_show_order`); in stud the best hand showing among all still in
        (the highest; in razz the lowest, as the round's opener is chosen)."""
        if self.game.family is not _STUD:
            return 0
        ups = {s: [c for c in cards if c >= 0] for s, cards in self.up_cards.items()}
        return stud_opener(self.game.streets[-1].opening, ups)

    def _show_order(self) -> list[int]:
        start = self._show_from if self._show_from >= 0 else 0
        folded = self.folded
        return [s for s in self._clockwise[start - 1] if not folded[s]]  # from start on

    def _start_showdown(self) -> None:
        self.phase = _SHOWDOWN
        self.actor = None
        self._show_queue = self._show_order()
        self._tabled = self._all_in_showdown()
        self._check_showdown_done()

    def _check_showdown_done(self) -> None:
        shown, mucked = self._shown, self._mucked
        live = [s for s in self._show_queue if not mucked[s]]
        if len(live) <= 1 or all(shown[s] for s in live):
            self._award()

    def _verify_show_or_muck(self, seat: int, showing: bool) -> None:
        rule = "R-SHOW-2"
        if not 0 <= seat < self.n or self.folded[seat]:
            raise ShowdownError(rule, f"{who(seat)} is not in the showdown")
        if self.phase is _COMPLETE:
            if not self._shown[seat] and not self._mucked[seat]:
                return  # R-SHOW-3: the uncalled winner (or the last hand, unshown) may show
            if showing and self._shown[seat]:
                return  # showing again, e.g. with the last card after an all-in
            raise ShowdownError("R-SHOW-3", "the hand is over")
        if self._mucked[seat]:
            raise ShowdownError(rule, f"{who(seat)} has mucked")
        if self._shown[seat]:
            if showing:
                return  # showing again (e.g. with the last card after an all-in) is fine
            raise ShowdownError(rule, f"{who(seat)} has shown; a shown hand stays shown")
        if self.phase is _SHOWDOWN:
            # R-SHOW-4: a hand may be tabled at any moment; the order says who is asked
            # first and who may throw a hand away unseen
            if not showing and self.options.showdown_order and not self._tabled:
                nxt = self.shower
                if nxt != seat:
                    raise OutOfTurnError(
                        "R-SHOW-1", f"{who(nxt)} shows or mucks first, then the others clockwise"
                    )
            if not showing:
                for pot in self.pots():
                    if seat in pot.eligible and not any(
                        o != seat and not self._mucked[o] for o in pot.eligible
                    ):
                        raise ShowdownError(
                            rule, f"{who(seat)} is the last claimant of a pot and cannot muck"
                        )
            return
        if self.phase is _BETTING or self._n_able > 1 or self._n_in < 2:  # _betting_closed()
            raise PhaseError("R-SHOW-1", "hands are shown after the last betting round")

    def verify_show(self, seat: int, cards: Sequence[int] | None = None) -> None:
        """Raise unless ``seat`` may show now (with ``cards`` if named)."""
        self._verify_show_or_muck(seat, True)
        hole = self.hole[seat]
        if cards is None:
            if UNKNOWN in hole:
                raise ShowdownError("R-SHOW-2", f"{who(seat)}'s cards are not known; name them")
        elif self.phase is _COMPLETE and len(cards) <= len(hole):
            if all(c == UNKNOWN for c in cards):  # R-SHOW-3: after the hand, part may show
                raise ShowdownError("R-SHOW-3", "name the cards shown, or muck the hand")
        elif UNKNOWN in cards:
            raise ShowdownError("R-SHOW-2", f"{who(seat)} must show every card face up")
        elif len(cards) != len(hole):
            raise ShowdownError(
                "R-SHOW-2", f"{who(seat)} holds {len(hole)} cards, not {len(cards)}"
            )

    def can_show(self, seat: int, cards: Sequence[int] | None = None) -> bool:
        """True when :meth:`show` would be accepted."""
        try:
            self.verify_show(seat, cards)
        except RulesError:
            return False
        return True

    def show(self, seat: int, cards: Sequence[int] | None = None) -> ShowOrMuck:
        """Show the seat's hand (naming its cards when they were dealt unknown).

        A seat may show even a hand that does not beat the hands shown (cards speak);
        R-SHOW-2 only lets it muck instead. At showdown any hand may be shown at any
        moment, out of turn too (R-SHOW-4). Before the showdown a hand may be shown once
        no more betting is possible (all in). After the hand, the uncalled winner (or a
        last hand that won unshown) may show all of it or only some cards (R-SHOW-3):
        ``cards`` then names the cards shown (fewer than the hand, or with ``UNKNOWN``
        for a card kept face down) and the record holds only those."""
        self.verify_show(seat, cards)
        shown: tuple[int, ...] | None = None
        if cards is not None:
            named = [c for c in cards if c != UNKNOWN]
            self._match_cards(seat, named, "R-SHOW-2")
            if len(named) < len(self.hole[seat]):
                shown = tuple(named)  # R-SHOW-3: part of the hand
        self._shown[seat] = True
        if shown is None:
            shown = tuple(self.hole[seat])
        record: ShowOrMuck = _record(ShowOrMuck, (seat, True, shown))
        self.log.append(record)
        if self.phase is _SHOWDOWN:
            self._check_showdown_done()
        return record

    def verify_muck(self, seat: int) -> None:
        """Raise unless ``seat`` may muck now."""
        self._verify_show_or_muck(seat, False)

    def can_muck(self, seat: int) -> bool:
        """True when :meth:`muck` would be accepted."""
        try:
            self.verify_muck(seat)
        except RulesError:
            return False
        return True

    def muck(self, seat: int) -> ShowOrMuck:
        """Muck the hand unshown: it has no claim on any pot (R-SHOW-2)."""
        self.verify_muck(seat)
        self._mucked[seat] = True
        record: ShowOrMuck = _record(ShowOrMuck, (seat, False, ()))
        self.log.append(record)
        if self.phase is _SHOWDOWN:
            self._check_showdown_done()
        return record

    # ------------------------------------------------------------------ award

    def _odd_chip_order(self, seats: Iterable[int]) -> list[int]:
        if self.game.family is _STUD:
            ups = self.up_cards
            return sorted(seats, key=lambda s: (-odd_chip_card_key(ups.get(s, [])), s))
        return sorted(seats)  # R-POT-3: clockwise from the left of the button

    def _pot_parts(self) -> list[tuple[int, tuple[int, ...]]]:
        """:meth:`pots` as ``(amount, eligible)`` pairs."""
        # antes by level count like bets (an all-in player wins back only what the others
        # matched); dead blinds never do: they are not part of the poster's bet, raise no
        # level and never come back (R-BLIND-4, R-POT-1)
        dead = self.dead if not self.options.antes_by_level else self._dead_blinds
        if dead is None:
            return pot_parts(self.total, [0] * self.n, self.folded)
        live = [t - d for t, d in zip(self.total, dead, strict=True)]
        return pot_parts(live, dead, self.folded)

    def _award(self) -> None:
        self.actor = None
        if self._n_in == 1:  # everyone else folded: one pot, uncontested (R-BET-7)
            winner = self.folded.index(False)
            amount = sum(self.total)
            self.stacks[winner] += amount
            share = make_share(winner, amount, _WHOLE, False)
            self.awards = (make_award(0, amount, (winner,), (share,), True),)
            self.phase = _COMPLETE
            return
        evaluation = self.game.evaluation
        hi_lo = evaluation.hi_lo
        high_only = evaluation is _HIGH_HAND
        unit = self.stakes.chip_unit
        mucked, hole, board = self._mucked, self.hole, self.board
        values: dict[int, tuple[int, int | None]] = {}
        highs_of: dict[int, int] = {}  # high values alone, for the games without a low half
        awards: list[PotAward] = []
        won = [0] * self.n
        for index, (pot_amount, eligible) in enumerate(self._pot_parts()):
            claimants = [s for s in eligible if not mucked[s]] or list(eligible)
            if len(claimants) == 1:
                s = claimants[0]
                won[s] += pot_amount
                share = make_share(s, pot_amount, _WHOLE, False)
                awards.append(make_award(index, pot_amount, eligible, (share,), True))
                continue
            if not hi_lo:
                # the common case, checked first: one best hand takes the whole pot
                for s in claimants:
                    if s not in highs_of:
                        if high_only:
                            highs_of[s] = evaluate_high(hole[s] + board)
                        else:
                            highs_of[s] = hand_value(evaluation, hole[s], board)[0]
                first = claimants[0]
                best = highs_of[first]
                highs = [first]
                for s in claimants[1:]:
                    v = highs_of[s]
                    if v > best:
                        best = v
                        highs = [s]
                    elif v == best:
                        highs.append(s)
                if len(highs) == 1:
                    s = highs[0]
                    won[s] += pot_amount
                    share = make_share(s, pot_amount, _WHOLE, False)
                    awards.append(make_award(index, pot_amount, eligible, (share,), False))
                    continue
                lows: list[int] = []
            else:
                for s in claimants:
                    if s not in values:
                        values[s] = hand_value(evaluation, hole[s], board)
                best = max(values[s][0] for s in claimants)
                highs = [s for s in claimants if values[s][0] == best]
                lows = []
                low_values = [values[s][1] for s in claimants if values[s][1] is not None]
                if low_values:
                    best_low = max(v for v in low_values if v is not None)
                    lows = [s for s in claimants if values[s][1] == best_low]
            shares: list[Share] = []
            parts: tuple[tuple[Half, list[int], int], ...]
            if lows:
                low_amount = (pot_amount // unit // 2) * unit  # R-POT-5: odd chip to high
                parts = ((_HIGH, highs, pot_amount - low_amount), (_LOW, lows, low_amount))
            else:
                parts = ((_WHOLE, highs, pot_amount),)
            for half, winners, amount in parts:
                order, amounts = split(amount, self._odd_chip_order(winners), unit)
                base = min(amounts)
                for s, a in zip(order, amounts, strict=True):
                    won[s] += a
                    shares.append(make_share(s, a, half, a > base))
            awards.append(
                make_award(index, pot_amount, eligible, tuple(shares), False, hi_lo and not lows)
            )
        stacks = self.stacks
        for s in range(self.n):
            stacks[s] += won[s]
        self.awards = tuple(awards)
        self.phase = _COMPLETE


def _codes(cards: Iterable[int]) -> str:
    from feltwire.cards import card_code

    return "".join("??" if c < 0 else card_code(c) for c in cards)


def replay(
    game: Game,
    stakes: Stakes,
    starting_stacks: Sequence[int],
    records: Iterable[Record],
    options: Options | None = None,
) -> Hand:
    """Build a new hand and apply recorded inputs (e.g. another hand's :attr:`Hand.log`).

    Implicit burns and reshuffles are skipped: the engine makes them again itself.
    """
    hand = Hand(game, stakes, starting_stacks, options)
    for r in records:
        if isinstance(r, Deal):
            if r.kind is _HOLE:
                assert r.seat is not None
                hand.deal_hole(r.seat, r.card)
            elif r.kind is _BOARD:
                hand.deal_board(r.card)
            elif not r.implicit:
                hand.burn(r.card)
        elif isinstance(r, Discard):
            hand.discard(r.seat, r.cards)
        elif isinstance(r, Action):
            kind = r.kind
            if kind is _FOLD:
                hand.fold(r.seat)
            elif kind is _CHECK:
                hand.check(r.seat)
            elif kind is _CALL:
                hand.call(r.seat)
            elif kind is _BRING_IN:
                hand.bring_in(r.seat)
            else:
                hand.bet_or_raise_to(r.to, r.seat)
        elif isinstance(r, ShowOrMuck):
            if r.shown:
                hand.show(r.seat, r.cards)
            else:
                hand.muck(r.seat)
    return hand
