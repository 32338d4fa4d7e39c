"""The dealer's corrections: a card entered by hand, the misdeal, taking an action back.

* :class:`~hub.rules.procedure.ManualCard` — a tag that will not read: a named card is
  treated as read on its antenna (refused with :data:`MANUAL_CARD_IN_PLAY` when that card
  is in play anywhere); an unnamed one is a hole card or a burn whose face is unknown.
* :class:`~hub.rules.procedure.DeclareMisdeal` — the hand is void and every chip goes
  back (R-DEAL-6); the monitor changes nothing after it.
* :class:`~hub.rules.procedure.UndoAction` — the last console action is taken back: the
  hand is rebuilt from its log without it. A fold made at the muck, or an action after
  which cards were dealt, cannot be undone.
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Text
from hub.messages.vocabulary import antenna
from hub.rules.alerts import AlertCode, Severity
from hub.rules.antennas import PlaceKind, place_of
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import UNKNOWN
from hub.rules.errors import RulesError
from hub.rules.hand import replay
from hub.rules.procedure.events import ActionUndone, HandVoided
from hub.rules.procedure.inputs import ManualCard
from hub.rules.procedure.presence import Presence
from hub.rules.procedure.state import Role, SlotStatus

__all__ = ["MANUAL_CARD_IN_PLAY", "Corrections"]

MANUAL_CARD_IN_PLAY = Text("refusal.console.card_in_play")
"""The one answer to a card entered by hand whose code is already in play — the same
wherever the card lies (a seat, the burn, the muck, the board), so the console cannot be
asked where a hidden card is."""


class Corrections(Presence):
    """The dealing monitor's layer for the dealer's corrections."""

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
            self._s.refused = Text(
                "refusal.console.name_face_up_card", {"reader": antenna(inp.reader)}
            )

    def _in_play(self, card: CardIndex) -> bool:
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
            Text("alert.misdeal_declared.message", {"hand": str(self.setup.number)}),
            Text("alert.misdeal_declared.remedy"),
            Severity.MISDEAL,
        )
        self._s.events.append(HandVoided(stacks))

    def _undo(self) -> None:
        hand = self.hand
        log = hand.log
        idx = next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], Action)), None)
        if idx is None:
            self._s.refused = Text("refusal.console.nothing_to_undo")
            return
        last = log[idx]
        assert isinstance(last, Action)
        if last.kind is ActionKind.FOLD and (last.seat, last.street) in self._muck_folds:
            self._s.refused = Text("refusal.console.muck_fold_final")
            return
        if (
            any(s.status == SlotStatus.FILLED for s in self._plan)
            and self._plan_street > last.street
        ):
            self._s.refused = Text("refusal.console.dealt_since")
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
            self._s.refused = Text("refusal.console.dealt_since")
            return
        self.hand = rebuilt
        if last.kind is ActionKind.FOLD:
            for c, (r, o) in list(self._role.items()):
                if r is Role.FOLDED and o == last.seat:
                    self._role[c] = (Role.HOLE, o)
        self._plan = []
        self._plan_street = rebuilt.street_index
        self._fed = 0
        self._street_seen = rebuilt.street_index
        self._s.events.append(ActionUndone(self._t(last.seat), last.kind))
