"""The house's rake: an optional cut of each pot, taken when the pot is awarded.

The seeds do not ask for a rake; a club may take one. :class:`Rake` is that choice —
off by default (rate 0). When on, the rake is a percentage of the pot, rounded down to
the smallest chip in play (R-BUY-6), never more than the cap, and with "no flop, no drop"
nothing is taken from a hand that ended before the flop (in stud and draw: before the
second street). :func:`take_rake` takes it from the winners in proportion to what each won.

>>> from fractions import Fraction
>>> rake = Rake(rate=Fraction(5, 100), cap=30)
>>> rake.amount(pot=250, flop_seen=True, chip_unit=5)
10
>>> rake.amount(pot=1000, flop_seen=True, chip_unit=5), rake.amount(250, False, 5)
(30, 0)
>>> take_rake(15, {2: 150, 4: 100}, chip_unit=5)
{2: 10, 4: 5}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from feltwire.text import Text
from hub.rules.errors import ConfigurationError

__all__ = ["Rake", "take_rake"]


@dataclass(frozen=True, slots=True)
class Rake:
    """The rake a table takes (default: none)."""

    rate: Fraction = Fraction(0)
    """Share of each pot taken, e.g. ``Fraction(5, 100)`` for 5 %; 0 = no rake."""
    cap: int | None = None
    """Most taken from one hand (None = no cap)."""
    no_flop_no_drop: bool = True
    """Nothing is taken from a hand that ended before the flop (second street)."""

    def __post_init__(self) -> None:
        if not 0 <= self.rate < 1:
            raise ConfigurationError(
                "R-BUY-6", Text("refusal.configuration.rake_rate", {"rate": str(self.rate)})
            )
        if self.cap is not None and self.cap < 0:
            raise ConfigurationError(
                "R-BUY-6", Text("refusal.configuration.rake_cap_negative", {"cap": self.cap})
            )

    @property
    def enabled(self) -> bool:
        """True when this table takes a rake at all."""
        return self.rate > 0 and self.cap != 0

    def amount(self, pot: int, flop_seen: bool, chip_unit: int = 1) -> int:
        """The rake from a pot of ``pot`` chips, in whole ``chip_unit``s (R-BUY-6)."""
        if not self.enabled or (self.no_flop_no_drop and not flop_seen):
            return 0
        raw = int(pot * self.rate) // chip_unit * chip_unit
        if self.cap is not None:
            raw = min(raw, self.cap // chip_unit * chip_unit)
        return raw


def take_rake(total: int, won: Mapping[int, int], chip_unit: int = 1) -> dict[int, int]:
    """Split a rake of ``total`` among the winners (``won``: seat → chips won), in
    proportion to what each won, in whole chip units; leftover units go to the biggest
    winners first (then the lower seat). Returns seat → rake paid."""
    winners = {s: w for s, w in won.items() if w > 0}
    out = dict.fromkeys(winners, 0)
    if total <= 0 or not winners:
        return out
    gross = sum(winners.values())
    units = min(total, gross) // chip_unit
    for s, w in winners.items():
        out[s] = units * w // gross * chip_unit
    left = units - sum(out.values()) // chip_unit
    order = sorted(winners, key=lambda s: (-winners[s], s))
    i = 0
    while left > 0:
        s = order[i % len(order)]
        if out[s] + chip_unit <= winners[s]:
            out[s] += chip_unit
            left -= 1
        i += 1
    return out
