"""Scenario tests for the draw games: drawing in turn, burns, bet sizes before and after
the draw, and the re-shuffled stub."""

from __future__ import annotations

import pytest

from feltwire.cards import FULL_DECK, card_index
from hub.rules.dealing import DealKind, Reshuffle
from hub.rules.errors import DealingError, DuplicateCardError, OutOfTurnError
from hub.rules.games import Options, Stakes, game
from hub.rules.hand import Hand, Phase
from tests.support.table_scripts import cards, play, won

PRE = ["d dh p1 AhKhQhJh9c", "d dh p2 2c3c4c5c7d", "d dh p3 8s8d8h2s2d",
       "p3 cc", "p1 cc", "p2 cc"]  # fmt: skip


def test_r_deal_5_players_draw_in_turn_from_the_left_of_the_button() -> None:
    """R-DEAL-5: after the first round each player exchanges 0-5 cards in turn starting left
    of the button."""
    hand = play("F5D", [1000] * 3, PRE, blinds=(10, 20))
    assert hand.phase is Phase.DRAWING and hand.drawer == 0
    with pytest.raises(OutOfTurnError, match=r"^R-DEAL-5: p2 drew out of turn; p1"):
        hand.discard(1, cards("7d"))
    hand.discard(0, cards("9c"))
    assert [(e.kind, e.seat) for e in hand.expected()] == [
        (DealKind.BURN, None),
        (DealKind.HOLE, 0),
    ]
    hand.deal_hole(0, card_index("Th"))
    assert hand.drawer == 1


def test_r_deal_5_burn_before_the_replacements_when_strict() -> None:
    """R-DEAL-5 *default*: one burn before the replacement cards."""
    hand = play("F5D", [1000] * 3, [*PRE, "p1 sd 9c"], blinds=(10, 20), burn_required=True)
    with pytest.raises(DealingError, match=r"^R-DEAL-5: burn a card"):
        hand.deal_hole(0, card_index("Th"))
    hand.burn(card_index("6d"))
    hand.deal_hole(0, card_index("Th"))


def test_r_bet_9_draw_small_bet_before_big_bet_after() -> None:
    """R-BET-9: five-card draw is played at the small bet before the draw and the big bet
    after it; the royal flush drawn wins."""
    hand = play(
        "F5D",
        [1000] * 3,
        [*PRE, "p1 sd 9c", "d dh p1 Th", "p2 sd 7d", "d dh p2 6c", "p3 sd"],
        blinds=(10, 20),
    )
    la = hand.legal_actions()
    assert la.seat == 0 and la.min_to == la.max_to == 40
    hand.bet_or_raise_to(40)
    hand.call()
    hand.call()
    hand.show(0)
    assert hand.phase is Phase.SHOWDOWN
    hand.show(1)
    hand.show(2)
    assert won(hand) == [120, -60, -60]


def _triple_draw_six_dealt() -> tuple[Hand, list[int]]:
    """Triple draw, six players, the deck in order: five cards each (30), all check."""
    hand = Hand(game("F2L3D"), Stakes.blind_game(6, 10, 20, small_bet=20, big_bet=40), [1000] * 6)
    deck = [card_index(c) for c in FULL_DECK]
    for i in range(5):
        for s in range(6):
            hand.deal_hole(s, deck[s * 5 + i])
    while hand.phase is Phase.BETTING:
        hand.check_or_call()
    return hand, deck


def test_r_deal_5_stub_is_reshuffled_from_discards_and_burns() -> None:
    """R-DEAL-5 *default*: six players each draw five: the stub runs out during the
    replacements; the discards and burns, except the discards of the player being served,
    become the new stub."""
    hand, deck = _triple_draw_six_dealt()
    for s in range(6):
        hand.discard(s, list(hand.hole[s]))
    hand.burn(deck[51])
    fresh = iter(deck[30:51])
    for s in range(4):
        for _ in range(5):
            hand.deal_hole(s, next(fresh))
    hand.deal_hole(4, next(fresh))  # the last card of the stub
    with pytest.raises(DuplicateCardError):
        hand.deal_hole(4, deck[20])  # seat 4's own discard does not come back
    hand.deal_hole(4, deck[0])  # seat 0's discard does, after the reshuffle
    assert any(isinstance(r, Reshuffle) and r.cards == 26 for r in hand.log)
    assert hand.cards_out == 27


def _triple_draw_stub_used_up_at_the_second_draw() -> tuple[Hand, list[int]]:
    """Triple draw, six players, the deck in order: 30 cards dealt, the first draw burns
    one and deals 21 (p1-p4 draw five, p5 one, p6 stands pat) — the stub is used up. All
    check; at the second draw p1 throws three, the others stand pat."""
    hand, deck = _triple_draw_six_dealt()
    for s, k in enumerate((5, 5, 5, 5, 1, 0)):
        hand.discard(s, list(hand.hole[s])[:k])
    hand.burn(deck[30])
    fresh = iter(deck[31:])
    for s, k in enumerate((5, 5, 5, 5, 1, 0)):
        for _ in range(k):
            hand.deal_hole(s, next(fresh))
    assert hand.cards_out == 52
    while hand.phase is Phase.BETTING:
        hand.check_or_call()
    hand.discard(0, list(hand.hole[0])[:3])  # 9s Tc Td, his first three replacements
    for s in range(1, 6):
        hand.discard(s, [])
    return hand, deck


def test_r_deal_5_stub_rebuilt_at_the_burn_leaves_out_the_served_players_discards() -> None:
    """R-DEAL-5 *default*: the stub runs out at the burn of the second draw: the discards
    and burns of the first draw (22 cards) become the new stub; the three cards p1 has
    just thrown are not in it — the burn cannot be one of them and p1 does not get his own
    discard back (PokerKit seed FB:705783 dealt p1 his own Ac there)."""
    hand, deck = _triple_draw_stub_used_up_at_the_second_draw()
    own = deck[31]  # p1's fresh discard
    with pytest.raises(DuplicateCardError, match="already in play"):
        hand.burn(own)
    hand.burn(deck[0])  # a first-draw discard of p1's is in the new stub
    assert [r.cards for r in hand.log if isinstance(r, Reshuffle)] == [22]
    with pytest.raises(DuplicateCardError, match="already in play"):
        hand.deal_hole(0, own)
    for c in (deck[5], deck[6], deck[30]):  # p2's first-draw discards, the first burn
        hand.deal_hole(0, c)
    assert hand.phase is Phase.BETTING and len(hand.hole[0]) == 5


def test_r_deal_5_stub_rebuilt_at_an_implicit_burn_leaves_out_the_served_players_discards() -> None:
    """R-DEAL-5: the same hand with the burn not read (ours burns when p1's first card
    comes): the new stub still leaves out p1's three fresh discards, so his second card
    cannot be one of them."""
    hand, deck = _triple_draw_stub_used_up_at_the_second_draw()
    hand.deal_hole(0, deck[5])
    assert [r.cards for r in hand.log if isinstance(r, Reshuffle)] == [22]
    for own in deck[31:34]:
        with pytest.raises(DuplicateCardError, match="already in play"):
            hand.deal_hole(0, own)
    hand.deal_hole(0, deck[6])
    hand.deal_hole(0, deck[0])
    assert hand.phase is Phase.BETTING


def test_r_deal_5_no_limit_single_draw_plays_to_showdown() -> None:
    """No-limit 2-7 single draw: the best deuce-to-seven low (7-5-4-3-2) wins."""
    hand = play("N2L1D", [1000] * 2, [
        "d dh p1 7h5d4c3s2h", "d dh p2 8c8d6h4d3c", "p2 cbr 60", "p1 cc",
        "p1 sd", "p2 sd 8c8d", "d dh p2 KhKd", "p1 cbr 100", "p2 cc", "p1 sm -", "p2 sm -",
    ], blinds=(10, 20))  # fmt: skip
    assert won(hand) == [160, -160]


def test_options_record_type() -> None:
    """Options is a frozen record (no accidental changes during a hand)."""
    with pytest.raises(AttributeError):
        Options().burn_required = True  # type: ignore[misc]


def test_r_deal_5_no_burn_when_everyone_stands_pat() -> None:
    """R-DEAL-5 (divergence D7): the burn comes before the replacements; when every player
    stands pat there is nothing to burn for and the betting starts at once (PokerKit burns
    a card anyway)."""
    hand = play("F5D", [1000] * 3, PRE, blinds=(10, 20))
    assert hand.phase is Phase.DRAWING and hand.expected() == ()
    for seat in range(3):
        hand.discard(seat, [])
        assert not any(e.kind is DealKind.BURN for e in hand.expected())
    assert hand.phase is Phase.BETTING and hand.burns == []
    assert not hand.can_burn()
