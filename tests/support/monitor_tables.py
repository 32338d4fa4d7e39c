"""Tables with a dealing monitor for the procedure tests: one hand at a table whose seats
the test names (:func:`table`), and the mix of games and table profiles the randomised
tests deal (:data:`TABLES`)."""

from __future__ import annotations

from collections.abc import Sequence

from hub.rules.errors import TableSeat
from hub.rules.games import Family, Options, Stakes, game
from hub.rules.procedure import DealingMonitor
from hub.rules.setup import HandSetup, TableProfile
from tests.support.dealer_sim import Table

TABLES: list[tuple[str, TableProfile]] = [
    ("NT", TableProfile()),
    ("NT", TableProfile(board_readers=("flop1", "flop2", "flop3", "turn", "river"))),
    ("NT", TableProfile(burn=False, muck=False)),
    ("PO", TableProfile()),
    ("F7S", TableProfile()),
    ("F7S", TableProfile(up_cards=True)),
    ("F7S", TableProfile(up_cards=True, burn=False)),
    ("F5D", TableProfile()),
    ("F5D", TableProfile(muck=False)),
]


def table(
    variant: str,
    seats: Sequence[int],
    profile: TableProfile | None = None,
    stacks: Sequence[int] | None = None,
    options: Options | None = None,
) -> Table:
    """A table with a monitor for one hand; ``seats`` in hand order, the button last."""
    g = game(variant)
    n = len(seats)
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, 1, 2, 5, 10)
    else:
        stakes = Stakes.blind_game(n, 5, 10)
    setup = HandSetup(
        1,
        g,
        tuple(TableSeat(t) for t in seats),
        seats[-1],
        stakes,
        tuple(stacks or (1000,) * n),
        options or Options(),
    )
    return Table(DealingMonitor(setup, profile=profile or TableProfile()))


def three_handed() -> HandSetup:
    """Hand 1 of hold'em at seats 2, 5 and 7 (the button), blinds 5/10, 500 each."""
    return HandSetup(
        1,
        game("NT"),
        seats=(TableSeat(2), TableSeat(5), TableSeat(7)),
        button=TableSeat(7),
        stakes=Stakes.blind_game(3, 5, 10),
        starting_stacks=(500,) * 3,
    )
