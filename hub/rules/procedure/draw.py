"""The draw: discards to the muck, replacements from the stub, and the counts checked.

In a draw game a live player's cards reaching the muck are discards, kept pending until
the player's turn to draw comes; the cards then arriving on the seat are the replacements.
Before the next action (or when a later seat is served) each drawer's discards are given
to the hand, and a seat whose replacements do not match what it threw gets a
:attr:`~hub.rules.alerts.AlertCode.DRAW_MISMATCH` alert — or, when its cards were never
all read, unknown replacements.
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Text
from hub.rules.alerts import AlertCode
from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.errors import RulesError
from hub.rules.hand import Phase
from hub.rules.procedure.deal_order import DealOrder
from hub.rules.procedure.events import Discarded
from hub.rules.procedure.state import Role

__all__ = ["Draw"]


class Draw(DealOrder):
    """The dealing monitor's layer for draw rounds: discards, replacements and their
    counts."""

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
                self._role[c] = (Role.DISCARD, d)
        self._s.events.append(Discarded(self._t(d), len(record.cards)))

    def _draw_alert(self, h: int, text: Text) -> None:
        """The draw's one alert for ``h`` on this street (``text``: what did not match)."""
        key = (self.hand.street_index, h)
        if key in self._draw_alerted:
            return
        self._draw_alerted.add(key)
        self._alert(
            AlertCode.DRAW_MISMATCH,
            self._t(h),
            "R-DEAL-5",
            text,
            Text("alert.draw_mismatch.remedy"),
        )

    def _short_check(self, before: int | None) -> bool:
        """Seats (before ``before``, or all) still owed replacements: alert when their hand
        was fully read, else deal them unknown cards (unread). True when any is short."""
        short = False
        for d, k in sorted(self._owed().items()):
            if before is not None and d >= before:
                continue
            if self._known_hole(d) is not None:
                got = self._got(d)
                self._draw_alert(
                    d,
                    Text(
                        "alert.draw_mismatch.short.message",
                        {"seat": self._seat(d), "thrown": k + got, "got": got},
                    ),
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

    def _draw_card(self, h: int, card: CardIndex) -> None:
        hand = self.hand
        while hand.drawer is not None and hand.drawer <= h:
            self._commit_discard(hand.drawer)
        self._short_check(before=h)
        owed = self._owed().get(h, 0)
        if owed > 0:
            self._burn_if_missing()
            self._deal_hole(h, card)
            if card >= 0:
                self._role[card] = (Role.HOLE, h)
        elif card >= 0 and self._unread(h) > 0:
            self._learn(h, card)
        else:
            self._extra(card)
            self._draw_alert(
                h, Text("alert.draw_mismatch.too_many.message", {"seat": self._seat(h)})
            )

    def _finish_draw(self) -> bool:
        """Before an action: close the draw. False when a seat is short (alerted)."""
        hand = self.hand
        if hand.phase is not Phase.DRAWING:
            return True
        while hand.drawer is not None:
            self._commit_discard(hand.drawer)
        return not self._short_check(before=None)
