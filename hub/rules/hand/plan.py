"""A hand's plan: what its game, stakes and number of players decide before the first card.

:func:`plan_for` checks that the seats can play the game at those stakes and works out
what every hand with that setup shares (the burn rule, the first seat to act behind the
blinds, the minimum bet, the clockwise order of the seats); it keeps the plan by the
stakes' identity, since a table plays many hands at the same stakes. :func:`post_forced_bets`
takes the antes and blinds from the stacks when the hand starts.

>>> from hub.rules.games import Stakes, game
>>> plan = plan_for(game("NT"), Stakes.blind_game(6, 10, 20), 6)
>>> plan.opener, plan.min_bet, plan.clockwise[5]
(2, 20, (0, 1, 2, 3, 4, 5))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from feltwire.text import Text
from hub.rules.errors import ConfigurationError
from hub.rules.games import Family, Game, Options, Stakes

from .records import ANTE, BLIND, DEAD_BLIND, DRAW, FIXED_LIMIT, STUD, Post, new_record

__all__ = ["Plan", "big_blind_seat", "check_setup", "plan_for", "post_forced_bets"]

_BURN_RULES = {Family.BOARD: "R-DEAL-2", STUD: "R-DEAL-3", DRAW: "R-DEAL-5"}


class Plan(NamedTuple):
    """What every hand of one game, stakes and number of players shares."""

    game: Game
    stakes: Stakes
    n: int
    burn_rule: str
    """The rule a burn falls under in this game's family (R-DEAL-2, -3 or -5)."""
    opener: int
    """The first seat to act in a round that opens behind the blinds (R-BET-8)."""
    min_bet: int
    clockwise: tuple[tuple[int, ...], ...]
    """For each seat, the seats after it clockwise, ending with itself."""


_PLANS: dict[int, Plan] = {}
_CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {}


def check_setup(g: Game, st: Stakes, n: int) -> None:
    """Raise ConfigurationError unless ``n`` seats can play ``g`` at stakes ``st``."""
    if n < 2 or n > g.max_players:
        rule = {STUD: "R-DEAL-4", DRAW: "R-DEAL-5"}.get(g.family, "R-DEAL-5")
        raise ConfigurationError(
            rule,
            Text(
                "refusal.configuration.player_count",
                {"game": g.name, "most": g.max_players, "count": n},
            ),
        )
    for name in ("antes", "blinds"):
        if len(getattr(st, name)) != n:
            key = f"refusal.configuration.{name}_per_seat"
            raise ConfigurationError("R-BLIND-1", Text(key, {"count": n}))
    if st.dead_blinds and len(st.dead_blinds) != n:
        raise ConfigurationError(
            "R-BLIND-4", Text("refusal.configuration.dead_blinds_per_seat", {"count": n})
        )
    if g.structure is FIXED_LIMIT and (st.small_bet <= 0 or st.big_bet <= 0):
        raise ConfigurationError("R-BET-9", Text("refusal.configuration.fixed_limit_bets"))
    if g.family is STUD and any(st.blinds):
        raise ConfigurationError("R-POS-5", Text("refusal.configuration.stud_no_blinds"))
    if st.big_blind_seat is not None:
        if g.family is STUD:
            raise ConfigurationError("R-POS-5", Text("refusal.configuration.stud_no_big_blind"))
        if not 0 <= st.big_blind_seat < n:
            number = st.big_blind_seat + 1
            raise ConfigurationError(
                "R-POS-2", Text("refusal.configuration.no_such_player", {"number": number})
            )


def big_blind_seat(blinds: Sequence[int]) -> int:
    """The big blind's seat when the table does not say (:attr:`Stakes.big_blind_seat`),
    read from the per-seat live blinds as PHH lists them: the positional blinds are the
    first run of seats that post, small blind first; the big blind is the largest of
    them, the last of equal ones (equal blinds: the second; PokerKit reads them so).
    Heads-up the button (seat 1) posts the small blind, so of equal blinds seat 0 is
    the big blind. A live post further round (R-BLIND-3/4) is never the big blind.
    -1 when nobody posts a blind.

    >>> big_blind_seat((10, 20, 0, 0)), big_blind_seat((20, 20, 0, 0)), big_blind_seat((20, 20))
    (1, 1, 0)
    >>> big_blind_seat((10, 20, 0, 20)), big_blind_seat((0, 0, 0))
    (1, -1)
    """
    n = len(blinds)
    if n == 2:
        if not blinds[0] and not blinds[1]:
            return -1
        return 0 if blinds[0] >= blinds[1] else 1
    top = -1
    for s in range(n):
        if blinds[s]:
            if top < 0 or blinds[s] >= blinds[top]:
                top = s
        elif top >= 0:
            break
    return top


def plan_for(g: Game, st: Stakes, n: int) -> Plan:
    """The plan of a hand of ``g`` at ``st`` with ``n`` players: kept by the identity of
    the stakes and rebuilt (and checked) when the game, stakes or seats differ."""
    plan = _PLANS.get(id(st))
    if plan is not None and plan.game is g and plan.stakes is st and plan.n == n:
        return plan
    check_setup(g, st, n)
    blinds = st.blinds
    top = big_blind_seat(blinds) if st.big_blind_seat is None else st.big_blind_seat
    if top < 0:
        opener = 0
    else:
        # R-BET-8: left of the big blind whatever the blinds' sizes (R-BLIND-2: the big
        # blind keeps its option), or of a straddle posted on the seats right after it
        for _ in range(n - 1):
            nxt = (top + 1) % n
            if blinds[nxt] <= blinds[top]:
                break
            top = nxt
        opener = (top + 1) % n
    min_bet = st.min_bet or max(st.blinds) or st.small_bet or 1
    clockwise = _CLOCKWISE.get(n)
    if clockwise is None:
        clockwise = tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
        _CLOCKWISE[n] = clockwise
    plan = Plan(g, st, n, _BURN_RULES[g.family], opener, min_bet, clockwise)
    if len(_PLANS) > 512:
        _PLANS.clear()
    _PLANS[id(st)] = plan
    return plan


def post_forced_bets(
    st: Stakes,
    options: Options,
    stacks: list[int],
    total: list[int],
    dead: list[int],
    bets: list[int],
    posts: list[Post],
) -> list[int] | None:
    """Take the antes, dead blinds and blinds from ``stacks`` into the other lists (the
    hand's), recording each post; return the dead blinds per seat (None when nobody
    posts one): they go to the main pot whatever the side-pot levels (R-BLIND-4)."""
    n = len(stacks)
    if any(st.antes):
        antes = [min(st.antes[s], stacks[s]) for s in range(n)]
        if options.antes_by_level:
            # an ante nobody else matched (the others are short) comes straight back,
            # like an uncalled bet (R-POT-1)
            top = max(antes)
            second = max(a for i, a in enumerate(antes) if i != antes.index(top))
            if antes.count(top) == 1 and top > second:
                antes[antes.index(top)] = second
        for s in range(n):
            a = antes[s]
            if a:
                stacks[s] -= a
                total[s] += a
                dead[s] += a
                posts.append(new_record(Post, (s, ANTE, a)))
    blinds = st.blinds
    dead_blinds: list[int] | None = None
    if any(st.dead_blinds):
        dead_blinds = [0] * n
        for s in range(n):
            # R-BLIND-4: a short stack owing a live and a dead blind posts the live
            # part first; the dead part gets what is left
            a = min(st.dead_blinds[s], max(0, stacks[s] - blinds[s]))
            if a:
                stacks[s] -= a
                total[s] += a
                dead[s] += a
                dead_blinds[s] = a
                posts.append(new_record(Post, (s, DEAD_BLIND, a)))
    for s in range(n):
        b = blinds[s]
        if b:
            if b > stacks[s]:
                b = stacks[s]
            stacks[s] -= b
            total[s] += b
            bets[s] = b
            posts.append(new_record(Post, (s, BLIND, b)))
    return dead_blinds
