"""The table: seats, stacks, the button and the blinds across hands.

A :class:`Table` lives from hand to hand. Players join a seat with a buy-in, sit out,
come back, add chips and leave; the table decides, for each hand, who is dealt in, where
the button is and who posts what (live or dead), and hands the dealing procedure a
:class:`~hub.rules.setup.HandSetup`. When the hand is over it takes the finishing stacks
(less any rake), moves the button and keeps the missed-blind books. It is pure like the
hand engine: no clock (time is the ``now`` argument, in seconds), no randomness, no I/O.

Rules (``/work/shared/RULES.md``): positions and the button R-POS-1…5, buy-ins and table
stakes R-BUY-1…6, blinds R-BLIND-1…9, the misdeal R-DEAL-6. Choices the rules leave to
the house are :class:`TableRules` fields, their defaults the rules' *default*.

Where each part lives: the :class:`Table` and its operations (:mod:`~.table`), the set-up
(:mod:`~.config`), the players in the seats (:mod:`~.seating`), who posts what and how
blinds are owed under the dead-button rule (:mod:`~.blinds`), the events
(:mod:`~.events`) and the errors (:mod:`~.errors`).

The seed's example, six players at NL 10/20; seat 4 sits out for two hands and comes
back posting the big blind live and the small blind dead:

>>> from hub.rules.games import game
>>> table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20))
>>> for seat in range(1, 7):
...     _ = table.join(seat, f"P{seat}", 2000, now=0.0)
>>> setup = table.start_hand(now=0.0, button=1)
>>> setup.number, setup.button, setup.seats, setup.stakes.blinds
(1, 1, (2, 3, 4, 5, 6, 1), (10, 20, 0, 0, 0, 0))
>>> _ = table.finish_hand(setup.starting_stacks)       # a hand that moved no chips
>>> _ = table.sit_out(4)
>>> for _ in range(2):
...     _ = table.finish_hand(table.start_hand(now=60.0).starting_stacks)
>>> table.owes(4)
<Owed.BOTH_BLINDS: 'both blinds'>
>>> _ = table.come_back(4)
>>> setup = table.start_hand(now=120.0)
>>> [(p.seat, p.live, p.dead, p.rule) for p in table.current.posts]
[(6, 10, 0, 'R-POS-2'), (1, 20, 0, 'R-POS-2'), (4, 20, 10, 'R-BLIND-4')]
"""

# The package's names: each module's public names (its ``__all__``), so a name is listed
# once, where it is defined; the players' and the blinds' helpers stay in their modules.
from hub.rules.table import config, errors, events, table
from hub.rules.table.blinds import BlindPost
from hub.rules.table.config import *  # noqa: F403
from hub.rules.table.errors import *  # noqa: F403
from hub.rules.table.events import *  # noqa: F403
from hub.rules.table.seating import Entry, Owed, SeatedPlayer
from hub.rules.table.table import *  # noqa: F403

__all__ = [
    "BlindPost",
    "Entry",
    "Owed",
    "SeatedPlayer",
    *config.__all__,
    *errors.__all__,
    *events.__all__,
    *table.__all__,
]
