"""Outs: the cards that would change who leads, one card before the turn or the river.

For a board game with every hole card known and three or four board cards, each card
still in the stub is dealt in turn: a card after which a player who does not lead alone
now leads alone is one of that player's *outs*; one after which they share the lead is a
*split out*. Omaha hi-lo outs count the high hand only.

>>> from hub.equity.spot import Spot
>>> o = outs(Spot.parse("holdem", ["AsKs", "QdQc"], board="Qs7s2c"))
>>> o.leader, len(o.cards[0]), o.cards[1]
(1, 8, ())
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from feltwire.cards import CardIndex, card_code
from hub.equity import kernels
from hub.equity.errors import SpotError
from hub.equity.spot import Spot


@dataclass(frozen=True, slots=True)
class Outs:
    """Who leads now and, per player, the next cards that make them lead (or tie)."""

    leader: int | None
    """Seat index of the sole leader now; None when the lead is shared."""
    cards: tuple[tuple[str, ...], ...]
    """Per player: next cards after which they lead alone (empty for the leader)."""
    split: tuple[tuple[str, ...], ...]
    """Per player: next cards after which they share the lead (and do not share it now)."""
    stub: int
    """How many cards could come next."""


def _values(spot: Spot, board: NDArray[np.int64]) -> NDArray[np.int64]:
    m = len(board)
    holes = [np.broadcast_to(np.array(h, dtype=np.int64), (m, len(h))) for h in spot.hands]
    if spot.game.hole == 4:
        return np.stack([kernels.omaha(h, board, False)[0] for h in holes])
    return np.stack([kernels.high(np.hstack([h, board])) for h in holes])


def outs(spot: Spot) -> Outs:
    """The outs of every player for the next board card (board games, hole cards known)."""
    if spot.game.board != 5 or not spot.holes_known or len(spot.board) not in (3, 4):
        raise SpotError("outs need a board game with every hole card known and 3 or 4 on board")
    board_now = np.array([spot.board], dtype=np.int64)
    now = _values(spot, board_now)[:, 0]
    best = now.max()
    leaders_now = now == best
    leader = int(np.argmax(now)) if leaders_now.sum() == 1 else None
    stub = np.array(spot.stub, dtype=np.int64)
    boards = np.hstack([np.broadcast_to(board_now, (len(stub), len(spot.board))), stub[:, None]])
    after = _values(spot, boards)
    top = after.max(axis=0)
    lead = after == top
    sole = lead & (lead.sum(axis=0) == 1)
    shared = lead & (lead.sum(axis=0) > 1)
    cards = []
    split = []
    for p in range(spot.players):
        cards.append(
            () if leader == p else tuple(card_code(CardIndex(int(c))) for c in stub[sole[p]])
        )
        split.append(
            ()
            if leaders_now[p] and leader is None
            else tuple(card_code(CardIndex(int(c))) for c in stub[shared[p]])
        )
    return Outs(leader=leader, cards=tuple(cards), split=tuple(split), stub=len(stub))
