"""Presence: what a card arriving at or leaving an antenna means for the hand.

The :class:`~hub.rules.antennas.AntennaTracker` turns inventories into moves (a card
arrived, left, or lies on two antennas at once). A card new to the hand arriving on
``seatN`` is a hole card to that seat (on ``upN`` a stud up card), on ``burn`` a burn, on
the board a board card, at the muck an unread card of the player whose turn it is; a
hole card reaching the muck is handed to :mod:`~hub.rules.procedure.muck`. A hole card
leaving its seat without a fold, a folded card coming back, a card to an empty seat, a
card too many, a premature card: each is an alert, never an error.

A seat whose cards are never read is dealt unknown cards when the hand moves on; its
cards are learnt when they turn up later. A tag lost and found within the debounce window
is no move.
"""

from __future__ import annotations

from collections.abc import Iterable

from feltwire.cards import CardIndex
from feltwire.text import Seat, Text
from hub.messages.vocabulary import antenna, street
from hub.rules.alerts import AlertCode
from hub.rules.antennas import Arrival, Departure, Doubled, Move, Place, PlaceKind, place_of
from hub.rules.dealing import DealKind
from hub.rules.errors import TableSeat
from hub.rules.hand import Phase
from hub.rules.procedure.deal_order import BURN_RULE
from hub.rules.procedure.events import BoardDealt, BurnDealt
from hub.rules.procedure.muck import Muck
from hub.rules.procedure.state import Role

__all__ = ["Presence"]


class Presence(Muck):
    """The dealing monitor's layer that reads the moves of the cards on the antennas."""

    def _moves(self, moves: Iterable[Move]) -> None:
        for mv in moves:
            if self.void or self.hand.phase is Phase.COMPLETE:
                if isinstance(mv, Arrival) and self._role.get(mv.card, (None,))[0] is Role.EXTRA:
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
            Text(
                "alert.duplicate_card.two_readers.message",
                {"reader_a": antenna(mv.readers[0]), "reader_b": antenna(mv.readers[1])},
            ),
            Text("alert.duplicate_card.two_readers.remedy"),
        )

    def _unknown_tag(self, reader: str) -> None:
        self._alert(
            AlertCode.UNKNOWN_TAG,
            place_of(reader).seat,
            "R-CARD-1",
            Text("alert.unknown_tag.in_hand.message", {"reader": antenna(reader)}),
            Text("alert.unknown_tag.in_hand.remedy"),
        )

    def _tag_clash(self, reader: str) -> None:
        self._alert(
            AlertCode.DUPLICATE_CARD,
            place_of(reader).seat,
            "R-CARD-1",
            Text("alert.duplicate_card.tag_clash.message", {"reader": antenna(reader)}),
            Text("alert.duplicate_card.tag_clash.remedy"),
        )

    def _arrive(self, card: CardIndex, reader: str, source: str | None) -> None:
        place = place_of(reader)
        if place.kind is PlaceKind.OTHER:
            return
        role = self._role.get(card)
        if role is None or role[0] is Role.EXTRA:
            self._role.pop(card, None)
            self._fresh(card, place)
            return
        kind, owner = role
        if kind is Role.HOLE:
            self._hole_moved(card, owner, place, reader)
        elif kind in (Role.FOLDED, Role.DISCARD) and place.kind in (
            PlaceKind.SEAT,
            PlaceKind.UP,
            PlaceKind.BOARD,
        ):
            if (
                kind is Role.DISCARD
                and self.hand.phase is Phase.DRAWING
                and self.hand.cards_out >= self.hand.game.deck_size
            ):
                self._role.pop(card, None)  # the stub ran out: discards are the new stub
                self._fresh(card, place)
                return
            key = (
                "alert.folded_card_returned.discarded.message"
                if kind is Role.DISCARD
                else "alert.folded_card_returned.folded.message"
            )
            self._alert(
                AlertCode.FOLDED_CARD_RETURNED,
                place.seat if place.seat is not None else self._t(owner),
                "R-ETQ-1",
                Text(
                    key,
                    {"seat": self._seat(owner), "reader": antenna(reader)},
                ),
                Text("alert.folded_card_returned.remedy"),
            )

    def _hole_moved(self, card: CardIndex, h: int, place: Place, reader: str) -> None:
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
            self._cards_left(
                h,
                Text(
                    "alert.cards_left_seat.turned_up.message",
                    {"seat": self._seat(h), "reader": antenna(reader)},
                ),
            )

    def _depart(self, card: CardIndex, reader: str) -> None:
        role = self._role.get(card)
        if role is None:
            return
        kind, owner = role
        if kind is Role.EXTRA:
            del self._role[card]
            return
        if kind is not Role.HOLE or not self._home(owner, reader):
            return
        if not self._live(owner) or owner in self._held:
            return
        if self.hand.phase in (Phase.DEALING, Phase.BETTING, Phase.DRAWING):
            self._cards_left(
                owner, Text("alert.cards_left_seat.left.message", {"seat": self._seat(owner)})
            )

    def _cards_left(self, h: int, text: Text) -> None:
        if h in self._left:
            return
        self._left.add(h)
        self._alert(
            AlertCode.CARDS_LEFT_SEAT,
            self._t(h),
            "R-ETQ-1",
            text,
            Text("alert.cards_left_seat.remedy"),
        )

    # ------------------------------------------------------------ fresh cards

    def _fresh(self, card: CardIndex, place: Place) -> None:
        if place.kind in (PlaceKind.SEAT, PlaceKind.UP):
            assert place.seat is not None
            self._fresh_to_seat(card, place.seat, place.kind is PlaceKind.UP)
        elif place.kind is PlaceKind.BOARD:
            self._fresh_board(card)
        elif place.kind is PlaceKind.BURN:
            self._fresh_burn(card)
        elif place.kind is PlaceKind.MUCK:
            self._fresh_muck(card)

    def _fresh_to_seat(self, card: CardIndex, tseat: TableSeat, via_up: bool) -> None:
        hand = self.hand
        h = self.setup.hand_seat(tseat)
        if h is None:
            self._extra(card)
            self._alert(
                AlertCode.CARD_TO_EMPTY_SEAT,
                tseat,
                "R-DEAL-6",
                Text("alert.card_to_empty_seat.message", {"seat": Seat(tseat)}),
                Text("alert.card_to_empty_seat.remedy"),
                self._deal_severity(),
            )
            return
        if not self._live(h):
            self._extra(card)
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                Text("alert.wrong_card_count.folded_seat.message", {"seat": Seat(tseat)}),
                Text("alert.wrong_card_count.folded_seat.remedy"),
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
                Text("alert.premature_board_card.to_seat.message", {"seat": Seat(tseat)}),
                Text("alert.premature_board_card.remedy"),
            )
        else:
            self._extra(card)
            n = len(hand.hole[h])
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                Text(
                    "alert.wrong_card_count.too_many_now.message",
                    {"seat": Seat(tseat), "count": n},
                ),
                Text("alert.wrong_card_count.too_many.remedy"),
                self._deal_severity(),
            )

    def _fresh_board(self, card: CardIndex) -> None:
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
            self._role[card] = (Role.BOARD, -1)
            self._s.events.append(BoardDealt(card))
            return
        self._extra(card)
        self._alert(
            AlertCode.PREMATURE_BOARD_CARD,
            None,
            "R-DEAL-7",
            Text(
                "alert.premature_board_card.board_early.message"
                if hand.phase is Phase.BETTING
                else "alert.premature_board_card.board_not_due.message"
            ),
            Text("alert.premature_board_card.remedy"),
        )

    def _board_due(self) -> bool:
        exp = self.hand.expected()
        return any(e.kind is DealKind.BOARD for e in exp) and not any(
            e.kind is DealKind.HOLE for e in exp
        )

    def _fresh_burn(self, card: CardIndex) -> None:
        hand = self.hand
        index = hand.street_index
        if hand.phase is Phase.SHOWDOWN:
            self._extra(card)
            return
        if not hand.can_burn(card) and self._plan_active() and self._betting_closed():
            self._settle()  # nobody can bet: the unread cards of the last street are unknown
        if hand.can_burn(card):
            hand.burn(card)
            self._s.events.append(BurnDealt(card))
            if card >= 0:
                self._role[card] = (Role.BURN, -1)
            return
        if index in self._burn_alerted and index not in self._late_burn_taken:
            self._late_burn_taken.add(index)  # the missing burn, late: already told
            if card >= 0:
                self._role[card] = (Role.BURN, -1)
            return
        if hand.phase is Phase.BETTING and index + 1 < len(hand.game.streets):
            self._early_burns.append(card)  # burnt before the round ended: for the next street
            if card >= 0:
                self._role[card] = (Role.BURN, -1)
            return
        self._extra(card)
        self._alert(
            AlertCode.EXTRA_BURN,
            None,
            BURN_RULE[hand.game.family],
            Text("alert.extra_burn.message", {"street": street(hand.street.name)}),
            Text("alert.extra_burn.remedy"),
        )

    def _fresh_muck(self, card: CardIndex) -> None:
        h = self._turn()
        if card >= 0 and h is not None and self._unread(h) > 0:
            self._role[card] = (Role.HOLE, h)
            self._to_muck(h, card)
        else:
            self._extra(card)
