"""Driving table hands through the real engine, for the table scenario tests.

``play(table, now)`` starts a hand, plays it to the end and finishes it: by default every
player folds to the last raiser (the big blind collects the blinds); ``hole``/``board``
give explicit cards and the hand is checked down to a showdown. ``nl_table()`` seats the
players of a no-limit hold'em table; ``posts`` and ``stacks`` read back what the hand did.
``Comings`` has players join and leave a table in the property tests' random walks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from feltwire.cards import FULL_DECK, card_index
from hub.rules.dealing import DealKind
from hub.rules.games import game
from hub.rules.hand import Hand, Phase
from hub.rules.setup import HandSetup
from hub.rules.table import Entry, HandFinished, Table, TableConfig


def cards(text: str) -> list[int]:
    """``"AsKd"`` → card ints."""
    return [card_index(text[i : i + 2]) for i in range(0, len(text), 2)]


def deal_all(hand: Hand, hole: Mapping[int, str] | None = None, board: str = "") -> None:
    """Deal every card the hand expects now: ``hole`` by hand seat, ``board`` in order,
    the rest (burns, other seats) from the unused cards of a fresh deck."""
    given: dict[int, list[int]] = {s: cards(c) for s, c in (hole or {}).items()}
    board_cards = cards(board)
    used = {c for cs in given.values() for c in cs} | set(board_cards)
    used |= {c for h in hand.hole for c in h} | set(hand.board) | set(hand.burns)
    spare = [card_index(c) for c in FULL_DECK if card_index(c) not in used]
    for exp in hand.expected():
        if exp.kind is DealKind.BURN:
            hand.burn(spare.pop())
        elif exp.kind is DealKind.BOARD:
            hand.deal_board(board_cards[len(hand.board)] if board_cards else spare.pop())
        else:
            assert exp.seat is not None
            mine = given.get(exp.seat)
            card = mine[len(hand.hole[exp.seat])] if mine else spare.pop()
            hand.deal_hole(exp.seat, card, exp.up)


def fold_around(setup: HandSetup) -> Hand:
    """Everyone folds in turn (even when a check is possible): the last player left (the
    big blind, or the bring-in in stud) wins what was posted."""
    hand = setup.new_hand()
    while hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.DEALING:
            deal_all(hand)
        elif hand.phase is Phase.BETTING:
            if hand.can_bring_in():
                hand.bring_in()
            else:
                hand.fold()
        else:  # pragma: no cover - a fold-around never reaches a draw or a showdown
            raise AssertionError(hand.phase)
    return hand


def check_down(setup: HandSetup, hole: Mapping[int, str] | None = None, board: str = "") -> Hand:
    """Everyone calls the blinds and checks to the showdown; ``hole`` is keyed by *table*
    seat, ``board`` the five board cards."""
    hand = setup.new_hand()
    by_hand_seat = {setup.seats.index(t): c for t, c in (hole or {}).items()}
    return play_out(hand, by_hand_seat, board)


def play_out(hand: Hand, hole: Mapping[int, str] | None = None, board: str = "") -> Hand:
    """Play ``hand`` to the end from where it is: deal (``hole`` by *hand* seat), call or
    check every bet, stand pat, show in turn."""
    by_hand_seat = dict(hole or {})
    while hand.phase is not Phase.COMPLETE:
        if hand.phase is Phase.DEALING:
            deal_all(hand, by_hand_seat, board)
        elif hand.phase is Phase.BETTING:
            if hand.can_bring_in():
                hand.bring_in()
            else:
                hand.check_or_call()
        elif hand.phase is Phase.DRAWING:
            assert hand.drawer is not None
            hand.discard(hand.drawer, ())
        else:
            assert hand.shower is not None
            hand.show(hand.shower)
    return hand


def play(
    table: Table,
    now: float = 0.0,
    *,
    button: int | None = None,
    hole: Mapping[int, str] | None = None,
    board: str = "",
) -> tuple[HandSetup, HandFinished]:
    """Start a hand, play it (fold around, or check down when ``hole`` is given), finish it."""
    setup = table.start_hand(now, button=button)
    hand = check_down(setup, hole, board) if hole else fold_around(setup)
    return setup, table.finish_hand(hand, now=now)


def posts(table: Table) -> dict[int, tuple[int, int]]:
    """The current hand's blinds: table seat → (live, dead)."""
    assert table.current is not None
    return {p.seat: (p.live, p.dead) for p in table.current.posts}


def stacks(table: Table) -> dict[int, int]:
    """Table seat → stack."""
    return {s: p.stack for s, p in table.players.items()}


def nl_table(players: int = 6, stack: int = 2000, sb: int = 10, bb: int = 20) -> Table:
    """NL hold'em ``sb``/``bb`` with ``players`` players in seats 1… and ``stack`` each."""
    table = Table(TableConfig(game("NT"), small_blind=sb, big_blind=bb))
    for seat in range(1, players + 1):
        table.join(seat, f"P{seat}", stack, now=0.0)
    return table


@dataclass
class Comings:
    """Players joining and leaving ``table`` in a random walk, and the chips they brought
    (``bought``, to which the walk adds what else it buys) and took away (``left``)."""

    table: Table
    bought: int = 0
    left: int = 0
    names: int = 0

    def join(self, seat: int, param: int, now: float) -> bool:
        """A new player (N1, N2 …) takes ``seat`` if it is free, with 800 + 400·``param``
        chips, posting at once or waiting for the big blind by ``param``; whether one did."""
        if seat in self.table.players:
            return False
        self.names += 1
        amount = 800 + 400 * param
        self.table.join(seat, f"N{self.names}", amount, now=now, entry=list(Entry)[param % 2])
        self.bought += amount
        return True

    def leave(self, seat: int, now: float) -> bool:
        """The player in ``seat`` leaves with his chips if the table lets him; whether he did."""
        if not self.table.can_leave(seat):
            return False
        self.left += self.table.leave(seat, now).stack
        return True
