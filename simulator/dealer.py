"""The simulated dealer: deals hands by the rules onto a table and makes chosen mistakes.

:class:`SimulatedDealer` deals one hand by the rules from a seeded shuffle — one card at
a time clockwise from the first seat left of the button, burns before each later street,
replacements in a draw, up cards on the up antennas when the table has them — and plays
random legal actions entered at the console, folding through the muck. Given a
:class:`Mistake` it makes exactly one dealing error of that kind (and then corrects it, as
a dealer who was told would), so a test — or the demo's summary — can check that exactly
the matching alert (:data:`EXPECTED`) comes.

The dealer works on a :class:`TableSurface`: lay cards on an antenna, lift them, slide
them to another antenna, enter a console input, let time pass. Two surfaces exist:

* :class:`MonitorTable` — a behavioural fake of the antennas that drives a
  :class:`~hub.rules.procedure.DealingMonitor` directly, with an explicit clock (the
  rules tests and their short table scripts);
* :class:`AntennaSurface` — the demo's: it moves tags on the simulated node's antennas
  (:class:`table_node.simulated.SimulatedTable`), so every read travels node → MQTT →
  hub, waits until the hub has taken each motion, advances the hub's clock
  (:class:`MotionClock`) and enters console inputs through a :class:`ConsoleApi` — the
  demo's is the hub's HTTP console API, as a dealer's console page uses it — or, for an
  input the API has no route for, at the hub's :class:`~hub.app.table_console.TableConsole`
  in-process.

Everything random comes from the :class:`random.Random` it is given: a seed replays a run.

>>> import random
>>> from hub.rules.setup import TableProfile
>>> out = play_hand(3, "NT", TableProfile(), Mistake.MISSING_BURN)
>>> out.injected, [a.code.value for a in out.table.alerts]
(True, ['missing_burn'])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from feltwire.cards import CARD_INDEXES, CardIndex
from hub.rules.alerts import AlertCode
from hub.rules.errors import TableSeat
from hub.rules.games import Family, Game, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    DealingMonitor,
    MuckHand,
    ShowHand,
)
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.showdown import hand_value
from simulator.monitor_table import MonitorTable, TableSurface
from simulator.players import TablePlayers


class Mistake(enum.Enum):
    """One dealing error the simulated dealer can make (NONE: deal correctly)."""

    NONE = "none"
    OUT_OF_ORDER = "out of order"
    WRONG_COUNT = "wrong count"
    EMPTY_SEAT = "card to empty seat"
    MISSING_BURN = "missing burn"
    EXTRA_BURN = "extra burn"
    PREMATURE = "premature card"
    DUPLICATE = "duplicate card"
    UNKNOWN_TAG = "unknown tag"
    CARDS_LEFT = "cards leaving without fold"
    FOLD_OUT_OF_TURN = "fold out of turn"
    ACTION_OUT_OF_TURN = "action out of turn"
    FOLDED_RETURNED = "folded card returning"
    STUD_WRONG_PLACE = "stud card wrong place"
    DRAW_MISMATCH = "draw mismatch"
    WINNING_MUCKED = "winning hand mucked"


EXPECTED: dict[Mistake, AlertCode] = {
    Mistake.OUT_OF_ORDER: AlertCode.DEAL_OUT_OF_ORDER,
    Mistake.WRONG_COUNT: AlertCode.WRONG_CARD_COUNT,
    Mistake.EMPTY_SEAT: AlertCode.CARD_TO_EMPTY_SEAT,
    Mistake.MISSING_BURN: AlertCode.MISSING_BURN,
    Mistake.EXTRA_BURN: AlertCode.EXTRA_BURN,
    Mistake.PREMATURE: AlertCode.PREMATURE_BOARD_CARD,
    Mistake.DUPLICATE: AlertCode.DUPLICATE_CARD,
    Mistake.UNKNOWN_TAG: AlertCode.UNKNOWN_TAG,
    Mistake.CARDS_LEFT: AlertCode.CARDS_LEFT_SEAT,
    Mistake.FOLD_OUT_OF_TURN: AlertCode.FOLD_OUT_OF_TURN,
    Mistake.ACTION_OUT_OF_TURN: AlertCode.ACTION_OUT_OF_TURN,
    Mistake.FOLDED_RETURNED: AlertCode.FOLDED_CARD_RETURNED,
    Mistake.STUD_WRONG_PLACE: AlertCode.STUD_CARD_WRONG_PLACE,
    Mistake.DRAW_MISMATCH: AlertCode.DRAW_MISMATCH,
    Mistake.WINNING_MUCKED: AlertCode.WINNING_HAND_MUCKED,
}
"""The alert each mistake must raise."""


def applicable(mistake: Mistake, g: Game, profile: TableProfile) -> bool:
    """True when ``mistake`` can happen in ``g`` on a table with ``profile``."""
    if mistake in (Mistake.MISSING_BURN, Mistake.EXTRA_BURN):
        return profile.burn
    if mistake in (Mistake.FOLDED_RETURNED, Mistake.FOLD_OUT_OF_TURN):
        return profile.muck
    if mistake is Mistake.WINNING_MUCKED:
        return profile.muck
    if mistake is Mistake.STUD_WRONG_PLACE:
        return g.family is Family.STUD and profile.up_cards
    if mistake is Mistake.DRAW_MISMATCH:
        return g.family is Family.DRAW
    return True


def random_setup(rng: random.Random, variant: str, profile: TableProfile) -> HandSetup:
    """A hand of ``variant`` at random seats (at least one seat left empty)."""
    g = game(variant)
    top = {Family.BOARD: 6, Family.STUD: 6, Family.DRAW: 5}[g.family]
    n = rng.randint(2, min(top, profile.seats - 1))
    seats = sorted(rng.sample(range(1, profile.seats + 1), n))
    k = rng.randrange(n)
    seats = seats[k + 1 :] + seats[: k + 1]  # hand order: left of the button first
    stacks = tuple(rng.choice((60, 200, 400, 1000)) for _ in range(n))
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, 1, 2, 5, 10)
    elif g.structure.value == "F":
        stakes = Stakes.blind_game(n, 5, 10)
    else:
        stakes = Stakes.blind_game(n, 5, 10)
    return HandSetup(1, g, tuple(TableSeat(t) for t in seats), seats[-1], stakes, stacks)


@dataclass(frozen=True, slots=True)
class Dealt:
    """What the dealer did in one hand: the mistake it was to make, and whether it made
    it (True for :attr:`Mistake.NONE`; False when the hand ended before the chance came)."""

    mistake: Mistake
    injected: bool


@dataclass
class Outcome:
    """What a simulated hand on a :class:`MonitorTable` did."""

    mistake: Mistake
    injected: bool
    table: MonitorTable

    @property
    def codes(self) -> list[AlertCode]:
        """Every alert code raised in the hand."""
        return self.table.codes


class SimulatedDealer:
    """Deals and plays one hand on a :class:`TableSurface` (see the module docstring)."""

    def __init__(
        self,
        rng: random.Random,
        setup: HandSetup,
        profile: TableProfile,
        table: TableSurface,
        mistake: Mistake = Mistake.NONE,
        players: TablePlayers | None = None,
    ) -> None:
        self.rng = rng
        self.players = players
        """The players' choices (the demo's believable mix); None: random legal actions."""
        self.setup = setup
        self.profile = profile
        self.mistake = mistake
        self.table = table
        deck = list(CARD_INDEXES)
        rng.shuffle(deck)
        self.stub = deck
        self.out: set[int] = set()
        """Hand seats whose cards are in the muck (folded, in turn or not)."""
        self.injected = False
        self.board_count = 0
        self.empty = [s for s in range(1, profile.seats + 1) if s not in setup.seats]
        self._short: tuple[int, int] | None = None  # (hand seat, cards still owed)
        self._folded_cards: list[tuple[CardIndex, int]] = []  # (card, table seat) in the muck

    # ------------------------------------------------------------------ basics

    @property
    def hand(self) -> Hand:
        """The table's hand (players know whose turn it is)."""
        return self.table.hand

    def _seat(self, h: int) -> TableSeat:
        return self.setup.seats[h]

    def _live(self) -> list[int]:
        return [h for h in range(self.hand.n) if h not in self.out and not self.hand.folded[h]]

    def _draw_card(self) -> CardIndex:
        return self.stub.pop()

    def _back_to_stub(self, card: CardIndex) -> None:
        self.stub.append(card)

    def _cards_of(self, h: int) -> list[CardIndex]:
        t = self._seat(h)
        return sorted(self.table.on.get(f"seat{t}", set()) | self.table.on.get(f"up{t}", set()))

    def _inject(self, mistake: Mistake) -> bool:
        if self.mistake is mistake and not self.injected:
            self.injected = True
            return True
        return False

    # ------------------------------------------------------------------ the hand

    def play(self) -> Dealt:
        """Deal and play the hand to its end; return what the dealer did."""
        g = self.setup.game
        if self._inject(Mistake.UNKNOWN_TAG):
            self.table.unknown_tag(f"seat{self.setup.seats[0]}")
        for index, street in enumerate(g.streets):
            if self.hand.phase is Phase.COMPLETE:
                break
            if street.draw:
                self._draw(index)
            elif street.hole_up or street.board:
                if index > 0:
                    self._burn()
                self._deal_hole(index, street.hole_up)
                for _ in range(street.board):
                    self._deal_board()
            self._betting()
        self._showdown()
        return Dealt(self.mistake, self.injected or self.mistake is Mistake.NONE)

    def collect(self) -> None:
        """After the hand: sweep every card off the table."""
        if any(self.table.on.values()):
            self.table.clear()

    def _burn(self) -> None:
        if not self.profile.burn:
            self._draw_card()  # burnt onto a pile no antenna reads
            return
        if self._inject(Mistake.MISSING_BURN):
            return
        self.table.put("burn", self._draw_card())
        if self._inject(Mistake.EXTRA_BURN):
            self.table.put("burn", self._draw_card())

    def _deal_hole(self, index: int, hole_up: tuple[bool, ...]) -> None:
        order = [(r, h) for r in range(len(hole_up)) for h in self._live()]
        if not order:
            return
        if index == 0 and len(self._live()) >= 2 and self._inject(Mistake.OUT_OF_ORDER):
            pairs = [i for i in range(len(order) - 1) if order[i][0] == order[i + 1][0]]
            i = self.rng.choice(pairs)
            order[i], order[i + 1] = order[i + 1], order[i]
        dup_at = self.rng.randrange(1, len(order)) if index == 0 else -1
        empty_at = self.rng.randrange(len(order)) if index == 0 else -1
        wrong_place = self.mistake is Mistake.STUD_WRONG_PLACE and not self.injected
        for k, (r, h) in enumerate(order):
            t = self._seat(h)
            up = hole_up[r] and self.profile.up_cards and self.setup.game.family is Family.STUD
            reader = f"up{t}" if up else f"seat{t}"
            if k == empty_at and self.empty and self._inject(Mistake.EMPTY_SEAT):
                card = self._draw_card()
                spot = f"seat{self.rng.choice(self.empty)}"
                self.table.put(spot, card)
                self.table.take(spot, card)
                self._back_to_stub(card)
            if k == dup_at and self._inject(Mistake.DUPLICATE):
                on_table = sorted(c for r, cs in self.table.on.items() if r != reader for c in cs)
                copy = self.rng.choice(on_table)
                self.table.put(reader, copy)
                self.table.take(reader, copy)
            card = self._draw_card()
            if up and wrong_place and self._inject(Mistake.STUD_WRONG_PLACE):
                self.table.put(f"seat{t}", card)
                self.table.move([card], reader)
                continue
            self.table.put(reader, card)
        if index == 0 and self._inject(Mistake.WRONG_COUNT):
            h = self.rng.choice(self._live())
            card = self._draw_card()
            self.table.put(f"seat{self._seat(h)}", card)
            self.table.take(f"seat{self._seat(h)}", card)
            self._back_to_stub(card)

    def _board_reader(self) -> str:
        readers = self.profile.board_readers
        if len(readers) == 1:
            return readers[0]
        return readers[min(self.board_count, len(readers) - 1)]

    def _deal_board(self) -> None:
        self.table.put(self._board_reader(), self._draw_card())
        self.board_count += 1

    # ------------------------------------------------------------------ the draw

    def _draw(self, index: int) -> None:
        burnt = False
        for h in list(self._live()):
            t = self._seat(h)
            mine = sorted(self.table.on.get(f"seat{t}", set()))
            k = self.rng.randint(0, min(3, len(mine)))
            if k == 0:
                continue
            thrown = self.rng.sample(mine, k)
            self.table.move(thrown, "muck")
            give = k
            if k >= 1 and self._short is None and self._inject(Mistake.DRAW_MISMATCH):
                give = k - 1
                self._short = (h, 1)
            for _ in range(give):
                if not burnt:
                    self._burn()
                    burnt = True
                self.table.put(f"seat{t}", self._draw_card())
                self._fix_short(h)
        if self._short is not None:
            # the dealer moves on to the betting; the console refuses, the alert comes
            first = next((h for h in self._live() if self.hand.stacks[h] > 0), self._live()[0])
            self.table.console(ConsoleAction(self._seat(first), Act.CHECK, 0.0))
            if not burnt:
                self._burn()
            self._fix_short(-1)

    def _fix_short(self, served: int) -> None:
        if self._short is None or self._short[0] == served:
            return
        h, _ = self._short
        self._short = None
        self.table.put(f"seat{self._seat(h)}", self._draw_card())

    # ------------------------------------------------------------------ betting

    def _betting(self) -> None:
        first = True
        while self.hand.phase is Phase.BETTING:
            hand = self.hand
            actor = hand.actor
            assert actor is not None
            if self._maybe_mistake_in_betting(first):
                first = False
                continue
            first = False
            if self.players is not None:
                self._decide(actor)
                continue
            la = hand.legal_actions()
            roll = self.rng.random()
            t = self._seat(actor)
            if la.can_bring_in:
                if la.can_bet_or_raise and roll < 0.3:
                    self.table.console(ConsoleAction(t, Act.COMPLETE, 0.0, la.min_to))
                else:
                    self.table.console(ConsoleAction(t, Act.BRING_IN, 0.0))
            elif la.can_fold and la.can_call and roll < 0.12:
                self._fold(actor)
            elif la.can_bet_or_raise and roll > 0.8:
                to = la.min_to if self.rng.random() < 0.7 else la.max_to
                self.table.console(ConsoleAction(t, Act.RAISE, 0.0, to))
            elif la.can_call:
                self.table.console(ConsoleAction(t, Act.CALL, 0.0))
            else:
                self.table.console(ConsoleAction(t, Act.CHECK, 0.0))

    def _decide(self, h: int) -> None:
        """The player of hand seat ``h`` acts as :attr:`players` decide (a fold goes to
        the muck)."""
        assert self.players is not None
        board = [c for r in self.profile.board_readers for c in self.table.on.get(r, set())]
        decision = self.players.decide(self.hand, self._cards_of(h), board)
        if decision.act is Act.FOLD:
            self._fold(h)
        else:
            self.table.console(ConsoleAction(self._seat(h), decision.act, 0.0, decision.to))

    def _fold(self, h: int) -> None:
        t = self._seat(h)
        if not self.profile.muck:
            self.table.console(ConsoleAction(t, Act.FOLD, 0.0))
            return
        cards = self._cards_of(h)
        self.out.add(h)
        self._folded_cards += [(card, t) for card in cards]
        if cards:
            self.table.move(cards, "muck")
        else:
            self.table.console(ConsoleAction(t, Act.FOLD, 0.0))

    def _maybe_mistake_in_betting(self, first: bool) -> bool:
        hand = self.hand
        actor = hand.actor
        assert actor is not None
        others = [h for h in self._live() if h != actor and hand.stacks[h] > 0]
        if others and self._inject(Mistake.ACTION_OUT_OF_TURN):
            h = self.rng.choice(others)
            self.table.console(ConsoleAction(self._seat(h), Act.CALL, 0.0))
            return True
        if others and self._inject(Mistake.FOLD_OUT_OF_TURN):
            h = self.rng.choice(others)
            cards = self._cards_of(h)
            self.out.add(h)
            self.table.move(cards, "muck")
            return True
        if others and self._inject(Mistake.CARDS_LEFT):
            h = self.rng.choice(others)
            t = self._seat(h)
            cards = sorted(self.table.on.get(f"seat{t}", set()))
            self.table.take(f"seat{t}", *cards)
            self.table.tick()
            self.table.put(f"seat{t}", *cards)
            return True
        if self._folded_cards and self._inject(Mistake.FOLDED_RETURNED):
            card, folded_at = self.rng.choice(self._folded_cards)
            self.table.move([card], f"seat{folded_at}")
            self.table.move([card], "muck")
            return True
        g = self.setup.game
        later = g.streets[hand.street_index + 1 :]
        if (
            not first
            and self.mistake is Mistake.PREMATURE
            and any(st.board or st.hole_up or st.draw for st in later)
            and self._inject(Mistake.PREMATURE)
        ):
            card = self._draw_card()
            if g.family is Family.BOARD:
                spot = self._board_reader()
            else:
                spot = f"seat{self._seat(self._live()[0])}"
            self.table.put(spot, card)
            self.table.take(spot, card)
            self._back_to_stub(card)
            return True
        return False

    # ------------------------------------------------------------------ showdown

    def _value(self, h: int) -> tuple[int, int | None]:
        cards = self._cards_of(h)
        board = sorted(c for r in self.profile.board_readers for c in self.table.on.get(r, set()))
        return hand_value(self.setup.game.evaluation, cards, board)

    def _beaten_everywhere(self, h: int, against: Sequence[int]) -> bool:
        mine = self._value(h)
        for pot in self.hand.pots():
            if h not in pot.eligible:
                continue
            rivals = [o for o in against if o in pot.eligible and o != h]
            high = any(self._value(o)[0] > mine[0] for o in rivals)
            low = mine[1] is None or any(
                (v := self._value(o)[1]) is not None and v > mine[1] for o in rivals
            )
            if not (high and low):
                return False
        return True

    def _uncalled(self) -> None:
        """The winner of a pot nobody called shows now and then, and mostly mucks: the
        cards pushed to the muck close the hand (R-SHOW-3), as at a real table."""
        h = self.hand.uncalled_winner
        if h is None or self.hand.phase is not Phase.COMPLETE:
            return
        t = self._seat(h)
        if self.rng.random() < 0.15:
            self.table.console(ShowHand(t, 0.0))
        elif self.profile.muck and self._cards_of(h):
            self.out.add(h)
            self.table.move(self._cards_of(h), "muck")
        else:
            self.table.console(MuckHand(t, 0.0))

    def _showdown(self) -> None:
        if self.players is not None:
            self._uncalled()
        if self.hand.phase is Phase.SHOWDOWN and self.mistake is Mistake.WINNING_MUCKED:
            claimants = [h for h in self._live() if h not in self.hand.mucked]
            winners = [h for h in claimants if not self._beaten_everywhere(h, claimants)]
            if winners and self._inject(Mistake.WINNING_MUCKED):
                h = self.rng.choice(winners)
                places = {card: self.table.where(card)[0] for card in self._cards_of(h)}
                self.table.move(sorted(places), "muck")
                for card, reader in sorted(places.items()):
                    self.table.move([card], reader)
        guard = 0
        while self.hand.phase is Phase.SHOWDOWN and guard < 40:
            guard += 1
            shower = self.hand.shower
            if shower is None:
                break
            h = shower
            t = self._seat(h)
            shown = list(self.hand.shown)
            if shown and self._beaten_everywhere(h, shown):
                if self.profile.muck:
                    self.out.add(h)
                    self.table.move(self._cards_of(h), "muck")
                else:
                    self.table.console(MuckHand(t, 0.0))
            else:
                self.table.console(ShowHand(t, 0.0))


def play_hand(
    seed: int,
    variant: str,
    profile: TableProfile,
    mistake: Mistake = Mistake.NONE,
    debounce: float = 0.5,
) -> Outcome:
    """Deal one random hand of ``variant`` (seeded) with at most one ``mistake`` on a
    :class:`MonitorTable`."""
    rng = random.Random(seed)
    setup = random_setup(rng, variant, profile)
    table = MonitorTable(DealingMonitor(setup, profile=profile, debounce=debounce))
    dealt = SimulatedDealer(rng, setup, profile, table, mistake).play()
    return Outcome(dealt.mistake, dealt.injected, table)


def choose_mistake(rng: random.Random, rate: float, g: Game, profile: TableProfile) -> Mistake:
    """With probability ``rate`` one mistake that can happen in ``g`` on this table (each
    equally likely), else :attr:`Mistake.NONE`."""
    if rate <= 0 or rng.random() >= rate:
        return Mistake.NONE
    kinds = [m for m in Mistake if m is not Mistake.NONE and applicable(m, g, profile)]
    return rng.choice(kinds)
