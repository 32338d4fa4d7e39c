"""Scenario tests for the stud games: bring-in, order of action, open pairs, the
community card and the stud odd-chip rule (F7S 5 ante, 10 bring-in, 20/40)."""

from __future__ import annotations

from typing import Any

import pytest

from feltwire.cards import FULL_DECK, card_index
from hub.rules.betting import ActionKind
from hub.rules.dealing import DealKind
from hub.rules.errors import ConfigurationError, DealingError
from hub.rules.games import Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.showdown import hand_value
from tests.support.table_scripts import cards, play, won

STUD: dict[str, Any] = {"antes": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40}
TIE = ["d dh p1 AsKs2d", "d dh p2 AdKd2c", "d dh p3 QsQdKh"]


def test_r_stud_1_bring_in_tie_seed_rule_first_left_of_the_dealer() -> None:
    """R-STUD-1 *seed*: two deuces showing: the first seat left of the dealer brings in."""
    hand = play("F7S", [1000] * 3, TIE, **STUD)
    la = hand.legal_actions()
    assert la.seat == 0 and la.can_bring_in and la.bring_in_amount == 10
    assert not la.can_fold and not la.can_check


def test_r_stud_1_bring_in_tie_by_suit_option() -> None:
    """R-STUD-1 option (and recorded hands): by suit, clubs lowest: the 2c brings in."""
    hand = play("F7S", [1000] * 3, TIE, bring_in_ties="suit", **STUD)
    assert hand.actor == 1


def test_r_stud_1_bring_in_counts_as_the_bet() -> None:
    """R-STUD-1: the bring-in is the first bet: when everyone calls it, the round is over
    (the bring-in has no option)."""
    hand = play("F7S", [1000] * 3, [*TIE, "p1 pb", "p2 cc", "p3 cc"], **STUD)
    assert hand.phase is Phase.DEALING and hand.street.name == "4th street"
    assert hand.pot_total == 45


def test_r_stud_1_completion_to_the_small_bet() -> None:
    """R-STUD-1: facing the bring-in a player may complete to the small bet; the next
    raise is a full small bet more."""
    hand = play("F7S", [1000] * 3, [*TIE, "p1 pb"], **STUD)
    la = hand.legal_actions()
    assert la.is_completion and la.min_to == la.max_to == 20 and la.call_amount == 10
    assert hand.bet_or_raise_to(20).kind is ActionKind.COMPLETE
    assert hand.legal_actions().min_to == 40
    direct = play("F7S", [1000] * 3, [*TIE, "p1 cbr 20"], **STUD)
    assert direct.log[-1].kind is ActionKind.COMPLETE  # type: ignore[union-attr]


def test_r_stud_1_razz_highest_card_brings_in_aces_low() -> None:
    """R-STUD-1 in razz: the highest up card brings in, aces low; equal kings → first left
    of the dealer (seed) or the higher suit (option: spades highest)."""
    hand = play("FR", [1000] * 3, ["d dh p1 2s3sKc", "d dh p2 4s5sKs", "d dh p3 6s7sAc"], **STUD)
    assert hand.actor == 0
    hand = play(
        "FR",
        [1000] * 3,
        ["d dh p1 2s3sKc", "d dh p2 4s5sKs", "d dh p3 6s7sAc"],
        bring_in_ties="suit",
        **STUD,
    )
    assert hand.actor == 1


THIRD = ["d dh p1 AsKs5d", "d dh p2 AdKd5c", "d dh p3 QsQd2h", "p3 pb", "p1 cc", "p2 cc"]
RAZZ_FOURTH = [
    "d dh p1 9s9dKc", "d dh p2 8s8dQs", "d dh p3 7s7c3c", "p1 pb", "p2 cc", "p3 cc",
    "d dh p1 Ac", "d dh p2 2d", "d dh p3 2c",
]  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "actions", "first"),
    [
        # K-5 beats 9-5: the highest hand showing acts first
        pytest.param(
            "F7S", [*THIRD, "d dh p1 9c", "d dh p2 Kh", "d dh p3 3c"], 1, id="highest-showing"
        ),
        # equal hands showing (9-5 and 9-5): the first seat left of the dealer
        pytest.param(
            "F7S", [*THIRD, "d dh p1 9c", "d dh p2 9h", "d dh p3 3c"], 0, id="equal-showing"
        ),
        # razz, the lowest hand showing: 3-2 vs K-A vs Q-2 (K-A is a king low)
        pytest.param("FR", RAZZ_FOURTH, 2, id="razz-lowest-showing"),
    ],
)
def test_r_stud_2_best_hand_showing_acts_first(
    variant: str, actions: list[str], first: int
) -> None:
    """R-STUD-2: from 4th street the best hand showing acts first (the highest, in razz
    the lowest); between equal hands, the first seat left of the dealer."""
    assert play(variant, [1000] * 3, actions, **STUD).actor == first


def test_r_bet_9_open_pair_on_4th_street_allows_the_big_bet() -> None:
    """R-BET-9: an open pair on 4th street lets any player bet the big bet; raises then
    go up by the big bet."""
    hand = play("F7S", [1000] * 3, [*THIRD, "d dh p1 9c", "d dh p2 Kh", "d dh p3 2s"], **STUD)
    la = hand.legal_actions()
    assert la.seat == 2 and (la.min_to, la.max_to) == (20, 40)
    hand.bet_or_raise_to(40)
    la = hand.legal_actions()
    assert (la.min_to, la.max_to) == (80, 80)


def test_r_bet_9_no_open_pair_small_bet_on_4th_street() -> None:
    """R-BET-9: without an open pair 4th street is played at the small bet; stud hi-lo has
    no open-pair option."""
    hand = play("F7S", [1000] * 3, [*THIRD, "d dh p1 9c", "d dh p2 Kh", "d dh p3 3s"], **STUD)
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (20, 20)
    hilo = play("F7S/8", [1000] * 3, [*THIRD, "d dh p1 9c", "d dh p2 Kh", "d dh p3 2s"], **STUD)
    assert (hilo.legal_actions().min_to, hilo.legal_actions().max_to) == (20, 20)


def test_r_bet_9_five_card_stud_open_pair_on_the_second_round() -> None:
    """R-BET-9: five-card stud, an open pair on the second round allows the big bet."""
    hand = play(
        "F5S",
        [1000] * 3,
        ["d dh p1 As9c", "d dh p2 Ad2c", "d dh p3 Qs5d", "p2 pb", "p3 cc", "p1 cc",
         "d dh p1 9d", "d dh p2 Kh", "d dh p3 3s"],
        **STUD,
    )  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 0 and (la.min_to, la.max_to) == (20, 40)


def test_r_deal_3_stud_up_and_down_cards_and_burns() -> None:
    """R-DEAL-3: on 3rd street two cards down, one up; a burn precedes 4th street when
    burns are required."""
    hand = Hand(
        game("F7S"),
        Stakes.stud_game(2, 5, 10, 20, 40),
        [1000] * 2,
        options=__import__("hub.rules.games").rules.games.Options(burn_required=True),
    )
    hand.deal_hole(0, card_index("As"), up=False)
    hand.deal_hole(0, card_index("Ks"), up=False)
    with pytest.raises(DealingError, match=r"^R-DEAL-3: this card to p1 must be dealt face up"):
        hand.deal_hole(0, card_index("Qs"), up=False)
    hand.deal_hole(0, card_index("Qs"), up=True)
    for c in cards("2c3c4c"):
        hand.deal_hole(1, c)
    hand.bring_in()
    hand.call()
    with pytest.raises(DealingError, match=r"^R-DEAL-3: burn a card"):
        hand.deal_hole(0, card_index("Js"))
    hand.burn(card_index("2d"))
    assert hand.deal_hole(0, card_index("Js")).up


def test_r_deal_4_eight_players_seventh_street_community_card() -> None:
    """R-DEAL-4: eight players to 7th street: 48 cards dealt and 3 burnt leave one card,
    dealt face up in the middle for everyone (no burn)."""
    hand = Hand(game("F7S"), Stakes.stud_game(8, 5, 10, 20, 40), [1000] * 8)
    deck = iter(card_index(c) for c in FULL_DECK)
    while hand.phase is not Phase.SHOWDOWN and hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.BETTING:
            if hand.can_bring_in():
                hand.bring_in()
            else:
                hand.check_or_call()
            continue
        nxt = hand.expected()[0]
        if nxt.kind is DealKind.BURN:
            hand.burn(next(deck))
        elif nxt.kind is DealKind.HOLE:
            assert nxt.seat is not None
            hand.deal_hole(nxt.seat, next(deck))
        else:
            assert hand.street.name == "7th street" and len(hand.burns) == 3
            hand.deal_board(next(deck))
    assert hand.community_card and len(hand.board) == 1 and hand.cards_out == 52
    while hand.phase is Phase.SHOWDOWN:
        seat = hand.shower
        assert seat is not None
        hand.show(seat)
    values = {s: hand_value(hand.game.evaluation, hand.hole[s], hand.board)[0] for s in range(8)}
    best = max(values.values())
    winners = [s for s in range(8) if values[s] == best]
    assert all(won(hand)[s] > 0 for s in winners)
    assert sum(won(hand)) == 0


def test_r_pot_4_stud_odd_chip_to_the_highest_up_card_by_suit() -> None:
    """R-POT-4: two equal straights split 35: the odd chip goes to the highest card
    showing, the 9h over the 9d (seat 1), not to the first seat clockwise."""
    hand = play(
        "F7S",
        [1000] * 3,
        ["d dh p1 5c6c7c", "d dh p2 5d6d7d", "d dh p3 AhAdKc", "p1 pb", "p2 cc", "p3 f",
         "d dh p1 8d", "d dh p2 8h", "p1 cc", "p2 cc", "d dh p1 9d", "d dh p2 9h",
         "p1 cc", "p2 cc", "d dh p1 2h", "d dh p2 2s", "p1 cc", "p2 cc",
         "d dh p1 3h", "d dh p2 3s", "p1 cc", "p2 cc", "p1 sm -", "p2 sm -"],
        **STUD,
    )  # fmt: skip
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [2, 3, -5]


def test_r_pos_5_stud_has_no_blinds() -> None:
    """R-POS-5: a stud game with blinds is refused."""
    with pytest.raises(ConfigurationError, match=r"^R-POS-5"):
        Hand(
            game("F7S"),
            Stakes(antes=(5, 5), blinds=(5, 10), bring_in=10, small_bet=20, big_bet=40),
            [1000, 1000],
        )


def test_r_stud_1_bring_in_may_raise_after_a_completion() -> None:
    """R-STUD-1 / R-BET-5: the completion is a full bet, so the bring-in may re-raise
    when the action returns to it."""
    hand = play("F7S", [1000] * 3, [*TIE, "p1 pb", "p2 cbr 20", "p3 cc"], **STUD)
    la = hand.legal_actions()
    assert la.seat == 0 and la.can_bet_or_raise and la.min_to == 40


def test_r_stud_1_low_card_all_in_on_the_ante_next_seat_brings_in() -> None:
    """R-STUD-1 *default*: the low card is all in on the ante; the next seat clockwise
    that can bet brings in."""
    hand = play("F7S", [1000, 3, 1000, 1000],
                ["d dh p1 AsKsQd", "d dh p2 AdKd2c", "d dh p3 QsJd9h", "d dh p4 8s8dTc"],
                **STUD)  # fmt: skip
    la = hand.legal_actions()
    assert la.seat == 2 and la.can_bring_in


def test_r_pot_1_an_ante_nobody_matched_comes_back() -> None:
    """R-POT-1: a player short of the ante: the part of the other ante nobody could match
    goes back at once, so the pot holds only matched chips."""
    hand = play("F7S", [2, 100], ["d dh p1 AsKsQd", "d dh p2 AdKd2c"], antes=5, bring_in=1,
                small_bet=4, big_bet=8)  # fmt: skip
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(4, (0, 1))]
    assert hand.stacks == [0, 98]
