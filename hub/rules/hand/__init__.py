"""The hand: a pure, deterministic state object that plays one hand of any game.

A :class:`Hand` is driven by explicit inputs — a card to a seat, a burn, a board card, a
discard, a betting action, a show or muck — each with a ``verify_…`` method (raises a
:class:`~hub.rules.errors.RulesError` naming the rule), a ``can_…`` method (bool, for a
console's buttons) and the operation itself, which returns a frozen record of what
happened. What follows from an input happens on its own: antes and blinds are posted
when the hand is created, bets are gathered and uncalled bets returned when a round
ends, the next street opens, and the pots are awarded when the last hand is shown or
mucked (or everyone else folded). Cards are never chosen by the engine: they come from
outside (RFID reads, a file), which keeps it free of randomness.

Seats are ``0 … n-1`` clockwise starting left of the button (PHH order); the button (or,
in stud, the dealer position) is the last seat, :attr:`Hand.button`.

The package holds the hand's parts, each in its module: :mod:`.records` (phases, forced
bets, the log's records, the result), :mod:`.plan` (what the setup decides: checks, the
big blind, the forced bets), :mod:`.stub` (the deck's stub and the cards in play),
:mod:`.state` (the state and its queries), :mod:`.dealing`, :mod:`.betting_round` and
:mod:`.showdown` (the inputs), :mod:`.award` (the pots at the end). :class:`Hand` is
them together.

The seed's own example (NL 10/20, six players; A is seat 2, D is seat 5):

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> hand = Hand(game("NT"), Stakes.blind_game(6, 10, 20), [2000] * 6)
>>> for seat, cards in enumerate(["AhKh", "2c7d", "QsQd", "9h8h", "3c3d", "JcTc"]):
...     for i in (0, 2):
...         _ = hand.deal_hole(seat, c(cards[i : i + 2]))
>>> _ = hand.fold(2); _ = hand.call(3); _ = hand.fold(4)
>>> hand.legal_actions().min_to, hand.legal_actions().max_to
(40, 2000)
>>> _ = hand.bet_or_raise_to(80, 5); _ = hand.fold(0); _ = hand.fold(1)
>>> hand.call(3).amount
60
>>> hand.phase.name, hand.street.name, hand.pot_total
('DEALING', 'flop', 190)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from feltwire.text import Text
from hub.rules.betting import Action
from hub.rules.dealing import Deal, Discard, ShowOrMuck
from hub.rules.errors import DealingError
from hub.rules.games import Game, Options, Stakes

from .betting_round import BettingRound
from .dealing import Dealing
from .plan import big_blind_seat
from .records import (
    BOARD,
    BRING_IN,
    CALL,
    CHECK,
    FOLD,
    HOLE,
    HandResult,
    Phase,
    Post,
    PostKind,
    Record,
)
from .showdown import Showdown

__all__ = ["Hand", "HandResult", "Phase", "Post", "PostKind", "Record", "big_blind_seat", "replay"]


class Hand(BettingRound, Dealing, Showdown):
    """One hand of poker from the first card to the award.

    See the module docstring for an example. Queries: :attr:`phase`, :attr:`street`,
    :meth:`expected`, :attr:`to_act`, :attr:`actor`, :meth:`legal_actions`,
    :attr:`drawer`, :attr:`shower`, :meth:`pots`, :attr:`result`. Inputs: :meth:`deal_hole`,
    :meth:`burn`, :meth:`deal_board`, :meth:`discard`, :meth:`fold`, :meth:`check`,
    :meth:`call`, :meth:`check_or_call`, :meth:`bet_or_raise_to`, :meth:`bring_in`,
    :meth:`all_in`, :meth:`show`, :meth:`muck`; each with ``verify_…`` and ``can_…``.
    """

    __slots__ = ()


def replay(
    game: Game,
    stakes: Stakes,
    starting_stacks: Sequence[int],
    records: Iterable[Record],
    options: Options | None = None,
) -> Hand:
    """Build a new hand and apply recorded inputs (e.g. another hand's :attr:`Hand.log`).

    Implicit burns and reshuffles are skipped: the engine makes them again itself.
    """
    hand = Hand(game, stakes, starting_stacks, options)
    for r in records:
        if isinstance(r, Deal):
            if r.kind is HOLE:
                if r.seat is None:
                    raise DealingError("R-DEAL-6", Text("refusal.dealing.hole_for_no_seat"))
                hand.deal_hole(r.seat, r.card)
            elif r.kind is BOARD:
                hand.deal_board(r.card)
            elif not r.implicit:
                hand.burn(r.card)
        elif isinstance(r, Discard):
            hand.discard(r.seat, r.cards)
        elif isinstance(r, Action):
            kind = r.kind
            if kind is FOLD:
                hand.fold(r.seat)
            elif kind is CHECK:
                hand.check(r.seat)
            elif kind is CALL:
                hand.call(r.seat)
            elif kind is BRING_IN:
                hand.bring_in(r.seat)
            else:
                hand.bet_or_raise_to(r.to, r.seat)
        elif isinstance(r, ShowOrMuck):
            if r.shown:
                hand.show(r.seat, r.cards)
            else:
                hand.muck(r.seat)
    return hand
