"""Short table scripts for the scenario tests, written in PHH action notation.

``play("NT", [1000] * 3, blinds=(10, 20), actions=["d dh p1 AsKs", ...])`` builds a hand
and applies the actions; seats are ``p1`` (left of the button) … ``pN`` (the button).
"""

from __future__ import annotations

from collections.abc import Sequence

from feltwire.cards import card_index
from hub.rules.games import BringInTies, Options, Stakes, game
from hub.rules.hand import Hand
from hub.rules.phh import apply_action


def play(
    variant: str,
    stacks: Sequence[int],
    actions: Sequence[str] = (),
    *,
    blinds: Sequence[int] = (),
    antes: int | Sequence[int] = 0,
    bring_in: int = 0,
    small_bet: int = 0,
    big_bet: int = 0,
    min_bet: int = 0,
    chip_unit: int = 1,
    dead_blinds: Sequence[int] = (),
    **options: object,
) -> Hand:
    """A hand of ``variant`` with the actions applied; ``blinds`` as in PHH (heads-up
    ``[SB, BB]`` is swapped so the button, seat 1, posts the small blind)."""
    n = len(stacks)
    g = game(variant)
    ante_list = (antes,) * n if isinstance(antes, int) else tuple(antes)
    blind_list = tuple(blinds) + (0,) * (n - len(blinds))
    if n == 2:  # PHH lists heads-up blinds as [SB, BB]; the button (seat 1) posts the SB
        blind_list = (blind_list[1], blind_list[0])
        ante_list = (ante_list[1], ante_list[0])
    bb = max(blind_list, default=0)
    stakes = Stakes(
        antes=ante_list,
        blinds=blind_list,
        dead_blinds=tuple(dead_blinds),
        bring_in=bring_in,
        small_bet=small_bet or bb,
        big_bet=big_bet or 2 * (small_bet or bb),
        min_bet=min_bet or bb,
        chip_unit=chip_unit,
    )
    opts = dict(options)
    if "bring_in_ties" in opts and isinstance(opts["bring_in_ties"], str):
        opts["bring_in_ties"] = BringInTies(opts["bring_in_ties"])
    hand = Hand(g, stakes, stacks, Options(**opts))  # type: ignore[arg-type]
    run(hand, actions)
    return hand


def run(hand: Hand, actions: Sequence[str]) -> Hand:
    """Apply PHH actions to ``hand``."""
    for a in actions:
        apply_action(hand, a)
    return hand


def cards(text: str) -> list[int]:
    """``"AsKd"`` → card ints."""
    return [card_index(text[i : i + 2]) for i in range(0, len(text), 2)]


def won(hand: Hand) -> list[int]:
    """Net chips won (+) or lost (-) per seat."""
    return [b - a for a, b in zip(hand.starting_stacks, hand.stacks, strict=True)]
