"""The showdown: hands shown or mucked in order, and the hand's end.

:class:`Showdown` is the part of a :class:`~hub.rules.hand.Hand` that starts when the last
betting round ends with two or more players: the last aggressor shows first, or after a
round everyone checked the first player left of the button (in stud the best hand
showing), R-SHOW-1; a hand may be shown at any moment and thrown away unseen only in turn
(R-SHOW-2/4); when a player is all in every hand is turned up at once. Once every hand
left is shown (or one is left) the pots are awarded. After the hand the uncalled winner
may still show all or part of its hand (R-SHOW-3).

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> from hub.rules.hand import Hand
>>> hand = Hand(game("NT"), Stakes.blind_game(2, 5, 10), [10, 10])
>>> for seat, code in ((0, "As"), (1, "Kd"), (0, "Ah"), (1, "Kh")):
...     _ = hand.deal_hole(seat, c(code))
>>> hand.can_show(0)
False
>>> _ = hand.call(); hand.can_show(0), hand.can_show(0, [c("As"), c("Qs")])
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from feltwire.cards import CardIndex
from feltwire.text import Player, Text
from hub.rules.dealing import UNKNOWN, ShowOrMuck
from hub.rules.errors import OutOfTurnError, PhaseError, ShowdownError
from hub.rules.showdown import stud_opener

from .records import BETTING, COMPLETE, SHOWDOWN, STUD, new_record
from .state import HandState, asks

__all__ = ["Showdown"]


class Showdown(HandState):
    """The showdown of a :class:`~hub.rules.hand.Hand` (a part of it; see the module)."""

    __slots__ = ()

    def _betting_closed(self) -> bool:
        """True when no more betting can happen in this hand (all in, or one with chips)."""
        if self.phase is BETTING:
            return False
        return self._n_able <= 1 and self._n_in >= 2

    def _all_in_showdown(self) -> bool:
        """True when a player in the showdown is all in: then every hand is turned face up
        at once and the order of R-SHOW-1 does not apply (TDA practice, *default*)."""
        return (
            any(self.stacks[s] == 0 and not self.folded[s] for s in range(self.n))
            and self._n_able <= 1
        )

    def _checked_shower(self) -> int:
        """R-SHOW-1: everyone checked the last round. The first player still in the hand
        clockwise from the button shows first, all in or not (seat 0 on: folded seats are
        skipped by :meth:`_show_order`); in stud the best hand showing among all still in
        (the highest; in razz the lowest, as the round's opener is chosen)."""
        if self.game.family is not STUD:
            return 0
        ups = {s: [c for c in cards if c >= 0] for s, cards in self.up_cards.items()}
        return stud_opener(self.game.streets[-1].opening, ups)

    def _show_order(self) -> list[int]:
        start = self._show_from if self._show_from >= 0 else 0
        folded = self.folded
        return [s for s in self._clockwise[start - 1] if not folded[s]]  # from start on

    def _start_showdown(self) -> None:
        self.phase = SHOWDOWN
        self.actor = None
        self._show_queue = self._show_order()
        self._tabled = self._all_in_showdown()
        self._check_showdown_done()

    def _check_showdown_done(self) -> None:
        shown, mucked = self._shown, self._mucked
        live = [s for s in self._show_queue if not mucked[s]]
        if len(live) <= 1 or all(shown[s] for s in live):
            self._award()

    def _verify_show_or_muck(self, seat: int, showing: bool) -> None:
        rule = "R-SHOW-2"
        if not 0 <= seat < self.n:
            raise ShowdownError(rule, Text("refusal.showdown.no_such_player", {"number": seat + 1}))
        if self.folded[seat]:
            raise ShowdownError(
                rule, Text("refusal.showdown.not_in_showdown", {"seat": Player(seat)})
            )
        if self.phase is COMPLETE:
            if not self._shown[seat] and not self._mucked[seat]:
                return  # R-SHOW-3: the uncalled winner (or the last hand, unshown) may show
            if showing and self._shown[seat]:
                return  # showing again, e.g. with the last card after an all-in
            raise ShowdownError("R-SHOW-3", Text("refusal.showdown.hand_over"))
        if self._mucked[seat]:
            raise ShowdownError(rule, Text("refusal.showdown.mucked", {"seat": Player(seat)}))
        if self._shown[seat]:
            if showing:
                return  # showing again (e.g. with the last card after an all-in) is fine
            raise ShowdownError(rule, Text("refusal.showdown.shown", {"seat": Player(seat)}))
        if self.phase is SHOWDOWN:
            # R-SHOW-4: a hand may be tabled at any moment; the order says who is asked
            # first and who may throw a hand away unseen
            if not showing and self.options.showdown_order and not self._tabled:
                nxt = self.shower
                if nxt != seat:
                    assert nxt is not None  # a showdown in progress has someone to show next
                    raise OutOfTurnError(
                        "R-SHOW-1", Text("refusal.out_of_turn.show_order", {"other": Player(nxt)})
                    )
            if not showing:
                self._verify_not_last_claimant(seat)
            return
        if not self._betting_closed():
            raise PhaseError("R-SHOW-1", Text("refusal.phase.show_after_betting"))
        if not showing:  # all in before the showdown: the last claim stays too
            self._verify_not_last_claimant(seat)

    def _verify_not_last_claimant(self, seat: int) -> None:
        """R-SHOW-2: the last hand with a claim on a pot may not be thrown away — the pot
        would have no claimant left (and every hand would have to be read to award it)."""
        for pot in self.pots():
            if seat in pot.eligible and not any(
                o != seat and not self._mucked[o] for o in pot.eligible
            ):
                raise ShowdownError(
                    "R-SHOW-2", Text("refusal.showdown.last_claimant", {"seat": Player(seat)})
                )

    def verify_show(self, seat: int, cards: Sequence[CardIndex] | None = None) -> None:
        """Raise unless ``seat`` may show now (with ``cards`` if named)."""
        self._verify_show_or_muck(seat, True)
        hole = self.hole[seat]
        if cards is None:
            if UNKNOWN in hole:
                raise ShowdownError(
                    "R-SHOW-2", Text("refusal.showdown.cards_unknown", {"seat": Player(seat)})
                )
        elif self.phase is COMPLETE and len(cards) <= len(hole):
            if all(c == UNKNOWN for c in cards):  # R-SHOW-3: after the hand, part may show
                raise ShowdownError("R-SHOW-3", Text("refusal.showdown.name_shown_cards"))
        elif UNKNOWN in cards:
            raise ShowdownError(
                "R-SHOW-2", Text("refusal.showdown.all_face_up", {"seat": Player(seat)})
            )
        elif len(cards) != len(hole):
            raise ShowdownError(
                "R-SHOW-2",
                Text(
                    "refusal.showdown.card_count",
                    {"seat": Player(seat), "held": len(hole), "count": len(cards)},
                ),
            )
        if cards is not None:
            self._slots_of(seat, [c for c in cards if c != UNKNOWN], "R-SHOW-2")

    can_show = asks(verify_show)

    def show(self, seat: int, cards: Sequence[CardIndex] | None = None) -> ShowOrMuck:
        """Show the seat's hand (naming its cards when they were dealt unknown).

        A seat may show even a hand that does not beat the hands shown (cards speak);
        R-SHOW-2 only lets it muck instead. At showdown any hand may be shown at any
        moment, out of turn too (R-SHOW-4). Before the showdown a hand may be shown once
        no more betting is possible (all in). After the hand, the uncalled winner (or a
        last hand that won unshown) may show all of it or only some cards (R-SHOW-3):
        ``cards`` then names the cards shown (fewer than the hand, or with ``UNKNOWN``
        for a card kept face down) and the record holds only those."""
        self.verify_show(seat, cards)
        shown: tuple[CardIndex, ...] | None = None
        if cards is not None:
            named = [c for c in cards if c != UNKNOWN]
            self._match_cards(seat, named, "R-SHOW-2")
            if len(named) < len(self.hole[seat]):
                shown = tuple(named)  # R-SHOW-3: part of the hand
        self._shown[seat] = True
        if shown is None:
            shown = tuple(self.hole[seat])
        record: ShowOrMuck = new_record(ShowOrMuck, (seat, True, shown))
        self.log.append(record)
        if self.phase is SHOWDOWN:
            self._check_showdown_done()
        return record

    def verify_muck(self, seat: int) -> None:
        """Raise unless ``seat`` may muck now."""
        self._verify_show_or_muck(seat, False)

    can_muck = asks(verify_muck)

    def muck(self, seat: int) -> ShowOrMuck:
        """Muck the hand unshown: it has no claim on any pot (R-SHOW-2)."""
        self.verify_muck(seat)
        self._mucked[seat] = True
        record: ShowOrMuck = new_record(ShowOrMuck, (seat, False, ()))
        self.log.append(record)
        if self.phase is SHOWDOWN:
            self._check_showdown_done()
        return record
