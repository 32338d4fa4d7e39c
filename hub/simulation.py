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
  input the API has no route for, at the hub's :class:`~hub.table_service.TableService`
  in-process.

Everything random comes from the :class:`random.Random` it is given: a seed replays a run.

>>> import random
>>> from hub.rules.setup import TableProfile
>>> out = play_hand(3, "NT", TableProfile(), Mistake.MISSING_BURN)
>>> out.injected, [a.code.value for a in out.table.alerts]
(True, ['missing_burn'])
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import random
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from feltwire.cards import card_code, card_index
from feltwire.deck import Deck, simulated_deck
from hub.rules.alerts import Alert, AlertCode
from hub.rules.errors import TableSeat
from hub.rules.games import Family, Game, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    DealingMonitor,
    Input,
    Inventory,
    MuckHand,
    ShowHand,
    Step,
    Tick,
    UnknownTag,
)
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.showdown import hand_value
from hub.service import HubService
from hub.table_service import ConsoleInput, TableService
from table_node.node import Node
from table_node.simulated import SimulatedTable

MOTION = 1.0
"""Seconds between two motions of the dealer (longer than the debounce window)."""
SLIDE = 0.01
"""Seconds between the two reports of one card slid from an antenna to another."""


class TableSurface(Protocol):
    """What a dealer can do at a table: the motions of the hands, the console, time.

    ``on`` is what lies on each antenna (cards as indexes 0–51), as the dealer sees it;
    ``hand`` is the hand as the table's monitor keeps it (players know whose turn it is).
    """

    on: dict[str, set[int]]

    @property
    def now(self) -> float:
        """The table's clock (seconds)."""

    @property
    def hand(self) -> Hand:
        """The hand being played."""

    def put(self, reader: str, *cards: int) -> object:
        """Lay ``cards`` on ``reader`` (one motion)."""

    def take(self, reader: str, *cards: int) -> object:
        """Lift ``cards`` off ``reader`` (one motion)."""

    def move(self, cards: Sequence[int], dst: str) -> object:
        """Slide ``cards`` from wherever they lie to ``dst`` (one motion)."""

    def console(self, inp: Input) -> object:
        """Enter ``inp`` at the dealer console (its ``now`` is the table's clock)."""

    def tick(self) -> object:
        """Time passes with no read."""

    def unknown_tag(self, reader: str) -> object:
        """A tag that is not in the deck shows up on ``reader`` and goes away again."""

    def clear(self) -> object:
        """Sweep every card off the table (one motion)."""

    def where(self, card: int) -> list[str]:
        """The antennas ``card`` lies on."""


def _restamp(inp: Input, now: float) -> Input:
    return dataclasses.replace(inp, now=now)


def c(code: str) -> int:
    """``"As"`` → 51."""
    return card_index(code)


class MonitorTable:
    """The antennas of a table, driving a monitor: every motion is reported as full
    inventories, exactly as the readers would, with an explicit clock (a motion takes
    :data:`MOTION` seconds; the two reports of a card slid from one antenna to another
    come :data:`SLIDE` apart).

    >>> from hub.rules.games import Stakes, game
    >>> setup = HandSetup(1, game("NT"), (2, 5), 5, Stakes.blind_game(2, 5, 10), (500, 500))
    >>> tb = MonitorTable(DealingMonitor(setup))
    >>> _ = tb.put("seat9", c("As"))
    >>> tb.codes
    [<AlertCode.CARD_TO_EMPTY_SEAT: 'card_to_empty_seat'>]
    """

    def __init__(self, monitor: DealingMonitor, now: float = 0.0) -> None:
        self.monitor = monitor
        self.now = now
        self.on: dict[str, set[int]] = {}
        self.steps: list[Step] = []

    @property
    def hand(self) -> Hand:
        """The monitor's hand."""
        return self.monitor.hand

    # --- plumbing
    def send(self, inp: Input) -> Step:
        """Apply one input to the monitor and keep its step."""
        step = self.monitor.apply(inp)
        self.steps.append(step)
        return step

    def _report(self, reader: str) -> Step:
        step = self.send(Inventory(reader, frozenset(self.on.get(reader, set())), self.now))
        self.now += SLIDE
        return step

    def beat(self, seconds: float = MOTION) -> None:
        """Time passes between two motions."""
        self.now += seconds

    # --- motions (each returns the steps it caused)
    def put(self, reader: str, *cards: int) -> list[Step]:
        """Lay ``cards`` on ``reader`` (from the stub or a hand)."""
        self.beat()
        self.on.setdefault(reader, set()).update(cards)
        return [self._report(reader)]

    def take(self, reader: str, *cards: int) -> list[Step]:
        """Lift ``cards`` off ``reader`` (to the stub, or into a player's hand)."""
        self.beat()
        self.on.setdefault(reader, set()).difference_update(cards)
        return [self._report(reader)]

    def move(self, cards: Sequence[int], dst: str) -> list[Step]:
        """Slide ``cards`` from wherever they lie to ``dst``: each source reports, then
        ``dst``."""
        self.beat()
        out = []
        sources = sorted({r for r, cs in self.on.items() for c in cards if c in cs and r != dst})
        for r in sources:
            self.on[r].difference_update(cards)
            out.append(self._report(r))
        self.on.setdefault(dst, set()).update(cards)
        out.append(self._report(dst))
        return out

    def console(self, inp: Input) -> Step:
        """A console input (its ``now`` is replaced by the table clock)."""
        self.beat()
        return self.send(_restamp(inp, self.now))

    def tick(self) -> Step:
        """Time passes with no read."""
        self.beat()
        return self.send(Tick(self.now))

    def unknown_tag(self, reader: str) -> Step:
        """The ingest reports a tag on ``reader`` that is not in the deck."""
        self.beat()
        return self.send(UnknownTag(reader, self.now))

    def clear(self) -> list[Step]:
        """Sweep every card off the table: each antenna reports empty."""
        self.beat()
        out = []
        for reader in sorted(r for r, cs in self.on.items() if cs):
            self.on[reader].clear()
            out.append(self._report(reader))
        return out

    def where(self, card: int) -> list[str]:
        """The antennas ``card`` lies on."""
        return sorted(r for r, cs in self.on.items() if card in cs)

    @property
    def alerts(self) -> list[Alert]:
        """Every alert raised so far."""
        return [a for s in self.steps for a in s.alerts]

    @property
    def codes(self) -> list[AlertCode]:
        """The codes of every alert so far."""
        return [a.code for a in self.alerts]

    @property
    def refused(self) -> list[str]:
        """Every refusal so far."""
        return [s.refused for s in self.steps if s.refused is not None]


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
    ) -> None:
        self.rng = rng
        self.setup = setup
        self.profile = profile
        self.mistake = mistake
        self.table = table
        deck = list(range(52))
        rng.shuffle(deck)
        self.stub = deck
        self.out: set[int] = set()
        """Hand seats whose cards are in the muck (folded, in turn or not)."""
        self.injected = False
        self.board_count = 0
        self.empty = [s for s in range(1, profile.seats + 1) if s not in setup.seats]
        self._short: tuple[int, int] | None = None  # (hand seat, cards still owed)
        self._folded_cards: list[tuple[int, int]] = []  # (card, table seat) in the muck

    # ------------------------------------------------------------------ basics

    @property
    def hand(self) -> Hand:
        """The table's hand (players know whose turn it is)."""
        return self.table.hand

    def _seat(self, h: int) -> TableSeat:
        return self.setup.seats[h]

    def _live(self) -> list[int]:
        return [h for h in range(self.hand.n) if h not in self.out and not self.hand.folded[h]]

    def _draw_card(self) -> int:
        return self.stub.pop()

    def _back_to_stub(self, card: int) -> None:
        self.stub.append(card)

    def _cards_of(self, h: int) -> list[int]:
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

    def _showdown(self) -> None:
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


# ---------------------------------------------------------------- the demo's surface


class Stopped(Exception):
    """The demo was asked to stop in the middle of a hand."""


class MotionClock:
    """The hub's clock in the demo: it moves only when the dealer makes a motion.

    Each motion of the simulated dealer advances it by :data:`MOTION` seconds, so the
    monitor's debounce (seconds of ``now``) sees the same timing however fast the
    pipeline runs. Thread-safe to read.

    >>> clock = MotionClock(100.0)
    >>> clock.advance(); clock()
    101.0
    """

    def __init__(self, start: float) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float = MOTION) -> None:
        """Time passes: one motion."""
        self._now += seconds


class ConsoleApi(Protocol):
    """A way in to the hub's dealer console from outside the hub's process — the demo's is
    the console's HTTP API (:class:`hub.demo.HttpConsole`).

    :meth:`enter` returns once the hub has applied the input, refused or not (a refusal is
    the table's business, as at a real console: the hub raises its alert); it raises only
    when the API itself fails (a bad credential, a server error).
    """

    def takes(self, inp: ConsoleInput) -> bool:
        """True when the API has a route for ``inp``."""

    def enter(self, inp: ConsoleInput) -> object:
        """Enter ``inp`` at the console; what the hub answered."""


class AntennaSurface:
    """The demo's table surface: tags on simulated antennas, read by a node, sent over
    MQTT to the hub; console inputs go through ``api`` (the hub's console API) when it
    takes them, else to the hub's table service in-process.

    Each motion advances the hub's :class:`MotionClock`, moves the tags (cards as their
    deck's uids), sweeps the node once (it publishes what changed) and waits until the
    hub has handled every message published — so the next motion, or a console input,
    reaches the hub after it. ``pause`` is called after each motion (the paced demo
    sleeps there; it may raise :class:`Stopped`). ``entered`` counts the console inputs
    by the way they went in (``api``, ``in_process``).
    """

    BOGUS_UID = "04DEADBEEF0000"
    """A tag that is in no deck (the unknown-tag mistake)."""

    def __init__(
        self,
        *,
        antennas: SimulatedTable,
        node: Node,
        published: Callable[[], int],
        hub: HubService,
        rules: TableService,
        clock: MotionClock,
        loop: asyncio.AbstractEventLoop,
        deck: Deck | None = None,
        api: ConsoleApi | None = None,
        pause: Callable[[], None] = lambda: None,
        timeout: float = 30.0,
    ) -> None:
        self.antennas = antennas
        self.node = node
        self._published = published
        self.hub = hub
        self.rules = rules
        self.clock = clock
        self.loop = loop
        self.deck = deck or simulated_deck()
        self.api = api
        self.entered: Counter[str] = Counter()
        self.pause = pause
        self.timeout = timeout
        self.on: dict[str, set[int]] = {}
        self.motions = 0

    @property
    def now(self) -> float:
        """The hub's clock."""
        return self.clock()

    @property
    def hand(self) -> Hand:
        """The hand the hub's monitor keeps."""
        monitor = self.rules.monitor
        if monitor is None:
            raise RuntimeError("the hub has no hand running")
        return monitor.hand

    # --- plumbing
    def _sweep(self) -> None:
        self.node.poll_once()
        if not self.hub.wait_handled(self._published(), self.timeout):
            raise TimeoutError("the hub did not take the node's reads in time")
        self.motions += 1
        self.pause()

    def _in_loop(self, fn: Callable[[], Step | None]) -> Step | None:
        async def call() -> Step | None:
            return fn()

        fut: Future[Step | None] = asyncio.run_coroutine_threadsafe(call(), self.loop)
        return fut.result(self.timeout)

    def _uid(self, card: int) -> str:
        return self.deck.uid_for(card_code(card))

    # --- motions
    def put(self, reader: str, *cards: int) -> None:
        """Lay ``cards`` on ``reader``."""
        self.clock.advance()
        for card in cards:
            self.antennas.reader(reader).place(self._uid(card))
        self.on.setdefault(reader, set()).update(cards)
        self._sweep()

    def take(self, reader: str, *cards: int) -> None:
        """Lift ``cards`` off ``reader``."""
        self.clock.advance()
        for card in cards:
            self.antennas.reader(reader).lift(self._uid(card))
        self.on.setdefault(reader, set()).difference_update(cards)
        self._sweep()

    def move(self, cards: Sequence[int], dst: str) -> None:
        """Slide ``cards`` from wherever they lie to ``dst`` (one sweep reads both ends)."""
        self.clock.advance()
        for card in cards:
            for src in self.where(card):
                if src != dst:
                    self.antennas.move(self._uid(card), src, dst)
                    self.on[src].discard(card)
        self.on.setdefault(dst, set()).update(cards)
        self._sweep()

    def console(self, inp: Input) -> object:
        """Enter ``inp`` at the hub's console — through ``api`` when it has a route for
        it, else at the table service in-process — and return what the hub answered.
        The hub stamps it with its clock either way."""
        if not isinstance(inp, ConsoleInput):
            raise TypeError(f"{type(inp).__name__} is not a console input")
        entered: ConsoleInput = inp
        self.clock.advance()
        answer: object
        if self.api is not None and self.api.takes(entered):
            answer = self.api.enter(entered)
            self.entered["api"] += 1
        else:
            answer = self._in_loop(lambda: self.rules.console(entered))
            self.entered["in_process"] += 1
        self.pause()
        return answer

    def tick(self) -> Step | None:
        """Time passes with no read: the hub's table service ticks."""
        self.clock.advance()
        return self._in_loop(self.rules.tick)

    def unknown_tag(self, reader: str) -> None:
        """Lay a tag that is in no deck on ``reader``, then take it away."""
        self.clock.advance()
        self.antennas.reader(reader).place(self.BOGUS_UID)
        self._sweep()
        self.clock.advance()
        self.antennas.reader(reader).lift(self.BOGUS_UID)
        self._sweep()

    def clear(self) -> None:
        """Sweep every card off the table."""
        self.clock.advance()
        for reader in self.antennas.readers.values():
            reader.clear()
        for cards in self.on.values():
            cards.clear()
        self._sweep()

    def where(self, card: int) -> list[str]:
        """The antennas ``card`` lies on."""
        return sorted(r for r, cs in self.on.items() if card in cs)


def wait_event(event: threading.Event, seconds: float) -> None:
    """A pause for the paced demo: sleep, or raise :class:`Stopped` once ``event`` is set."""
    if event.wait(seconds):
        raise Stopped
