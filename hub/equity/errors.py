"""Errors of the equity calculator: one root, each also a :class:`ValueError`.

>>> err = SpotError("board has 6 cards; hold'em has at most 5")
>>> isinstance(err, ValueError), str(err)
(True, "board has 6 cards; hold'em has at most 5")
"""

from __future__ import annotations

from feltwire.errors import FeltwireError


class EquityError(FeltwireError, ValueError):
    """Root of every error :mod:`hub.equity` raises."""


class SpotError(EquityError):
    """A spot that cannot be dealt: bad card codes, duplicates, too many cards, no players."""


class TooExpensiveError(EquityError):
    """Exact enumeration was demanded for a spot with too many deals to walk."""
