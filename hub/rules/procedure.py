"""The physical procedure of a hand, derived from antenna presence (issue #4).

A :class:`DealingMonitor` watches one hand at a live table. It is fed three kinds of
input, each a frozen value stamped with an explicit ``now`` (seconds; the hub's receive
time — nothing here reads a clock):

* presence — :class:`Inventory` ("the cards on antenna X are now {…}", already mapped
  from tags to cards), :class:`UnknownTag` and :class:`TagClash` (two tags that map to
  one card) from the hub's ingest, and :class:`Tick` when time passes without a read;
* actions entered at the dealer console — :class:`ConsoleAction` (fold, check, call,
  bet, raise, …, for a table seat), :class:`ShowHand` and :class:`MuckHand`;
* dealer commands — :class:`ManualCard` (a tag that will not read), :class:`DeclareMisdeal`
  and :class:`UndoAction`.

From presence it derives what happened — a card arriving on ``seatN`` is a hole card to
that seat (on ``upN`` a stud up card), on ``burn`` a burn, on the board a board card, a
live player's cards at the muck a fold (in a draw: discards; at showdown: a muck) — feeds
it to the :class:`~hub.rules.hand.Hand` and answers every input with a :class:`Step`:
the events, the :class:`~hub.rules.alerts.Alert` s for the dealer, light hints, and the
reason when a console input was refused.

Alerts name seats (table numbers 1–10), counts and rules, never a card; events that may
go to the public side (:attr:`Step.public_events`) never carry a hole card.

Tolerances: a seat whose cards are never read (a player who keeps them off the antenna)
is dealt unknown cards when the hand moves on, and the cards are learnt when they turn
up later; a tag lost and found within the debounce window is no move; a tag that will
not read can be entered by hand; a misdeal voids the hand; the last console action can
be undone (the hand is rebuilt from its log).

How order is judged (the reads give no timing per card, so this is a heuristic): the
monitor keeps the dealing sequence of the street (clockwise from the first seat left of
the button, one card at a time). A card to a seat later in the sequence marks the seats
passed over as *skipped* — their cards may just not have been read. If a skipped seat's
card then turns up before the hand moves on (the first action, or a burn when nobody can
bet), the deal was out of order; if it never turns up, the seat's cards are unread.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hub.rules.alerts import Alert, AlertCode, Severity
from hub.rules.antennas import (
    AntennaTracker,
    Arrival,
    Departure,
    Doubled,
    Move,
    Place,
    PlaceKind,
    place_of,
)
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.errors import (
    DuplicateCardError,
    HandSeat,
    RulesError,
    TableSeat,
    seat_name,
)
from hub.rules.games import Family
from hub.rules.hand import Hand, Phase, replay
from hub.rules.pots import PotAward
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.showdown import hand_value

__all__ = [
    "MANUAL_CARD_IN_PLAY",
    "Act",
    "ActionTaken",
    "ActionUndone",
    "BoardDealt",
    "BurnDealt",
    "ConsoleAction",
    "DealingMonitor",
    "DeclareMisdeal",
    "Discarded",
    "Event",
    "HandMucked",
    "HandShown",
    "HandVoided",
    "HoleCardDealt",
    "Input",
    "Inventory",
    "ManualCard",
    "MuckHand",
    "Payout",
    "PotAwarded",
    "SeatHints",
    "ShowHand",
    "Step",
    "TagClash",
    "Tick",
    "UndoAction",
    "UnknownTag",
]

# ---------------------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class Inventory:
    """Every card on antenna ``reader`` now (an empty set: the antenna is bare)."""

    reader: str
    cards: frozenset[int]
    now: float


@dataclass(frozen=True, slots=True)
class UnknownTag:
    """The ingest saw a tag on ``reader`` that is not in the registered deck."""

    reader: str
    now: float


@dataclass(frozen=True, slots=True)
class TagClash:
    """The ingest saw two tags on ``reader`` that map to one card."""

    reader: str
    card: int
    now: float


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed without a read (lets pending departures become certain)."""

    now: float


class Act(enum.Enum):
    """What the dealer enters at the console for a seat."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    BRING_IN = "bring-in"
    ALL_IN = "all-in"


@dataclass(frozen=True, slots=True)
class ConsoleAction:
    """A betting action for table seat ``seat``; ``to`` is the total of a bet, raise or
    completion this round."""

    seat: TableSeat
    act: Act
    now: float
    to: int = 0


@dataclass(frozen=True, slots=True)
class ShowHand:
    """The dealer read the hand of table seat ``seat`` (shown face up). ``cards``: the
    cards shown when a player who won uncontested shows only some (R-SHOW-3); empty for
    the whole hand."""

    seat: TableSeat
    now: float
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MuckHand:
    """The dealer confirms that table seat ``seat`` mucked its hand."""

    seat: TableSeat
    now: float


@dataclass(frozen=True, slots=True)
class ManualCard:
    """A card whose tag will not read lies on ``reader``; ``card`` None: its face is not
    known (a hole card the dealer must not look at, an unread burn)."""

    reader: str
    card: int | None
    now: float


@dataclass(frozen=True, slots=True)
class DeclareMisdeal:
    """The dealer declares a misdeal: the hand is void, every chip goes back."""

    now: float


@dataclass(frozen=True, slots=True)
class UndoAction:
    """Take back the last action entered at the console."""

    now: float


Input = (
    Inventory
    | UnknownTag
    | TagClash
    | Tick
    | ConsoleAction
    | ShowHand
    | MuckHand
    | ManualCard
    | DeclareMisdeal
    | UndoAction
)

# ---------------------------------------------------------------------------- events


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


class _EventBase:
    """Shared behaviour of events: ``public`` and ``as_dict``."""

    __slots__ = ()

    @property
    def public(self) -> bool:
        """True when the event may be shown to anyone (it carries no hole card)."""
        return True

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data, with its ``type``."""
        out: dict[str, Any] = {"type": type(self).__name__}
        out.update(_jsonable(self))
        return out


@dataclass(frozen=True, slots=True)
class HoleCardDealt(_EventBase):
    """A card to a seat (``card`` UNKNOWN when not read); public only when dealt face up."""

    seat: TableSeat
    card: int
    up: bool

    @property
    def public(self) -> bool:
        """Face-up stud cards are public, face-down cards are not."""
        return self.up


@dataclass(frozen=True, slots=True)
class BurnDealt(_EventBase):
    """A burn card (never public)."""

    card: int

    @property
    def public(self) -> bool:
        """Burn cards stay secret."""
        return False


@dataclass(frozen=True, slots=True)
class BoardDealt(_EventBase):
    """A board card (or the stud community card)."""

    card: int


@dataclass(frozen=True, slots=True)
class ActionTaken(_EventBase):
    """A betting action the hand accepted; ``source`` is ``console``, ``muck`` (cards to
    the muck in turn) or ``pending`` (an earlier fold out of turn taking effect)."""

    seat: TableSeat
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    source: str


@dataclass(frozen=True, slots=True)
class Discarded(_EventBase):
    """A seat's discards in a draw (how many; the cards are not public)."""

    seat: TableSeat
    count: int


@dataclass(frozen=True, slots=True)
class HandShown(_EventBase):
    """A hand shown at showdown (or by the uncalled winner): its cards are public now.
    ``whole`` False: the uncalled winner showed only ``cards`` and keeps the rest face
    down (R-SHOW-3)."""

    seat: TableSeat
    cards: tuple[int, ...]
    whole: bool = True


@dataclass(frozen=True, slots=True)
class HandMucked(_EventBase):
    """A hand mucked at showdown, unshown (no claim on any pot)."""

    seat: TableSeat


@dataclass(frozen=True, slots=True)
class Payout:
    """Chips one seat takes from one pot (``half``: whole, high or low)."""

    seat: TableSeat
    amount: int
    half: str
    odd_chip: bool


@dataclass(frozen=True, slots=True)
class PotAwarded(_EventBase):
    """How one pot is awarded, for the dealer to read out (``text``)."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    payouts: tuple[Payout, ...]
    uncontested: bool
    no_low: bool
    text: str


@dataclass(frozen=True, slots=True)
class HandVoided(_EventBase):
    """A misdeal: the hand is void; ``stacks`` are (seat, chips) as at its start."""

    stacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ActionUndone(_EventBase):
    """The last console action was taken back."""

    seat: TableSeat
    kind: ActionKind


Event = (
    HoleCardDealt
    | BurnDealt
    | BoardDealt
    | ActionTaken
    | Discarded
    | HandShown
    | HandMucked
    | PotAwarded
    | HandVoided
    | ActionUndone
)


@dataclass(frozen=True, slots=True)
class SeatHints:
    """What the seat lights should show (table seats): who acts (bets, draws or shows
    next), who is all in, who has folded, and which seats an alert of this step names."""

    acting: int | None
    all_in: tuple[int, ...]
    folded: tuple[int, ...]
    alerted: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """Everything one input caused."""

    events: tuple[Event, ...]
    alerts: tuple[Alert, ...]
    hints: SeatHints
    refused: str | None = None
    """Why a console input was not applied (None when it was, or for presence)."""

    @property
    def public_events(self) -> tuple[Event, ...]:
        """The events that may go to the public view and the dealer console."""
        return tuple(e for e in self.events if e.public)


# ---------------------------------------------------------------------- internal state


class _Role(enum.Enum):
    HOLE = "hole"
    FOLDED = "folded"
    DISCARD = "discard"
    BOARD = "board"
    BURN = "burn"
    EXTRA = "extra"
    """On the table but not part of the hand (an extra card, a premature card, a card on
    an empty seat): it may go back to the stub and come out again."""


_OPEN, _SKIPPED, _FILLED, _MISSING = "open", "skipped", "filled", "missing"


@dataclass(slots=True)
class _Slot:
    """One hole card of the street's dealing sequence."""

    seat: int
    up: bool
    status: str = _OPEN
    card: int = UNKNOWN


MANUAL_CARD_IN_PLAY = (
    "that card is already in play (R-CARD-1): check the card in your hand and enter it again"
)
"""The one answer to a card entered by hand whose code is already in play — the same
wherever the card lies (a seat, the burn, the muck, the board), so the console cannot be
asked where a hidden card is."""

_CARD_RE = re.compile(r"\b[2-9TJQKA][cdhs]\b")
"""Card codes, scrubbed from engine messages passed on as :attr:`Step.refused`."""

_DEAL_RULE = {Family.BOARD: "R-DEAL-1", Family.STUD: "R-DEAL-3", Family.DRAW: "R-DEAL-1"}
_BURN_RULE = {Family.BOARD: "R-DEAL-2", Family.STUD: "R-DEAL-3", Family.DRAW: "R-DEAL-5"}


@dataclass(slots=True)
class _Scratch:
    events: list[Event] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    refused: str | None = None
    batch: dict[int, int] = field(default_factory=dict)


class DealingMonitor:
    """Watches one hand at the table: presence and console inputs in, :class:`Step` out.

    Built from the table layer's :class:`~hub.rules.setup.HandSetup`, its hand (a new one
    by default), the table's :class:`~hub.rules.setup.TableProfile` and the debounce
    window in seconds. :meth:`apply` takes one input and returns what it caused.

    >>> from feltwire.cards import card_index as c
    >>> from hub.rules.games import Stakes, game
    >>> setup = HandSetup(1, game("NT"), seats=(2, 5, 7), button=7,
    ...                   stakes=Stakes.blind_game(3, 5, 10), starting_stacks=(500,) * 3)
    >>> m = DealingMonitor(setup, profile=TableProfile(seats=8))
    >>> deal = [("seat2", "As"), ("seat5", "Kd"), ("seat7", "7c"),
    ...         ("seat2", "Ah"), ("seat5", "Kc"), ("seat7", "2d")]
    >>> held: dict[str, set[int]] = {}
    >>> for t, (reader, code) in enumerate(deal):
    ...     held.setdefault(reader, set()).add(c(code))
    ...     step = m.apply(Inventory(reader, frozenset(held[reader]), now=float(t)))
    >>> step.hints.acting  # the button acts first three-handed
    7
    >>> m.apply(ConsoleAction(5, Act.CALL, now=7.0)).alerts[0].code.name
    'ACTION_OUT_OF_TURN'
    >>> step = m.apply(Inventory("seat7", frozenset(), now=8.0))   # the button folds:
    >>> step = m.apply(Inventory("muck", frozenset({c("7c"), c("2d")}), now=8.01))
    >>> [e.kind.value for e in step.events], step.alerts
    (['fold'], ())
    >>> step.hints.acting, step.hints.folded
    (2, (7,))
    """

    def __init__(
        self,
        setup: HandSetup,
        hand: Hand | None = None,
        profile: TableProfile | None = None,
        *,
        debounce: float = 0.5,
    ) -> None:
        self.setup = setup
        self.hand = hand if hand is not None else setup.new_hand()
        self.profile = profile if profile is not None else TableProfile()
        self.void = False
        """True once a misdeal was declared: the hand no longer changes."""
        self._tracker = AntennaTracker(debounce)
        n = self.hand.n
        self._role: dict[int, tuple[_Role, int]] = {}
        self._learned: list[list[int]] = [[] for _ in range(n)]
        self._plan: list[_Slot] = []
        self._plan_street = -1
        self._fed = 0
        self._street_seen = -1
        self._pending_fold: set[int] = set()
        self._muck_folds: set[tuple[int, int]] = set()
        self._pending_discards: dict[int, list[int]] = {}
        self._pending_muck: set[int] = set()
        self._held: set[int] = set()
        self._left: set[int] = set()
        self._early_burns: list[int] = []
        self._burn_alerted: set[int] = set()
        self._late_burn_taken: set[int] = set()
        self._order_alerted: set[int] = set()
        self._fold_alerted: set[int] = set()
        self._draw_alerted: set[tuple[int, int]] = set()
        self._awarded = False
        self._s = _Scratch()
        self._sync()

    # ------------------------------------------------------------------ the API

    def apply(self, inp: Input) -> Step:
        """Apply one input; return the events, alerts and hints it caused."""
        self._s = _Scratch()
        try:
            self._dispatch(inp)
        except RulesError as err:  # a state the checks above did not foresee: never crash
            self._s.refused = err.render(self.setup.name)
        if not self.void:
            self._sync()
        s = self._s
        refused = _CARD_RE.sub("a card", s.refused) if s.refused is not None else None
        return Step(tuple(s.events), tuple(s.alerts), self._hints(s.alerts), refused)

    def _dispatch(self, inp: Input) -> None:
        if isinstance(inp, Inventory):
            self._moves(self._tracker.inventory(inp.reader, inp.cards, inp.now))
        elif isinstance(inp, Tick):
            self._moves(self._tracker.expire(inp.now))
        elif isinstance(inp, UnknownTag):
            self._moves(self._tracker.expire(inp.now))
            self._unknown_tag(inp.reader)
        elif isinstance(inp, TagClash):
            self._moves(self._tracker.expire(inp.now))
            self._tag_clash(inp.reader)
        else:
            self._moves(self._tracker.expire(inp.now))
            if self.void:
                self._s.refused = "the hand is void (misdeal)"
            elif self.hand.phase is Phase.COMPLETE and not (
                isinstance(inp, ShowHand | MuckHand)
                or (isinstance(inp, ManualCard) and inp.card is not None)
            ):
                # after an uncontested pot (R-SHOW-3); a named card still gets the one
                # answer a card in play gets, wherever it lies
                self._s.refused = "the pot is awarded: the winner may only show or muck"
            elif isinstance(inp, ConsoleAction):
                self._console_action(inp)
            elif isinstance(inp, ShowHand):
                self._show(inp.seat, inp.cards)
            elif isinstance(inp, MuckHand):
                self._console_muck(inp.seat)
            elif isinstance(inp, ManualCard):
                self._manual(inp)
            elif isinstance(inp, DeclareMisdeal):
                self._misdeal()
            else:
                self._undo()

    def hints(self) -> SeatHints:
        """The light hints now (no alerted seats)."""
        return self._hints([])

    @property
    def winner_to_show(self) -> int | None:
        """R-SHOW-3: the table seat that won the pot uncontested and has not yet shown or
        mucked (it may show all, some cards, or muck), else None. The pot is awarded; the
        hand closes when it decides, when its cards reach the muck, or — a real table's
        default, a muck — when the table is cleared for the next hand."""
        if self.void:
            return None
        h = self.hand.uncalled_winner
        return None if h is None else self._t(h)

    # ------------------------------------------------------------------ helpers

    def _t(self, h: HandSeat | int) -> TableSeat:
        return self.setup.seats[h]

    def _name(self, h: HandSeat | int) -> str:
        """The hand's player ``h`` as the dealer says it (``seat 5``)."""
        return self.setup.name(HandSeat(h))

    def _alert(
        self,
        code: AlertCode,
        seat: int | None,
        rule: str,
        message: str,
        remedy: str,
        severity: Severity = Severity.WARNING,
    ) -> None:
        self._s.alerts.append(Alert(code, severity, seat, rule, message, remedy))

    def _deal_severity(self) -> Severity:
        started = any(isinstance(r, Action) for r in self.hand.log)
        if self.hand.street_index == 0 and not started:
            return Severity.MISDEAL
        return Severity.WARNING

    def _live(self, h: int) -> bool:
        return not self.hand.folded[h] and h not in self._pending_fold

    def _unread(self, h: int) -> int:
        return max(0, self.hand.hole[h].count(UNKNOWN) - len(self._learned[h]))

    def _known_hole(self, h: int) -> list[int] | None:
        learned = iter(self._learned[h])
        out = []
        for c in self.hand.hole[h]:
            if c == UNKNOWN:
                c = next(learned, UNKNOWN)
                if c == UNKNOWN:
                    return None
            out.append(c)
        return out

    def _cards_of(self, h: int) -> list[int]:
        return [c for c, (r, o) in self._role.items() if r is _Role.HOLE and o == h]

    def _home(self, h: int, reader: str | None) -> bool:
        if reader is None:
            return False
        p = place_of(reader)
        return p.kind in (PlaceKind.SEAT, PlaceKind.UP) and p.seat == self._t(h)

    def _turn(self) -> int | None:
        hand = self.hand
        if hand.phase is Phase.BETTING:
            return hand.actor
        if hand.phase is Phase.DRAWING:
            return hand.drawer
        if hand.phase is Phase.SHOWDOWN:
            return hand.shower
        if hand.phase is Phase.COMPLETE:
            return hand.uncalled_winner  # R-SHOW-3: asked to show or muck
        return None

    def _later_cards_to_seats(self) -> bool:
        streets = self.hand.game.streets[self.hand.street_index + 1 :]
        return any(st.hole_up or st.draw for st in streets)

    def _round_acted(self) -> bool:
        street = self.hand.street_index
        return any(isinstance(r, Action) and r.street == street for r in self.hand.log)

    def _placement_checks(self) -> bool:
        return self.profile.up_cards and self.hand.game.family is Family.STUD

    def _plan_active(self) -> bool:
        return any(s.status in (_OPEN, _SKIPPED) for s in self._plan)

    # ------------------------------------------------------------------ moves

    def _moves(self, moves: Iterable[Move]) -> None:
        for mv in moves:
            if self.void or self.hand.phase is Phase.COMPLETE:
                if isinstance(mv, Arrival) and self._role.get(mv.card, (None,))[0] is _Role.EXTRA:
                    del self._role[mv.card]
                elif isinstance(mv, Arrival) and not self.void:
                    self._winner_to_muck(mv.card, mv.reader)
                continue
            if isinstance(mv, Arrival):
                self._arrive(mv.card, mv.reader, mv.source)
            elif isinstance(mv, Departure):
                self._depart(mv.card, mv.reader)
            elif isinstance(mv, Doubled):
                self._doubled(mv)

    def _doubled(self, mv: Doubled) -> None:
        where = [place_of(r) for r in mv.readers]
        seat = next((p.seat for p in reversed(where) if p.seat is not None), None)
        self._alert(
            AlertCode.DUPLICATE_CARD,
            seat,
            "R-CARD-1",
            f"one card is read on {mv.readers[0]} and on {mv.readers[1]} at once",
            "find the second copy and take it out of play; a duplicate card may void the hand",
        )

    def _unknown_tag(self, reader: str) -> None:
        self._alert(
            AlertCode.UNKNOWN_TAG,
            place_of(reader).seat,
            "R-CARD-1",
            f"a tag that is not in the registered deck lies on {reader}",
            "take the card out of play, or register the deck again",
        )

    def _tag_clash(self, reader: str) -> None:
        self._alert(
            AlertCode.DUPLICATE_CARD,
            place_of(reader).seat,
            "R-CARD-1",
            f"two tags on {reader} stand for the same card",
            "check the deck: one card is doubled or mis-registered",
        )

    def _arrive(self, card: int, reader: str, source: str | None) -> None:
        place = place_of(reader)
        if place.kind is PlaceKind.OTHER:
            return
        role = self._role.get(card)
        if role is None or role[0] is _Role.EXTRA:
            self._role.pop(card, None)
            self._fresh(card, place)
            return
        kind, owner = role
        if kind is _Role.HOLE:
            self._hole_moved(card, owner, place, reader)
        elif kind in (_Role.FOLDED, _Role.DISCARD) and place.kind in (
            PlaceKind.SEAT,
            PlaceKind.UP,
            PlaceKind.BOARD,
        ):
            if (
                kind is _Role.DISCARD
                and self.hand.phase is Phase.DRAWING
                and self.hand.cards_out >= self.hand.game.deck_size
            ):
                self._role.pop(card, None)  # the stub ran out: discards are the new stub
                self._fresh(card, place)
                return
            what = "a discarded card" if kind is _Role.DISCARD else "a folded card"
            self._alert(
                AlertCode.FOLDED_CARD_RETURNED,
                place.seat if place.seat is not None else self._t(owner),
                "R-ETQ-1",
                f"{what} of {self._name(owner)} came back onto {reader}",
                "put it back in the muck; a folded hand stays dead",
            )

    def _hole_moved(self, card: int, h: int, place: Place, reader: str) -> None:
        if place.kind is PlaceKind.MUCK:
            self._to_muck(h, card)
            return
        if self._home(h, reader):
            pending = self._pending_discards.get(h)
            if pending and card in pending:
                pending.remove(card)
            if h in self._left and all(
                self._home(h, self._tracker.where(c)) for c in self._cards_of(h)
            ):
                self._left.discard(h)
            return
        if self._live(h) and self.hand.phase is not Phase.SHOWDOWN:
            self._cards_left(h, f"a card of {self._name(h)} turned up on {reader}")

    def _depart(self, card: int, reader: str) -> None:
        role = self._role.get(card)
        if role is None:
            return
        kind, owner = role
        if kind is _Role.EXTRA:
            del self._role[card]
            return
        if kind is not _Role.HOLE or not self._home(owner, reader):
            return
        if not self._live(owner) or owner in self._held:
            return
        if self.hand.phase in (Phase.DEALING, Phase.BETTING, Phase.DRAWING):
            self._cards_left(owner, f"cards of {self._name(owner)} left the seat without a fold")

    def _cards_left(self, h: int, message: str) -> None:
        if h in self._left:
            return
        self._left.add(h)
        self._alert(
            AlertCode.CARDS_LEFT_SEAT,
            self._t(h),
            "R-ETQ-1",
            message,
            "the cards stay on the seat's antenna until the player folds or shows",
        )

    # ------------------------------------------------------------ fresh cards

    def _fresh(self, card: int, place: Place) -> None:
        if place.kind in (PlaceKind.SEAT, PlaceKind.UP):
            assert place.seat is not None
            self._fresh_to_seat(card, place.seat, place.kind is PlaceKind.UP)
        elif place.kind is PlaceKind.BOARD:
            self._fresh_board(card)
        elif place.kind is PlaceKind.BURN:
            self._fresh_burn(card)
        elif place.kind is PlaceKind.MUCK:
            self._fresh_muck(card)

    def _extra(self, card: int) -> None:
        if card >= 0:
            self._role[card] = (_Role.EXTRA, -1)

    def _fresh_to_seat(self, card: int, tseat: TableSeat, via_up: bool) -> None:
        hand = self.hand
        h = self.setup.hand_seat(tseat)
        if h is None:
            self._extra(card)
            self._alert(
                AlertCode.CARD_TO_EMPTY_SEAT,
                tseat,
                "R-DEAL-6",
                f"a card was dealt to {seat_name(tseat)}, which is not in this hand",
                "take the card back; before the action starts this is a misdeal (R-DEAL-6)",
                self._deal_severity(),
            )
            return
        if not self._live(h):
            self._extra(card)
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                f"a card was dealt to {seat_name(tseat)}, which has folded",
                "take the card back",
            )
            return
        if hand.phase is Phase.DRAWING:
            self._draw_card(h, card)
        elif self._plan_active():
            self._plan_card(h, card, via_up)
        elif card >= 0 and self._unread(h) > 0:
            self._learn(h, card)
        elif hand.phase is Phase.BETTING and self._later_cards_to_seats() and self._round_acted():
            self._extra(card)
            self._alert(
                AlertCode.PREMATURE_BOARD_CARD,
                tseat,
                "R-DEAL-7",
                f"a card was dealt to {seat_name(tseat)} before the betting round ended",
                "take the card back (premature card, house rule)",
            )
        else:
            self._extra(card)
            n = len(hand.hole[h])
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                f"{seat_name(tseat)} got a card too many (it has {n} and is due none now)",
                "take the extra card back; before the action starts this is a misdeal",
                self._deal_severity(),
            )

    def _learn(self, h: int, card: int) -> None:
        self._learned[h].append(card)
        self._role[card] = (_Role.HOLE, h)

    def _plan_card(self, h: int, card: int, via_up: bool) -> None:
        plan = self._plan
        tseat = self._t(h)
        rule = _DEAL_RULE[self.hand.game.family]
        cur = next((i for i, s in enumerate(plan) if s.status == _OPEN), None)
        skipped = next(
            (i for i, s in enumerate(plan) if s.status == _SKIPPED and s.seat == h), None
        )
        ahead = next(
            (i for i, s in enumerate(plan) if s.status == _OPEN and s.seat == h),
            None,
        )
        j: int | None
        if self._s.batch.get(h, 0) >= 1:
            j = skipped if skipped is not None else ahead
            if j is not None:
                self._order_alert(tseat, rule, f"{seat_name(tseat)} got two cards at once")
        elif skipped is not None:
            j = skipped
            self._order_alert(tseat, rule, f"{seat_name(tseat)} got its card after later seats")
        elif cur is not None and plan[cur].seat == h:
            j = cur
        elif card >= 0 and self._unread(h) > 0:
            self._learn(h, card)
            return
        else:
            j = ahead
            if j is not None and cur is not None:
                for i in range(cur, j):
                    if plan[i].status == _OPEN:
                        plan[i].status = _SKIPPED
        if j is None:
            self._extra(card)
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                f"{seat_name(tseat)} got a card too many on the {self.hand.street.name}",
                "take the extra card back; before the action starts this is a misdeal",
                self._deal_severity(),
            )
            return
        self._s.batch[h] = self._s.batch.get(h, 0) + 1
        slot = plan[j]
        slot.status, slot.card = _FILLED, card
        if card >= 0:
            self._role[card] = (_Role.HOLE, h)
        if self._placement_checks() and slot.up != via_up:
            want, got = ("up", "seat") if slot.up else ("seat", "up")
            self._alert(
                AlertCode.STUD_CARD_WRONG_PLACE,
                tseat,
                "R-DEAL-3",
                f"{seat_name(tseat)}'s {'up' if slot.up else 'down'} card lies"
                f" on the {got} antenna",
                f"move it to {want}{tseat}, face {'up' if slot.up else 'down'}",
            )
        self._flush()

    def _order_alert(self, tseat: TableSeat, rule: str, message: str) -> None:
        street = self.hand.street_index
        if street in self._order_alerted:
            return
        self._order_alerted.add(street)
        self._alert(
            AlertCode.DEAL_OUT_OF_ORDER,
            tseat,
            rule,
            f"cards out of order on the {self.hand.street.name}: {message}",
            "deal one card at a time, clockwise from the first seat left of the button;"
            " before the action starts this is a misdeal (R-DEAL-6)",
            self._deal_severity(),
        )

    def _flush(self) -> None:
        plan = self._plan
        while self._fed < len(plan) and plan[self._fed].status in (_FILLED, _MISSING):
            slot = plan[self._fed]
            card = slot.card if slot.status == _FILLED else UNKNOWN
            self._burn_if_missing()
            self._deal_hole(slot.seat, card)
            self._fed += 1

    def _deal_hole(self, h: int, card: int) -> None:
        try:
            deal = self.hand.deal_hole(h, card)
        except DuplicateCardError:
            self._alert(
                AlertCode.DUPLICATE_CARD,
                self._t(h),
                "R-CARD-1",
                f"the card dealt to {self._name(h)} is already in play elsewhere",
                "find the second copy and take it out of play",
            )
            self._role.pop(card, None)
            deal = self.hand.deal_hole(h, UNKNOWN)
            card = UNKNOWN
        self._s.events.append(HoleCardDealt(self._t(h), card, deal.up))

    def _settle(self) -> None:
        """The hand moves on: hole cards still unread are dealt as unknown cards."""
        for slot in self._plan:
            if slot.status in (_OPEN, _SKIPPED):
                slot.status = _MISSING
        self._flush()

    def _betting_closed(self) -> bool:
        hand = self.hand
        able = [h for h in range(hand.n) if self._live(h) and hand.stacks[h] > 0]
        return len(able) <= 1

    def _burn_if_missing(self) -> None:
        hand = self.hand
        exp = hand.expected()
        if not exp or exp[0].kind is not DealKind.BURN:
            return
        if self._early_burns:
            card = self._early_burns.pop(0)
            if hand.can_burn(card):
                hand.burn(card)
                self._s.events.append(BurnDealt(card))
                return
        street = hand.street_index
        if self.profile.burn and street not in self._burn_alerted:
            self._burn_alerted.add(street)
            self._alert(
                AlertCode.MISSING_BURN,
                None,
                _BURN_RULE[hand.game.family],
                f"the {hand.street.name} came without a burn card",
                "burn one card before each street; leave these cards as they are",
            )
        hand.burn(UNKNOWN)
        self._s.events.append(BurnDealt(UNKNOWN))

    def _fresh_board(self, card: int) -> None:
        hand = self.hand
        if hand.phase is Phase.SHOWDOWN:
            self._extra(card)
            return
        if not self._board_due() and self._plan_active() and self._betting_closed():
            self._settle()
        exp = hand.expected()
        if (
            hand.phase is Phase.DEALING
            and any(e.kind is DealKind.BOARD for e in exp)
            and not any(e.kind is DealKind.HOLE for e in exp)
            and card >= 0
        ):
            self._burn_if_missing()
            hand.deal_board(card)
            self._role[card] = (_Role.BOARD, -1)
            self._s.events.append(BoardDealt(card))
            return
        self._extra(card)
        self._alert(
            AlertCode.PREMATURE_BOARD_CARD,
            None,
            "R-DEAL-7",
            "a board card was dealt before the betting round ended"
            if hand.phase is Phase.BETTING
            else "a board card was dealt when none is due",
            "take the card back (premature card, house rule)",
        )

    def _board_due(self) -> bool:
        exp = self.hand.expected()
        return any(e.kind is DealKind.BOARD for e in exp) and not any(
            e.kind is DealKind.HOLE for e in exp
        )

    def _fresh_burn(self, card: int) -> None:
        hand = self.hand
        street = hand.street_index
        if hand.phase is Phase.SHOWDOWN:
            self._extra(card)
            return
        if not hand.can_burn(card) and self._plan_active() and self._betting_closed():
            self._settle()  # nobody can bet: the unread cards of the last street are unknown
        if hand.can_burn(card):
            hand.burn(card)
            self._s.events.append(BurnDealt(card))
            if card >= 0:
                self._role[card] = (_Role.BURN, -1)
            return
        if street in self._burn_alerted and street not in self._late_burn_taken:
            self._late_burn_taken.add(street)  # the missing burn, late: already told
            if card >= 0:
                self._role[card] = (_Role.BURN, -1)
            return
        if hand.phase is Phase.BETTING and street + 1 < len(hand.game.streets):
            self._early_burns.append(card)  # burnt before the round ended: for the next street
            if card >= 0:
                self._role[card] = (_Role.BURN, -1)
            return
        self._extra(card)
        self._alert(
            AlertCode.EXTRA_BURN,
            None,
            _BURN_RULE[hand.game.family],
            f"a burn card too many on the {hand.street.name}",
            "take the extra burn card back on top of the stub",
        )

    def _fresh_muck(self, card: int) -> None:
        h = self._turn()
        if card >= 0 and h is not None and self._unread(h) > 0:
            self._role[card] = (_Role.HOLE, h)
            self._to_muck(h, card)
        else:
            self._extra(card)

    # ------------------------------------------------------------ the muck

    def _to_muck(self, h: int, card: int) -> None:
        hand = self.hand
        tseat = self._t(h)
        if hand.folded[h]:
            self._role[card] = (_Role.FOLDED, h)
            return
        if hand.phase is Phase.DRAWING:
            drawer = hand.drawer
            if drawer is None or h < drawer:
                self._draw_alert(h, f"{seat_name(tseat)} threw a card after drawing")
                return
            self._pending_discards.setdefault(h, []).append(card)
            return
        if hand.phase is Phase.SHOWDOWN:
            self._showdown_muck(h)
            return
        if h in self._pending_fold:
            return
        if hand.phase is Phase.BETTING and hand.actor == h and hand.can_fold(h):
            self._fold(h, "muck")
            return
        self._pending_fold.add(h)
        if hand.phase is Phase.BETTING and hand.actor == h:
            why = f"{seat_name(tseat)} must post the bring-in before folding"
        elif hand.phase is Phase.BETTING and hand.actor is not None:
            why = f"{seat_name(tseat)} folded at the muck; {self._name(hand.actor)} is to act"
        else:
            why = f"{seat_name(tseat)} folded at the muck before the betting round"
        self._alert(
            AlertCode.FOLD_OUT_OF_TURN,
            tseat,
            "R-BET-10",
            why,
            "the fold stands and takes effect in turn; remind the player to wait",
        )

    def _fold(self, h: int, source: str) -> None:
        action = self.hand.fold(h)
        self._pending_fold.discard(h)
        if source == "muck":
            self._muck_folds.add((h, action.street))
        for c in self._cards_of(h):
            self._role[c] = (_Role.FOLDED, h)
        for c in self._learned[h]:
            self._role[c] = (_Role.FOLDED, h)
        self._left.discard(h)
        self._emit_action(action, source)

    def _emit_action(self, a: Action, source: str) -> None:
        self._s.events.append(
            ActionTaken(self._t(a.seat), a.kind, a.amount, a.to, a.all_in, source)
        )

    def _showdown_muck(self, h: int) -> None:
        hand = self.hand
        if h in hand.shown or h in hand.mucked or h in self._held or h in self._pending_muck:
            return
        if h not in self._pending_fold and self._winning(h):
            self._held.add(h)
            self._alert(
                AlertCode.WINNING_HAND_MUCKED,
                self._t(h),
                "R-SHOW-2",
                f"{self._name(h)} threw away a winning hand before it was read",
                "retrieve the cards and read the hand (house decision), or confirm the muck",
            )
            return
        self._pending_muck.add(h)

    def _winner_to_muck(self, card: int, reader: str) -> None:
        """After an uncontested pot: the winner's cards reaching the muck are a muck
        (R-SHOW-3); every other card movement is the table being cleared."""
        hand = self.hand
        h = hand.uncalled_winner
        if h is None or place_of(reader).kind is not PlaceKind.MUCK:
            return
        if self._role.get(card) == (_Role.HOLE, h) or (
            card not in self._role and self._unread(h) > 0
        ):
            hand.muck(h)
            self._mucked(h)

    def _winning(self, h: int) -> bool:
        hand = self.hand
        mine_cards = self._known_hole(h)
        if mine_cards is None or UNKNOWN in hand.board:
            return False
        ev = hand.game.evaluation
        mine = hand_value(ev, mine_cards, hand.board)
        gone = set(hand.mucked) | self._pending_muck | self._held | self._pending_fold
        for pot in hand.pots():
            if h not in pot.eligible:
                continue
            others = [o for o in pot.eligible if o != h and o not in gone]
            if not others:
                return True
            high_beaten = False
            low_beaten = mine[1] is None
            for o in others:
                theirs = self._known_hole(o)
                if theirs is None:
                    continue
                v = hand_value(ev, theirs, hand.board)
                if v[0] > mine[0]:
                    high_beaten = True
                if mine[1] is not None and v[1] is not None and v[1] > mine[1]:
                    low_beaten = True
            if not high_beaten or not low_beaten:
                return True
        return False

    # ------------------------------------------------------------ the draw

    def _owed(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for e in self.hand.expected():
            if e.kind is DealKind.HOLE and e.seat is not None:
                out[e.seat] = out.get(e.seat, 0) + 1
        return out

    def _commit_discard(self, d: int) -> None:
        cards = self._pending_discards.pop(d, [])
        try:
            record = self.hand.discard(d, cards)
        except RulesError:
            record = self.hand.discard(d, ())
        for c in record.cards:
            if c >= 0:
                self._role[c] = (_Role.DISCARD, d)
        self._s.events.append(Discarded(self._t(d), len(record.cards)))

    def _draw_alert(self, h: int, message: str) -> None:
        key = (self.hand.street_index, h)
        if key in self._draw_alerted:
            return
        self._draw_alerted.add(key)
        self._alert(
            AlertCode.DRAW_MISMATCH,
            self._t(h),
            "R-DEAL-5",
            message,
            "give each player exactly as many cards as they threw away",
        )

    def _short_check(self, before: int | None) -> bool:
        """Seats (before ``before``, or all) still owed replacements: alert when their hand
        was fully read, else deal them unknown cards (unread). True when any is short."""
        short = False
        for d, k in sorted(self._owed().items()):
            if before is not None and d >= before:
                continue
            if self._known_hole(d) is not None:
                self._draw_alert(
                    d,
                    f"{self._name(d)} threw {k + self._got(d)} and got {self._got(d)} back",
                )
                short = True
            else:
                for _ in range(k):
                    self._burn_if_missing()
                    self._deal_hole(d, UNKNOWN)
        return short

    def _got(self, d: int) -> int:
        street = self.hand.street_index
        n = 0
        for r in self.hand.log:
            if getattr(r, "street", None) != street:
                continue
            if getattr(r, "kind", None) is DealKind.HOLE and getattr(r, "seat", None) == d:
                n += 1
        return n

    def _draw_card(self, h: int, card: int) -> None:
        hand = self.hand
        tseat = self._t(h)
        while hand.drawer is not None and hand.drawer <= h:
            self._commit_discard(hand.drawer)
        self._short_check(before=h)
        owed = self._owed().get(h, 0)
        if owed > 0:
            self._burn_if_missing()
            self._deal_hole(h, card)
            if card >= 0:
                self._role[card] = (_Role.HOLE, h)
        elif card >= 0 and self._unread(h) > 0:
            self._learn(h, card)
        else:
            self._extra(card)
            self._draw_alert(h, f"{seat_name(tseat)} got more cards than it threw away")

    def _finish_draw(self) -> bool:
        """Before an action: close the draw. False when a seat is short (alerted)."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING:
            return True
        while hand.drawer is not None:
            self._commit_discard(hand.drawer)
        return not self._short_check(before=None)

    # ------------------------------------------------------------ console

    def _console_seat(self, tseat: TableSeat) -> HandSeat | None:
        h = self.setup.hand_seat(tseat)
        if h is None:
            self._s.refused = f"{seat_name(tseat)} is not in this hand"
        return h

    def _console_action(self, inp: ConsoleAction) -> None:
        hand = self.hand
        h = self._console_seat(inp.seat)
        if h is None:
            return
        if hand.folded[h] or h in self._pending_fold:
            self._s.refused = f"{seat_name(inp.seat)} has folded"
            return
        self._settle()
        if not self._finish_draw():
            self._s.refused = "the draw is not complete"
            return
        self._sync()
        if hand.phase is not Phase.BETTING or hand.actor is None:
            if hand.phase in (Phase.DEALING, Phase.DRAWING):
                self._alert(
                    AlertCode.ACTION_OUT_OF_TURN,
                    inp.seat,
                    "R-BET-10",
                    f"an action for {seat_name(inp.seat)} while cards are still being dealt",
                    "finish dealing; the action is not taken",
                )
            self._s.refused = f"no betting round is open (the hand is in {hand.phase.value})"
            return
        if hand.actor != h:
            actor = self._t(hand.actor)
            self._alert(
                AlertCode.ACTION_OUT_OF_TURN,
                inp.seat,
                "R-BET-10",
                f"{seat_name(inp.seat)} acted out of turn; {seat_name(actor)} is to act",
                f"the action is not taken; let {seat_name(actor)} act first",
            )
            self._s.refused = f"{seat_name(actor)} is to act"
            return
        try:
            action = self._do(h, inp.act, inp.to)
        except RulesError as err:
            self._s.refused = err.render(self.setup.name)
            return
        if inp.act is Act.FOLD:
            for c in self._cards_of(h):
                self._role[c] = (_Role.FOLDED, h)
            self._left.discard(h)
        self._emit_action(action, "console")

    def _do(self, h: int, act: Act, to: int) -> Action:
        hand = self.hand
        if act is Act.FOLD:
            return hand.fold(h)
        if act is Act.CHECK:
            return hand.check(h)
        if act is Act.CALL:
            return hand.call(h)
        if act is Act.BRING_IN:
            return hand.bring_in(h)
        if act is Act.ALL_IN:
            return hand.all_in(h)
        return hand.bet_or_raise_to(to, h)

    def _show(self, tseat: TableSeat, part: tuple[int, ...] = ()) -> None:
        hand = self.hand
        h = self._console_seat(tseat)
        if h is None:
            return
        self._settle()
        cards: list[int] | None = None
        if part:
            cards = list(part)  # R-SHOW-3: the cards the dealer saw turned up
        elif UNKNOWN in hand.hole[h]:
            cards = self._known_hole(h)
            if cards is None:
                self._s.refused = (
                    f"{seat_name(tseat)}'s cards were not all read:"
                    " lay them on the antenna or enter them"
                )
                return
        try:
            record = hand.show(h, cards)
        except RulesError as err:
            self._s.refused = err.render(self.setup.name)
            return
        self._held.discard(h)
        self._pending_muck.discard(h)
        whole = len(record.cards) == len(hand.hole[h])
        self._s.events.append(HandShown(tseat, record.cards, whole))

    def _console_muck(self, tseat: TableSeat) -> None:
        h = self._console_seat(tseat)
        if h is None:
            return
        try:
            self.hand.muck(h)
        except RulesError as err:
            self._s.refused = err.render(self.setup.name)
            return
        self._held.discard(h)
        self._pending_muck.discard(h)
        self._mucked(h)

    def _mucked(self, h: int) -> None:
        for c in self._cards_of(h):
            self._role[c] = (_Role.FOLDED, h)
        self._s.events.append(HandMucked(self._t(h)))

    def _manual(self, inp: ManualCard) -> None:
        place = place_of(inp.reader)
        if inp.card is not None:
            if self._in_play(inp.card):
                self._s.refused = MANUAL_CARD_IN_PLAY
                return
            self._moves(self._tracker.manual(inp.reader, inp.card))
            return
        if place.kind in (PlaceKind.SEAT, PlaceKind.UP):
            assert place.seat is not None
            self._fresh_to_seat(UNKNOWN, place.seat, place.kind is PlaceKind.UP)
        elif place.kind is PlaceKind.BURN:
            self._fresh_burn(UNKNOWN)
        else:
            self._s.refused = f"name the card on {inp.reader}: it lies face up"

    def _in_play(self, card: int) -> bool:
        """True when ``card`` is part of the hand or lies on an antenna, wherever."""
        return (
            self.hand.in_play(card) or card in self._role or self._tracker.where(card) is not None
        )

    def _misdeal(self) -> None:
        self.void = True
        stacks = tuple(zip(self.setup.seats, self.hand.starting_stacks, strict=True))
        self._alert(
            AlertCode.MISDEAL_DECLARED,
            None,
            "R-DEAL-6",
            f"misdeal: hand {self.setup.number} is void",
            "every chip goes back to its owner, collect all cards and shuffle;"
            " the button does not move",
            Severity.MISDEAL,
        )
        self._s.events.append(HandVoided(stacks))

    def _undo(self) -> None:
        hand = self.hand
        log = hand.log
        idx = next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], Action)), None)
        if idx is None:
            self._s.refused = "there is no action to undo"
            return
        last = log[idx]
        assert isinstance(last, Action)
        if last.kind is ActionKind.FOLD and (last.seat, last.street) in self._muck_folds:
            self._s.refused = "the last action was a fold at the muck; it cannot be undone"
            return
        if any(s.status == _FILLED for s in self._plan) and self._plan_street > last.street:
            self._s.refused = "cards were dealt after that action; it cannot be undone"
            return
        try:
            rebuilt = replay(
                hand.game,
                hand.stakes,
                hand.starting_stacks,
                log[:idx] + log[idx + 1 :],
                hand.options,
            )
        except RulesError:
            self._s.refused = "cards were dealt after that action; it cannot be undone"
            return
        self.hand = rebuilt
        if last.kind is ActionKind.FOLD:
            for c, (r, o) in list(self._role.items()):
                if r is _Role.FOLDED and o == last.seat:
                    self._role[c] = (_Role.HOLE, o)
        self._plan = []
        self._plan_street = rebuilt.street_index
        self._fed = 0
        self._street_seen = rebuilt.street_index
        self._s.events.append(ActionUndone(self._t(last.seat), last.kind))

    # ------------------------------------------------------------ after each input

    def _sync(self) -> None:
        hand = self.hand
        for _ in range(4 * hand.n + 8):
            changed = False
            if hand.street_index != self._street_seen:
                self._street_seen = hand.street_index
                if self._early_burns and hand.phase in (Phase.DEALING, Phase.DRAWING):
                    card = self._early_burns[0]
                    if hand.can_burn(card):
                        self._early_burns.pop(0)
                        hand.burn(card)
                        self._s.events.append(BurnDealt(card))
            if hand.phase is Phase.DEALING and hand.street_index != self._plan_street:
                self._plan_street = hand.street_index
                self._fed = 0
                self._plan = [
                    _Slot(e.seat, bool(e.up))
                    for e in hand.expected()
                    if e.kind is DealKind.HOLE and e.seat is not None
                ]
            actor = hand.actor
            if (
                hand.phase is Phase.BETTING
                and actor is not None
                and actor in self._pending_fold
                and hand.can_fold(actor)
            ):
                self._fold(actor, "pending")
                changed = True
            if hand.phase is Phase.SHOWDOWN:
                for s in sorted(self._pending_muck | self._pending_fold):
                    if hand.can_muck(s):
                        hand.muck(s)
                        self._pending_muck.discard(s)
                        self._pending_fold.discard(s)
                        self._mucked(s)
                        changed = True
                        break
            if not changed:
                break
        if hand.phase is Phase.COMPLETE and not self._awarded:
            self._awarded = True
            for award in hand.awards:
                self._s.events.append(self._pot_event(award))

    def _pot_event(self, award: PotAward) -> PotAwarded:
        t = self._t
        payouts = tuple(Payout(t(s.seat), s.amount, s.half.value, s.odd_chip) for s in award.shares)
        name = "main pot" if award.pot == 0 else f"side pot {award.pot}"
        parts = []
        for p in payouts:
            extra = []
            if p.half != "whole":
                extra.append(p.half)
            if p.odd_chip:
                extra.append("odd chip")
            note = f" ({', '.join(extra)})" if extra else ""
            parts.append(f"{seat_name(p.seat)} takes {p.amount}{note}")
        text = f"{name} {award.amount}: " + "; ".join(parts)
        if award.no_low:
            text += " (no low hand qualifies)"
        return PotAwarded(
            award.pot,
            award.amount,
            tuple(t(s) for s in award.eligible),
            payouts,
            award.uncontested,
            award.no_low,
            text,
        )

    def _hints(self, alerts: Iterable[Alert]) -> SeatHints:
        hand = self.hand
        t = self._t
        turn = None if self.void else self._turn()
        return SeatHints(
            acting=t(turn) if turn is not None else None,
            all_in=tuple(t(h) for h in range(hand.n) if not hand.folded[h] and hand.stacks[h] == 0),
            folded=tuple(t(h) for h in range(hand.n) if not self._live(h)),
            alerted=tuple(sorted({a.seat for a in alerts if a.seat is not None})),
        )
