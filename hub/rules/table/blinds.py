"""The blinds: who is dealt in, where the button and the blinds are, who posts what.

A :class:`BlindPlanner` is given the seated players, last hand's positions and the
blinds of this hand; :meth:`BlindPlanner.plan` answers with a :class:`BlindPlan`, and
:func:`hand_stakes` turns that into the hand's :class:`~hub.rules.games.Stakes`.

How blinds are owed (dead-button rule, R-POS-3):

* the big blind moves forward exactly one *ready* seat each hand (a seat whose player is
  not sitting out and has chips); the small blind is last hand's big-blind seat and the
  button last hand's small-blind seat, so either may be dead;
* a player the big blind skips (sitting out, or busted and not yet rebought — R-BLIND-8)
  owes both blinds: to come back they post the big blind live and the small blind dead,
  or wait for the big blind (R-BLIND-4, R-BLIND-5);
* a player sitting out when the small blind is theirs owes a live small blind (R-BLIND-7);
* a new player posts a live big blind at once or waits for the big blind (R-BLIND-3);
* a new player, or one owing blinds, sitting between the button and the big blind waits
  until the button passes (R-BLIND-6);
* heads-up the button posts the small blind and the other player the big blind (R-POS-4).

With the moving-button rule (:attr:`~hub.rules.table.config.ButtonRule.MOVING_BUTTON`)
the button moves to the next player dealt in and no blind is dead; in a tournament every
seat with chips is dealt in; stud has no blinds (the house dealer's position, R-POS-5).

>>> from hub.rules.games import game
>>> from hub.rules.table.config import TableConfig
>>> players = {s: SeatedPlayer(f"P{s}", 1000) for s in (1, 3, 4)}
>>> planner = BlindPlanner(TableConfig(game("NT"), small_blind=5, big_blind=10), seats=6,
...                        players=players, blinds=(5, 10))
>>> plan = planner.plan(players, button=3)
>>> plan.dealt, [(p.seat, p.live) for p in plan.posts]
((4, 1, 3), [(4, 5), (1, 10)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from feltwire.text import Seat, Text
from hub.rules.games import Stakes
from hub.rules.table.config import ButtonRule, TableConfig
from hub.rules.table.errors import TableError
from hub.rules.table.seating import Entry, Owed, SeatedPlayer, between, hand_order, next_seat

__all__ = ["BlindPlan", "BlindPlanner", "BlindPost", "hand_stakes"]


@dataclass(frozen=True, slots=True)
class BlindPost:
    """A forced bet one seat posts at the start of a hand: ``live`` is part of the
    player's bet (R-BLIND-2), ``dead`` goes to the pot (R-BLIND-4); ``rule`` says why."""

    seat: int
    live: int
    dead: int
    rule: str


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """One hand's positions and posts, as :meth:`BlindPlanner.plan` decided them."""

    button: int
    small_blind: int | None
    """Seat posting the small blind (None: dead or stud)."""
    sb_position: int | None
    """Seat of the small-blind position, posted or dead (the next hand's button)."""
    big_blind: int | None
    dealt: tuple[int, ...]
    """Table seats dealt in, in hand order (button last)."""
    posts: tuple[BlindPost, ...]
    waiting: tuple[int, ...]
    heads_up: bool
    owes: Mapping[int, Owed]
    """Owed after the posts and missed blinds of this hand, for every seated player."""
    fresh: bool
    """A new game: the positions were drawn for, not moved on from the last hand."""


@dataclass(frozen=True, slots=True)
class BlindPlanner:
    """Plans one hand's positions and posts from the table as it stands between hands.

    ``button``, ``small_blind`` and ``big_blind`` are last hand's positions (None before
    the first hand), ``redeal_button`` the drawn button of a misdealt first hand (the
    redeal keeps it, R-DEAL-6), ``blinds`` this hand's small and big blind amounts."""

    config: TableConfig
    seats: int
    """How many seats the table has."""
    players: Mapping[int, SeatedPlayer]
    """Every seated player by table seat."""
    blinds: tuple[int, int]
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    redeal_button: int | None = None
    tournament: bool = False
    """A tournament: every seat with chips is dealt in and nobody owes blinds."""

    def plan(self, ready: Mapping[int, SeatedPlayer], button: int | None) -> BlindPlan:
        """The plan for the next hand among the ``ready`` players (at least two);
        ``button`` places the button of a first hand."""
        if not self.config.game.uses_blinds:
            return self._plan_stud(ready)
        if self.big_blind is None or self.tournament:
            if self.big_blind is None:
                return self._plan_fresh(ready, button)
            return self._plan_tournament(ready)
        if self.config.rules.button is ButtonRule.DEAD_BUTTON:
            plan = self._plan_dead_button(ready)
        else:
            plan = self._plan_moving_button(ready)
        return plan if plan is not None else self._plan_fresh(ready, None)

    def _plan_stud(self, ready: Mapping[int, SeatedPlayer]) -> BlindPlan:
        if self.config.rules.stud_house_dealer:
            button = self.seats  # the house dealer sits left of seat 1 (R-POS-5)
        else:
            last = self.button if self.button is not None else self.seats
            nxt = next_seat(self.seats, last, ready)
            assert nxt is not None
            button = nxt
        dealt = hand_order(self.seats, button, list(ready))
        owes = {s: Owed.NOTHING for s in self.players}
        return BlindPlan(button, None, None, None, dealt, (), (), False, owes, False)

    def _positions_fresh(self, players: Sequence[int], button: int | None) -> tuple[int, int, int]:
        redeal = self.redeal_button
        if redeal is not None:
            if button is not None and button != redeal:
                raise TableError(
                    "R-DEAL-6", Text("refusal.table.redeal_keeps_button", {"seat": Seat(redeal)})
                )
            # the drawn button stays; if its player has gone, the next ready seat takes it
            button = redeal if redeal in players else next_seat(self.seats, redeal, players)
        if button is None:
            last = self.button
            button = players[0] if last is None else next_seat(self.seats, last, players)
            assert button is not None
        elif button not in players:
            raise TableError(
                "R-POS-1", Text("refusal.table.button_not_ready", {"seat": Seat(button)})
            )
        if len(players) == 2:
            other = next_seat(self.seats, button, players)
            assert other is not None
            return button, button, other
        sb = next_seat(self.seats, button, players)
        assert sb is not None
        bb = next_seat(self.seats, sb, players)
        assert bb is not None
        return button, sb, bb

    def _plan_fresh(self, ready: Mapping[int, SeatedPlayer], button: int | None) -> BlindPlan:
        """A new game: everyone ready is dealt in and owes nothing (they drew for the
        button); the blinds are the two seats left of the button."""
        players = list(ready)
        btn, sb, bb = self._positions_fresh(players, button)
        owes = {s: (Owed.NOTHING if s in ready else p.owes) for s, p in self.players.items()}
        plan = self._finish_plan(btn, sb, bb, players, owes, len(players) == 2)
        return replace(plan, fresh=True)

    def _plan_tournament(self, ready: Mapping[int, SeatedPlayer]) -> BlindPlan:
        """Tournament: every seat with chips is dealt in; the big blind moves one seat."""
        assert self.big_blind is not None
        players = list(ready)
        bb = next_seat(self.seats, self.big_blind, players)
        assert bb is not None
        if len(players) == 2:
            btn = next_seat(self.seats, bb, players)
            assert btn is not None
            return self._finish_plan(btn, btn, bb, players, {}, True)
        sb = self.big_blind if self.big_blind in ready and self.big_blind != bb else None
        btn = self._button_seat(self.big_blind, bb)
        return self._finish_plan(btn, sb, bb, players, {}, False, sb_position=self.big_blind)

    def _button_seat(self, sb_seat: int, bb: int) -> int:
        """Dead button: last hand's small-blind seat, unless that is not behind the
        small blind any more (after heads-up), then the seat right of the small blind."""
        cand = self.small_blind
        if cand is not None and between(self.seats, bb, sb_seat, cand):
            return cand
        return (sb_seat - 2) % self.seats + 1

    def _positional_posts(self, btn: int, sb: int | None, bb: int) -> tuple[BlindPost, ...]:
        amount_sb, amount_bb = self.blinds
        out = []
        if sb is not None:
            out.append(BlindPost(sb, amount_sb, 0, "R-POS-4" if sb == btn else "R-POS-2"))
        out.append(BlindPost(bb, amount_bb, 0, "R-POS-4" if sb == btn else "R-POS-2"))
        return tuple(out)

    def _finish_plan(
        self,
        btn: int,
        sb: int | None,
        bb: int,
        dealt_seats: Sequence[int],
        owes: Mapping[int, Owed],
        heads_up: bool,
        extra_posts: Sequence[BlindPost] = (),
        waiting: Sequence[int] = (),
        sb_position: int | None = None,
    ) -> BlindPlan:
        dealt = hand_order(self.seats, btn, dealt_seats)
        posts = list(self._positional_posts(btn, sb, bb)) + list(extra_posts)
        order = {s: i for i, s in enumerate(dealt)}
        posts.sort(key=lambda p: order[p.seat])
        full_owes = {s: owes.get(s, p.owes) for s, p in self.players.items()}
        if self.tournament:
            full_owes = dict.fromkeys(self.players, Owed.NOTHING)
        position = sb_position if sb_position is not None else sb
        return BlindPlan(
            btn,
            sb,
            position,
            bb,
            dealt,
            tuple(posts),
            tuple(sorted(waiting)),
            heads_up,
            full_owes,
            False,
        )

    def _plan_dead_button(self, ready: Mapping[int, SeatedPlayer]) -> BlindPlan | None:
        """R-POS-3: the big blind moves one ready seat; the small blind is last hand's big
        blind seat, the button last hand's small-blind seat."""
        last_bb = self.big_blind
        assert last_bb is not None
        bb = next_seat(self.seats, last_bb, ready)
        if bb is None or bb == last_bb:
            return None
        sb_seat = last_bb
        btn = self._button_seat(sb_seat, bb)
        return self._assign(ready, btn, sb_seat, bb)

    def _plan_moving_button(self, ready: Mapping[int, SeatedPlayer]) -> BlindPlan | None:
        """Moving button: the button moves to the next player who plays this hand without
        owing; the blinds are the next two (the big blind may be a player who waited)."""
        full = [s for s, p in ready.items() if not p.new and p.owes is Owed.NOTHING]
        if len(full) < 2 or self.button is None:
            return None
        btn = next_seat(self.seats, self.button, full)
        assert btn is not None
        sb = next_seat(self.seats, btn, full)
        assert sb is not None
        bb = next_seat(self.seats, sb, [s for s in ready if s != btn])
        if bb is None or bb == sb:
            return None
        return self._assign(ready, btn, sb, bb)

    def _assign(
        self, ready: Mapping[int, SeatedPlayer], btn: int, sb_seat: int, bb: int
    ) -> BlindPlan | None:
        """Who is dealt in and what each posts, given the button and blind seats."""
        assert self.big_blind is not None
        amount_sb, amount_bb = self.blinds
        owes: dict[int, Owed] = {}
        # missed blinds (R-BLIND-4, R-BLIND-5, R-BLIND-7, R-BLIND-8)
        for s, p in self.players.items():
            if s in ready:
                continue
            if between(self.seats, self.big_blind, bb, s):
                owes[s] = Owed.BOTH_BLINDS
            elif (
                s == sb_seat
                or (
                    self.small_blind is not None
                    and s != self.small_blind
                    and between(self.seats, self.small_blind, sb_seat, s)
                )
            ) and not p.new:
                owes[s] = Owed.BOTH_BLINDS if p.owes is Owed.BOTH_BLINDS else Owed.SMALL_BLIND
        dealt: list[int] = []
        extra: list[BlindPost] = []
        waiting: list[int] = []
        sb: int | None = None
        for s, p in ready.items():
            if s == bb:
                dealt.append(s)
                owes[s] = Owed.NOTHING
                continue
            if s == sb_seat and not p.new:
                dealt.append(s)
                sb = s
                if p.owes is Owed.SMALL_BLIND:
                    owes[s] = Owed.NOTHING
                continue
            in_zone = between(self.seats, btn, bb, s)
            if p.new or p.owes is not Owed.NOTHING:
                if in_zone or p.entry is Entry.WAIT_FOR_BIG_BLIND:
                    waiting.append(s)
                    continue
                dealt.append(s)
                owes[s] = Owed.NOTHING
                if p.new or p.owes is Owed.BOTH_BLINDS:
                    rule = "R-BLIND-3" if p.new else "R-BLIND-4"
                    extra.append(BlindPost(s, amount_bb, 0 if p.new else amount_sb, rule))
                else:
                    extra.append(BlindPost(s, amount_sb, 0, "R-BLIND-7"))
                continue
            dealt.append(s)
        if len(dealt) < 2:
            return None
        if len(dealt) == 2:
            other = next(s for s in dealt if s != bb)
            for s in dealt:
                owes[s] = Owed.NOTHING
            return self._finish_plan(other, other, bb, dealt, owes, True, (), waiting)
        return self._finish_plan(btn, sb, bb, dealt, owes, False, extra, waiting, sb_seat)


def hand_stakes(config: TableConfig, plan: BlindPlan, big_blind: int, ante: int) -> Stakes:
    """The stakes of the hand ``plan`` sets up: per-seat blinds (live and dead) and antes
    in hand order, the bet sizes of ``config``'s structure at this ``big_blind``, and the
    seat of the big blind (or, in stud, the bring-in)."""
    cfg = config
    bb = big_blind
    n = len(plan.dealt)
    live = dict.fromkeys(plan.dealt, 0)
    dead = dict.fromkeys(plan.dealt, 0)
    for post in plan.posts:
        live[post.seat] += post.live
        dead[post.seat] += post.dead
    if not cfg.game.uses_blinds:
        return Stakes(
            antes=(ante,) * n,
            blinds=(0,) * n,
            bring_in=cfg.bring_in or cfg.small_bet // 2 // cfg.chip_unit * cfg.chip_unit,
            small_bet=cfg.small_bet,
            big_bet=cfg.big_bet_size,
            chip_unit=cfg.chip_unit,
        )
    return Stakes(
        antes=(ante,) * n,
        blinds=tuple(live[s] for s in plan.dealt),
        dead_blinds=tuple(dead[s] for s in plan.dealt) if any(dead.values()) else (),
        small_bet=cfg.small_bet_size if cfg.fixed_limit else bb,
        big_bet=cfg.big_bet_size if cfg.fixed_limit else 2 * bb,
        min_bet=bb,
        chip_unit=cfg.chip_unit,
        # R-BET-8, R-BLIND-2: the hand is told which seat is the big blind, so equal
        # blinds or a late live post of the same size cannot mislead it
        big_blind_seat=plan.dealt.index(plan.big_blind) if plan.big_blind is not None else None,
    )
