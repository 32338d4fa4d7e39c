"""The stub: the undealt part of the deck, and the cards that have come out of it.

A :class:`Stub` knows how many cards have left the deck, which cards have been seen in
this hand (every card exists once, R-CARD-1) and which discards and burns lie in the pile
that a draw game turns into a new stub when the deck runs out (R-DEAL-5). It never picks a
card: cards come from outside. Its predicates (:meth:`Stub.fresh`, :meth:`Stub.can_serve`)
are the single statement of their rules, used by the hand's checks and its fast paths.

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import game
>>> stub = Stub(game("NT"), [])
>>> stub.fresh(c("As")), stub.fresh(-1), stub.fresh(52)
(True, True, False)
>>> stub.take(-1, 0); stub.see(c("As")); stub.cards_out, stub.fresh(c("As"))
(1, False)
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Text
from hub.rules.dealing import Reshuffle
from hub.rules.errors import DealingError, DuplicateCardError
from hub.rules.games import Game

from .records import DRAW, Record

__all__ = ["Stub"]


class Stub:
    """The deck of one hand: cards out, cards seen, and the pile of discards and burns."""

    __slots__ = (
        "cards_out",
        "deck_size",
        "game_name",
        "log",
        "lowest_rank",
        "pile",
        "reshuffles",
        "seen",
    )

    def __init__(self, game: Game, log: list[Record]) -> None:
        self.deck_size = game.deck_size
        self.lowest_rank = game.lowest_rank
        self.game_name = game.name
        self.reshuffles = game.family is DRAW
        """Draw games turn the discards and burns into a new stub (R-DEAL-5)."""
        self.log = log
        """The hand's log, where a reshuffle is recorded."""
        self.cards_out = 0
        """Cards taken from the stub so far (dealt or burnt), less any reshuffled back."""
        self.seen = bytearray(52)
        """1 for each card in play in this hand (dealt, burnt or learnt)."""
        self.pile: list[tuple[CardIndex, int, int]] = []
        """Discards and burns as ``(card, seat or -1 for a burn, street)``."""

    def in_deck(self, card: CardIndex) -> bool:
        """True when ``card`` is a card of this game's deck (short deck: six and up)."""
        return 0 <= card < 52 and card >> 2 >= self.lowest_rank

    def fresh(self, card: CardIndex) -> bool:
        """R-CARD-1: True when ``card`` may come into play — ``UNKNOWN``, or a card of this
        deck that is not in play yet."""
        return -1 <= card < 52 and (
            card < 0 or (not self.seen[card] and card >> 2 >= self.lowest_rank)
        )

    def has(self, k: int) -> bool:
        """True when ``k`` more cards can leave the deck without a reshuffle."""
        return self.cards_out + k <= self.deck_size

    def can_serve(self, seat: int, street: int, need: int = 1) -> bool:
        """R-DEAL-4/5: True when ``need`` cards (a card, with its street's burn before it:
        2) can be dealt, ``seat`` being the player served (-1: a burn or board card). In a
        draw game an empty stub is made again of the pile, less what ``seat`` discarded
        this street; a burn taken first lands in the pile and serves the card after it."""
        if self.cards_out + need <= self.deck_size:
            return True
        if not self.reshuffles:
            return False
        return self.cards_out < self.deck_size or any(
            not (o == seat and st == street) for _, o, st in self.pile
        )

    def check(self, card: CardIndex, recyclable: bool = False) -> None:
        """Raise unless ``card`` may come into play (:meth:`fresh`); ``recyclable``: a card
        in play that the coming reshuffle returns to the stub (:meth:`recyclable`)."""
        if self.fresh(card) or recyclable:
            return
        if not self.in_deck(card):
            raise DealingError(
                "R-CARD-1", Text("refusal.dealing.not_in_deck", {"game": self.game_name})
            )
        raise duplicate_card(card)

    def recyclable(self, card: CardIndex, seat: int, street: int, pending_burn: int) -> bool:
        """True when the stub is empty and ``card`` lies in the discards and burns that the
        reshuffle for ``seat`` will turn into the new stub (R-DEAL-5); ``pending_burn`` is 1
        when a burn comes before ``card``."""
        if self.cards_out + pending_burn < self.deck_size:
            return False
        return any(c == card and not (o == seat and st == street) for c, o, st in self.pile)

    def see(self, card: CardIndex) -> None:
        """Put ``card`` in play (nothing for ``UNKNOWN``)."""
        if card >= 0:
            self.seen[card] = 1

    def take(self, seat: int, street: int) -> None:
        """One card leaves the deck for ``seat`` (-1: a burn or board card), after a
        reshuffle when the stub is empty (draw games); raise when none is left."""
        if self.cards_out >= self.deck_size:
            if self.reshuffles:
                self._reshuffle(seat, street)
            if self.cards_out >= self.deck_size:
                raise deck_empty()
        self.cards_out += 1

    def burn(self, card: CardIndex, seat: int, street: int) -> None:
        """A burn (``UNKNOWN`` when unread) leaves the deck and goes to the pile; ``seat``
        is the player whose card comes next (a reshuffle keeps his discards out)."""
        self.take(seat, street)
        self.see(card)
        self.pile.append((card, -1, street))

    def _reshuffle(self, seat: int, street: int) -> None:
        keep = [(c, o, st) for (c, o, st) in self.pile if o == seat and st == street]
        back = [c for (c, o, st) in self.pile if not (o == seat and st == street)]
        for c in back:
            if c >= 0:
                self.seen[c] = 0
        self.cards_out -= len(back)
        self.pile = keep
        self.log.append(Reshuffle(len(back), street))


def duplicate_card(card: CardIndex) -> DuplicateCardError:
    """The error for ``card`` coming into play a second time (R-CARD-1); it names no card."""
    return DuplicateCardError("R-CARD-1", Text("refusal.duplicate_card.in_play"))


def deck_empty() -> DealingError:
    """The error for a card the stub cannot serve: it is empty (R-DEAL-4)."""
    return DealingError("R-DEAL-4", Text("refusal.dealing.deck_empty"))
