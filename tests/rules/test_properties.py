"""Property tests: random legal hands of every game, driven by hypothesis.

For every hand: chips are conserved at every step; no card is in two places; replaying
the recorded inputs gives the same hand; PHH export → import → replay gives the same
result.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.games import Family, Options, Stakes, Structure, game
from hub.rules.hand import Hand, Phase, replay
from hub.rules.phh import dumps, from_hand, loads, replay_history

VARIANTS = [
    "NT", "PT", "FT", "PO", "FO/8", "PO/8", "NS",
    "F7S", "F7S/8", "FR", "F5S",
    "F5D", "N5D", "F2L3D", "N2L1D", "FB",
]  # fmt: skip

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _setup(data: Any, variant: str) -> Hand:
    g = game(variant)
    most = {Family.STUD: 8 if g.code != "5S" else 7, Family.DRAW: 4}.get(g.family, 6)
    n = data.draw(st.integers(2, most), label="players")
    stacks = data.draw(st.lists(st.integers(1, 400), min_size=n, max_size=n), label="stacks")
    ante = data.draw(st.sampled_from([0, 0, 1, 3]), label="ante")
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, ante, 3, 6, 12)
    else:
        stakes = Stakes.blind_game(n, 5, 10, ante=ante, small_bet=10, big_bet=20)
    options = Options(
        bring_in_ties=data.draw(st.sampled_from(list(Options().bring_in_ties.__class__))),
        antes_by_level=data.draw(st.booleans(), label="antes_by_level"),
        cap_heads_up=data.draw(st.booleans(), label="cap_heads_up"),
    )
    return Hand(g, stakes, stacks, options)


def _check_invariants(hand: Hand) -> None:
    assert sum(hand.stacks) + hand.pot_total == sum(hand.starting_stacks)
    assert all(s >= 0 for s in hand.stacks)
    known = [c for cards in hand.hole for c in cards if c != UNKNOWN]
    known += [c for c in hand.board if c != UNKNOWN]
    assert len(known) == len(set(known)), "a card is in two places"


def _play(data: Any, hand: Hand) -> None:
    deck_cards = [c for c in range(52) if c >> 2 >= hand.game.lowest_rank]
    deck = list(data.draw(st.permutations(deck_cards), label="deck"))
    steps = 0
    while hand.phase is not Phase.COMPLETE:
        steps += 1
        assert steps < 1000
        _check_invariants(hand)
        if hand.phase is Phase.DRAWING and hand.drawer is not None:
            seat = hand.drawer
            hole = hand.hole[seat]
            k = data.draw(st.integers(0, min(2, len(hole))), label="discards")
            hand.discard(seat, hole[:k])
            continue
        if hand.phase in (Phase.DEALING, Phase.DRAWING):
            nxt = hand.expected()[0]
            if nxt.kind is DealKind.BURN:
                if data.draw(st.booleans(), label="burn"):
                    hand.burn(deck.pop())
                    continue
                nxt = hand.expected()[1]
            card = deck.pop()
            if nxt.kind is DealKind.BOARD:
                hand.deal_board(card)
            else:
                assert nxt.seat is not None
                hand.deal_hole(nxt.seat, card)
            continue
        if hand.phase is Phase.SHOWDOWN:
            shower = hand.shower
            assert shower is not None
            if hand.can_muck(shower) and data.draw(st.integers(0, 3), label="muck") == 0:
                hand.muck(shower)
            else:
                hand.show(shower)
            continue
        la = hand.legal_actions()
        choices = ["call"]
        if la.can_bring_in:
            choices = ["bring_in"]
        if la.can_fold:
            choices += ["fold"] if la.call_amount else []
        if la.can_bet_or_raise:
            choices += ["raise", "raise"]
        if hand.can_all_in():
            choices.append("all_in")
        choice = data.draw(st.sampled_from(choices), label="action")
        if choice == "bring_in":
            hand.bring_in()
        elif choice == "fold":
            hand.fold()
        elif choice == "all_in":
            hand.all_in()
        elif choice == "call":
            hand.check_or_call()
        else:
            if hand.game.structure is Structure.FIXED_LIMIT:
                to = data.draw(st.sampled_from([la.min_to, la.max_to]), label="to")
            else:
                to = data.draw(st.integers(la.min_to, la.max_to), label="to")
            hand.bet_or_raise_to(to)
    _check_invariants(hand)


def _summary(hand: Hand) -> tuple[object, ...]:
    return (
        hand.phase,
        tuple(hand.stacks),
        tuple(tuple(h) for h in hand.hole),
        tuple(hand.board),
        hand.awards,
        tuple(hand.folded),
    )


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANTS))
def test_chips_are_conserved_and_cards_are_unique(data: Any, variant: str) -> None:
    """Every chip is in a stack or the pot at every step; no card is in two places; the
    awards add up to the pot."""
    hand = _setup(data, variant)
    _play(data, hand)
    assert hand.result is not None
    assert sum(hand.result.payoffs) == 0
    paid = sum(s.amount for a in hand.awards for s in a.shares)
    assert paid == sum(a.amount for a in hand.awards)


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANTS))
def test_replaying_the_recorded_inputs_gives_the_same_hand(data: Any, variant: str) -> None:
    """Replaying :attr:`Hand.log` on a fresh hand rebuilds the same state."""
    hand = _setup(data, variant)
    _play(data, hand)
    again = replay(hand.game, hand.stakes, hand.starting_stacks, hand.log, hand.options)
    assert _summary(again) == _summary(hand)


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANTS))
def test_phh_export_import_replay_gives_the_same_result(data: Any, variant: str) -> None:
    """PHH written by :func:`dumps` reads back and replays to the same finishing stacks,
    cards and awards."""
    hand = _setup(data, variant)
    _play(data, hand)
    text = dumps(from_hand(hand, players=[f"P{i}" for i in range(hand.n)]))
    hh = loads(text)
    assert hh.finishing_stacks == tuple(Decimal(s) for s in hand.stacks)
    again = replay_history(hh)
    assert tuple(again.stacks) == tuple(hand.stacks)
    assert again.board == hand.board
    assert again.awards == hand.awards
