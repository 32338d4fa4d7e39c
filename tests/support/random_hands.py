"""Random legal hands played to the end on the engine alone: a seeded dealer shuffles a
deck and each player picks a random legal action (folds, calls, bets and raises of random
sizes, now and then all in), draws a random number of cards and shows or mucks at random
where the rules let them."""

from __future__ import annotations

import random

from feltwire.cards import FULL_DECK, card_code, card_index
from hub.rules.dealing import Deal, DealKind, ShowOrMuck
from hub.rules.games import Family, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.pokerstars import Perspective


def random_hand(variant: str, seed: int, *, players: int = 0, antes: int = 0) -> Hand:
    """A complete hand of ``variant`` from ``seed`` (``players``: 2–6 at random when 0)."""
    rng = random.Random(seed)
    g = game(variant)
    most = 3 if g.family is Family.DRAW and len(g.streets) > 2 else 6  # no reshuffle
    n = players or rng.randint(2, most)
    stacks = [rng.choice((200, 500, 1000, 1000, 2500)) for _ in range(n)]
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, antes or 1, 3, 10, 20)
    else:
        stakes = Stakes.blind_game(n, 5, 10, ante=antes, small_bet=10, big_bet=20)
    return play_out(Hand(g, stakes, stacks), rng)


def play_out(hand: Hand, rng: random.Random) -> Hand:
    """``hand`` (just begun: its forced bets posted) played to the end from a deck
    ``rng`` shuffles, each player's choices random and legal (see the module)."""
    deck = [card_index(c) for c in FULL_DECK if card_index(c) >> 2 >= hand.game.lowest_rank]
    rng.shuffle(deck)
    while hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.DEALING or (hand.phase is Phase.DRAWING and hand.drawer is None):
            for exp in hand.expected():
                card = deck.pop()
                if exp.kind is DealKind.BURN:
                    hand.burn(card)
                elif exp.kind is DealKind.BOARD:
                    hand.deal_board(card)
                else:
                    assert exp.seat is not None
                    hand.deal_hole(exp.seat, card, exp.up)
        elif hand.phase is Phase.BETTING:
            _act(hand, rng)
        elif hand.phase is Phase.DRAWING:
            seat = hand.drawer
            assert seat is not None
            cards = list(hand.hole[seat])
            hand.discard(seat, rng.sample(cards, rng.randint(0, min(3, len(cards)))))
        else:
            seat = hand.shower
            assert seat is not None
            if rng.random() < 0.3 and hand.can_muck(seat):
                hand.muck(seat)
            else:
                hand.show(seat)
    return hand


def _act(hand: Hand, rng: random.Random) -> None:
    legal = hand.legal_actions()
    if legal.can_bring_in and (rng.random() < 0.7 or not legal.can_bet_or_raise):
        hand.bring_in()
        return
    if legal.can_bring_in:  # complete instead
        hand.bet_or_raise_to(legal.min_to)
        return
    roll = rng.random()
    if roll < 0.25 and legal.can_fold and not legal.can_check:  # nobody folds for free
        hand.fold()
    elif roll < 0.45 and legal.can_bet_or_raise:
        to = rng.randint(legal.min_to, legal.max_to)
        hand.bet_or_raise_to(to if hand.can_bet_or_raise_to(to) else legal.min_to)
    elif roll < 0.5 and legal.can_bet_or_raise:
        hand.bet_or_raise_to(legal.max_to)
    else:
        hand.check_or_call()


def hidden_cards(hand: Hand, view: Perspective) -> set[str]:
    """Face-down hole cards ``view`` may not see: of every seat but the hero's (or none,
    with every card), less the cards a seat showed at the showdown — its discards and
    the cards it kept hidden stay hidden (replacement cards too)."""
    shown = {c for r in hand.log if isinstance(r, ShowOrMuck) and r.shown for c in r.cards}
    return {
        card_code(r.card)
        for r in hand.log
        if isinstance(r, Deal)
        and r.kind is DealKind.HOLE
        and r.seat is not None
        and not r.up
        and r.card >= 0
        and not view.sees(r.seat, False)
        and r.card not in shown
    }
