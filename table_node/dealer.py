"""The simulated backend's dealer: deals hold'em hands onto simulated antennas, card by card.

It shuffles with the random generator it is given (seeded in tests), deals hole cards one
at a time clockwise from the seat left of the button, burns before the flop, turn and
river, lets some players fold (their cards go to the muck), and collects the cards after
the hand. Each :class:`DealStep` is what a real dealer's hand does in one motion; the node
publishes the antennas' inventories after each step.

>>> import random
>>> dealer = AntennaDealer(seats=[1, 2, 3], rng=random.Random(1))
>>> steps = dealer.deal_hand()
>>> [(s.kind.value, s.seat) for s in steps[:4]]
[('hole', 1), ('hole', 2), ('hole', 3), ('hole', 1)]
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from feltwire.cards import FULL_DECK
from feltwire.deck import Deck, simulated_deck
from table_node.simulated import SimulatedTable


class DealStepKind(enum.StrEnum):
    """What one of the dealer's motions was."""

    HOLE = "hole"
    BURN = "burn"
    BOARD = "board"
    FOLD = "fold"
    COLLECT = "collect"


@dataclass(frozen=True, slots=True)
class Move:
    """One card going from one antenna to another (None = the deck / off the table)."""

    card: str
    src: str | None
    dst: str | None


@dataclass(frozen=True, slots=True)
class DealStep:
    """One motion of the dealer: one or more cards moved at once."""

    kind: DealStepKind
    moves: tuple[Move, ...]
    seat: int | None = None


class AntennaDealer:
    """Deals hold'em hands for the seats given; the button moves one seat each hand.

    It only moves cards between antennas (folds are random, nobody bets): enough for a node
    to publish something. The demo's dealer that plays by the rules is the hub's
    (``simulator.dealer.SimulatedDealer``).
    """

    def __init__(
        self,
        seats: Sequence[int],
        rng: random.Random,
        *,
        fold_chance: float = 0.25,
        button: int | None = None,
    ) -> None:
        if len(seats) < 2:
            raise ValueError("a hand needs at least two seated players")
        self.seats = sorted(seats)
        self.rng = rng
        self.fold_chance = fold_chance
        self.button = button if button is not None else self.seats[-1]
        self.hands_dealt = 0

    def _order(self) -> list[int]:
        """Seats clockwise starting with the first seat left of the button."""
        after = [s for s in self.seats if s > self.button]
        before = [s for s in self.seats if s <= self.button]
        return after + before

    def _folds(self, live: list[int], held: dict[int, list[str]]) -> list[DealStep]:
        steps = []
        for seat in list(live):
            if len(live) > 1 and self.rng.random() < self.fold_chance:
                live.remove(seat)
                moves = tuple(Move(c, f"seat{seat}", "muck") for c in held.pop(seat))
                steps.append(DealStep(DealStepKind.FOLD, moves, seat))
        return steps

    def deal_hand(self) -> list[DealStep]:
        """Every step of one hand, from the first hole card to the cleared table."""
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        order = self._order()
        held: dict[int, list[str]] = {s: [] for s in order}
        steps: list[DealStep] = []
        for _ in range(2):
            for seat in order:
                card = deck.pop()
                held[seat].append(card)
                steps.append(DealStep(DealStepKind.HOLE, (Move(card, None, f"seat{seat}"),), seat))
        live = list(order)
        board: list[str] = []
        burns: list[str] = []
        mucked: list[str] = []
        for n_cards in (3, 1, 1):
            folds = self._folds(live, held)
            for f in folds:
                mucked.extend(m.card for m in f.moves)
            steps.extend(folds)
            if len(live) == 1:
                break
            burn = deck.pop()
            burns.append(burn)
            steps.append(DealStep(DealStepKind.BURN, (Move(burn, None, "burn"),)))
            for _ in range(n_cards):
                card = deck.pop()
                board.append(card)
                steps.append(DealStep(DealStepKind.BOARD, (Move(card, None, "board"),)))
        # showdown over: the players' cards go to the muck, then the dealer clears the table
        for seat in live:
            moves = tuple(Move(c, f"seat{seat}", "muck") for c in held.pop(seat))
            mucked.extend(m.card for m in moves)
            steps.append(DealStep(DealStepKind.FOLD, moves, seat))
        collect = (
            [Move(c, "board", None) for c in board]
            + [Move(c, "burn", None) for c in burns]
            + [Move(c, "muck", None) for c in mucked]
        )
        steps.append(DealStep(DealStepKind.COLLECT, tuple(collect)))
        self.hands_dealt += 1
        self.button = order[0]
        return steps


def apply_step(table: SimulatedTable, step: DealStep, deck: Deck | None = None) -> None:
    """Carry out a step on the simulated antennas, cards as their deck's tags."""
    d = deck or simulated_deck()
    for move in step.moves:
        table.move(d.uid_for(move.card), move.src, move.dst)
