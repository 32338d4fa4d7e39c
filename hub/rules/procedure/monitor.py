"""The dealing monitor: one hand at a live table, every input in, a :class:`Step` out.

A :class:`DealingMonitor` is fed the values of :mod:`~hub.rules.procedure.inputs`, each
stamped with an explicit ``now``. From presence it derives what happened — a card
arriving on ``seatN`` is a hole card to that seat (on ``upN`` a stud up card), on ``burn``
a burn, on the board a board card, a live player's cards at the muck a fold (in a draw:
discards; at showdown: a muck) — feeds it to the :class:`~hub.rules.hand.Hand` and
answers every input with a :class:`Step`: the events, the
:class:`~hub.rules.alerts.Alert` s for the dealer, light hints, and the reason when a
console input was refused.

Alerts name seats (table numbers 1–10), counts and rules, never a card; events that may
go to the public side (:attr:`Step.public_events`) never carry a hole card.

The monitor is built in layers, one module each, from the state up: the state
(:mod:`~hub.rules.procedure.state`), the order of the deal
(:mod:`~hub.rules.procedure.deal_order`), the draw, the muck, presence and the dealer's
corrections; this module adds the console's actions, shows and mucks, and what settles
after each input (pending folds and mucks taking effect, the pots awarded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from feltwire.cards import CardIndex
from feltwire.text import Seat, Text
from hub.messages.vocabulary import phase
from hub.rules.alerts import Alert, AlertCode
from hub.rules.betting import Action
from hub.rules.dealing import UNKNOWN
from hub.rules.errors import HandSeat, RulesError, TableSeat
from hub.rules.hand import Phase
from hub.rules.procedure.corrections import Corrections
from hub.rules.procedure.events import Event, HandShown, pot_awarded
from hub.rules.procedure.inputs import (
    Act,
    ConsoleAction,
    DeclareMisdeal,
    Input,
    Inventory,
    ManualCard,
    MuckHand,
    ShowHand,
    TagClash,
    Tick,
    UnknownTag,
)
from hub.rules.procedure.next_deal import NextDeal, next_deal
from hub.rules.procedure.state import Role, Scratch

__all__ = ["DealingMonitor", "SeatHints", "Step"]


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
    refused: Text | None = None
    """Why a console input was not applied (None when it was, or for presence): a catalog
    text naming seats as the table numbers them, never a card."""

    @property
    def public_events(self) -> tuple[Event, ...]:
        """The events that may go to the public view and the dealer console."""
        return tuple(e for e in self.events if e.public)


class DealingMonitor(Corrections):
    """Watches one hand at the table: presence and console inputs in, :class:`Step` out.

    Built from the table layer's :class:`~hub.rules.setup.HandSetup`, its hand (a new one
    by default), the table's :class:`~hub.rules.setup.TableProfile` and the debounce
    window in seconds. :meth:`apply` takes one input and returns what it caused.

    >>> from feltwire.cards import card_index as c
    >>> from hub.rules.games import Stakes, game
    >>> from hub.rules.setup import HandSetup, TableProfile
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

    # ------------------------------------------------------------------ the API

    def apply(self, inp: Input) -> Step:
        """Apply one input; return the events, alerts and hints it caused."""
        self._s = Scratch()
        try:
            self._dispatch(inp)
        except RulesError as err:  # a state the checks above did not foresee: never crash
            self._s.refused = err.text_for(self.setup.seat_of)
        if not self.void:
            self._sync()
        s = self._s
        return Step(tuple(s.events), tuple(s.alerts), self._hints(s.alerts), s.refused)

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
                self._s.refused = Text("refusal.console.hand_void")
            elif self.hand.phase is Phase.COMPLETE and not (
                isinstance(inp, ShowHand | MuckHand)
                or (isinstance(inp, ManualCard) and inp.card is not None)
            ):
                # after an uncontested pot (R-SHOW-3); a named card still gets the one
                # answer a card in play gets, wherever it lies
                self._s.refused = Text("refusal.console.pot_awarded")
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

    def tick_changes(self, now: float) -> bool:
        """Whether a :class:`Tick` at ``now`` would change the hand: a departure or a
        doubled card becoming certain because time passed. A query, it changes nothing;
        when False, ``apply(Tick(now))`` finds no move, raises no alert and leaves the
        hand as it is (its step's hints are the hints of now, with no seat alerted)."""
        return self._tracker.would_expire(now)

    def hints(self) -> SeatHints:
        """The light hints now (no alerted seats)."""
        return self._hints([])

    def next_deal(self) -> NextDeal | None:
        """The next card the dealer deals (:func:`~.next_deal.next_deal`), None when no
        card is due or the hand is void."""
        if self.void:
            return None
        return next_deal(self.hand, self.setup, self._plan, self.profile, self.waiting_discards)

    @property
    def waiting_discards(self) -> dict[int, int]:
        """In a draw: how many cards each of the hand's players has at the muck that the
        hand has not taken as discards yet (they are, when the player's turn comes)."""
        return {h: len(cards) for h, cards in self._pending_discards.items()}

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

    # ------------------------------------------------------------ console

    def _console_seat(self, tseat: TableSeat) -> HandSeat | None:
        h = self.setup.hand_seat(tseat)
        if h is None:
            self._s.refused = Text("refusal.console.seat_not_in_hand", {"seat": Seat(tseat)})
        return h

    def _console_action(self, inp: ConsoleAction) -> None:
        hand = self.hand
        h = self._console_seat(inp.seat)
        if h is None:
            return
        if hand.folded[h] or h in self._pending_fold:
            self._s.refused = Text("refusal.console.seat_folded", {"seat": Seat(inp.seat)})
            return
        self._settle()
        if not self._finish_draw():
            self._s.refused = Text("refusal.console.draw_incomplete")
            return
        self._sync()
        if hand.phase is not Phase.BETTING or hand.actor is None:
            if hand.phase in (Phase.DEALING, Phase.DRAWING):
                self._alert(
                    AlertCode.ACTION_OUT_OF_TURN,
                    inp.seat,
                    "R-BET-10",
                    Text(
                        "alert.action_out_of_turn.while_dealing.message",
                        {"seat": Seat(inp.seat)},
                    ),
                    Text("alert.action_out_of_turn.while_dealing.remedy"),
                )
            self._s.refused = Text(
                "refusal.phase.no_betting_round", {"phase": phase(hand.phase.value)}
            )
            return
        if hand.actor != h:
            actor = self._t(hand.actor)
            self._alert(
                AlertCode.ACTION_OUT_OF_TURN,
                inp.seat,
                "R-BET-10",
                Text(
                    "alert.action_out_of_turn.acted.message",
                    {"seat": Seat(inp.seat), "actor": Seat(actor)},
                ),
                Text("alert.action_out_of_turn.acted.remedy", {"actor": Seat(actor)}),
            )
            self._s.refused = Text("refusal.console.actor_to_act", {"actor": Seat(actor)})
            return
        try:
            action = self._do(h, inp.act, inp.to)
        except RulesError as err:
            self._s.refused = err.text_for(self.setup.seat_of)
            return
        if inp.act is Act.FOLD:
            for c in self._cards_of(h):
                self._role[c] = (Role.FOLDED, h)
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

    def _show(self, tseat: TableSeat, part: tuple[CardIndex, ...] = ()) -> None:
        hand = self.hand
        h = self._console_seat(tseat)
        if h is None:
            return
        self._settle()
        cards: list[CardIndex] | None = None
        if part:
            cards = list(part)  # R-SHOW-3: the cards the dealer saw turned up
        elif UNKNOWN in hand.hole[h]:
            cards = self._known_hole(h)
            if cards is None:
                self._s.refused = Text("refusal.console.cards_not_read", {"seat": Seat(tseat)})
                return
        try:
            record = hand.show(h, cards)
        except RulesError as err:
            self._s.refused = err.text_for(self.setup.seat_of)
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
            self._s.refused = err.text_for(self.setup.seat_of)
            return
        self._held.discard(h)
        self._pending_muck.discard(h)
        self._mucked(h)

    # ------------------------------------------------------------ after each input

    def _sync(self) -> None:
        """After each input (and once when built): a new street's dealing sequence, pending
        folds and mucks taking effect in turn, the pots awarded when the hand is complete."""
        hand = self.hand
        for _ in range(4 * hand.n + 8):
            changed = False
            self._new_street()
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
                self._s.events.append(pot_awarded(award, self.setup.seats))

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
