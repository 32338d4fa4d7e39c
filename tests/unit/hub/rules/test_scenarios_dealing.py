"""Scenario tests for dealing: duplicate cards, dealing order, burns, misdeals, premature
cards and table sizes."""

from __future__ import annotations

from typing import Any

import pytest

from feltwire.cards import card_index
from hub.rules.dealing import UNKNOWN, DealKind, Expected
from hub.rules.errors import (
    ConfigurationError,
    DealingError,
    DuplicateCardError,
    MisdealError,
    PhaseError,
    ShowdownError,
)
from hub.rules.games import Options, Stakes, game
from hub.rules.hand import Hand
from hub.rules.phh import apply_action
from tests.support.table_scripts import cards, play, won


def _holdem(n: int = 3, **options: Any) -> Hand:
    return Hand(game("NT"), Stakes.blind_game(n, 10, 20), [1000] * n, Options(**options))


def _checked_down(p1: str, p2: str, board: str) -> Hand:
    """NL 10/20 heads-up: p1 and p2 dealt these cards, the blinds called and the flop,
    turn and river of ``board`` checked through, to the showdown."""
    actions = [f"d dh p1 {p1}", f"d dh p2 {p2}", "p2 cc", "p1 cc"]
    for street in (board[:6], board[6:8], board[8:]):
        actions += [f"d db {street}", "p1 cc", "p2 cc"]
    return play("NT", [1000] * 2, actions, blinds=(10, 20))


def test_r_card_1_a_card_exists_once() -> None:
    """R-CARD-1: the same card dealt twice, or shown while it lies on the board, is refused."""
    hand = _holdem()
    hand.deal_hole(0, card_index("As"))
    with pytest.raises(DuplicateCardError, match=r"^R-CARD-1: a card is already in play"):
        hand.deal_hole(1, card_index("As"))
    assert not hand.can_deal_hole(1, card_index("As"))
    unknown = _checked_down("????", "KsKd", "AsAh2c3d4d")
    with pytest.raises(DuplicateCardError, match=r"^R-CARD-1: a card is already in play"):
        unknown.show(0, cards("AsQs"))


def test_r_deal_1_hole_cards_one_at_a_time_from_the_small_blind() -> None:
    """R-DEAL-1: the dealer deals one card at a time clockwise starting with the small
    blind; the hand lists the cards it expects in that order."""
    hand = _holdem()
    assert [e.seat for e in hand.expected()] == [0, 1, 2, 0, 1, 2]
    assert hand.expected()[0] == Expected(DealKind.HOLE, 0, False)


def test_r_deal_6_first_card_to_the_wrong_seat_is_a_misdeal_when_strict() -> None:
    """R-DEAL-6 (strict dealing): the first card to the wrong seat is a misdeal."""
    hand = _holdem(strict_deal_order=True)
    with pytest.raises(MisdealError, match=r"^R-DEAL-6: the card went to p3; p1"):
        hand.deal_hole(2, card_index("As"))
    relaxed = _holdem()
    relaxed.deal_hole(2, card_index("As"))  # replay mode accepts PHH's per-seat grouping


def test_r_deal_6_wrong_number_of_cards_or_seat_not_in_hand() -> None:
    """R-DEAL-6: a third hold'em card, or a card to a seat that is not in the hand."""
    hand = _holdem(n=2)
    hand.deal_hole(0, card_index("As"))
    hand.deal_hole(0, card_index("Ks"))
    with pytest.raises(MisdealError, match=r"^R-DEAL-6: p1 already has its cards"):
        hand.deal_hole(0, card_index("Qs"))
    with pytest.raises(MisdealError, match=r"^R-DEAL-6: there is no p6"):
        hand.deal_hole(5, card_index("Qs"))


def test_r_deal_2_burn_before_flop_turn_river() -> None:
    """R-DEAL-2: with burns required, the flop without a burn is refused; one burn per
    street; without the option a missing burn is assumed (PHH records none)."""
    actions = ["d dh p1 AhKh", "d dh p2 QsQd", "p2 cc", "p1 cc"]
    strict = play("NT", [1000] * 2, actions, blinds=(10, 20), burn_required=True)
    assert strict.expected()[0].kind is DealKind.BURN
    with pytest.raises(DealingError, match=r"^R-DEAL-2: burn a card before dealing this street"):
        strict.deal_board(card_index("2c"))
    strict.burn(card_index("3c"))
    with pytest.raises(DealingError, match=r"^R-DEAL-2: this street's card is already burnt"):
        strict.burn(card_index("4c"))
    strict.deal_board(card_index("2c"))
    relaxed = play("NT", [1000] * 2, [*actions, "d db 2c3c4c"], blinds=(10, 20))
    assert relaxed.burns == [UNKNOWN] and relaxed.cards_out == 8


def test_r_deal_7_premature_board_card() -> None:
    """R-DEAL-7: a board card before the betting round ended is flagged."""
    hand = play(
        "NT", [1000] * 3, ["d dh p1 AhKh", "d dh p2 QsQd", "d dh p3 2c2d", "p3 cc"], blinds=(10, 20)
    )
    with pytest.raises(PhaseError, match=r"^R-DEAL-7: a board card was dealt before the betting"):
        hand.deal_board(card_index("2h"))


def test_r_deal_5_omaha_at_most_ten_players() -> None:
    """R-DEAL-5: Omaha is for at most ten players."""
    with pytest.raises(ConfigurationError, match=r"^R-DEAL-5: Omaha is for 2 to 10 players"):
        Hand(game("PO"), Stakes.blind_game(11, 10, 20), [1000] * 11)


def test_r_show_2_shown_cards_must_be_the_seats_cards() -> None:
    """R-SHOW-2: a seat cannot show cards it does not hold."""
    hand = _checked_down("AhKh", "QsQd", "2c3c4c5d9d")
    with pytest.raises(ShowdownError, match=r"^R-SHOW-2: p1 does not hold"):
        hand.show(0, cards("AhJh"))


def test_r_card_1_learn_hole_records_a_card_read_later() -> None:
    """R-CARD-1: a hole card dealt unread can be recorded when it is read later; it is in
    play from then on (dealing it again is a duplicate) and the hand shows without naming
    it. A card already in play, a seat with no unread card, or no card at all is refused."""
    hand = play("NT", [1000] * 2, ["d dh p1 AhKh"], blinds=(10, 20))
    hand.deal_hole(1, UNKNOWN)
    hand.deal_hole(1, card_index("Qs"))
    with pytest.raises(DuplicateCardError, match=r"^R-CARD-1: a card is already in play"):
        hand.learn_hole(1, card_index("Ah"))
    with pytest.raises(DealingError, match=r"^R-CARD-1: p1 holds no card dealt unread"):
        hand.learn_hole(0, card_index("2c"))
    with pytest.raises(DealingError, match=r"^R-CARD-1: name the card"):
        hand.learn_hole(1, UNKNOWN)
    assert not hand.can_learn_hole(2, card_index("2c"))
    hand.learn_hole(1, card_index("Qd"))
    assert hand.hole[1] == cards("QdQs")
    with pytest.raises(DuplicateCardError, match=r"^R-CARD-1: a card is already in play"):
        hand.deal_board(card_index("Qd"))
    assert not hand.can_learn_hole(1, card_index("2c"))  # nothing unread any more
    for action in ["p2 cc", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "d db 9c", "p1 cc",
                   "p2 cc", "d db 8d", "p1 cc", "p2 cc"]:  # fmt: skip
        apply_action(hand, action)
    hand.show(0)
    hand.show(1)  # known now: no cards to name
    assert won(hand) == [-20, 20]


def test_r_deal_2_a_board_card_dealt_unnamed_is_refused() -> None:
    """A board card lies face up: dealt without its identity (the tag did not read) it is
    refused, and ``can_deal_board`` says so — before, the engine took it and the award
    then failed on the unknown card (the refusal listing every card index of the hand)."""
    from feltwire.cards import card_index as c
    from hub.rules.errors import DealingError
    from hub.rules.hand import Phase

    hand = Hand(game("NT"), Stakes.blind_game(2, 5, 10), (1, 1))  # both all in on the blinds
    for seat, card in ((0, "As"), (1, "Kd"), (0, "Ah"), (1, "Kc")):
        hand.deal_hole(seat, c(card))
    hand.burn(c("2c"))
    hand.deal_board(c("3d"))
    assert not hand.can_deal_board(UNKNOWN)
    with pytest.raises(DealingError, match="R-DEAL-2: a board card lies face up") as refused:
        hand.deal_board(UNKNOWN)
    assert refused.value.text.key == "refusal.dealing.board_unnamed"
    assert hand.board == [c("3d")]  # nothing changed
    for card in ("4h", "9s"):
        hand.deal_board(c(card))
    for burn, card in (("5s", "6c"), ("7d", "8h")):
        hand.burn(c(burn))
        hand.deal_board(c(card))
    hand.show(0)
    hand.show(1)
    assert hand.phase is Phase.COMPLETE
