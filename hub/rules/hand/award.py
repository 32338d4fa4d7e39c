"""The award: who takes each pot at the end of a hand, and how many chips each gets.

Pure functions of what the hand holds when it ends: the chips each seat put in, who
folded or mucked, the cards. :func:`pot_parts_of` forms the pots (R-POT-1, R-BLIND-4);
:func:`award_pots` values the hands that claim each pot and splits it (R-POT-2..5, hi-lo
halves); :func:`award_uncontested` gives everything to the one player left (R-BET-7).

>>> from hub.rules.games import game
>>> parts = pot_parts_of([100, 300, 300], [0, 0, 0], None, [False, False, True], False)
>>> parts
[(300, (0, 1)), (400, (1,))]

Seat 1 mucked: seat 0 takes the main pot unopposed; seat 1, alone in the side pot, takes it.

>>> awards, won = award_pots(game("NT"), 1, parts, [False, True, False], [[], [], []],
...     [[], [], []], [], [False, False, True])
>>> won, [a.uncontested for a in awards]
([300, 400, 0], [True, True])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from feltwire.cards import CardIndex
from hub.rules.evaluator import evaluate_high
from hub.rules.games import Game
from hub.rules.pots import Half, PotAward, Share, make_award, make_share, pot_parts, split
from hub.rules.showdown import hand_value, odd_chip_card_key

from .records import HIGH, HIGH_HAND, LOW, STUD, WHOLE

__all__ = ["award_pots", "award_uncontested", "odd_chip_order", "pot_parts_of"]

PotParts = list[tuple[int, tuple[int, ...]]]


def pot_parts_of(
    total: Sequence[int],
    dead: Sequence[int],
    dead_blinds: Sequence[int] | None,
    folded: Sequence[bool],
    antes_by_level: bool,
) -> PotParts:
    """The pots as ``(amount, eligible)`` pairs from each seat's ``total`` put in, of which
    ``dead`` were antes and dead blinds (``dead_blinds`` the dead blinds alone, or None).
    Antes by level count like bets (an all-in player wins back only what the others
    matched); dead blinds never do: they are not part of the poster's bet, raise no level
    and never come back (R-BLIND-4, R-POT-1)."""
    dead_part = dead if not antes_by_level else dead_blinds
    if dead_part is None:
        return pot_parts(total, [0] * len(total), folded)
    live = [t - d for t, d in zip(total, dead_part, strict=True)]
    return pot_parts(live, dead_part, folded)


def award_uncontested(winner: int, amount: int) -> PotAward:
    """Everyone else folded: one pot, uncontested (R-BET-7)."""
    return _whole_pot(0, amount, (winner,), winner, True)


def _whole_pot(
    pot: int, amount: int, eligible: tuple[int, ...], winner: int, uncontested: bool
) -> PotAward:
    """Pot number ``pot`` (``amount`` chips) taken whole by ``winner``, the one claimant
    left (``uncontested``) or the one best hand."""
    return make_award(
        pot, amount, eligible, (make_share(winner, amount, WHOLE, False),), uncontested
    )


def odd_chip_order(
    game: Game,
    seats: Iterable[int],
    hole: Sequence[Sequence[CardIndex]],
    hole_up: Sequence[Sequence[bool]],
    folded: Sequence[bool],
) -> list[int]:
    """Who gets the odd chips of a split pot first: in stud the highest up card (R-POT-4),
    else clockwise from the left of the button (R-POT-3)."""
    if game.family is STUD:
        ups = {
            s: [c for c, u in zip(hole[s], hole_up[s], strict=True) if u]
            for s in range(len(hole))
            if not folded[s]
        }
        return sorted(seats, key=lambda s: (-odd_chip_card_key(ups.get(s, [])), s))
    return sorted(seats)


def award_pots(
    game: Game,
    chip_unit: int,
    parts: PotParts,
    mucked: Sequence[bool],
    hole: Sequence[list[CardIndex]],
    hole_up: Sequence[Sequence[bool]],
    board: list[CardIndex],
    folded: Sequence[bool],
) -> tuple[tuple[PotAward, ...], list[int]]:
    """Award each pot of ``parts`` to the best hands among its claimants (those eligible
    that did not muck; all eligible if every one mucked): each pot's award, and the chips
    each seat won."""
    evaluation = game.evaluation
    hi_lo = evaluation.hi_lo
    high_only = evaluation is HIGH_HAND
    unit = chip_unit
    values: dict[int, tuple[int, int | None]] = {}
    highs_of: dict[int, int] = {}  # high values alone, for the games without a low half
    awards: list[PotAward] = []
    won = [0] * len(mucked)
    for index, (pot_amount, eligible) in enumerate(parts):
        claimants = [s for s in eligible if not mucked[s]] or list(eligible)
        if len(claimants) == 1:
            won[claimants[0]] += pot_amount
            awards.append(_whole_pot(index, pot_amount, eligible, claimants[0], True))
            continue
        if not hi_lo:
            # the common case, checked first: one best hand takes the whole pot
            for s in claimants:
                if s not in highs_of:
                    if high_only:
                        highs_of[s] = evaluate_high(hole[s] + board)
                    else:
                        highs_of[s] = hand_value(evaluation, hole[s], board)[0]
            first = claimants[0]
            best = highs_of[first]
            highs = [first]
            for s in claimants[1:]:
                v = highs_of[s]
                if v > best:
                    best = v
                    highs = [s]
                elif v == best:
                    highs.append(s)
            if len(highs) == 1:
                won[highs[0]] += pot_amount
                awards.append(_whole_pot(index, pot_amount, eligible, highs[0], False))
                continue
            lows: list[int] = []
        else:
            for s in claimants:
                if s not in values:
                    values[s] = hand_value(evaluation, hole[s], board)
            best = max(values[s][0] for s in claimants)
            highs = [s for s in claimants if values[s][0] == best]
            lows = []
            low_values = [values[s][1] for s in claimants if values[s][1] is not None]
            if low_values:
                best_low = max(v for v in low_values if v is not None)
                lows = [s for s in claimants if values[s][1] == best_low]
        shares: list[Share] = []
        halves: tuple[tuple[Half, list[int], int], ...]
        if lows:
            low_amount = (pot_amount // unit // 2) * unit  # R-POT-5: odd chip to high
            halves = ((HIGH, highs, pot_amount - low_amount), (LOW, lows, low_amount))
        else:
            halves = ((WHOLE, highs, pot_amount),)
        for half, winners, amount in halves:
            order, amounts = split(
                amount, odd_chip_order(game, winners, hole, hole_up, folded), unit
            )
            base = min(amounts)
            for s, a in zip(order, amounts, strict=True):
                won[s] += a
                shares.append(make_share(s, a, half, a > base))
        awards.append(
            make_award(index, pot_amount, eligible, tuple(shares), False, hi_lo and not lows)
        )
    return tuple(awards), won
