"""The demo's simulated players: a believable mix of folds, calls, raises and the odd
all-in, so the demo looks like a real table (issue 17).

:class:`TablePlayers` decides for the seat to act from what that player could know — its
own cards, the board, the pot, the price of a call — with a seeded :class:`random.Random`:

* before the flop it plays about one hand in four (pairs, high cards, suited connectors)
  and folds the rest to a bet; it opens with a raise of 2½–3 big blinds, re-raises only a
  strong hand, and calls a raise with a good one;
* after the flop it bets or raises a made hand, calls with a pair at a fair price, folds
  nothing to a bet and bluffs now and then; bets are ½–¾ of the pot;
* it goes all in, or calls off its stack, only with a very strong hand — so an all-in is
  rare (the demo's summary counts the hands with one) and a fold comes in most hands.

The decisions are :class:`Decision` values the dealer enters at the console (a fold is
the cards pushed to the muck). Stud's bring-in and completion, and fixed-limit sizes, come
from the legal actions as they are.

>>> import random
>>> TablePlayers(random.Random(1), unit=5).strength([0, 21], [])  # seven-deuce offsuit
0.15
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from feltwire.cards import CardIndex
from hub.rules.evaluator import HandCategory, InvalidHandError, evaluate_high, high_category
from hub.rules.hand import Hand
from hub.rules.procedure import Act

__all__ = ["Decision", "TablePlayers"]


class Decision(NamedTuple):
    """What a player does: the act and, for a bet, raise or completion, its total."""

    act: Act
    to: int = 0


_MADE: dict[HandCategory, float] = {
    HandCategory.HIGH_CARD: 0.12,
    HandCategory.PAIR: 0.4,
    HandCategory.TWO_PAIR: 0.72,
    HandCategory.THREE_OF_A_KIND: 0.82,
    HandCategory.STRAIGHT: 0.88,
    HandCategory.FLUSH: 0.9,
    HandCategory.FULL_HOUSE: 0.95,
    HandCategory.FOUR_OF_A_KIND: 0.99,
    HandCategory.STRAIGHT_FLUSH: 1.0,
}


class TablePlayers:
    """Every simulated player's choices (one object for the table: the players differ by
    their cards, not their character). ``unit`` is the smallest chip: every bet is a
    multiple of it (R-BUY-6)."""

    def __init__(self, rng: random.Random, *, unit: int = 1) -> None:
        self.rng = rng
        self.unit = max(1, unit)

    # ------------------------------------------------------------------ strength

    def strength(self, hole: Sequence[CardIndex], board: Sequence[CardIndex]) -> float:
        """How good the hand is now, 0 (hopeless) to 1 (the nuts), roughly."""
        cards = [c for c in hole if c >= 0]
        shared = [c for c in board if c >= 0]
        if len(cards) + len(shared) >= 5 and shared:
            try:
                value = evaluate_high([*cards, *shared][:7])
            except (InvalidHandError, ValueError):
                return 0.3
            made = _MADE[high_category(value)]
            if high_category(value) is HandCategory.PAIR:
                mine = [c >> 2 for c in cards if any(b >> 2 == c >> 2 for b in shared)]
                # the higher the pair the better; a pair on the board only is worth less
                made += 0.2 * max(mine) / 12 if mine else -0.1
            return round(min(1.0, made), 2)
        return self._starting(cards)

    @staticmethod
    def _starting(cards: Sequence[CardIndex]) -> float:
        """A starting hand's worth (hold'em's two cards; more cards: the best two)."""
        if len(cards) < 2:
            return 0.3
        ranks = sorted((c >> 2 for c in cards), reverse=True)
        hi, lo = ranks[0], ranks[1]
        if any(ranks.count(r) > 1 for r in ranks):
            pair = max(r for r in ranks if ranks.count(r) > 1)
            return round(0.5 + pair / 24, 2)
        suited = len({c & 3 for c in cards[:2]}) == 1
        score = (hi + lo) / 24 * 0.6 + (0.06 if suited else 0.0)
        score += 0.04 if hi - lo == 1 else 0.0
        return round(max(0.15, score), 2)

    # ------------------------------------------------------------------ sizes

    def _round(self, amount: float) -> int:
        return int(amount // self.unit) * self.unit

    def _size(self, hand: Hand, h: int, to: float) -> int:
        """A bet or raise total within the legal range, in whole chips."""
        la = hand.legal_actions()
        return max(la.min_to, min(la.max_to, self._round(to)))

    # ------------------------------------------------------------------ decisions

    def decide(self, hand: Hand, hole: Sequence[CardIndex], board: Sequence[CardIndex]) -> Decision:
        """What the seat to act does."""
        la = hand.legal_actions()
        h = la.seat
        roll = self.rng.random()
        if la.can_bring_in:
            if la.can_bet_or_raise and roll < 0.2:
                return Decision(Act.COMPLETE, la.min_to)
            return Decision(Act.BRING_IN)
        s = self.strength(hole, board)
        stack, bet = hand.stacks[h], hand.bets[h]
        behind = stack + bet  # what the player can put in this round at most
        call = la.call_amount if la.can_call else 0
        pot = hand.pot_total
        preflop = not [c for c in board if c >= 0]
        current = hand.current_bet
        if call:
            if call >= stack:  # calling puts the stack in: only with a very strong hand
                return Decision(Act.CALL) if s >= 0.8 or roll < 0.05 else self._fold(la.can_fold)
            price = call / (pot + call)
            raised = preflop and current > self._big_blind(hand)
            if la.can_bet_or_raise and (s >= 0.86 or (not raised and s >= 0.5 and roll < 0.6)):
                return self._raise(hand, h, s, current * (3 if raised else 2.8), behind)
            keep = 0.5 if raised else 0.42 if preflop else 0.3 + price
            if s >= keep or (not preflop and roll < 0.06):
                return Decision(Act.CALL)
            return self._fold(la.can_fold)
        if la.can_bet_or_raise:
            if s >= 0.6 and roll < 0.75:
                return self._raise(hand, h, s, self._opening(hand, pot, preflop), behind)
            if (s >= 0.4 and roll < 0.25) or (not preflop and roll < 0.07):
                return self._raise(hand, h, s, self._opening(hand, pot, preflop), behind)
        return Decision(Act.CHECK)

    def _opening(self, hand: Hand, pot: int, preflop: bool) -> float:
        if preflop:
            return self._big_blind(hand) * self.rng.choice((2.5, 3.0))
        return pot * self.rng.choice((0.5, 0.66, 0.75))

    @staticmethod
    def _big_blind(hand: Hand) -> int:
        """The big blind (the minimum bet of a big-bet game; fixed limit: the small bet)."""
        stakes = hand.stakes
        return max(stakes.min_bet, max(stakes.blinds, default=0), stakes.small_bet, 1)

    def _raise(self, hand: Hand, h: int, s: float, to: float, behind: int) -> Decision:
        """A bet or raise to about ``to``; one that would commit most of the stack is an
        all-in with a very strong hand and a call (or check) otherwise."""
        la = hand.legal_actions()
        total = self._size(hand, h, to)
        if total >= 0.6 * behind:
            if s >= 0.9 and hand.can_all_in(h):
                return Decision(Act.ALL_IN)
            return Decision(Act.CALL) if la.can_call and la.call_amount else Decision(Act.CHECK)
        act = Act.RAISE if la.bet_is_raise else Act.BET
        return Decision(act, total)

    @staticmethod
    def _fold(can_fold: bool) -> Decision:
        return Decision(Act.FOLD) if can_fold else Decision(Act.CHECK)
