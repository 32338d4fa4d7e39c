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

from hub.rules.errors import HandSeat, SeatNamer, phh_name


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

    def describe(self, name: SeatNamer = phh_name) -> str:
        """A sentence the dealer can read out, naming the players with ``name`` (by default
        as a PHH file does).

        >>> award = PotAward(1, 25, (0, 2), (Share(2, 13, Half.HIGH, True),
        ...     Share(0, 12, Half.LOW, False)), False)
        >>> award.describe(lambda h: ("Ann", "Bob", "Cy")[h])
        'Side pot 1 (25): Cy 13 (high, odd chip), Ann 12 (low)'
        >>> award.describe()
        'Side pot 1 (25): p3 13 (high, odd chip), p1 12 (low)'
        """
        label = "Main pot" if self.pot == 0 else f"Side pot {self.pot}"
        parts = []
        for share in self.shares:
            who = name(HandSeat(share.seat))
            notes = [share.half.value] if share.half is not Half.WHOLE else []
            if share.odd_chip:
                notes.append("odd chip")
            if self.no_low:
                notes.append("no low")
            suffix = f" ({', '.join(notes)})" if notes else ""
            parts.append(f"{who} {share.amount}{suffix}")
        return f"{label} ({self.amount}): " + ", ".join(parts)


_new = object.__new__
_SHARE_SLOTS = tuple(Share.__dict__[f].__set__ for f in ("seat", "amount", "half", "odd_chip"))
_AWARD_SLOTS = tuple(
    PotAward.__dict__[f].__set__
    for f in ("pot", "amount", "eligible", "shares", "uncontested", "no_low")
)


def make_share(seat: int, amount: int, half: Half, odd_chip: bool) -> Share:
    """``Share(seat, amount, half, odd_chip)``, the same record made about twice as fast:
    its slots are filled directly instead of through the frozen dataclass's ``__init__``
    (one ``object.__setattr__`` per field). The award makes one per winner of every pot."""
    share: Share = _new(Share)
    a, b, c, d = _SHARE_SLOTS
    a(share, seat)
    b(share, amount)
    c(share, half)
    d(share, odd_chip)
    return share


def make_award(
    pot: int,
    amount: int,
    eligible: tuple[int, ...],
    shares: tuple[Share, ...],
    uncontested: bool,
    no_low: bool = False,
) -> PotAward:
    """``PotAward(...)`` made like :func:`make_share` (one per pot of every hand)."""
    award: PotAward = _new(PotAward)
    a, b, c, d, e, f = _AWARD_SLOTS
    a(award, pot)
    b(award, amount)
    c(award, eligible)
    d(award, shares)
    e(award, uncontested)
    f(award, no_low)
    return award


def build_pots(
    contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool]
) -> list[Pot]:
    """Main pot first, then side pots (R-POT-1).

    ``contributions`` are the chips each seat put in that count toward side-pot levels;
    ``dead`` are chips (antes, dead blinds) that go to the main pot whatever the levels.
    Adjacent levels with the same eligible seats are merged.
    """
    return [Pot(amount, eligible) for amount, eligible in pot_parts(contributions, dead, folded)]


def pot_parts(
    contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool]
) -> list[tuple[int, tuple[int, ...]]]:
    """:func:`build_pots` as ``(amount, eligible)`` pairs (the award reads them directly).

    A pot ends at each level where a seat still in the hand stops (its contribution, the
    contributions being never negative): between two such levels the eligible seats do
    not change, so a folded seat's level would only make a pot merged into the one above.
    The dead chips go to the first pot, the chips above the highest level (folded seats')
    to the last; with nobody in the hand at any level above 0 everything is one pot for
    the seats in the hand.
    """
    n = len(contributions)
    in_hand = tuple([s for s in range(n) if not folded[s]])
    top = max(contributions)
    if top and in_hand:
        for s in in_hand:
            if contributions[s] != top:
                break
        else:  # one pot
            return [(sum(contributions) + sum(dead), in_hand)]
    # below(L) = sum(min(c, L) for c in contributions): the chips up to level L; a pot
    # between two levels holds the difference
    ordered = sorted(contributions)
    pots: list[tuple[int, tuple[int, ...]]] = []
    carry = sum(dead)
    k = 0  # ordered[:k] are the contributions below the level
    under = 0  # their sum
    previous = 0  # below(previous level)
    for level in sorted({contributions[s] for s in in_hand}):
        if level <= 0:
            continue
        while ordered[k] < level:
            under += ordered[k]
            k += 1
        below = under + level * (n - k)
        pots.append(
            (carry + below - previous, tuple([s for s in in_hand if contributions[s] >= level]))
        )
        carry = 0
        previous = below
    carry += sum(ordered) - previous  # above the last level: folded seats' chips
    if carry:
        if pots:
            amount, eligible = pots[-1]
            pots[-1] = (amount + carry, eligible)
        else:
            pots.append((carry, in_hand))
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
