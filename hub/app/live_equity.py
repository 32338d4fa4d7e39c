"""Live equity for the overlay: each seat's share of the pot from the cards on the table.

Pure: the cards known now in, a :class:`LiveSpot` out (or None when there is nothing to
compute yet), and from it the overlay's ``equity`` frames. Two sources:

* :func:`hand_spot` — the rules' hand, when the hub runs the rules: the seats dealt in
  that have not folded, their hole cards (a card the rules have not learnt is taken from
  the seat's antenna, else it counts as unknown), the board; burns, folded hands and the
  muck are dead cards;
* :func:`presence_spot` — the antennas alone: seats holding the game's full number of
  hole cards are in the hand, the board antenna gives the community cards, burn and muck
  cards are dead.

Only the board games the equity module plays live — hold'em, Omaha, Omaha hi-lo; for any
other game there is no spot (and the overlay shows no equity).

Each change of the cards gives two frames: :func:`quick_equity` (a Monte Carlo estimate
from :data:`QUICK_SAMPLES` deals, a few milliseconds) at once, then :func:`final_equity`
(exact when that costs at most :data:`LIVE_EXACT_BUDGET` valuations, else a Monte Carlo
estimate from :data:`~hub.equity.DEFAULT_SAMPLES` deals). When the exact answer costs no
more than the estimate (nothing left to deal, or no more deals left than the estimate
draws: from the flop on, mostly) the first answer is exact already and alone.
:func:`equity_event` adds each seat's hand name once five cards are known, the hi-lo
shares in Omaha hi-lo and, heads-up with three or four board cards, each player's outs.

>>> snap = {"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc"), "board": ()}
>>> live = presence_spot(snap, "T")
>>> live.seats
(1, 3)
>>> frame = equity_event(live, final_equity(live))
>>> frame["exact"], [p["equity"] for p in frame["players"]]
(True, [0.8126, 0.1874])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from feltwire.cards import CardIndex, card_code, card_index
from feltwire.protocol import ReaderKind, reader_kind, seat_of
from hub.equity import (
    DEFAULT_SAMPLES,
    EXACT_BUDGET,
    EquityGame,
    EquityResult,
    Spot,
    SpotError,
    deals_possible,
    exact_cost,
    exact_equity,
    game_for_code,
    sample_equity,
)
from hub.equity.names import describe_hands
from hub.equity.outs import outs

HOLE_CARDS = {EquityGame.HOLDEM: 2, EquityGame.OMAHA: 4, EquityGame.OMAHA8: 4}
"""The games with live equity, and how many hole cards each deals."""
BOARD_SIZES = (0, 3, 4, 5)
"""Board sizes equity is computed at (not while the flop is half dealt)."""
QUICK_SAMPLES = 2_000
"""Deals of the quick estimate sent the moment the cards change."""
LIVE_EXACT_BUDGET = 8 * EXACT_BUDGET
"""Most hand valuations spent on the exact figure (about two seconds); above it the final
figure is a Monte Carlo estimate."""


@dataclass(frozen=True, slots=True)
class LiveSpot:
    """The spot equity is computed from, with the table seats of its players."""

    seats: tuple[int, ...]
    spot: Spot
    hand: int | None = None
    """The rules' hand number (None: from presence, no rules)."""

    @property
    def key(self) -> tuple[object, ...]:
        """What the equity depends on: the same key, the same answer."""
        s = self.spot
        return (self.hand, self.seats, s.game, s.hands, s.unknown, s.board, frozenset(s.dead))


def _game(game_code: str) -> tuple[EquityGame, int] | None:
    """The equity game of a rules variant code and its hole-card count (None: no equity)."""
    try:
        game = game_for_code(game_code)
    except SpotError:
        return None
    need = HOLE_CARDS.get(game)
    return None if need is None else (game, need)


def holdem_family_spot(
    snapshot: Mapping[str, Sequence[str]], game_code: str
) -> tuple[tuple[int, ...], Spot] | None:
    """The spot of a board game (hold'em, Omaha) from what lies on the antennas.

    None while fewer than two seats hold a full hand, or the board is mid-deal.

    >>> seats, spot = holdem_family_spot({"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc")}, "T")
    >>> seats, spot.players
    ((1, 3), 2)
    """
    live = presence_spot(snapshot, game_code)
    return None if live is None else (live.seats, live.spot)


def presence_spot(snapshot: Mapping[str, Sequence[str]], game_code: str) -> LiveSpot | None:
    """The spot from the antennas alone (no rules): see the module's docs."""
    found = _game(game_code)
    if found is None:
        return None
    game, need = found
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
    return LiveSpot(tuple(seat for seat, _ in players), spot)


def hand_spot(
    game_code: str,
    *,
    hand: int,
    seats: Sequence[int],
    hole: Sequence[Sequence[CardIndex]],
    folded: Sequence[bool],
    board: Sequence[CardIndex],
    burns: Sequence[CardIndex],
    snapshot: Mapping[str, Sequence[str]],
) -> LiveSpot | None:
    """The spot from the rules' hand: ``seats`` (table seats in hand order) and, per
    seat, its ``hole`` cards (card indexes; negative: dealt but not read) and whether it
    ``folded``; the ``board`` and ``burns`` so far; the antennas' ``snapshot`` for cards
    the rules have not learnt and for the muck.

    None while the deal of the hole cards is under way, fewer than two seats are in,
    or the flop is half dealt.

    >>> from feltwire.cards import card_index as c
    >>> live = hand_spot("T", hand=4, seats=(5, 7, 2), folded=(False, True, False),
    ...                  hole=((c("As"), c("Ah")), (c("Kd"), c("Kc")), (c("7c"), -1)),
    ...                  board=(), burns=(), snapshot={"seat2": ("7c", "2d")})
    >>> live.seats, live.spot.hand_text(1), [card_code(x) for x in live.spot.dead]
    ((5, 2), '7c2d', ['Kc', 'Kd'])
    """
    found = _game(game_code)
    if found is None:
        return None
    game, need = found
    if len(board) not in BOARD_SIZES or any(len(h) < need for h in hole):
        return None
    dead: set[CardIndex] = {c for c in burns if c >= 0}
    dead.update(card_index(c) for c in snapshot.get("muck", ()))
    dead.update(card_index(c) for c in snapshot.get("burn", ()))
    live_seats: list[int] = []
    hands: list[tuple[CardIndex, ...]] = []
    for seat, cards, out in zip(seats, hole, folded, strict=True):
        known = [c for c in cards if c >= 0]
        if out:
            dead.update(known)
            continue
        spare = [
            i
            for i in (card_index(x) for x in snapshot.get(f"seat{seat}", ()))
            if i not in known and i not in board
        ]
        known += spare[: need - len(known)]
        live_seats.append(seat)
        hands.append(tuple(known[:need]))
    if len(live_seats) < 2:
        return None
    used = {c for h in hands for c in h} | set(board)
    spot = Spot(
        game=game,
        hands=tuple(hands),
        unknown=tuple(need - len(h) for h in hands),
        board=tuple(board),
        dead=tuple(sorted(dead - used)),
    )
    return LiveSpot(tuple(live_seats), spot, hand)


def quick_equity(live: LiveSpot, rng: int = 0) -> EquityResult:
    """The figure sent at once: an estimate from :data:`QUICK_SAMPLES` random deals, or
    the exact answer when it costs no more — nothing left to deal, or no more deals left
    to list than the estimate would draw (from the flop on, mostly). An exact answer is
    the only one for its cards (no :func:`final_equity` follows).

    >>> snap = {"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc"), "board": ("7c", "8d", "9s")}
    >>> quick_equity(presence_spot(snap, "T")).exact    # 990 turn-and-river deals
    True
    >>> quick_equity(presence_spot(snap | {"board": ()}, "T")).exact  # pre-flop
    False
    """
    spot = live.spot
    if spot.needed == 0 or (spot.board_unknown < 3 and deals_possible(spot) <= QUICK_SAMPLES):
        return exact_equity(spot)
    return sample_equity(spot, QUICK_SAMPLES, rng)


def final_equity(live: LiveSpot, rng: int = 0) -> EquityResult:
    """The figure that replaces the quick one: exact when affordable (see
    :data:`LIVE_EXACT_BUDGET`), else an estimate from many deals."""
    if exact_cost(live.spot) <= LIVE_EXACT_BUDGET or live.spot.needed == 0:
        return exact_equity(live.spot)
    return sample_equity(live.spot, DEFAULT_SAMPLES, rng)


def quick_frame(live: LiveSpot, rng: int = 0) -> dict[str, Any]:
    """The overlay's frame of :func:`quick_equity` (what a worker computes and sends back:
    hand names and outs included, so nothing of it is left to the event loop)."""
    return equity_event(live, quick_equity(live, rng))


def final_frame(live: LiveSpot, rng: int = 0) -> dict[str, Any]:
    """The overlay's frame of :func:`final_equity` (see :func:`quick_frame`)."""
    return equity_event(live, final_equity(live, rng))


def warm_up() -> None:
    """Build the equity tables and take the first call's costs (a worker starting).

    >>> warm_up()
    """
    board = ("7c", "8d", "9s")
    for code, seat1, seat3 in (
        ("T", ("As", "Ah"), ("Kd", "Kc")),
        ("O", ("As", "Ah", "2c", "3c"), ("Kd", "Kc", "Qh", "Jh")),
    ):
        live = presence_spot({"seat1": seat1, "seat3": seat3, "board": board}, code)
        assert live is not None
        quick_frame(live)


def _outs(live: LiveSpot) -> dict[str, Any] | None:
    """Heads-up outs for the next board card (None when they do not apply)."""
    spot = live.spot
    if spot.players != 2 or not spot.holes_known or len(spot.board) not in (3, 4):
        return None
    found = outs(spot)
    return {
        "leader": None if found.leader is None else live.seats[found.leader],
        "stub": found.stub,
        "cards": [list(c) for c in found.cards],
        "split": [list(c) for c in found.split],
    }


def equity_event(live: LiveSpot, result: EquityResult) -> dict[str, Any]:
    """The overlay's ``equity`` frame: one entry per seat in the hand.

    Per seat ``equity`` (share of the pot), ``win``, ``tie``, ``hand_name`` (None before
    five cards are known); in Omaha hi-lo ``high`` and ``low``, the chance to take all or
    part of that half; heads-up on the flop and turn ``outs`` and ``split_outs`` (the next
    cards that make the seat lead alone, or share the lead; Omaha hi-lo: the high hand).
    """
    spot = live.spot
    names = describe_hands(spot) if spot.holes_known else (None,) * spot.players
    found = _outs(live)
    players = []
    for i, (seat, p) in enumerate(zip(live.seats, result.players, strict=True)):
        entry: dict[str, Any] = {
            "reader": f"seat{seat}",
            "seat": seat,
            "equity": round(p.equity, 4),
            "win": round(p.win, 4),
            "tie": round(p.tie, 4),
            "hand_name": names[i],
        }
        if p.high_win is not None and p.high_tie is not None:
            entry["high"] = round(p.high_win + p.high_tie, 4)
        if p.low_win is not None and p.low_tie is not None:
            entry["low"] = round(p.low_win + p.low_tie, 4)
        if found is not None:
            entry["outs"] = found["cards"][i]
            entry["split_outs"] = found["split"][i]
        players.append(entry)
    return {
        "type": "equity",
        "hand": live.hand,
        "exact": result.exact,
        "error": round(result.error, 4),
        "low": None if result.low is None else round(result.low, 4),
        "board": [card_code(c) for c in spot.board],
        "outs": None if found is None else {"leader": found["leader"], "stub": found["stub"]},
        "players": players,
    }


def no_equity(hand: int | None = None) -> dict[str, Any]:
    """The ``equity`` frame that clears the figures (fewer than two hands on the table)."""
    return {
        "type": "equity",
        "hand": hand,
        "exact": True,
        "error": 0.0,
        "low": None,
        "board": [],
        "outs": None,
        "players": [],
    }
