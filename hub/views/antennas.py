"""What each audience sees of an antenna: the public its face-up cards only (a count
for the secret ones: seats, burn, muck, the registration pad), the producer's overlay
every card.

>>> public_antenna("seat1", ("As", "Kd"))
{'reader': 'seat1', 'kind': 'seat', 'count': 2}
>>> public_antenna("board", ("As",))["cards"]
['As']
>>> type(public_antenna_view("burn", ("2c",))).__name__
'FaceDownAntenna'
>>> mark_unknown([public_antenna("seat1", ("As", "Kd"))], frozenset({"seat1"}))
[{'reader': 'seat1', 'kind': 'seat', 'count': 0, 'unknown': True}]
"""

from __future__ import annotations

from feltwire.protocol import (
    FaceDownAntenna,
    FaceUpAntenna,
    OverlayAntenna,
    ReaderKind,
    reader_kind,
)
from hub.views.frames import Event, frame

__all__ = [
    "PUBLIC_KINDS",
    "mark_unknown",
    "overlay_antenna",
    "overlay_antenna_view",
    "public_antenna",
    "public_antenna_view",
    "unknown_antenna",
]

PUBLIC_KINDS = frozenset({ReaderKind.BOARD, ReaderKind.UP})
"""Antennas whose cards lie face up: the only ones the public feed names."""


def public_antenna_view(reader: str, cards: tuple[str, ...]) -> FaceUpAntenna | FaceDownAntenna:
    """How the public sees an antenna: cards if face up, otherwise only how many."""
    kind = reader_kind(reader)
    if kind in PUBLIC_KINDS:
        return FaceUpAntenna(reader=reader, kind=kind.value, count=len(cards), cards=list(cards))
    return FaceDownAntenna(reader=reader, kind=kind.value, count=len(cards))


_PUBLIC: dict[tuple[str, int | tuple[str, ...]], Event] = {}
""":func:`public_antenna`'s frames already built, by antenna and what the public sees of
it: the face-up cards, or only how many (never a hidden card in the key: a frame's
cost does not depend on which cards lie face down)."""


def public_antenna(reader: str, cards: tuple[str, ...]) -> Event:
    """:func:`public_antenna_view` as a JSON object (a fresh one each call, built once
    for each antenna and what the public sees on it: the console and the public view
    show every antenna on every change)."""
    seen: int | tuple[str, ...] = cards if reader_kind(reader) in PUBLIC_KINDS else len(cards)
    built = _PUBLIC.get((reader, seen))
    if built is None:
        built = frame(public_antenna_view(reader, cards))
        if len(_PUBLIC) >= 2048:  # the boards of many hands: start again (memory flat)
            _PUBLIC.clear()
        _PUBLIC[reader, seen] = built
    return {**built, "cards": list(built["cards"])} if "cards" in built else dict(built)


def overlay_antenna_view(reader: str, cards: tuple[str, ...]) -> OverlayAntenna:
    """How the producer's overlay sees an antenna: every card."""
    return OverlayAntenna(
        reader=reader, kind=reader_kind(reader), count=len(cards), cards=list(cards)
    )


def overlay_antenna(reader: str, cards: tuple[str, ...]) -> Event:
    """:func:`overlay_antenna_view` as a JSON object."""
    return frame(overlay_antenna_view(reader, cards))


def unknown_antenna(antenna: Event) -> Event:
    """``antenna`` (a public or overlay view) whose node is offline: nothing said of its
    cards — ``count`` 0, no cards — and ``unknown``."""
    return antenna | {"count": 0, "unknown": True} | ({"cards": []} if "cards" in antenna else {})


def mark_unknown(antennas: list[Event], unknown: frozenset[str]) -> list[Event]:
    """``antennas`` with each one of an ``unknown`` reader made :func:`unknown_antenna`."""
    return [unknown_antenna(a) if a["reader"] in unknown else a for a in antennas]
