"""Scenario tests for hand values, showdown order, pots and odd chips (one per rule id)."""

from __future__ import annotations

import pytest

from hub.rules.errors import OutOfTurnError, ShowdownError
from hub.rules.hand import Phase
from hub.rules.pots import Half
from tests.support.table_scripts import cards, play, won

TO_RIVER = [
    "d dh p1 5h6h", "d dh p2 QsQd", "d dh p3 7c2d", "p3 f", "p1 cc", "p2 cc",
    "d db 2h3s4d", "p1 cc", "p2 cc", "d db 9c", "p1 cc", "p2 cc", "d db Tc",
]  # fmt: skip


def test_r_show_1_last_aggressor_shows_first() -> None:
    """R-SHOW-1: the last player to bet or raise on the river (p2) shows first: p1, who
    called, may not throw the hand away unseen before p2 has shown (R-SHOW-4)."""
    hand = play("NT", [1000] * 3, [*TO_RIVER, "p1 cc", "p2 cbr 100", "p1 cc"], blinds=(10, 20))
    assert hand.phase is Phase.SHOWDOWN and hand.shower == 1
    with pytest.raises(OutOfTurnError, match=r"^R-SHOW-1: p2 shows or mucks first"):
        hand.muck(0)
    hand.show(1)
    hand.show(0)
    assert won(hand) == [120, -120, 0]  # 5h6h makes the 2-6 straight


def test_r_show_1_everyone_checked_first_to_act_shows_first() -> None:
    """R-SHOW-1: if everyone checked the river, the first player still in clockwise from
    the button (p1, the small blind) shows first."""
    hand = play("NT", [1000] * 3, [*TO_RIVER, "p1 cc", "p2 cc"], blinds=(10, 20))
    assert hand.shower == 0


def test_r_show_2_a_mucked_hand_has_no_claim() -> None:
    """R-SHOW-2: seat 0 holds the straight but mucks after the queens are shown: the
    queens win the pot."""
    hand = play(
        "NT",
        [1000] * 3,
        [*TO_RIVER, "p1 cc", "p2 cbr 100", "p1 cc", "p2 sm QsQd", "p1 sm"],
        blinds=(10, 20),
    )
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [-120, 120, 0]
    assert hand.mucked == (0,)


def test_r_show_2_last_hand_wins_without_showing() -> None:
    """R-SHOW-2: when the first to show mucks, the other hand wins unshown."""
    hand = play(
        "NT", [1000] * 3, [*TO_RIVER, "p1 cc", "p2 cbr 100", "p1 cc", "p2 sm"], blinds=(10, 20)
    )
    assert hand.phase is Phase.COMPLETE and won(hand) == [120, -120, 0]
    assert hand.shown == ()


UNCALLED = ["d dh p1 AhKh", "d dh p2 2c7d", "d dh p3 QsQd", "p3 cbr 60", "p1 f", "p2 f"]


def test_r_show_3_uncalled_winner_may_show_or_muck() -> None:
    """R-SHOW-3: NL 10/20; p3 raises to 60, p1 and p2 fold: p3 takes the 90 (+30) at once
    and is then asked to show or muck; it shows both queens. A folded hand may not show."""
    hand = play("NT", [1000] * 3, UNCALLED, blinds=(10, 20))
    assert hand.phase is Phase.COMPLETE and won(hand) == [-10, -20, 30]
    assert hand.uncalled_winner == 2
    assert hand.can_show(2) and hand.can_muck(2)
    assert hand.show(2).cards == tuple(cards("QsQd"))
    assert hand.uncalled_winner is None and not hand.can_muck(2)
    with pytest.raises(ShowdownError, match=r"^R-SHOW-2: p1 is not in the showdown"):
        hand.show(0)
    assert won(hand) == [-10, -20, 30]


def test_r_show_3_uncalled_winner_shows_one_card() -> None:
    """R-SHOW-3: p3, whose raise nobody called, shows only the queen of spades and keeps
    the other card face down; the record names that card alone, and the hand is closed to
    a muck after it. The money is as before: p3 +30."""
    hand = play("NT", [1000] * 3, [*UNCALLED, "p3 sm Qs"], blinds=(10, 20))
    record = hand.log[-1]
    assert record.shown and record.cards == tuple(cards("Qs"))  # type: ignore[union-attr]
    assert hand.shown == (2,) and hand.uncalled_winner is None
    assert not hand.can_muck(2)
    assert won(hand) == [-10, -20, 30]
    partly = play("NT", [1000] * 3, [*UNCALLED, "p3 sm ??Qd"], blinds=(10, 20))
    assert partly.log[-1].cards == tuple(cards("Qd"))  # type: ignore[union-attr]
    with pytest.raises(ShowdownError, match=r"^R-SHOW-2: p3 does not hold "):
        play("NT", [1000] * 3, [*UNCALLED, "p3 sm Kc"], blinds=(10, 20))


def test_r_show_3_uncalled_winner_mucks_and_stays_unseen() -> None:
    """R-SHOW-3: p3 mucks after winning uncontested: nothing is shown, and a show after
    the muck is refused (the hand is over)."""
    hand = play("NT", [1000] * 3, [*UNCALLED, "p3 sm"], blinds=(10, 20))
    assert hand.mucked == (2,) and hand.shown == () and hand.uncalled_winner is None
    with pytest.raises(ShowdownError, match=r"^R-SHOW-3: the hand is over"):
        hand.show(2)
    assert won(hand) == [-10, -20, 30]


def test_r_show_2_part_of_a_hand_at_showdown_is_refused() -> None:
    """R-SHOW-2: at showdown a hand is shown whole (cards speak); only after an uncalled
    bet may part of it show (R-SHOW-3)."""
    hand = play("NT", [1000] * 3, [*TO_RIVER, "p1 cc", "p2 cc"], blinds=(10, 20))
    with pytest.raises(ShowdownError, match=r"^R-SHOW-2: p1 holds 2 cards, not 1"):
        hand.show(0, cards("5h"))


def test_r_card_2_omaha_uses_exactly_two_hole_cards() -> None:
    """R-CARD-2: with four hearts on board, one heart in an Omaha hand is no flush; the
    set of aces wins. (In hold'em the same heart would make a flush.)"""
    hand = play("PO", [1000] * 3, [
        "d dh p1 Jh9c8c7c", "d dh p2 AcAs4d5d", "d dh p3 2c2d3s3d", "p3 f", "p1 cc", "p2 cc",
        "d db AhKhQh", "p1 cc", "p2 cc", "d db 2h", "p1 cc", "p2 cc", "d db 3c",
        "p1 cc", "p2 cc", "p1 sm Jh9c8c7c", "p2 sm AcAs4d5d",
    ], blinds=(10, 20))  # fmt: skip
    assert won(hand) == [-20, 20, 0]


def test_r_card_3_identical_hands_split_suits_do_not_count() -> None:
    """R-CARD-3: both play the broadway straight on board: the pot is split."""
    hand = play("NT", [1000] * 3, [
        "d dh p1 7c2d", "d dh p2 2s3s", "d dh p3 4h5h", "p3 cc", "p1 f", "p2 cc",
        "d db AcKdQh", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc", "d db Tc",
        "p2 cc", "p3 cc", "p2 sm 2s3s", "p3 sm 4h5h",
    ], blinds=(10, 20))  # fmt: skip
    assert won(hand) == [-10, 5, 5]


def test_r_card_4_hi_lo_split_and_scoop_without_low() -> None:
    """R-CARD-4: a qualifying low takes half; with no three low board ranks there is no
    low and the best high takes the whole pot."""
    split_hand = play("FO/8", [1000] * 3, [
        "d dh p1 JcJdJhJs", "d dh p2 KhKdTcTd", "d dh p3 As4h9c9d", "p3 cc", "p1 cc", "p2 cc",
        "d db 2c3d7h", "p1 cc", "p2 cc", "p3 cc", "d db Ks", "p1 cc", "p2 cc", "p3 cc",
        "d db Qs", "p1 cc", "p2 cc", "p3 cc", "p1 sm", "p2 sm KhKdTcTd", "p3 sm As4h9c9d",
    ], blinds=(10, 20), small_bet=20, big_bet=40)  # fmt: skip
    assert won(split_hand) == [-20, 10, 10]
    halves = {s.half: s.seat for s in split_hand.awards[0].shares}
    assert halves == {Half.HIGH: 1, Half.LOW: 2}
    scoop = play("FO/8", [1000] * 3, [
        "d dh p1 JcJdJhJs", "d dh p2 KhKdTcTd", "d dh p3 As4h9c9d", "p3 cc", "p1 cc", "p2 cc",
        "d db 2cKcQh", "p1 cc", "p2 cc", "p3 cc", "d db Ks", "p1 cc", "p2 cc", "p3 cc",
        "d db Qs", "p1 cc", "p2 cc", "p3 cc", "p1 sm", "p2 sm KhKdTcTd", "p3 sm As4h9c9d",
    ], blinds=(10, 20), small_bet=20, big_bet=40)  # fmt: skip
    assert won(scoop) == [-20, 40, -20]
    assert scoop.awards[0].no_low


def test_r_pot_1_side_pots() -> None:
    """R-POT-1: the all-in player (100) wins the main pot of 300 only; the side pot of
    400 is decided between the other two."""
    hand = play("NT", [100, 1000, 1000], [
        "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 QsQd", "p3 cbr 300", "p1 cc", "p2 cc",
        "d db 2c7d9h", "p2 cc", "p3 cc", "d db 3h", "p2 cc", "p3 cc", "d db 4s",
        "p2 cc", "p3 cc",
    ], blinds=(10, 20))  # fmt: skip
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(300, (0, 1, 2)), (400, (1, 2))]
    for seat in (1, 2, 0):  # an all-in showdown: hands are tabled in any order
        hand.show(seat)
    assert won(hand) == [200, 100, -300]
    assert [(a.pot, [(s.seat, s.amount) for s in a.shares]) for a in hand.awards] == [
        (0, [(0, 300)]),
        (1, [(1, 400)]),
    ]


def _three_way_board(extra: list[str], blinds: tuple[int, int], n: int) -> list[str]:
    hole = ["7c2d", "2s3s", "4h5h", "6d2c"]
    return [
        *[f"d dh p{i + 1} {hole[i]}" for i in range(n)],
        *extra,
        "d db AcKdQh", "d db Js", "d db Tc",
    ]  # fmt: skip


def test_r_pot_3_odd_chip_left_of_the_button() -> None:
    """R-POT-3: a 25 pot split two ways: the odd chip goes to the first winner left of the
    button (seat 1), not to the button."""
    actions = _three_way_board(["p3 cc", "p1 f", "p2 cc"], (5, 10), 3)
    hand = play("NT", [1000] * 3, actions[:6], blinds=(5, 10))
    for a in ("AcKdQh", "Js", "Tc"):
        for c in cards(a):
            hand.deal_board(c)
        if hand.phase is Phase.BETTING:
            hand.check()
            hand.check()
    hand.show(1)
    hand.show(2)
    assert won(hand) == [-5, 3, 2]
    odd = [s.seat for s in hand.awards[0].shares if s.odd_chip]
    assert odd == [1]


def _check_down(hand_: object) -> None:
    from hub.rules.hand import Hand

    assert isinstance(hand_, Hand)
    board = iter(cards("AcKdQhJsTc"))
    while hand_.phase not in (Phase.SHOWDOWN, Phase.COMPLETE):
        if hand_.phase is Phase.BETTING:
            hand_.check()
        else:
            hand_.deal_board(next(board))


def test_r_pot_2_no_player_gets_more_than_one_odd_chip() -> None:
    """R-POT-2: 35 split three ways is 11 each and two odd chips: one each to the first two
    winners clockwise from the button, none to the third."""
    hand = play("NT", [1000] * 4, [
        "d dh p1 7c2d", "d dh p2 2s3s", "d dh p3 4h5h", "d dh p4 6d2c",
        "p3 cc", "p4 cc", "p1 f", "p2 cc",
    ], blinds=(5, 10))  # fmt: skip
    _check_down(hand)
    for seat in (1, 2, 3):
        hand.show(seat)
    assert won(hand) == [-5, 2, 2, 1]


def test_r_buy_6_odd_chips_in_the_smallest_chip() -> None:
    """R-BUY-6 / R-POT-2: with 25 as the smallest chip, 125 splits 75 / 50."""
    hand = play("NT", [1000] * 3, [
        "d dh p1 7c2d", "d dh p2 2s3s", "d dh p3 4h5h", "p3 cc", "p1 f", "p2 cc",
    ], blinds=(25, 50), chip_unit=25)  # fmt: skip
    _check_down(hand)
    hand.show(1)
    hand.show(2)
    assert won(hand) == [-25, 25, 0]


def test_r_pot_5_hi_lo_odd_chip_to_the_high_hand() -> None:
    """R-POT-5: a 25 pot split high/low: high gets 13, low 12."""
    hand = play("FO/8", [1000] * 3, [
        "d dh p1 JcJdJhJs", "d dh p2 KhKdTcTd", "d dh p3 As4h9c9d", "p3 cc", "p1 f", "p2 cc",
        "d db 2c3d7h", "p2 cc", "p3 cc", "d db Ks", "p2 cc", "p3 cc", "d db Qs",
        "p2 cc", "p3 cc", "p2 sm KhKdTcTd", "p3 sm As4h9c9d",
    ], blinds=(5, 10), small_bet=10, big_bet=20)  # fmt: skip
    assert won(hand) == [-5, 3, 2]
    assert {(s.half, s.amount) for s in hand.awards[0].shares} == {
        (Half.HIGH, 13),
        (Half.LOW, 12),
    }


def test_r_pot_5_hi_lo_side_pot_without_a_low_goes_to_the_best_high() -> None:
    """R-CARD-4 / R-POT-5 (a PokerKit fault): only the all-in player has a low. The main
    pot splits high/low; in the side pot nobody eligible has a low, so the best high takes
    all of it."""
    hand = play("PO/8", [100, 1000, 1000], [
        "d dh p1 As4h9c9d", "d dh p2 KhKdJcJd", "d dh p3 QhQdTcTd",
        "p3 cbr 35", "p1 cbr 100", "p2 cc", "p3 cc",
        "d db 2c3d7h", "p2 cbr 100", "p3 cc", "d db Ks", "p2 cc", "p3 cc", "d db Qs",
        "p2 cc", "p3 cc",
    ], blinds=(5, 10))  # fmt: skip
    assert hand.shower == 0  # everyone checked the river: p1, all in, left of the button
    for seat in (1, 2, 0):
        hand.show(seat)
    assert won(hand) == [50, 150, -200]  # main 300: 150 high (p2), 150 low (p1); side 200: p2
    side = hand.awards[1]
    assert side.no_low and [(s.seat, s.amount, s.half) for s in side.shares] == [
        (1, 200, Half.WHOLE)
    ]


def test_r_pot_1_no_chips_no_pot() -> None:
    """R-POT-1: before anyone puts a chip in (stud without antes) there is no pot; while
    the round is open, the pots count the bets so far and who has matched them."""
    hand = play("F7S", [100] * 3, ["d dh p1 AsKsQd", "d dh p2 AdKd2c", "d dh p3 QsJd9h"],
                bring_in=1, small_bet=4, big_bet=8)  # fmt: skip
    assert hand.pots() == []
    hand.bring_in()
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(1, (1,))]
    hand.call()
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(2, (1, 2))]


def test_r_card_2_short_deck_three_of_a_kind_beats_a_straight() -> None:
    """R-CARD-2 (divergence D16): short deck is ranked by Triton rules, under which the
    recorded short-deck hands (``data/phh``, Phua-Xuan 2019) were played: three of a kind
    beats a straight. Seat 1's kings beat seat 0's six-to-ten straight (PokerKit ranks the
    straight higher)."""
    hand = play(
        "NS",
        [1000] * 2,
        ["d dh p1 9sTc", "d dh p2 KhAc", "p2 cc", "p1 cc", "d db 6c7d8h", "p1 cc", "p2 cc",
         "d db Ks", "p1 cc", "p2 cc", "d db Kd", "p1 cbr 100", "p2 cc", "p1 sm 9sTc",
         "p2 sm KhAc"],
        blinds=(10, 20),
    )  # fmt: skip
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [-120, 120]


ALL_IN_LEFT_OF_THE_BUTTON = [
    "d dh p1 5h6h", "d dh p2 QsQd", "d dh p3 7c2d", "p3 cc", "p1 cc", "p2 cc",
    "d db 2h3s4d", "p2 cc", "p3 cc", "d db 9c", "p2 cc", "p3 cc", "d db Tc",
    "p2 cc", "p3 cc",
]  # fmt: skip


def test_r_show_1_everyone_checked_all_in_player_left_of_the_button_shows_first() -> None:
    """R-SHOW-1: NL 10/20; p1, the small blind left of the button, calls all in for 20
    pre-flop; p2 and p3 check every street down to the river. p1 shows first though it did
    not act after the flop (000: from the SB clockwise; 004: nearest left of the button),
    then p2 and p3, beaten by p1's 2-6 straight, muck in turn. p1 takes the 60."""
    hand = play("NT", [20, 1000, 1000], ALL_IN_LEFT_OF_THE_BUTTON, blinds=(10, 20))
    assert hand.stacks[0] == 0
    assert hand.phase is Phase.SHOWDOWN and hand.shower == 0
    with pytest.raises(OutOfTurnError, match=r"^R-SHOW-1: p1 shows or mucks first"):
        hand.muck(1)  # p2 may not muck unseen before p1 has shown
    hand.show(0)
    assert hand.shower == 1
    hand.muck(1)
    hand.muck(2)
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [40, -20, -20]
    assert hand.stacks == [60, 980, 980]


def test_r_show_1_everyone_checked_replays_in_pokerkits_order() -> None:
    """R-SHOW-1 / R-SHOW-4: the same hand as recorded with PokerKit's order (p1 first, then
    p2, p3) replays to the file's finishing stacks; with the order enforced too."""
    from hub.rules.phh import loads, replay_history

    text = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [10, 20, 0]\n"
        "min_bet = 20\nstarting_stacks = [20, 1000, 1000]\nactions = [\n"
        + "".join(f"  '{a}',\n" for a in ALL_IN_LEFT_OF_THE_BUTTON)
        + "  'p1 sm 5h6h', 'p2 sm', 'p3 sm',\n]\nfinishing_stacks = [60, 980, 980]\n"
    )
    hh = loads(text)
    assert replay_history(hh).stacks == [60, 980, 980]
    strict = replay_history(hh, hh.options(showdown_order=True))
    assert strict.stacks == [60, 980, 980] and strict.mucked == (1, 2)


STUD_CHECKED_DOWN = [
    "d dh p1 9d8d3c", "d dh p2 AhAdKh", "d dh p3 7c7h2h",
    "p3 pb", "p1 cc", "p2 cbr 20", "p3 cc", "p1 cc",
    "d dh p1 4c", "d dh p2 Kd", "d dh p3 5c", "p3 cc", "p1 cc",
    "d dh p1 6h", "d dh p2 Qc", "d dh p3 8c", "p3 cc", "p1 cc",
    "d dh p1 Th", "d dh p2 Jc", "d dh p3 9c", "p3 cc", "p1 cc",
    "d dh p1 2c", "d dh p2 3d", "d dh p3 Tc", "p3 cc", "p1 cc",
]  # fmt: skip


def test_r_show_1_stud_everyone_checked_highest_hand_showing_shows_first() -> None:
    """R-SHOW-1 in stud (F7S 5 ante, 10 bring-in, 20/40): p2 completes all in for 20 on
    3rd street with the king up, pairs the king on 4th, and p3 and p1 check down to the
    end. p2, whose K-K-Q-J is the highest hand showing, shows first though all in — not p3,
    the first to act on 7th street, nor p1, first left of the dealer. p3's club flush
    takes the 75 pot."""
    hand = play("F7S", [1000, 25, 1000], STUD_CHECKED_DOWN, antes=5, bring_in=10,
                small_bet=20, big_bet=40)  # fmt: skip
    assert hand.stacks[1] == 0
    assert hand.phase is Phase.SHOWDOWN and hand.shower == 1
    hand.show(1)
    assert hand.shower == 2
    hand.show(2)
    hand.muck(0)
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [-25, -25, 50]


def test_r_show_4_a_hand_may_be_tabled_out_of_turn() -> None:
    """R-SHOW-4: p2 bet the river and is asked first, but p1 tables the 2-6 straight at
    once — accepted. p2 is still the seat asked; it mucks its queens unseen and p1 takes
    the 240 pot (p1 +120)."""
    hand = play("NT", [1000] * 3, [*TO_RIVER, "p1 cc", "p2 cbr 100", "p1 cc"], blinds=(10, 20))
    assert hand.shower == 1
    assert hand.can_show(0) and not hand.can_muck(0)
    hand.show(0)
    assert hand.phase is Phase.SHOWDOWN and hand.shower == 1 and hand.shown == (0,)
    hand.muck(1)
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [120, -120, 0]


def test_r_show_4_recorded_shows_and_mucks_in_another_order_replay() -> None:
    """R-SHOW-4: a recorded hand in which p1 tabled its straight and p3 (who checked
    behind) mucked before p2, asked first as the last bettor, showed: it replays."""
    from hub.rules.phh import loads, replay_history

    actions = [
        "d dh p1 5h6h", "d dh p2 QsQd", "d dh p3 9s9d", "p3 cc", "p1 cc", "p2 cc",
        "d db 2h3s4d", "p1 cc", "p2 cc", "p3 cc", "d db 9c", "p1 cc", "p2 cc", "p3 cc",
        "d db Tc", "p1 cc", "p2 cbr 100", "p3 cc", "p1 cc",
        "p1 sm 5h6h", "p3 sm", "p2 sm QsQd",
    ]  # fmt: skip
    text = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [10, 20, 0]\n"
        "min_bet = 20\nstarting_stacks = [1000, 1000, 1000]\nactions = [\n"
        + "".join(f"  '{a}',\n" for a in actions)
        + "]\nfinishing_stacks = [1240, 880, 880]\n"
    )
    hand = replay_history(loads(text))
    assert hand.stacks == [1240, 880, 880]
    assert hand.mucked == (2,) and hand.shown == (0, 1)


def test_r_pot_1_two_side_pots_with_the_same_winners_are_split_separately() -> None:
    """R-POT-1, R-POT-2 (divergence D9): p1 is all in for 101 and loses; p2 and p3 tie for
    the main pot (303) and the side pot (2 x 99). Each pot is split on its own, its odd
    chip to the first winner left of the button (p2); PokerKit merges the two pots."""
    hand = play(
        "NT",
        [101, 200, 200],
        ["d dh p1 3c4c", "d dh p2 AhQc", "d dh p3 AdQh", "p3 cbr 200", "p1 cc", "p2 cc",
         "d db 2c2d7h", "d db 9s", "d db Kd", "p1 sm 3c4c", "p2 sm AhQc", "p3 sm AdQh"],
        blinds=(1, 2),
    )  # fmt: skip
    assert hand.phase is Phase.COMPLETE
    assert [(a.amount, [(s.seat, s.amount) for s in a.shares]) for a in hand.awards] == [
        (303, [(1, 152), (2, 151)]),
        (198, [(1, 99), (2, 99)]),
    ]


def test_r_show_2_all_in_before_the_river_the_last_claim_cannot_be_mucked() -> None:
    """Both players all in before the river: one throws the hand away, the other may not
    — the pot would have no claimant left, and the award would have to read a hand dealt
    unread (the engine failed on it, its refusal listing the card indexes)."""
    from hub.rules.dealing import UNKNOWN
    from hub.rules.games import Stakes, game
    from hub.rules.hand import Hand

    hand = Hand(game("PO"), Stakes.blind_game(2, 5, 10), (1, 1))  # both all in on the blinds
    dealt = iter(range(8, 52))
    for i in range(8):
        hand.deal_hole(i % 2, UNKNOWN if i == 7 else next(dealt))  # one card read unknown
    hand.burn(next(dealt))
    for _ in range(3):
        hand.deal_board(next(dealt))
    hand.burn(next(dealt))
    hand.deal_board(next(dealt))
    hand.muck(0)
    assert not hand.can_muck(1)
    with pytest.raises(ShowdownError, match="R-SHOW-2: p2 is the last claimant of a pot"):
        hand.muck(1)
    hand.burn(next(dealt))
    hand.deal_board(next(dealt))
    assert hand.phase is Phase.COMPLETE
    assert won(hand) == [-1, 1]  # p2 takes the pot unread, as the last claimant
