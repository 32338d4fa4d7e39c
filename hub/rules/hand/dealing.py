"""Dealing: the cards each street is owed, and the card inputs that fill it.

:class:`Dealing` is the part of a :class:`~hub.rules.hand.Hand` that opens each street
(its hole cards, up or down, its board cards; in stud a community card when the deck runs
short, R-DEAL-4; in draw games the discards and replacements, R-DEAL-5) and takes the
card inputs: :meth:`~Dealing.burn`, :meth:`~Dealing.deal_hole`, :meth:`~Dealing.deal_board`,
:meth:`~Dealing.discard` and :meth:`~Dealing.learn_hole`, each with ``verify_x`` and
``can_x``. A card is never chosen here: it comes from outside. The street's burn is
assumed (an implicit burn) when the input skips it, unless :attr:`Options.burn_required`.

Each input has one fast path for the common case; it tests the same predicates as the
check (:meth:`~Dealing._hole_due`, :meth:`~Dealing._board_due`, :meth:`~Dealing._burn_due`,
:meth:`Stub.fresh <hub.rules.hand.stub.Stub.fresh>`, :meth:`Stub.has
<hub.rules.hand.stub.Stub.has>`), and anything else goes through ``verify_x``.

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> from hub.rules.hand import Hand
>>> hand = Hand(game("NT"), Stakes.blind_game(2, 5, 10), [1000, 1000])
>>> hand.can_deal_board(c("As")), hand.can_deal_hole(0, c("As")), hand.can_deal_hole(2, c("As"))
(False, True, False)
>>> _ = hand.deal_hole(0, c("As")); hand.can_deal_hole(1, c("As"))
False
"""

from __future__ import annotations

from collections.abc import Sequence

from feltwire.cards import CardIndex
from feltwire.text import Player, Text
from hub.messages.vocabulary import phase, street
from hub.rules.dealing import UNKNOWN, Deal, Discard
from hub.rules.errors import (
    DealingError,
    DuplicateCardError,
    IllegalActionError,
    MisdealError,
    OutOfTurnError,
    PhaseError,
)

from .records import BETTING, BOARD, BURN, DEALING, DRAWING, HOLE, STUD, new_record
from .state import HandState, asks
from .stub import deck_empty

__all__ = ["Dealing"]


class Dealing(HandState):
    """The dealing of a :class:`~hub.rules.hand.Hand` (a part of it; see the module)."""

    __slots__ = ()

    # --------------------------------------------------------------- streets

    def _start_street(self, index: int) -> None:
        self._street_index = index
        street = self.game.streets[index]
        hole_up, board_n = street.hole_up, street.board
        self._burned = False
        self._board_dealt = 0
        self._dealt = [0] * self.n
        if self.game.family is STUD and hole_up:
            stub = self.game.deck_size - self._stub.cards_out
            if stub - (1 if index else 0) < self._n_in * len(hole_up):
                hole_up, board_n = (), 1  # R-DEAL-4: one community card for all
                if stub < 2:
                    self._burned = True  # no card to spare for a burn
        self._hole_up = hole_up
        self._board_n = board_n
        self._deals_left = self._n_in * len(hole_up) + board_n
        if street.draw:
            self.phase = DRAWING
            self._drawn = [False] * self.n
            self._owed = [0] * self.n
        elif hole_up or board_n:
            self.phase = DEALING
        else:
            self._start_betting()

    def _draw_done(self) -> bool:
        for s in range(self.n):
            if not self.folded[s] and (not self._drawn[s] or self._owed[s]):
                return False
        return True

    # ------------------------------------------------------------ predicates

    def _burn_pending(self) -> bool:
        """True when the street's burn (every street after the first) is still to come."""
        return bool(self._street_index) and not self._burned

    def _burn_due(self) -> bool:
        """R-DEAL-2/3/5: True when a burn may be dealt now — once per street after the
        first, before the street's first card."""
        phase = self.phase
        return (
            (phase is DEALING or phase is DRAWING)
            and self._burn_pending()
            and not self._board_dealt
            and not any(self._dealt)
        )

    def _hole_due(self, seat: int) -> bool:
        """R-DEAL-6: True when ``seat`` is in the hand and owed a hole card of this street
        (in any order; :attr:`Options.strict_deal_order` asks more)."""
        return (
            self.phase is DEALING
            and 0 <= seat < self.n
            and self._dealt[seat] < len(self._hole_up)
            and not self.folded[seat]
        )

    def _board_due(self) -> bool:
        """R-DEAL-1/7: True when a board card is due: the street has one left and every
        hole card of the street is out."""
        if self.phase is not DEALING or self._board_dealt >= self._board_n:
            return False
        k = len(self._hole_up)
        return not k or all(self._dealt[s] >= k for s in range(self.n) if not self.folded[s])

    # ---------------------------------------------------------------- checks

    def _check_card(self, card: CardIndex, seat: int = -1, burn: bool = False) -> None:
        """R-CARD-1: raise unless ``card`` may come into play for ``seat``; ``burn``: the
        card is the street's burn itself (no burn comes before it)."""
        stub = self._stub
        if stub.fresh(card):
            return
        pending_burn = 0 if self._burned or burn else 1
        stub.check(
            card,
            self.phase is DRAWING and stub.recyclable(card, seat, self._street_index, pending_burn),
        )

    def _verify_supply(self, seat: int) -> None:
        """R-DEAL-4/5: raise unless the card for ``seat`` (-1: a board card) can be dealt
        now, with the street's burn before it if it is still owed (and, with
        :attr:`Options.burn_required`, unless that burn was dealt)."""
        pending = self._burn_pending()
        stub = self._stub
        serves = stub.can_serve(seat, self._street_index, 2 if pending else 1)
        if not serves and not stub.reshuffles:
            raise deck_empty()
        if pending and self.options.burn_required:
            raise DealingError(self._burn_rule_id, Text("refusal.dealing.burn_first"))
        if not serves:
            raise deck_empty()

    def _served_next(self) -> int:
        """The seat whose replacement cards come next in a draw (the first owed one in
        dealing order), -1 when none is owed or the hand is not drawing. When the stub runs
        out at the burn, that player is "the current player" of R-DEAL-5: his discards stay
        out of the new stub."""
        if self.phase is DRAWING:
            for s in range(self.n):
                if self._owed[s] > 0:
                    return s
        return -1

    def _implicit_burn(self, seat: int = -1) -> None:
        """Burn an unread card before ``seat``'s card (-1: a board card); the check that
        the burn could be skipped was made (:meth:`_verify_supply`)."""
        street = self._street_index
        self._stub.burn(UNKNOWN, seat, street)
        self.burns.append(UNKNOWN)
        self._burned = True
        self.log.append(new_record(Deal, (BURN, UNKNOWN, None, False, street, True)))

    # ------------------------------------------------------------------ burn

    def verify_burn(self, card: CardIndex = UNKNOWN) -> None:
        """Raise unless a burn is due now: once per street after the first, before its
        first card (R-DEAL-2, R-DEAL-3, R-DEAL-5)."""
        rule = self._burn_rule_id
        if not self._burn_due():
            if self.phase not in (DEALING, DRAWING) or self._street_index == 0:
                raise PhaseError(rule, Text("refusal.phase.no_burn_due"))
            if self._burned:
                raise DealingError(rule, Text("refusal.dealing.already_burnt"))
            raise DealingError(rule, Text("refusal.dealing.burn_before_first_card"))
        served = self._served_next()
        self._check_card(card, served, burn=True)
        if not self._stub.can_serve(served, self._street_index):
            raise deck_empty()

    can_burn = asks(verify_burn)

    def burn(self, card: CardIndex = UNKNOWN) -> Deal:
        """Burn a card (``UNKNOWN`` when its face was not read)."""
        stub = self._stub
        if not (self._burn_due() and stub.fresh(card) and stub.has(1)):
            self.verify_burn(card)
        street = self._street_index
        stub.burn(card, self._served_next(), street)
        self.burns.append(card)
        self._burned = True
        deal: Deal = new_record(Deal, (BURN, card, None, False, street, False))
        self.log.append(deal)
        return deal

    # ------------------------------------------------------------ hole cards

    def verify_deal_hole(self, seat: int, card: CardIndex, up: bool | None = None) -> bool:
        """Raise unless ``card`` may go to ``seat`` now; return whether it is face up."""
        self._check_card(card, seat)
        if not 0 <= seat < self.n:
            raise MisdealError(
                "R-DEAL-6", Text("refusal.misdeal.no_such_player", {"number": seat + 1})
            )
        if self.phase is DRAWING:
            if self._owed[seat] <= 0:
                raise MisdealError(
                    "R-DEAL-5", Text("refusal.misdeal.no_replacement_owed", {"seat": Player(seat)})
                )
            expect_up = False
        elif self.phase is DEALING and self._hole_up:
            if not self._hole_due(seat):
                if self.folded[seat]:
                    raise MisdealError(
                        "R-DEAL-6", Text("refusal.misdeal.not_in_hand", {"seat": Player(seat)})
                    )
                raise MisdealError(
                    "R-DEAL-6",
                    Text(
                        "refusal.misdeal.street_complete",
                        {"seat": Player(seat), "street": street(self.street.name)},
                    ),
                )
            if self.options.strict_deal_order:
                nxt = next(e.seat for e in self.expected() if e.kind is HOLE)
                if nxt != seat:
                    assert nxt is not None  # a hole card is always due to a player
                    raise MisdealError(
                        "R-DEAL-6",
                        Text(
                            "refusal.misdeal.wrong_seat",
                            {"seat": Player(seat), "other": Player(nxt)},
                        ),
                    )
            expect_up = self._hole_up[self._dealt[seat]]
        elif self.phase is BETTING:
            raise PhaseError("R-DEAL-7", Text("refusal.phase.card_before_round_end"))
        else:
            raise PhaseError(
                "R-DEAL-6",
                Text("refusal.phase.no_hole_card_due", {"phase": phase(self.phase.value)}),
            )
        if up is not None and up != expect_up:
            face = "refusal.dealing.face_up" if expect_up else "refusal.dealing.face_down"
            raise DealingError("R-DEAL-3", Text(face, {"seat": Player(seat)}))
        self._verify_supply(seat)
        return expect_up

    can_deal_hole = asks(verify_deal_hole)

    def deal_hole(self, seat: int, card: CardIndex, up: bool | None = None) -> Deal:
        """Deal ``card`` (or ``UNKNOWN``) to ``seat``; ``up`` is checked when given."""
        stub = self._stub
        if (
            up is None
            and self._fast_deal
            and self._hole_due(seat)
            and stub.fresh(card)
            and stub.has(2)
        ):
            expect_up = self._hole_up[self._dealt[seat]]
        else:
            expect_up = self.verify_deal_hole(seat, card, up)
        street = self._street_index
        if street and not self._burned:
            self._implicit_burn(seat)
        stub.take(seat, street)
        if card >= 0:
            stub.seen[card] = 1
        self.hole[seat].append(card)
        self.hole_up[seat].append(expect_up)
        deal: Deal = new_record(Deal, (HOLE, card, seat, expect_up, street, False))
        self.log.append(deal)
        self._dealt[seat] += 1
        if self.phase is DRAWING:
            self._owed[seat] -= 1
            if self._draw_done():
                self._start_betting()
        else:
            self._deals_left -= 1
            if not self._deals_left:
                self._start_betting()
        return deal

    def verify_learn_hole(self, seat: int, card: CardIndex) -> int:
        """Raise unless ``card`` may be recorded as one of ``seat``'s hole cards that were
        dealt ``UNKNOWN``; return the slot in :attr:`hole` it fills (the first unknown)."""
        if not 0 <= seat < self.n:
            raise DealingError(
                "R-DEAL-6", Text("refusal.dealing.no_such_player", {"number": seat + 1})
            )
        if card == UNKNOWN:
            raise DealingError("R-CARD-1", Text("refusal.dealing.name_card"))
        self._check_card(card)  # R-CARD-1: in this deck, and not already in play
        hole = self.hole[seat]
        if UNKNOWN not in hole:
            raise DealingError(
                "R-CARD-1", Text("refusal.dealing.no_unread_card", {"seat": Player(seat)})
            )
        return hole.index(UNKNOWN)

    can_learn_hole = asks(verify_learn_hole)

    def learn_hole(self, seat: int, card: CardIndex) -> None:
        """Record ``card`` as one of ``seat``'s hole cards dealt ``UNKNOWN`` and read later
        (e.g. by the seat's antenna): it fills the seat's first unknown slot and is in
        play from now on, so dealing it again is a :class:`DuplicateCardError` (R-CARD-1).

        Not an input of :attr:`log`: the deal stays recorded as dealt, unread; a replay
        learns the card again when the hand is shown (:meth:`show` names its cards).
        """
        slot = self.verify_learn_hole(seat, card)
        self.hole[seat][slot] = card
        self._stub.see(card)

    # ----------------------------------------------------------------- board

    def verify_deal_board(self, card: CardIndex) -> None:
        """Raise unless a board card is due now, and named: a board card lies face up, so
        one dealt unnamed (its tag did not read) is refused — the hands could never be
        read against it."""
        if card == UNKNOWN:
            raise DealingError("R-DEAL-2", Text("refusal.dealing.board_unnamed"))
        self._check_card(card)
        if not self._board_due():
            if self.phase is BETTING:
                raise PhaseError("R-DEAL-7", Text("refusal.phase.board_before_round_end"))
            if self.phase is not DEALING or self._board_dealt >= self._board_n:
                raise PhaseError("R-DEAL-7", Text("refusal.phase.board_not_due"))
            raise DealingError("R-DEAL-1", Text("refusal.dealing.hole_cards_first"))
        self._verify_supply(-1)

    can_deal_board = asks(verify_deal_board)

    def deal_board(self, card: CardIndex) -> Deal:
        """Deal a board card (or the stud community card, R-DEAL-4)."""
        stub = self._stub
        if not (
            self._fast_deal and card >= 0 and self._board_due() and stub.fresh(card) and stub.has(2)
        ):
            self.verify_deal_board(card)
        street = self._street_index
        if street and not self._burned:
            self._implicit_burn()
        stub.take(-1, street)
        if card >= 0:
            stub.seen[card] = 1
        self.board.append(card)
        self._board_dealt += 1
        deal: Deal = new_record(Deal, (BOARD, card, None, True, street, False))
        self.log.append(deal)
        self._deals_left -= 1
        if not self._deals_left:
            self._start_betting()
        return deal

    # ------------------------------------------------------------------ draw

    def verify_discard(self, seat: int, cards: Sequence[CardIndex]) -> None:
        """Raise unless ``seat`` may discard ``cards`` now (its turn to draw, R-DEAL-5,
        holding those cards)."""
        if self.phase is not DRAWING:
            raise PhaseError(
                "R-DEAL-5", Text("refusal.phase.no_draw_open", {"phase": phase(self.phase.value)})
            )
        drawer = self.drawer
        if seat != drawer:
            if not 0 <= seat < self.n:
                raise OutOfTurnError(
                    "R-DEAL-5", Text("refusal.out_of_turn.no_such_player", {"number": seat + 1})
                )
            raise OutOfTurnError(
                "R-DEAL-5",
                Text("refusal.out_of_turn.drew", {"seat": Player(seat), "other": Player(drawer)})
                if drawer is not None
                else Text("refusal.out_of_turn.drew_none_due", {"seat": Player(seat)}),
            )
        if len(cards) > len(self.hole[seat]):
            raise IllegalActionError(
                "R-DEAL-5",
                Text(
                    "refusal.illegal_action.discard_count",
                    {"seat": Player(seat), "count": len(cards)},
                ),
            )
        if len(set(c for c in cards if c >= 0)) != len([c for c in cards if c >= 0]):
            raise DuplicateCardError("R-CARD-1", Text("refusal.duplicate_card.discarded_twice"))
        self._slots_of(seat, cards, "R-DEAL-5")

    can_discard = asks(verify_discard)

    def discard(self, seat: int, cards: Sequence[CardIndex] = ()) -> Discard:
        """Discard ``cards`` (empty: stand pat); the seat is then owed as many new cards."""
        self.verify_discard(seat, cards)
        slots = self._match_cards(seat, cards, "R-DEAL-5")
        hole, ups = self.hole[seat], self.hole_up[seat]
        thrown = tuple(hole[i] for i in slots)
        for i in sorted(slots, reverse=True):
            del hole[i]
            del ups[i]
        pile, street = self._stub.pile, self._street_index
        for c in thrown:
            pile.append((c, seat, street))
        self._drawn[seat] = True
        self._owed[seat] = len(thrown)
        record = Discard(seat, thrown, street)
        self.log.append(record)
        if self._draw_done():
            self._start_betting()
        return record
