"""Property: no alert, no refusal and no event marked public ever carries a hole card.

Alerts and console refusals must not name any card at all (codes such as ``As`` or
names such as "Ace of spades"); public events may carry cards, but never one that is a
face-down card of a seat, unless that hand was shown before. Checked on simulated hands
(with and without dealing errors) and on arbitrary input sequences, which must also
never make the monitor raise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltwire.cards import FULL_DECK, RANK_NAMES, SUIT_NAMES
from hub.messages import LANGS, render
from hub.rules.dealing import UNKNOWN
from hub.rules.games import Family, Stakes, game
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    DealingMonitor,
    DeclareMisdeal,
    HandShown,
    HoleCardDealt,
    Input,
    Inventory,
    ManualCard,
    MuckHand,
    ShowHand,
    Step,
    TagClash,
    Tick,
    UndoAction,
    UnknownTag,
)
from hub.rules.setup import HandSetup, TableProfile
from tests.support.dealer_sim import Mistake, play_hand
from tests.support.monitor_tables import TABLES

CODE = re.compile(r"\b[2-9TJQKA][cdhs]\b")
NAMES = [f"{RANK_NAMES[c[0]]} of {SUIT_NAMES[c[1]]}".lower() for c in FULL_DECK]


def _card_ints(value: object) -> list[int]:
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if k in ("card", "cards"):
                out += [v] if isinstance(v, int) else list(v)
            else:
                out += _card_ints(v)
        return out
    if isinstance(value, list):
        return [c for v in value for c in _card_ints(v)]
    return []


def assert_no_hole_card(monitor: DealingMonitor, steps: Sequence[Step]) -> None:
    """Scan every alert, refusal and public event of ``steps``."""
    hand = monitor.hand
    secret = {
        c
        for s in range(hand.n)
        for c, up in zip(hand.hole[s], hand.hole_up[s], strict=True)
        if not up and c != UNKNOWN
    }
    for step in steps:
        for e in step.events:
            if isinstance(e, HoleCardDealt) and not e.up and e.card != UNKNOWN:
                secret.add(e.card)
    revealed: set[int] = set()
    for step in steps:
        for e in step.events:
            if isinstance(e, HandShown):
                revealed.update(e.cards)
        texts = [json.dumps(a.as_dict()) for a in step.alerts]
        texts += [
            render(t, lang) for a in step.alerts for t in (a.text, a.remedy) for lang in LANGS
        ]
        if step.refused is not None:  # the refusal as data, and as each language says it
            texts.append(json.dumps(step.refused.as_json()))
            texts += [render(step.refused, lang) for lang in LANGS]
        for text in texts:
            assert not CODE.search(text), text
            assert not any(name in text.lower() for name in NAMES), text
        for e in step.public_events:
            data = e.as_dict()
            leaked = set(_card_ints(data)) & (secret - revealed)
            assert not leaked, data
            assert not any(name in json.dumps(data).lower() for name in NAMES)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    table=st.sampled_from(range(len(TABLES))),
    mistake=st.sampled_from(list(Mistake)),
)
def test_simulated_hands_never_leak_a_hole_card(seed: int, table: int, mistake: Mistake) -> None:
    variant, profile = TABLES[table]
    outcome = play_hand(seed, variant, profile, mistake)
    assert_no_hole_card(outcome.table.monitor, outcome.table.steps)


PROFILE = TableProfile(seats=6, up_cards=True)
READERS = [*PROFILE.readers(), "flop1", "river"]
CARDS = st.frozensets(st.integers(0, 51), max_size=5)
SEATS = st.integers(1, 7)


def _inputs() -> st.SearchStrategy[Input]:
    now = st.floats(0, 1000, allow_nan=False)
    return st.one_of(
        st.builds(Inventory, st.sampled_from(READERS), CARDS, now),
        st.builds(Inventory, st.sampled_from(READERS), CARDS, now),
        st.builds(ConsoleAction, SEATS, st.sampled_from(list(Act)), now, st.integers(0, 300)),
        st.builds(ShowHand, SEATS, now),
        st.builds(MuckHand, SEATS, now),
        st.builds(ManualCard, st.sampled_from(READERS), st.none() | st.integers(0, 51), now),
        st.builds(Tick, now),
        st.builds(UndoAction, now),
        st.builds(TagClash, st.sampled_from(READERS), st.integers(0, 51), now),
        st.builds(UnknownTag, st.sampled_from(READERS), now),
        st.builds(DeclareMisdeal, now),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["NT", "PO", "F7S", "F5D"]),
    inputs=st.lists(_inputs(), max_size=60),
)
def test_arbitrary_inputs_never_leak_and_never_crash(variant: str, inputs: list[Input]) -> None:
    g = game(variant)
    seats = (2, 4, 6)
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(3, 1, 2, 5, 10)
    else:
        stakes = Stakes.blind_game(3, 5, 10)
    setup = HandSetup(1, g, seats, 6, stakes, (100, 100, 100))
    monitor = DealingMonitor(setup, profile=PROFILE)
    steps = []
    for inp in sorted(inputs, key=lambda i: i.now):
        steps.append(monitor.apply(inp))
    assert_no_hole_card(monitor, steps)


def test_a_card_entered_by_hand_gets_one_answer_wherever_a_hidden_card_lies() -> None:
    """The console is no oracle (issue 12): entering a card's code by hand on any antenna
    gets the same refusal, no alert and no event, whether the card is a hole card of one
    seat or another, the burn or a card nobody has seen yet is not (it is taken)."""
    from copy import deepcopy

    from feltwire.cards import card_index as c
    from hub.rules.procedure import MANUAL_CARD_IN_PLAY

    setup = HandSetup(1, game("NT"), (2, 5, 7), 7, Stakes.blind_game(3, 5, 10), (500,) * 3)
    monitor = DealingMonitor(setup, profile=TableProfile(seats=8))
    held: dict[str, set[int]] = {}
    deal = [("seat2", "As"), ("seat5", "Kd"), ("seat7", "7c")]
    deal += [("seat2", "Ah"), ("seat5", "Kc"), ("seat7", "2d"), ("burn", "9s")]
    for t, (reader, code) in enumerate(deal):
        held.setdefault(reader, set()).add(c(code))
        monitor.apply(Inventory(reader, frozenset(held[reader]), now=float(t)))
    hints = monitor.hints()
    answers = set()
    for _, code in deal:
        for reader in ("seat2", "seat5", "seat7", "burn", "board", "muck"):
            step = deepcopy(monitor).apply(ManualCard(reader, c(code), now=9.0))
            answers.add((step.refused, step.alerts, step.events, step.hints == hints))
    assert answers == {(MANUAL_CARD_IN_PLAY, (), (), True)}
    fresh = deepcopy(monitor).apply(ManualCard("burn", c("3h"), now=9.0))
    assert fresh.refused != MANUAL_CARD_IN_PLAY
