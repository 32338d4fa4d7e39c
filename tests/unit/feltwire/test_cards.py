from __future__ import annotations

import pytest

from feltwire.cards import (
    FULL_DECK,
    CardError,
    card_code,
    card_index,
    normalize_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_deck_has_52_distinct_codes_in_index_order() -> None:
    assert len(set(FULL_DECK)) == 52
    assert FULL_DECK[0] == "2c" and FULL_DECK[51] == "As"
    assert all(card_code(card_index(c)) == c for c in FULL_DECK)


def test_rank_and_suit() -> None:
    assert rank_of("As") == 12 and suit_of("As") == 3
    assert rank_of("2c") == 0 and suit_of("2c") == 0
    assert rank_of("Td") == 8 and suit_of("Td") == 1


@pytest.mark.parametrize(
    ("text", "cards"),
    [("AsKd", ("As", "Kd")), ("as kd, 10h", ("As", "Kd", "Th")), ("", ())],
)
def test_parse_cards(text: str, cards: tuple[str, ...]) -> None:
    assert parse_cards(text) == cards


@pytest.mark.parametrize("bad", ["Ax", "1s", "AsK", "Zz", "A"])
def test_bad_codes_name_the_input(bad: str) -> None:
    with pytest.raises(CardError, match="not a"):
        parse_cards(bad) if len(bad) != 2 else normalize_card(bad)


def test_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        card_index("Xx")
