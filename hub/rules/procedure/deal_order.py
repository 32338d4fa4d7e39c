"""The order of the deal: the street's dealing sequence, and the burns before it.

How order is judged (the reads give no timing per card, so this is a heuristic): the
monitor keeps the dealing sequence of the street — a :class:`~.state.Slot` per hole card,
clockwise from the first seat left of the button, one card at a time. A card to a seat
later in the sequence marks the seats passed over as *skipped*: their cards may just not
have been read. If a skipped seat's card then turns up before the hand moves on (the first
action, or a burn when nobody can bet), the deal was out of order; if it never turns up,
the seat's cards are unread and are dealt to the hand as unknown cards
(:meth:`DealOrder._settle`).

The hand is fed the slots in sequence as soon as they are filled, each after the burn
its street is due (a burn that was not seen is dealt as an unknown card, with a
:attr:`~hub.rules.alerts.AlertCode.MISSING_BURN` alert when the table burns).
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Seat, Text
from hub.messages.vocabulary import antenna, street
from hub.rules.alerts import AlertCode
from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.errors import DuplicateCardError, TableSeat
from hub.rules.games import Family
from hub.rules.hand import Phase
from hub.rules.procedure.events import BurnDealt, HoleCardDealt
from hub.rules.procedure.state import MonitorState, Role, Slot, SlotStatus

__all__ = ["BURN_RULE", "DEAL_RULE", "DealOrder"]

DEAL_RULE = {Family.BOARD: "R-DEAL-1", Family.STUD: "R-DEAL-3", Family.DRAW: "R-DEAL-1"}
"""The rule a game family's dealing order follows."""
BURN_RULE = {Family.BOARD: "R-DEAL-2", Family.STUD: "R-DEAL-3", Family.DRAW: "R-DEAL-5"}
"""The rule that says when a game family burns."""


class DealOrder(MonitorState):
    """The dealing monitor's layer that places hole cards in the street's dealing
    sequence, judges their order and feeds them, with the burns, to the hand."""

    def _new_street(self) -> None:
        """A street began: a burn made early goes to it, and a dealing street gets its
        sequence."""
        hand = self.hand
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
                Slot(e.seat, bool(e.up))
                for e in hand.expected()
                if e.kind is DealKind.HOLE and e.seat is not None
            ]

    def _plan_card(self, h: int, card: CardIndex, via_up: bool) -> None:
        plan = self._plan
        tseat = self._t(h)
        rule = DEAL_RULE[self.hand.game.family]
        cur = next((i for i, s in enumerate(plan) if s.status == SlotStatus.OPEN), None)
        skipped = next(
            (i for i, s in enumerate(plan) if s.status == SlotStatus.SKIPPED and s.seat == h), None
        )
        ahead = next(
            (i for i, s in enumerate(plan) if s.status == SlotStatus.OPEN and s.seat == h),
            None,
        )
        j: int | None
        if self._s.batch.get(h, 0) >= 1:
            j = skipped if skipped is not None else ahead
            if j is not None:
                self._order_alert(tseat, rule, "alert.deal_out_of_order.two_at_once.message")
        elif skipped is not None:
            j = skipped
            self._order_alert(tseat, rule, "alert.deal_out_of_order.after_later_seats.message")
        elif cur is not None and plan[cur].seat == h:
            j = cur
        elif card >= 0 and self._unread(h) > 0:
            self._learn(h, card)
            return
        else:
            j = ahead
            if j is not None and cur is not None:
                for i in range(cur, j):
                    if plan[i].status == SlotStatus.OPEN:
                        plan[i].status = SlotStatus.SKIPPED
        if j is None:
            self._extra(card)
            self._alert(
                AlertCode.WRONG_CARD_COUNT,
                tseat,
                "R-DEAL-6",
                Text(
                    "alert.wrong_card_count.too_many_on_street.message",
                    {"seat": Seat(tseat), "street": street(self.hand.street.name)},
                ),
                Text("alert.wrong_card_count.too_many.remedy"),
                self._deal_severity(),
            )
            return
        self._s.batch[h] = self._s.batch.get(h, 0) + 1
        slot = plan[j]
        slot.status, slot.card = SlotStatus.FILLED, card
        if card >= 0:
            self._role[card] = (Role.HOLE, h)
        if self._placement_checks() and slot.up != via_up:
            message, remedy, want = (
                (
                    "alert.stud_card_wrong_place.up_on_seat.message",
                    "alert.stud_card_wrong_place.up_on_seat.remedy",
                    f"up{tseat}",
                )
                if slot.up
                else (
                    "alert.stud_card_wrong_place.down_on_up.message",
                    "alert.stud_card_wrong_place.down_on_up.remedy",
                    f"seat{tseat}",
                )
            )
            self._alert(
                AlertCode.STUD_CARD_WRONG_PLACE,
                tseat,
                "R-DEAL-3",
                Text(message, {"seat": Seat(tseat)}),
                Text(remedy, {"reader": antenna(want)}),
            )
        self._flush()

    def _order_alert(self, tseat: TableSeat, rule: str, key: str) -> None:
        """The street's one out-of-order alert (``key``: which way it was out of order)."""
        index = self.hand.street_index
        if index in self._order_alerted:
            return
        self._order_alerted.add(index)
        self._alert(
            AlertCode.DEAL_OUT_OF_ORDER,
            tseat,
            rule,
            Text(key, {"street": street(self.hand.street.name), "seat": Seat(tseat)}),
            Text("alert.deal_out_of_order.remedy"),
            self._deal_severity(),
        )

    def _flush(self) -> None:
        plan = self._plan
        while self._fed < len(plan) and plan[self._fed].status in (
            SlotStatus.FILLED,
            SlotStatus.MISSING,
        ):
            slot = plan[self._fed]
            card = slot.card if slot.status == SlotStatus.FILLED else UNKNOWN
            self._burn_if_missing()
            self._deal_hole(slot.seat, card)
            self._fed += 1

    def _deal_hole(self, h: int, card: CardIndex) -> None:
        try:
            deal = self.hand.deal_hole(h, card)
        except DuplicateCardError:
            self._alert(
                AlertCode.DUPLICATE_CARD,
                self._t(h),
                "R-CARD-1",
                Text("alert.duplicate_card.dealt_in_play.message", {"seat": self._seat(h)}),
                Text("alert.duplicate_card.dealt_in_play.remedy"),
            )
            self._role.pop(card, None)
            deal = self.hand.deal_hole(h, UNKNOWN)
            card = UNKNOWN
        self._s.events.append(HoleCardDealt(self._t(h), card, deal.up))

    def _settle(self) -> None:
        """The hand moves on: hole cards still unread are dealt as unknown cards."""
        for slot in self._plan:
            if slot.status in (SlotStatus.OPEN, SlotStatus.SKIPPED):
                slot.status = SlotStatus.MISSING
        self._flush()

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
        index = hand.street_index
        if self.profile.burn and index not in self._burn_alerted:
            self._burn_alerted.add(index)
            self._alert(
                AlertCode.MISSING_BURN,
                None,
                BURN_RULE[hand.game.family],
                Text("alert.missing_burn.message", {"street": street(hand.street.name)}),
                Text("alert.missing_burn.remedy"),
            )
        hand.burn(UNKNOWN)
        self._s.events.append(BurnDealt(UNKNOWN))
