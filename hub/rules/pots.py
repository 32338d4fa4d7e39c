"""Pots: main and side pots from what each seat put in, and how each pot is split.

:func:`build_pots` forms the main pot and side pots (R-POT-1); :func:`split` divides one
pot among tied winners in whole chips, odd chips one each in a given order (R-POT-2..5).

>>> pots = build_pots(contributions=[100, 300, 300], dead=[0, 0, 0], folded=[False, False, True])
>>> [(p.amount, p.eligible) for p in pots]
[(300, (0, 1)), (400, (1,))]
>>> split(5, (2, 0), chip_unit=1)
((2, 0), (3, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class Half(Enum):
    """Which part of a pot a share is: the whole pot, or the high or low half (hi-lo)."""

    WHOLE = "whole"
    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the seats that may win it (not folded, put in enough)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Share:
    """Chips one seat takes from one pot (or one half of it)."""

    seat: int
    amount: int
    half: Half
    odd_chip: bool
    """True when this share includes an odd chip (R-POT-2..5)."""


@dataclass(frozen=True, slots=True)
class PotAward:
    """How one pot was awarded, for the dealer to read out.

    ``pot`` is 0 for the main pot, 1.. for side pots. ``shares`` lists every seat paid,
    high half before low half in hi-lo games; ``uncontested`` is True when only one seat
    could win it (everyone else folded or mucked).
    """

    pot: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[Share, ...]
    uncontested: bool
    no_low: bool = False
    """Hi-lo: no eligible hand qualified for low, so the high hand took the whole pot."""

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A sentence the dealer can read out.

        >>> PotAward(1, 25, (0, 2), (Share(2, 13, Half.HIGH, True),
        ...     Share(0, 12, Half.LOW, False)), False).describe(["Ann", "Bob", "Cy"])
        'Side pot 1 (25): Cy 13 (high, odd chip), Ann 12 (low)'
        """
        label = "Main pot" if self.pot == 0 else f"Side pot {self.pot}"
        parts = []
        for share in self.shares:
            who = names[share.seat] if names else f"seat {share.seat}"
            notes = [share.half.value] if share.half is not Half.WHOLE else []
            if share.odd_chip:
                notes.append("odd chip")
            if self.no_low:
                notes.append("no low")
            suffix = f" ({', '.join(notes)})" if notes else ""
            parts.append(f"{who} {share.amount}{suffix}")
        return f"{label} ({self.amount}): " + ", ".join(parts)


def build_pots(
    contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool]
) -> list[Pot]:
    """Main pot first, then side pots (R-POT-1).

    ``contributions`` are the chips each seat put in that count toward side-pot levels;
    ``dead`` are chips (antes, dead blinds) that go to the main pot whatever the levels.
    Adjacent levels with the same eligible seats are merged.
    """
    n = len(contributions)
    top = max(contributions)
    in_hand = tuple(s for s in range(n) if not folded[s])
    if top and in_hand and all(contributions[s] == top for s in in_hand):  # one pot
        return [Pot(sum(contributions) + sum(dead), in_hand)]
    pots: list[Pot] = []
    carry = sum(dead)
    previous = 0
    for level in sorted(set(contributions)):
        if level == 0:
            continue
        amount = carry
        carry = 0
        for c in contributions:
            if c > previous:
                amount += min(c, level) - previous
        eligible = tuple(s for s in range(n) if not folded[s] and contributions[s] >= level)
        previous = level
        if not eligible:
            carry = amount  # nobody left at this level: belongs to the pot below
            if pots:
                last = pots.pop()
                pots.append(Pot(last.amount + carry, last.eligible))
                carry = 0
            continue
        if pots and pots[-1].eligible == eligible:
            last = pots.pop()
            amount += last.amount
        pots.append(Pot(amount, eligible))
    if carry:
        if pots:
            last = pots.pop()
            pots.append(Pot(last.amount + carry, last.eligible))
        else:
            live = tuple(s for s in range(n) if not folded[s])
            pots.append(Pot(carry, live))
    return pots


def split(
    amount: int, order: Sequence[int], chip_unit: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Divide ``amount`` among the seats in ``order`` (the odd-chip order).

    Returns the seats and their amounts, seats in ``order``. Everyone gets the same number
    of whole chips; the odd chips (fewer than the number of winners) go one each to the
    first seats in ``order`` (R-POT-2); an amount below one chip unit goes to the first.
    """
    k = len(order)
    unit = chip_unit if chip_unit > 0 else 1
    base = (amount // (k * unit)) * unit
    rest = amount - base * k
    amounts = []
    for _ in order:
        extra = unit if rest >= unit else 0
        rest -= extra
        amounts.append(base + extra)
    amounts[0] += rest
    return tuple(order), tuple(amounts)
