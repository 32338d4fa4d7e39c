"""Live equity for the overlay: each seat's share of the pot from the cards on the table.

Pure: a presence snapshot in, an equity spot out (or None when there is nothing to
compute yet). Seats holding the game's full number of hole cards are in the hand; the
board antenna gives the community cards; burn and muck cards are dead.

>>> snap = {"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc"), "board": ()}
>>> seats, spot = holdem_family_spot(snap, "T")
>>> seats
(1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from feltwire.protocol import ReaderKind, reader_kind, seat_of
from hub.equity import EquityGame, EquityResult, Spot, game_for_code

HOLE_CARDS = {EquityGame.HOLDEM: 2, EquityGame.OMAHA: 4, EquityGame.OMAHA8: 4}
BOARD_SIZES = (0, 3, 4, 5)


def holdem_family_spot(
    snapshot: Mapping[str, Sequence[str]], game_code: str
) -> tuple[tuple[int, ...], Spot] | None:
    """The spot of a board game (hold'em, Omaha) from what lies on the antennas.

    None while fewer than two seats hold a full hand, or the board is mid-deal.
    """
    game = game_for_code(game_code)
    need = HOLE_CARDS.get(game)
    if need is None:
        return None
    players: list[tuple[int, Sequence[str]]] = []
    board: list[str] = []
    dead: list[str] = []
    for reader, cards in snapshot.items():
        kind = reader_kind(reader)
        if kind is ReaderKind.SEAT and len(cards) == need:
            seat = seat_of(reader)
            assert seat is not None
            players.append((seat, cards))
        elif kind is ReaderKind.BOARD:
            board.extend(cards)
        elif kind in (ReaderKind.BURN, ReaderKind.MUCK):
            dead.extend(cards)
    if len(players) < 2 or len(board) not in BOARD_SIZES:
        return None
    players.sort()
    spot = Spot.parse(
        game.value,
        ["".join(cards) for _, cards in players],
        board="".join(board),
        dead="".join(dead),
    )
    return tuple(seat for seat, _ in players), spot


def equity_event(seats: Sequence[int], result: EquityResult) -> dict[str, Any]:
    """The overlay's equity message: one entry per seat in the hand."""
    return {
        "type": "equity",
        "exact": result.exact,
        "players": [
            {
                "reader": f"seat{seat}",
                "equity": round(p.equity, 4),
                "win": round(p.win, 4),
                "tie": round(p.tie, 4),
            }
            for seat, p in zip(seats, result.players, strict=True)
        ],
    }
