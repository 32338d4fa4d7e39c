from __future__ import annotations

import random
from collections import Counter

from feltwire.deck import simulated_deck
from table_node.config import default_readers
from table_node.dealer import AntennaDealer, DealStepKind, apply_step
from table_node.simulated import SimulatedTable


def test_hole_cards_one_at_a_time_clockwise_from_left_of_button() -> None:
    dealer = AntennaDealer([2, 5, 9], random.Random(3), button=5)
    steps = dealer.deal_hand()
    holes = [s.seat for s in steps if s.kind is DealStepKind.HOLE]
    assert holes == [9, 2, 5, 9, 2, 5]
    assert all(len(s.moves) == 1 for s in steps if s.kind is DealStepKind.HOLE)
    assert dealer.button == 9  # the button moved one seat clockwise


def test_burn_before_each_board_round_and_no_card_twice() -> None:
    for seed in range(50):
        dealer = AntennaDealer([1, 2, 3, 4], random.Random(seed), fold_chance=0.0)
        steps = dealer.deal_hand()
        kinds = [s.kind for s in steps if s.kind in (DealStepKind.BURN, DealStepKind.BOARD)]
        assert kinds == [
            DealStepKind.BURN,
            *[DealStepKind.BOARD] * 3,
            DealStepKind.BURN,
            DealStepKind.BOARD,
            DealStepKind.BURN,
            DealStepKind.BOARD,
        ]
        dealt = [
            m.card
            for s in steps
            if s.kind in (DealStepKind.HOLE, DealStepKind.BURN, DealStepKind.BOARD)
            for m in s.moves
        ]
        assert len(dealt) == len(set(dealt)) == 8 + 3 + 5


def test_table_is_clear_after_every_hand() -> None:
    table = SimulatedTable(default_readers())
    dealer = AntennaDealer([1, 3, 4, 6, 8, 10], random.Random(11))
    deck = simulated_deck()
    seen: Counter[str] = Counter()
    for _ in range(30):
        for step in dealer.deal_hand():
            apply_step(table, step, deck)
            for r in table.readers.values():
                for uid in r.inventory():
                    seen[r.reader_id] += 1
                    assert deck.card_for(uid) is not None
        assert all(not r.inventory() for r in table.readers.values())
    assert seen["board"] > 0 and seen["muck"] > 0 and seen["burn"] > 0
