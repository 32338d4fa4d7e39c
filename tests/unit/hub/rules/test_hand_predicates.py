"""Property tests: every "may I?" of a hand agrees with "do it" (issue 14).

Each operation ``x`` of a :class:`~hub.rules.hand.Hand` has ``verify_x`` (raises) and
``can_x`` (bool, for a console's buttons). Random hands of every game are driven by a
stream of inputs, legal and illegal alike — cards to the wrong seat, cards in play
twice, cards not in the deck, bets of every size, actions out of turn, shows of cards
not held — and for each input: ``can_x`` is True exactly when ``verify_x`` passes, and
exactly when ``x`` is accepted; a refused ``x`` raises a
:class:`~hub.rules.errors.RulesError` (a ``ValueError``) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from hub.rules.dealing import UNKNOWN, DealKind
from hub.rules.errors import RulesError
from hub.rules.games import Options
from hub.rules.hand import Hand, Phase
from tests.support.drawn_hands import drawn_hand, drawn_settings

VARIANTS = [
    "NT", "PT", "FT", "PO", "FO/8", "PO/8", "NS",
    "F7S", "F7S/8", "FR", "F5S",
    "F5D", "N5D", "F2L3D", "N2L1D", "FB",
]  # fmt: skip

OPERATIONS = (
    "fold",
    "check",
    "call",
    "check_or_call",
    "bring_in",
    "bet_or_raise_to",
    "all_in",
    "burn",
    "deal_hole",
    "deal_board",
    "learn_hole",
    "discard",
    "show",
    "muck",
)
"""Every operation of a hand that has a ``verify_`` and a ``can_``."""

SETTINGS = drawn_settings(150)


def _options(data: Any) -> Options:
    return Options(
        burn_required=data.draw(st.booleans(), label="burn_required"),
        strict_deal_order=data.draw(st.booleans(), label="strict_deal_order"),
        showdown_order=data.draw(st.booleans(), label="showdown_order"),
        antes_by_level=data.draw(st.booleans(), label="antes_by_level"),
        cap_heads_up=data.draw(st.booleans(), label="cap_heads_up"),
    )


def _setup(data: st.DataObject, variant: str) -> Hand:
    return drawn_hand(data, variant, draw_players=5, max_stack=300, options=_options)


def _snapshot(hand: Hand) -> tuple[object, ...]:
    """Everything a refused input must leave as it was."""
    return (
        hand.phase,
        hand.actor,
        hand.street_index,
        hand.current_bet,
        tuple(hand.stacks),
        tuple(hand.bets),
        tuple(hand.total),
        tuple(hand.folded),
        tuple(tuple(h) for h in hand.hole),
        tuple(tuple(u) for u in hand.hole_up),
        tuple(hand.board),
        tuple(hand.burns),
        tuple(hand.log),
        hand.cards_out,
        hand.shown,
        hand.mucked,
        hand.expected(),
        tuple(hand.in_play(c) for c in range(52)),
        hand.awards,
    )


def _seat(data: st.DataObject, hand: Hand, optional: bool = False) -> int | None:
    """Mostly the seat whose turn it is; sometimes any seat, or one that does not exist."""
    due = [e.seat for e in hand.expected() if e.seat is not None]
    likely = [s for s in (hand.to_act, hand.actor, hand.drawer, hand.shower) if s is not None]
    choices: list[int | None] = [*likely, *due[:2], *range(-1, hand.n + 1)]
    if optional:
        choices += [None, None]
    return data.draw(st.sampled_from(choices or [0]), label="seat")


def _card(data: st.DataObject, hand: Hand, deck: list[int]) -> int:
    """Mostly the next card of a shuffled deck; sometimes a card in play, an unknown card,
    a card this deck does not have, or no card at all."""
    in_play = [c for c in range(52) if hand.in_play(c)]
    fresh = [c for c in deck if not hand.in_play(c)]
    kind = data.draw(st.integers(0, 9), label="card kind")
    if kind <= 5 and fresh:
        return fresh[0]
    if kind == 6 and in_play:
        return data.draw(st.sampled_from(in_play), label="card in play")
    if kind == 7:
        return UNKNOWN
    return data.draw(st.sampled_from([52, 99, -2, 0, 5, 51]), label="odd card")


def _cards(data: st.DataObject, hand: Hand, seat: int | None, deck: list[int]) -> list[int]:
    """Cards a player names: mostly some of its own, sometimes with others mixed in."""
    own = list(hand.hole[seat]) if seat is not None and 0 <= seat < hand.n else []
    k = data.draw(st.integers(0, len(own)), label="cards named")
    cards = list(data.draw(st.permutations(own), label="own cards"))[:k] if own else []
    if data.draw(st.integers(0, 3), label="mix") == 0:
        cards.append(_card(data, hand, deck))
    if cards and data.draw(st.integers(0, 5), label="twice") == 0:
        cards.append(cards[0])
    return cards


def _amount(data: st.DataObject, hand: Hand, seat: int | None) -> int:
    """A bet total near the legal bounds, or anywhere."""
    bounds: list[int] = [0, 1, 10, 20]
    if hand.phase is Phase.BETTING:
        la = hand.legal_actions()
        bounds += [la.min_to, la.max_to, la.min_to + 1, la.max_to + 1, la.min_to - 1]
        s = la.seat if seat is None or not 0 <= seat < hand.n else seat
        bounds.append(hand.bets[s] + hand.stacks[s])
        if la.min_to < la.max_to:
            bounds.append(data.draw(st.integers(la.min_to, la.max_to), label="to in range"))
    return data.draw(st.sampled_from(bounds), label="to")


def _arguments(data: st.DataObject, hand: Hand, op: str, deck: list[int]) -> tuple[Any, ...]:
    if op in ("fold", "check", "call", "check_or_call", "bring_in", "all_in"):
        return (_seat(data, hand, optional=True),)
    if op == "bet_or_raise_to":
        seat = _seat(data, hand, optional=True)
        return (_amount(data, hand, seat), seat)
    if op in ("burn", "deal_board"):
        return (_card(data, hand, deck),)
    if op == "deal_hole":
        up = data.draw(st.sampled_from([None, None, None, True, False]), label="up")
        return (_seat(data, hand), _card(data, hand, deck), up)
    if op == "learn_hole":
        return (_seat(data, hand), _card(data, hand, deck))
    if op == "discard":
        seat = _seat(data, hand)
        return (seat, _cards(data, hand, seat, deck))
    if op == "show":
        seat = _seat(data, hand)
        named = data.draw(st.booleans(), label="names cards")
        return (seat, _cards(data, hand, seat, deck) if named else None)
    return (_seat(data, hand),)  # muck


def _likely(hand: Hand) -> list[str]:
    """The operations that fit the moment, drawn more often so that hands go on."""
    if hand.phase is Phase.BETTING:
        return ["check_or_call", "check_or_call", "bet_or_raise_to", "fold", "bring_in"]
    if hand.phase is Phase.DRAWING and hand.drawer is not None:
        return ["discard", "discard"]
    if hand.phase in (Phase.DEALING, Phase.DRAWING):
        due = hand.expected()
        kinds = {DealKind.HOLE: "deal_hole", DealKind.BOARD: "deal_board", DealKind.BURN: "burn"}
        return [kinds[e.kind] for e in due[:2]] * 2
    return ["show", "muck", "show"]


def _try(action: Callable[..., object], args: tuple[Any, ...]) -> RulesError | None:
    """The RulesError ``action(*args)`` raises, None when it raises none."""
    try:
        action(*args)
    except RulesError as err:
        return err
    return None


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANTS))
def test_can_is_true_exactly_when_the_operation_is_accepted(
    data: st.DataObject, variant: str
) -> None:
    """For every input: ``can_x`` ⇔ ``verify_x`` passes ⇔ ``x`` is accepted; a refused
    ``x`` raises a RulesError (a ValueError) and changes nothing."""
    hand = _setup(data, variant)
    deck_cards = [c for c in range(52) if c >> 2 >= hand.game.lowest_rank]
    deck = list(data.draw(st.permutations(deck_cards), label="deck"))
    accepted = refused = 0
    for _ in range(200):
        if hand.phase is Phase.COMPLETE and hand.uncalled_winner is None:
            break
        op = data.draw(st.sampled_from(_likely(hand) + list(OPERATIONS)), label="operation")
        args = _arguments(data, hand, op, deck)
        can = getattr(hand, f"can_{op}")(*args)
        verify_error = _try(getattr(hand, f"verify_{op}"), args)
        assert can is (verify_error is None), (op, args, verify_error)
        before = _snapshot(hand)
        error = _try(getattr(hand, op), args)
        if can:
            assert error is None, (op, args, error)
            accepted += 1
        else:
            assert error is not None, (op, args, "accepted, but can_ said no")
            assert isinstance(error, ValueError)
            assert error.rule and str(error).startswith(error.rule), str(error)
            assert _snapshot(hand) == before, (op, args, "a refused input changed the hand")
            refused += 1
    event(f"{hand.phase.value}")
    event("inputs accepted: " + ("≥ 20" if accepted >= 20 else "< 20"))
    assert accepted + refused > 0
