"""Live equity for the overlay: each seat's share of the pot from the cards on the table.

Pure: the cards known now in, a :class:`LiveSpot` out (or None when there is nothing to
compute yet), and from it the overlay's ``equity`` frames. Two sources:

* :func:`hand_spot` — the rules' hand, when the hub runs the rules: the seats dealt in
  that have not folded, their hole cards (a card the rules have not learnt is taken from
  the seat's antenna, else it counts as unknown), the board; the folded hands' cards the
  overlay showed are dead cards;
* :func:`presence_spot` — the antennas alone: seats holding the game's full number of
  hole cards are in the hand, the board antenna gives the community cards, muck cards
  (the folded hands, shown on their seats before they went there) are dead.

Equity uses only cards the audience could know — the hole cards and the board the
overlay shows, and the folded hands it showed. A burn card is never shown (not on the
overlay, not to the camera), so it is never a dead card: the same spot gives the same
figure whatever was burnt (``docs/overlay.md``, "Equity").

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from feltwire.cards import CardIndex, card_code, card_index
from feltwire.readers import ReaderKind, reader_kind, seat_of
from hub.equity import (
    DEFAULT_SAMPLES,
    EXACT_BUDGET,
    EquityGame,
    EquityResult,
    PlayerEquity,
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
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """The contested pots (main first): chips and the players (indexes into ``seats``)
    who may win each; empty: one pot everyone in contests (see :func:`pot_equity`)."""

    @property
    def key(self) -> tuple[object, ...]:
        """What the equity depends on: the same key, the same answer."""
        s = self.spot
        return (
            self.hand,
            self.seats,
            s.game,
            s.hands,
            s.unknown,
            s.board,
            frozenset(s.dead),
            self.pots,
        )


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
        elif kind is ReaderKind.MUCK:  # never the burns: the audience never sees them
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
    snapshot: Mapping[str, Sequence[str]],
    committed: Sequence[int] = (),
    stacks: Sequence[int] = (),
) -> LiveSpot | None:
    """The spot from the rules' hand: ``seats`` (table seats in hand order) and, per
    seat, its ``hole`` cards (card indexes; negative: dealt but not read) and whether it
    ``folded``; the ``board`` so far; the antennas' ``snapshot`` for cards the rules have
    not learnt. Dead cards are the folded seats' cards the overlay showed (the rules' and
    their antennas'); never a burn, never a muck card the overlay did not show.
    ``committed``, per seat, the chips it has put in this hand and ``stacks`` what it has
    left: a seat all in for less than others puts a side pot beside the main pot, and a
    seat's equity is then its share of all of them (:func:`pot_equity`).

    None while the deal of the hole cards is under way, fewer than two seats are in,
    or the flop is half dealt.

    >>> from feltwire.cards import card_index as c
    >>> live = hand_spot("T", hand=4, seats=(5, 7, 2), folded=(False, True, False),
    ...                  hole=((c("As"), c("Ah")), (c("Kd"), c("Kc")), (c("7c"), -1)),
    ...                  board=(), snapshot={"seat2": ("7c", "2d")})
    >>> live.seats, live.spot.hand_text(1), [card_code(x) for x in live.spot.dead]
    ((5, 2), '7c2d', ['Kc', 'Kd'])
    """
    found = _game(game_code)
    if found is None:
        return None
    game, need = found
    if len(board) not in BOARD_SIZES or any(len(h) < need for h in hole):
        return None
    dead: set[CardIndex] = set()
    live_seats: list[int] = []
    hands: list[tuple[CardIndex, ...]] = []
    for seat, cards, out in zip(seats, hole, folded, strict=True):
        known = [c for c in cards if c >= 0]
        if out:  # shown on its seat before the fold (the rules' cards, and the antenna's)
            dead.update(known)
            dead.update(card_index(x) for x in snapshot.get(f"seat{seat}", ()))
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
    pots = side_pots(seats, live_seats, committed, stacks) if committed else ()
    return LiveSpot(tuple(live_seats), spot, hand, pots)


def side_pots(
    seats: Sequence[int],
    live_seats: Sequence[int],
    committed: Sequence[int],
    stacks: Sequence[int],
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The pots the seats still in contest, as (chips, indexes into ``live_seats``), when
    a seat all in for less than others makes side pots; () when one pot is all there is.

    Each all-in seat caps a pot at what it put in: the chips of every seat (folded ones
    too) up to that cap go to the pot, which the seats that put in as much may win; a
    seat not all in may win every pot (it can still match any bet). A pot only one seat
    may win (an uncalled bet, to go back) is nobody's equity.

    >>> side_pots((5, 7, 2), (5, 7, 2), committed=(1000, 1000, 400), stacks=(0, 0, 0))
    ((1200, (0, 1, 2)), (1200, (0, 1)))
    >>> side_pots((5, 7, 2), (5, 7, 2), committed=(10, 60, 5), stacks=(990, 940, 995))
    ()
    """
    where = {seat: i for i, seat in enumerate(live_seats)}
    live = [h for h, seat in enumerate(seats) if seat in where]
    caps = sorted({committed[h] for h in live if stacks[h] == 0})
    merged: dict[tuple[int, ...], int] = {}
    below = 0
    for cap in [*caps, None]:
        top = [c if cap is None else min(c, cap) for c in committed]
        amount = sum(max(0, t - min(c, below)) for t, c in zip(top, committed, strict=True))
        who = tuple(
            sorted(
                where[seats[h]]
                for h in live
                if stacks[h] > 0 or (cap is not None and committed[h] >= cap)
            )
        )
        if len(who) >= 2 and amount > 0:
            merged[who] = merged.get(who, 0) + amount
        if cap is not None:
            below = cap
    return tuple((amount, who) for who, amount in merged.items()) if len(merged) > 1 else ()


def _sub_spot(spot: Spot, who: tuple[int, ...]) -> Spot:
    """The spot of the players ``who`` alone: the others' known cards are dead."""
    others = [c for i, h in enumerate(spot.hands) if i not in who for c in h]
    return Spot(
        game=spot.game,
        hands=tuple(spot.hands[i] for i in who),
        unknown=tuple(spot.unknown[i] for i in who),
        board=spot.board,
        dead=tuple(sorted({*spot.dead, *others})),
    )


def _weighted(value: float | None, part: float | None, weight: float) -> float | None:
    if value is None or part is None:
        return None
    return value + part * weight


def pot_equity(live: LiveSpot, compute: Callable[[Spot], EquityResult]) -> EquityResult:
    """The equity of ``live``: ``compute`` of its spot when one pot is contested; with
    side pots each seat's share of all the pots — per pot the equity among the seats who
    may win it, weighted by its chips (so, with every card known, each seat's share of
    the chips it wins). Exact when every part is; the error the largest part's.

    >>> from feltwire.cards import card_index as c
    >>> short, big, other = [(c(a), c(b)) for a, b in (("As", "Ah"), ("Ks", "Kh"), ("Qs", "Qh"))]
    >>> spot = Spot(game=EquityGame.HOLDEM, hands=(short, big, other), unknown=(0, 0, 0),
    ...             board=tuple(c(x) for x in ("2c", "7d", "9h", "3s", "4c")))
    >>> live = LiveSpot((2, 5, 7), spot, 1, pots=((1200, (0, 1, 2)), (1200, (1, 2))))
    >>> [p.equity for p in pot_equity(live, exact_equity).players]
    [0.5, 0.5, 0.0]
    """
    if not live.pots:
        return compute(live.spot)
    spot = live.spot
    total = sum(amount for amount, _ in live.pots)
    n = spot.players
    equity, win, tie = [0.0] * n, [0.0] * n, [0.0] * n
    hi_win: list[float | None] = [0.0] * n
    hi_tie: list[float | None] = [0.0] * n
    lo_win: list[float | None] = [0.0] * n
    lo_tie: list[float | None] = [0.0] * n
    parts = [(amount / total, who, compute(_sub_spot(spot, who))) for amount, who in live.pots]
    for weight, who, result in parts:
        for i, p in zip(who, result.players, strict=True):
            equity[i] += p.equity * weight
            win[i] += p.win * weight
            tie[i] += p.tie * weight
            hi_win[i] = _weighted(hi_win[i], p.high_win, weight)
            hi_tie[i] = _weighted(hi_tie[i], p.high_tie, weight)
            lo_win[i] = _weighted(lo_win[i], p.low_win, weight)
            lo_tie[i] = _weighted(lo_tie[i], p.low_tie, weight)
    main = parts[0][2]
    hi_lo = main.players[0].high_win is not None
    players = tuple(
        PlayerEquity(
            hand=spot.hand_text(i),
            equity=equity[i],
            win=win[i],
            tie=tie[i],
            high_win=hi_win[i] if hi_lo else None,
            high_tie=hi_tie[i] if hi_lo else None,
            low_win=lo_win[i] if hi_lo else None,
            low_tie=lo_tie[i] if hi_lo else None,
        )
        for i in range(n)
    )
    return EquityResult(
        game=main.game,
        players=players,
        exact=all(r.exact for _, _, r in parts),
        deals=min(r.deals for _, _, r in parts),
        error=max(r.error for _, _, r in parts),
        low=main.low,
    )


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

    def quick(spot: Spot) -> EquityResult:
        if spot.needed == 0 or (spot.board_unknown < 3 and deals_possible(spot) <= QUICK_SAMPLES):
            return exact_equity(spot)
        return sample_equity(spot, QUICK_SAMPLES, rng)

    return pot_equity(live, quick)


def final_equity(live: LiveSpot, rng: int = 0) -> EquityResult:
    """The figure that replaces the quick one: exact when affordable (see
    :data:`LIVE_EXACT_BUDGET`), else an estimate from many deals."""

    def final(spot: Spot) -> EquityResult:
        if exact_cost(spot) <= LIVE_EXACT_BUDGET or spot.needed == 0:
            return exact_equity(spot)
        return sample_equity(spot, DEFAULT_SAMPLES, rng)

    return pot_equity(live, final)


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
