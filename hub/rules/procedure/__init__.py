"""The physical procedure of a hand, derived from antenna presence (issue #4).

A :class:`DealingMonitor` watches one hand at a live table. It is fed three kinds of
input (:mod:`~hub.rules.procedure.inputs`), each a frozen value stamped with an explicit
``now`` (seconds; the hub's receive time — nothing here reads a clock): presence
(:class:`Inventory`, :class:`UnknownTag`, :class:`TagClash`, :class:`Tick`), actions
entered at the dealer console (:class:`ConsoleAction`, :class:`ShowHand`,
:class:`MuckHand`) and dealer commands (:class:`ManualCard`, :class:`DeclareMisdeal`,
:class:`UndoAction`). It answers each with a :class:`Step`: the events
(:mod:`~hub.rules.procedure.events`), the alerts for the dealer, light hints, and the
reason when a console input was refused.

Tolerances: a seat whose cards are never read (a player who keeps them off the antenna)
is dealt unknown cards when the hand moves on, and the cards are learnt when they turn
up later; a tag lost and found within the debounce window is no move; a tag that will
not read can be entered by hand; a misdeal voids the hand; the last console action can
be undone (the hand is rebuilt from its log).

Where each part lives: the monitor and its answer (:mod:`~.monitor`), the order of the
deal (:mod:`~.deal_order`) and what the dealer deals next (:mod:`~.next_deal`:
:meth:`DealingMonitor.next_deal`), the draw (:mod:`~.draw`), the muck (:mod:`~.muck`), cards
arriving at and leaving the antennas (:mod:`~.presence`), the dealer's corrections
(:mod:`~.corrections`) and the state they share (:mod:`~.state`).

>>> from hub.rules.games import Stakes, game
>>> from hub.rules.setup import HandSetup
>>> setup = HandSetup(1, game("NT"), seats=(2, 5, 7), button=7,
...                   stakes=Stakes.blind_game(3, 5, 10), starting_stacks=(500, 400, 300))
>>> m = DealingMonitor(setup)
>>> step = m.apply(DeclareMisdeal(now=1.0))
>>> [a.code.name for a in step.alerts], step.events
(['MISDEAL_DECLARED'], (HandVoided(stacks=((2, 500), (5, 400), (7, 300))),))
>>> m.apply(UndoAction(now=2.0)).refused
Text(key='refusal.console.hand_void', params={})
"""

# The package's names: each module's public names (its ``__all__``), so a name is listed
# once, where it is defined.
from hub.rules.procedure import events, inputs, monitor
from hub.rules.procedure.corrections import MANUAL_CARD_IN_PLAY
from hub.rules.procedure.events import *  # noqa: F403
from hub.rules.procedure.inputs import *  # noqa: F403
from hub.rules.procedure.monitor import *  # noqa: F403

__all__ = ["MANUAL_CARD_IN_PLAY", *events.__all__, *inputs.__all__, *monitor.__all__]
