"""PHH files as ``feltwire history export`` writes them (:mod:`hub.rules.exports`): a
perspective hides every card it may not see, card by card, and PokerKit replays every
file — an uncontested hand whose winner showed or mucked (R-SHOW-3) included."""

from __future__ import annotations

import logging
import re
import tomllib
import warnings
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
import tomli_w

from hub.rules.exports import hand_text
from hub.rules.games import GAMES
from hub.rules.hand import Hand
from hub.rules.pokerstars import HandContext, Perspective
from tests.support.random_hands import hidden_cards, random_hand
from tests.support.table_scripts import play

RAISE_AND_FOLDS = ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cbr 60", "p1 f", "p2 f"]
CARD = re.compile(r"[2-9TJQKA][cdhs]")


def context(hand: Hand) -> HandContext:
    names = [f"Player {i + 1}" for i in range(hand.n)]
    return HandContext(1, "Main 1", datetime(2026, 12, 3, 21, tzinfo=UTC), names,
                       list(range(1, hand.n + 1)), 10)  # fmt: skip


def phh(hand: Hand, view: Perspective) -> dict[str, Any]:
    fields: dict[str, Any] = tomllib.loads(
        hand_text("phh", hand, context(hand), view), parse_float=Decimal
    )["1"]
    return fields


def pokerkit_stacks(fields: dict[str, Any]) -> list[int]:
    """The finishing stacks PokerKit replays the file's hand to."""
    notation = pytest.importorskip("pokerkit.notation")
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hh = notation.HandHistory.loads(tomli_w.dumps(fields))
            return [int(s) for s in list(hh)[-1].stacks]
    finally:
        logging.disable(logging.NOTSET)


@pytest.mark.parametrize("show", [[], ["p3 sm Qs"], ["p3 sm QsQd"], ["p3 sm"]],
                         ids=["nothing", "one-card", "both", "muck"])  # fmt: skip
def test_an_uncontested_hand_replays_in_pokerkit(show: list[str]) -> None:
    """R-SHOW-3: p3 raises, both fold, p3 shows one card, both, or mucks. The export
    leaves the show out of the actions (PokerKit has no showdown there and refused the
    file: "Unable to repair the hand history"); the stacks replay to p3 +30."""
    hand = play("NT", [1000] * 3, [*RAISE_AND_FOLDS, *show], blinds=(10, 20))
    for view in (Perspective.shown(), Perspective.everything(), Perspective.hero(0)):
        fields = phh(hand, view)
        assert not any(" sm" in a for a in fields["actions"])
        assert pokerkit_stacks(fields) == fields["finishing_stacks"] == [990, 980, 1030]


def test_a_hand_shown_in_part_shows_that_card_only() -> None:
    """p3 shows the queen of spades only: through what the table saw, the file has
    ``d dh p3 Qs??`` — the queen of diamonds was never shown (the writer printed both)."""
    hand = play("NT", [1000] * 3, [*RAISE_AND_FOLDS, "p3 sm Qs"], blinds=(10, 20))
    text = hand_text("phh", hand, context(hand), Perspective.shown())
    assert "Qd" not in text and "Ah" not in text and "2c" not in text
    assert "d dh p3 Qs??" in phh(hand, Perspective.shown())["actions"]
    assert "d dh p3 QsQd" in phh(hand, Perspective.everything())["actions"]
    assert "d dh p1 AhKh" in phh(hand, Perspective.hero(0))["actions"]


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_every_game_hides_what_the_perspective_may_not_see(variant: str) -> None:
    """40 random hands of each game through what the table saw and through player 1's
    eyes: no card the perspective may not see is anywhere in the file — a draw player's
    discards and the cards kept hidden by one who showed at the showdown included."""
    for seed in range(40):
        hand = random_hand(variant, seed)
        for view in (Perspective.shown(), Perspective.hero(0)):
            text = hand_text("phh", hand, context(hand), view)
            cards = set(CARD.findall(" ".join(phh(hand, view)["actions"])))
            leaked = hidden_cards(hand, view) & cards
            assert not leaked, f"{variant} seed {seed}: {sorted(leaked)} in\n{text}"
