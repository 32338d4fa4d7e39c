"""Seat lights: what each seat's LED should show, and only the changes to send.

Pure. Until the rules layer decides whose turn it is, a seat's light follows presence: a
seat with cards on its antenna shows ``idle`` (in the hand), an empty seat ``off``.
:class:`LightBoard` keeps what was last commanded so the hub sends each change once (as a
retained message, so a node that restarts gets its light back).

>>> board = LightBoard()
>>> board.set(3, LightPattern.IDLE)
True
>>> board.set(3, LightPattern.IDLE)
False
"""

from __future__ import annotations

from feltwire.protocol import LightPattern


def presence_pattern(cards_on_seat: int) -> LightPattern:
    """The light a seat shows from presence alone."""
    return LightPattern.IDLE if cards_on_seat else LightPattern.OFF


class LightBoard:
    """The pattern last commanded for each seat."""

    def __init__(self) -> None:
        self._patterns: dict[int, LightPattern] = {}

    def set(self, seat: int, pattern: LightPattern) -> bool:
        """Record ``pattern`` for ``seat``; True when it differs (a command must go out)."""
        if self._patterns.get(seat, LightPattern.OFF) is pattern and seat in self._patterns:
            return False
        self._patterns[seat] = pattern
        return True

    def restore(self, patterns: dict[int, LightPattern]) -> None:
        """Take the patterns :meth:`current` gave (a table snapshot)."""
        self._patterns = dict(patterns)

    def current(self) -> dict[int, LightPattern]:
        """Every seat's pattern as last commanded."""
        return dict(self._patterns)
