"""The muck: folds, discards and hands thrown away at showdown.

A live player's cards reaching the muck are a fold when it is their turn; out of turn the
fold stands and takes effect in turn (R-BET-10), with an alert. In a draw they are
discards (:mod:`~hub.rules.procedure.draw`). At showdown they are a muck — unless the
hand would have won a pot, which holds it for the dealer to read (R-SHOW-2). After an
uncontested pot the winner's cards reaching the muck are the winner's muck (R-SHOW-3).
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Text
from hub.rules.alerts import AlertCode
from hub.rules.antennas import PlaceKind, place_of
from hub.rules.dealing import UNKNOWN
from hub.rules.hand import Phase
from hub.rules.procedure.draw import Draw
from hub.rules.procedure.events import HandMucked
from hub.rules.procedure.state import Role
from hub.rules.showdown import hand_value

__all__ = ["Muck"]


class Muck(Draw):
    """The dealing monitor's layer for cards that reach the muck."""

    def _to_muck(self, h: int, card: CardIndex) -> None:
        hand = self.hand
        tseat = self._t(h)
        seat = self._seat(h)
        if hand.folded[h]:
            self._role[card] = (Role.FOLDED, h)
            return
        if hand.phase is Phase.DRAWING:
            drawer = hand.drawer
            if drawer is None or h < drawer:
                self._draw_alert(
                    h, Text("alert.draw_mismatch.after_drawing.message", {"seat": seat})
                )
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
            why = Text("alert.fold_out_of_turn.before_bring_in.message", {"seat": seat})
        elif hand.phase is Phase.BETTING and hand.actor is not None:
            why = Text(
                "alert.fold_out_of_turn.actor_to_act.message",
                {"seat": seat, "actor": self._seat(hand.actor)},
            )
        else:
            why = Text("alert.fold_out_of_turn.before_round.message", {"seat": seat})
        self._alert(
            AlertCode.FOLD_OUT_OF_TURN,
            tseat,
            "R-BET-10",
            why,
            Text("alert.fold_out_of_turn.remedy"),
        )

    def _fold(self, h: int, source: str) -> None:
        action = self.hand.fold(h)
        self._pending_fold.discard(h)
        if source == "muck":
            self._muck_folds.add((h, action.street))
        for c in self._cards_of(h):
            self._role[c] = (Role.FOLDED, h)
        for c in self._learned[h]:
            self._role[c] = (Role.FOLDED, h)
        self._left.discard(h)
        self._emit_action(action, source)

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
                Text("alert.winning_hand_mucked.message", {"seat": self._seat(h)}),
                Text("alert.winning_hand_mucked.remedy"),
            )
            return
        self._pending_muck.add(h)

    def _winner_to_muck(self, card: CardIndex, reader: str) -> None:
        """After an uncontested pot: the winner's cards reaching the muck are a muck
        (R-SHOW-3); every other card movement is the table being cleared."""
        hand = self.hand
        h = hand.uncalled_winner
        if h is None or place_of(reader).kind is not PlaceKind.MUCK:
            return
        if self._role.get(card) == (Role.HOLE, h) or (
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

    def _mucked(self, h: int) -> None:
        for c in self._cards_of(h):
            self._role[c] = (Role.FOLDED, h)
        self._s.events.append(HandMucked(self._t(h)))
