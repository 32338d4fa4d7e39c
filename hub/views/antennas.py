"""What each audience sees of an antenna: the public its face-up cards only (a count
for the secret ones: seats, burn, muck, the registration pad), the producer's overlay
every card.

>>> public_antenna("seat1", ("As", "Kd"))
{'reader': 'seat1', 'kind': 'seat', 'count': 2}
>>> public_antenna("board", ("As",))["cards"]
['As']
"""

from __future__ import annotations

from typing import Any

from feltwire.protocol import ReaderKind, reader_kind

PUBLIC_KINDS = frozenset({ReaderKind.BOARD, ReaderKind.UP})
"""Antennas whose cards lie face up: the only ones the public feed names."""


def public_antenna(reader: str, cards: tuple[str, ...]) -> dict[str, Any]:
    """How the public sees an antenna: cards if face up, otherwise only how many."""
    kind = reader_kind(reader)
    view: dict[str, Any] = {"reader": reader, "kind": kind.value, "count": len(cards)}
    if kind in PUBLIC_KINDS:
        view["cards"] = list(cards)
    return view


def overlay_antenna(reader: str, cards: tuple[str, ...]) -> dict[str, Any]:
    """How the producer's overlay sees an antenna: every card."""
    return {
        "reader": reader,
        "kind": reader_kind(reader).value,
        "count": len(cards),
        "cards": list(cards),
    }
