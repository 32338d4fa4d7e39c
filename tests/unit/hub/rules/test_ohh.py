"""Open Hand History: every game's hands, through each perspective, validate against
docs/schemas/ohh.schema.json, show only the cards the reader may see, and — written with
every card — replay on the engine to the same actions and stacks."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from feltwire.cards import card_index
from hub.rules.dealing import DealKind
from hub.rules.games import GAMES, game
from hub.rules.hand import Hand, Phase
from hub.rules.ohh import ohh_document
from hub.rules.pokerstars import HandContext, Perspective
from tests.support.random_hands import hidden_cards, random_hand

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[4] / "docs" / "schemas" / "ohh.schema.json").read_text()
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def context(hand: Hand, seed: int) -> HandContext:
    names = [f"Player {i + 1}" for i in range(hand.n)]
    return HandContext(seed, "Main 1", datetime(2026, 12, 2, 21, tzinfo=UTC), names,
                       [i + 2 for i in range(hand.n)], 10)  # fmt: skip


def replay(doc: dict[str, Any], like: Hand) -> Hand:
    """The engine's hand from the file's actions (the table's stakes as ``like`` has
    them: OHH gives the blinds' sizes, not the seats' options): cards dealt, board cards
    of each round, bets, draws, shows and mucks."""
    ohh = doc["ohh"]
    variant = next(f.split(":", 1)[1] for f in ohh["flags"] if f.startswith("feltwire_variant:"))
    hand = Hand(game(variant), like.stakes, [p["starting_stack"] for p in ohh["players"]])
    for rnd in ohh["rounds"]:
        for card in rnd.get("cards", []):
            if hand.expected() and hand.expected()[0].kind is DealKind.BURN:
                hand.burn()
            hand.deal_board(card_index(card))
        for action in rnd["actions"]:
            seat, what = action["player_id"], action["action"]
            cards = [card_index(c) for c in action.get("cards", [])]
            if what == "Dealt Cards":
                for card in cards:
                    hand.deal_hole(seat, card)
            elif what == "Fold":
                hand.fold(seat)
            elif what in ("Check", "Call"):
                hand.check_or_call(seat)
            elif what in ("Bet", "Raise"):
                hand.bet_or_raise_to(hand.bets[seat] + action["amount"], seat)
            elif what == "Post Bring In":
                hand.bring_in(seat)
            elif what in ("Discards Cards", "Stands Pat"):
                hand.discard(seat, cards)
            elif what == "Shows Cards":
                hand.show(seat, cards)
            elif what == "Mucks Cards":
                hand.muck(seat)
            if (
                hand.phase is Phase.DEALING
                and hand.expected()
                and all(e.kind is DealKind.BURN for e in hand.expected())
            ):
                hand.burn()  # OHH records no burns: the engine's implicit one
    return hand


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_every_game_validates_hides_what_it_must_and_replays(variant: str) -> None:
    for seed in range(25):
        hand = random_hand(variant, seed, antes=seed % 3)
        ctx = context(hand, seed)
        for view in (
            Perspective.shown(),
            Perspective.hero(seed % hand.n),
            Perspective.everything(),
        ):
            doc = ohh_document(hand, ctx, view)
            errors = sorted(VALIDATOR.iter_errors(doc), key=str)
            assert not errors, (errors[0].message, list(errors[0].absolute_path))
            text = json.dumps(doc)
            assert not set(re.findall(r'"([2-9TJQKA][cdhs])"', text)) & hidden_cards(hand, view), (
                view
            )
            won = sum(w["win_amount"] for p in doc["ohh"]["pots"] for w in p["player_wins"])
            assert won == sum(a.amount for a in hand.awards)
        again = replay(ohh_document(hand, ctx, Perspective.everything()), hand)
        assert again.phase is Phase.COMPLETE, variant
        assert again.stacks == hand.stacks and again.board == hand.board
        assert [s.seat for a in again.awards for s in a.shares] == [
            s.seat for a in hand.awards for s in a.shares
        ]
