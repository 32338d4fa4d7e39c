"""Betting vocabulary: the actions a seat can take, what an action did, and what is legal.

:class:`LegalActions` answers "may I, and with what?" for the seat to act — the record a
dealer console greys its buttons with. :class:`Action` is what an action did.

>>> la = LegalActions(seat=2, can_fold=True, can_check=False, call_amount=20, can_call=True,
...     can_bring_in=False, bring_in_amount=0, can_bet_or_raise=True, min_to=40, max_to=1000,
...     bet_is_raise=True, is_completion=False)
>>> la.call_amount, la.min_to
(20, 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple


class ActionKind(Enum):
    """What a seat did (R-BET-1, R-STUD-1)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BRING_IN = "bring-in"
    COMPLETE = "complete"


class Action(NamedTuple):
    """One betting action as it happened.

    ``amount`` is the chips the seat added with this action, ``to`` its total bet in the
    round afterwards; ``all_in`` is True when the action used the seat's last chip;
    ``reopens`` is False for an all-in raise too small to reopen the betting (R-BET-5/6).
    An immutable record like the others; a ``NamedTuple`` because one is made for every
    action and that is three times cheaper than a frozen dataclass.
    """

    seat: int
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    street: int
    reopens: bool = True


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do now.

    ``call_amount`` is the chips a call adds (0 = check), already limited by the stack.
    ``min_to`` / ``max_to`` bound the total a bet, raise or completion may reach (an all-in
    below ``min_to`` is also allowed and equals ``max_to`` then). ``bet_is_raise`` tells
    a console to label the button "raise" rather than "bet"; ``is_completion`` marks the
    stud completion of a bring-in.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    can_call: bool
    can_bring_in: bool
    bring_in_amount: int
    can_bet_or_raise: bool
    min_to: int
    max_to: int
    bet_is_raise: bool
    is_completion: bool
