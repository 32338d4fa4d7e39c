"""What the dealing monitor knows about a hand besides the hand itself.

:class:`MonitorState` is the ground layer of :class:`~hub.rules.procedure.DealingMonitor`:
the hand, the antenna tracker, what each card seen on the table is to the hand
(:class:`Role`), the street's dealing sequence (:class:`Slot`), the folds, discards and
mucks still waiting to take effect, which alerts were already given, and the questions
every other layer asks of them (whose turn it is, whether a seat is live, which of its
cards are unread). It changes nothing on its own except through :meth:`_alert`,
:meth:`_extra`, :meth:`_learn` and :meth:`_emit_action`.

The layers above it, each a module of this package, add one part of the procedure:
:mod:`~hub.rules.procedure.deal_order` (the dealing sequence and the burns),
:mod:`~hub.rules.procedure.draw`, :mod:`~hub.rules.procedure.muck` (folds, discards and
mucked hands), :mod:`~hub.rules.procedure.presence` (cards arriving at and leaving the
antennas), :mod:`~hub.rules.procedure.corrections` (manual cards, the misdeal, undo) and
:mod:`~hub.rules.procedure.monitor` (the console and :meth:`apply`).
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from feltwire.cards import CardIndex
from feltwire.text import Seat, Text
from hub.rules.alerts import Alert, AlertCode, Severity
from hub.rules.antennas import AntennaTracker, PlaceKind, place_of
from hub.rules.betting import Action
from hub.rules.dealing import UNKNOWN
from hub.rules.errors import HandSeat, TableSeat
from hub.rules.games import Family
from hub.rules.hand import Hand, Phase
from hub.rules.procedure.events import ActionTaken, Event
from hub.rules.setup import HandSetup, TableProfile

__all__ = ["MonitorState", "Role", "Scratch", "Slot", "SlotStatus"]


class Role(enum.Enum):
    """What a card seen on the table is to the hand."""

    HOLE = "hole"
    FOLDED = "folded"
    DISCARD = "discard"
    BOARD = "board"
    BURN = "burn"
    EXTRA = "extra"
    """On the table but not part of the hand (an extra card, a premature card, a card on
    an empty seat): it may go back to the stub and come out again."""


class SlotStatus(enum.Enum):
    """Where one hole card of the dealing sequence stands."""

    OPEN = "open"
    """Not dealt yet."""
    SKIPPED = "skipped"
    """A seat later in the sequence got its card first: this one may just be unread."""
    FILLED = "filled"
    """Dealt (the card read, or entered by hand)."""
    MISSING = "missing"
    """The hand moved on without it: dealt as an unknown card."""


@dataclass(slots=True)
class Slot:
    """One hole card of the street's dealing sequence."""

    seat: int
    up: bool
    status: SlotStatus = SlotStatus.OPEN
    card: CardIndex = UNKNOWN


@dataclass(slots=True)
class Scratch:
    """What the input being applied has caused so far."""

    events: list[Event] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    refused: Text | None = None
    batch: dict[int, int] = field(default_factory=dict)
    """Cards this input brought to each of the hand's players (two at once: out of order)."""


class MonitorState(ABC):
    """The state of a :class:`~hub.rules.procedure.DealingMonitor` and the questions its
    layers ask of it; see the module docstring. Players are the hand's (0-based) unless a
    name says ``tseat`` (a table seat)."""

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
        self._role: dict[CardIndex, tuple[Role, int]] = {}
        """Every card seen on the table: its role and its owner (-1: nobody's)."""
        self._learned: list[list[CardIndex]] = [[] for _ in range(n)]
        """Cards read after the player's hole card was dealt as unknown."""
        self._plan: list[Slot] = []
        """The dealing sequence of the street being dealt."""
        self._plan_street = -1
        self._fed = 0
        """How many slots of the plan the hand has been dealt."""
        self._street_seen = -1
        self._pending_fold: set[int] = set()
        """Players whose cards reached the muck out of turn: the fold takes effect in turn."""
        self._muck_folds: set[tuple[int, int]] = set()
        """(player, street) of folds made at the muck: they cannot be undone."""
        self._pending_discards: dict[int, list[CardIndex]] = {}
        self._pending_muck: set[int] = set()
        self._held: set[int] = set()
        """Showdown: players who threw a winning hand away unread (held for the dealer)."""
        self._left: set[int] = set()
        """Players whose cards left their seat's antenna without a fold (alerted)."""
        self._early_burns: list[CardIndex] = []
        """Burns made before the betting round ended: they belong to the next street."""
        self._burn_alerted: set[int] = set()
        self._late_burn_taken: set[int] = set()
        self._order_alerted: set[int] = set()
        self._draw_alerted: set[tuple[int, int]] = set()
        self._awarded = False
        self._s = Scratch()
        self._sync()

    @abstractmethod
    def _sync(self) -> None:
        """Let what the state now makes due take effect; the monitor says what (called
        after each input and once here, when the monitor is built)."""

    # ------------------------------------------------------------------ questions

    def _t(self, h: HandSeat | int) -> TableSeat:
        """The table seat of the hand's player ``h``."""
        return self.setup.seats[h]

    def _name(self, h: HandSeat | int) -> str:
        """The hand's player ``h`` as the dealer says it (``seat 5``)."""
        return self.setup.name(HandSeat(h))

    def _seat(self, h: HandSeat | int) -> Seat:
        """The hand's player ``h`` as a text's parameter: its table seat."""
        return Seat(self.setup.seats[h])

    def _alert(
        self,
        code: AlertCode,
        seat: int | None,
        rule: str,
        text: Text,
        remedy: Text,
        severity: Severity = Severity.WARNING,
    ) -> None:
        """Give the dealer an alert (``seat``: the table seat it names, if any; ``text``
        and ``remedy``: its catalog entries, ``alert.<code>.…``)."""
        self._s.alerts.append(Alert(code, severity, seat, rule, text, remedy))

    def _deal_severity(self) -> Severity:
        """A dealing fault before the first action of the hand is a misdeal (R-DEAL-6)."""
        started = any(isinstance(r, Action) for r in self.hand.log)
        if self.hand.street_index == 0 and not started:
            return Severity.MISDEAL
        return Severity.WARNING

    def _live(self, h: int) -> bool:
        """True while ``h`` has not folded, at the muck or in turn."""
        return not self.hand.folded[h] and h not in self._pending_fold

    def _unread(self, h: int) -> int:
        """How many of ``h``'s hole cards are still unknown (dealt unread, not learnt since)."""
        return max(0, self.hand.hole[h].count(UNKNOWN) - len(self._learned[h]))

    def _known_hole(self, h: int) -> list[CardIndex] | None:
        """``h``'s hole cards with the learnt ones in place of the unknown, or None while any is
        unread."""
        learned = iter(self._learned[h])
        out = []
        for c in self.hand.hole[h]:
            if c == UNKNOWN:
                c = next(learned, UNKNOWN)
                if c == UNKNOWN:
                    return None
            out.append(c)
        return out

    def _cards_of(self, h: int) -> list[CardIndex]:
        """The cards on the table that are ``h``'s hole cards."""
        return [c for c, (r, o) in self._role.items() if r is Role.HOLE and o == h]

    def _home(self, h: int, reader: str | None) -> bool:
        """True when ``reader`` is ``h``'s own seat (or up-card) antenna."""
        if reader is None:
            return False
        p = place_of(reader)
        return p.kind in (PlaceKind.SEAT, PlaceKind.UP) and p.seat == self._t(h)

    def _turn(self) -> int | None:
        """Whose turn it is: to bet, draw, show, or (the uncalled winner) to show or muck."""
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
        """True when a later street deals cards to the seats (stud up cards, a draw)."""
        streets = self.hand.game.streets[self.hand.street_index + 1 :]
        return any(st.hole_up or st.draw for st in streets)

    def _round_acted(self) -> bool:
        """True once anyone acted in this street's betting round."""
        street = self.hand.street_index
        return any(isinstance(r, Action) and r.street == street for r in self.hand.log)

    def _placement_checks(self) -> bool:
        """True when stud up and down cards have antennas of their own to be checked on."""
        return self.profile.up_cards and self.hand.game.family is Family.STUD

    def _plan_active(self) -> bool:
        """True while the street's dealing sequence still waits for cards."""
        return any(s.status in (SlotStatus.OPEN, SlotStatus.SKIPPED) for s in self._plan)

    def _betting_closed(self) -> bool:
        """True when at most one live player has chips left to bet."""
        hand = self.hand
        able = [h for h in range(hand.n) if self._live(h) and hand.stacks[h] > 0]
        return len(able) <= 1

    # ------------------------------------------------------------------ records

    def _extra(self, card: CardIndex) -> None:
        """Record ``card`` as on the table but not part of the hand."""
        if card >= 0:
            self._role[card] = (Role.EXTRA, -1)

    def _learn(self, h: int, card: CardIndex) -> None:
        """Record ``card`` as one of ``h``'s hole cards that was dealt unread."""
        self._learned[h].append(card)
        self._role[card] = (Role.HOLE, h)

    def _emit_action(self, a: Action, source: str) -> None:
        """Report the action ``a`` the hand accepted, entered via ``source``."""
        self._s.events.append(
            ActionTaken(self._t(a.seat), a.kind, a.amount, a.to, a.all_in, source)
        )
