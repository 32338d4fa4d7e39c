"""Property tests: random legal hands of every game, driven by hypothesis.

For every hand: chips are conserved at every step; no card is in two places; replaying
the recorded inputs gives the same hand; PHH export → import → replay gives the same
result. With the blinds a table deals (equal blinds, returning players' dead blinds,
short all-in blinds): nobody wins back dead chips, the big blind never opens and a short
blind never lowers the price.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.errors import RulesError
from hub.rules.games import Family, Options, Stakes, Structure, game
from hub.rules.hand import Hand, Phase, PostKind, replay
from hub.rules.phh import dumps, from_hand, loads, replay_history
from tests.support.drawn_hands import drawn_hand, drawn_settings

VARIANTS = [
    "NT", "PT", "FT", "PO", "FO/8", "PO/8", "NS",
    "F7S", "F7S/8", "FR", "F5S",
    "F5D", "N5D", "F2L3D", "N2L1D", "FB",
]  # fmt: skip

SETTINGS = drawn_settings(100)


def _options(data: Any) -> Options:
    return Options(
        bring_in_ties=data.draw(st.sampled_from(list(Options().bring_in_ties.__class__))),
        antes_by_level=data.draw(st.booleans(), label="antes_by_level"),
        cap_heads_up=data.draw(st.booleans(), label="cap_heads_up"),
    )


def _setup(data: Any, variant: str) -> Hand:
    return drawn_hand(data, variant, draw_players=4, max_stack=400, options=_options)


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


# ------------------------------------------- dead, equal and short blinds (issue 13)

BLIND_VARIANTS = [v for v in VARIANTS if game(v).uses_blinds]


def _setup_posts(data: Any, variant: str) -> Hand:
    """A blind game with the blinds a table deals: small blind 5 or 10 (equal blinds), big
    blind 10, and returning players further round posting 10 live + 5 dead (R-BLIND-4);
    stacks as small as 1 make short all-in blinds. The big blind's seat is told, as the
    table tells it."""
    g = game(variant)
    n = data.draw(st.integers(2, 4 if g.family is Family.DRAW else 6), label="players")
    stack = st.one_of(st.integers(1, 20), st.integers(20, 400))  # often short of a post
    stacks = data.draw(st.lists(stack, min_size=n, max_size=n), label="stacks")
    ante = data.draw(st.sampled_from([0, 0, 1, 3]), label="ante")
    sb = data.draw(st.sampled_from([5, 10]), label="small blind")
    blinds, dead = [0] * n, [0] * n
    if n == 2:
        blinds[0], blinds[1], bb_seat = 10, sb, 0
    else:
        blinds[0], blinds[1], bb_seat = sb, 10, 1
        for s in range(2, n - 1 if n > 3 else n):
            if data.draw(st.booleans(), label=f"seat {s} posts"):
                blinds[s], dead[s] = 10, 5
    stakes = Stakes(
        antes=(ante,) * n,
        blinds=tuple(blinds),
        dead_blinds=tuple(dead) if any(dead) else (),
        small_bet=10,
        big_bet=20,
        min_bet=10,
        big_blind_seat=bb_seat,
    )
    options = Options(antes_by_level=data.draw(st.booleans(), label="antes_by_level"))
    return Hand(g, stakes, stacks, options)


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(BLIND_VARIANTS))
def test_a_player_never_wins_back_dead_chips(data: Any, variant: str) -> None:
    """R-BLIND-4, R-POT-1: dead blinds go to the main pot and nowhere else. The same hand
    played without the dead posts (each poster starting with what he had left after
    them) ends with the same side pots and the same winners; the main pot is larger by
    the dead chips exactly, and they go to its winners only: a poster who wins no share
    of the main pot is down his dead chips on top of the rest."""
    hand = _setup_posts(data, variant)
    _play(data, hand)
    dead = [0] * hand.n
    for post in hand.posts:
        if post.kind is PostKind.DEAD_BLIND:
            dead[post.seat] += post.amount
    event("dead blinds" if any(dead) else "no dead blind")
    if not any(dead):
        return
    assert hand.awards[0].amount >= sum(dead)
    plain_stakes = replace(hand.stakes, dead_blinds=())
    plain_stacks = [s - d for s, d in zip(hand.starting_stacks, dead, strict=True)]
    try:
        plain = replay(hand.game, plain_stakes, plain_stacks, hand.log, hand.options)
    except RulesError:
        # pot limit: the dead chips are in the pot, so a raise may be legal only with them
        assert hand.game.structure is Structure.POT_LIMIT
        return
    assert plain.phase is Phase.COMPLETE
    assert hand.awards[1:] == plain.awards[1:]
    assert hand.awards[0].amount == plain.awards[0].amount + sum(dead)
    main_winners = {share.seat for share in hand.awards[0].shares}
    assert main_winners == {share.seat for share in plain.awards[0].shares}
    for s in range(hand.n):
        # won with the dead chips minus won without them: more only for a main-pot winner
        extra = (hand.stacks[s] - (hand.starting_stacks[s] - dead[s])) - (
            plain.stacks[s] - plain_stacks[s]
        )
        if s not in main_winners:
            assert extra == 0, f"seat {s} won back dead chips"
        else:
            assert extra >= 0


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(BLIND_VARIANTS))
def test_the_big_blind_opens_nothing_and_a_short_blind_keeps_the_price(
    data: Any, variant: str
) -> None:
    """R-BET-8, R-BET-2 *default*: pre-flop the first to act is the first seat left of the
    big blind that can act, whatever the blinds' sizes; the price is the full big blind
    however short the blinds were posted — the call is up to 10 and, when the actor has the
    chips, the smallest raise goes to 20 (no limit, pot limit, fixed limit alike) — except
    that nobody is asked for chips no other player could match (the price stops at the
    second-deepest stack)."""
    hand = _setup_posts(data, variant)
    for _ in range(len(hand.game.streets[0].hole_up)):
        for seat in range(hand.n):
            hand.deal_hole(seat, UNKNOWN)
    if hand.phase is not Phase.BETTING:
        return  # nobody can act: everyone is all in on the posts
    bb = hand.stakes.big_blind_seat
    assert bb is not None
    able = [s for s in range(hand.n) if hand.stacks[s] > 0]
    reach = sorted((hand.bets[s] + hand.stacks[s] for s in range(hand.n)), reverse=True)
    price = max(max(hand.bets), min(10, reach[1]))
    first = next(
        (bb + k) % hand.n
        for k in range(1, hand.n + 1)
        if (bb + k) % hand.n in able and (hand.bets[(bb + k) % hand.n] < price or len(able) > 1)
    )
    la = hand.legal_actions()
    event("a short blind" if min(hand.bets[:2]) < min(hand.stakes.blinds[:2]) else "full blinds")
    assert la.seat == first
    assert hand.current_bet == price
    assert la.call_amount == min(price - hand.bets[first], hand.stacks[first])
    if la.can_bet_or_raise and hand.bets[first] + hand.stacks[first] >= 20:
        assert la.min_to == 20
