"""The :class:`Table`: seats, stacks, the button and the blinds across hands.

The operations are here; what they are made of lives beside them — the set-up
(:mod:`~hub.rules.table.config`), the players in the seats
(:mod:`~hub.rules.table.seating`), who posts what (:mod:`~hub.rules.table.blinds`), the
events the operations return (:mod:`~hub.rules.table.events`) and their errors
(:mod:`~hub.rules.table.errors`). See :mod:`hub.rules.table` for an example.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

from feltwire.text import Param, Seat, Text
from hub.messages.vocabulary import phase
from hub.rules.errors import RulesError, TableSeat
from hub.rules.games import Family
from hub.rules.hand import Hand, HandResult, Phase
from hub.rules.rake import take_rake
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.table.blinds import BlindPlan, BlindPlanner, hand_stakes
from hub.rules.table.config import ADDING, BUY_IN, BuyInLimits, TableConfig
from hub.rules.table.errors import (
    BuyInError,
    HandInProgressError,
    NotEnoughPlayersError,
    SeatError,
    TableError,
)
from hub.rules.table.events import (
    CameBack,
    ChipsAdded,
    ChipsDelivered,
    HandFinished,
    HandStarted,
    HandVoided,
    Override,
    PlayerJoined,
    PlayerLeft,
    SatOut,
    TableEvent,
)
from hub.rules.table.seating import NO_FACE, Entry, Owed, PlayerFace, SeatedPlayer
from hub.rules.tournament import Elimination, Tournament

__all__ = ["Table"]

_E = TypeVar("_E", bound=TableEvent)
_P = ParamSpec("_P")

LOG_KEPT = 64
"""How many of its latest events a table's :attr:`~Table.log` keeps at least (it holds up
to twice as many, then drops the oldest: a night of hands does not pile up in memory)."""


def _accepted(verify: Callable[_P, object], *args: _P.args, **kwargs: _P.kwargs) -> bool:
    """The ``can_…`` answer from a ``verify_…`` check: True when it raises no rules error."""
    try:
        verify(*args, **kwargs)
    except RulesError:
        return False
    return True


def _freezeout() -> BuyInError:
    return BuyInError("R-BUY-4", Text("refusal.buy_in.freezeout"))


def _over_maximum(seat: int, amount: int, room: int, have: int, pending: int) -> BuyInError:
    """R-BUY-4: adding ``amount`` to ``have`` chips (``pending`` of them waiting for the
    hand's end) passes the maximum by more than the ``room`` left — what can be bought,
    and why."""
    why: dict[str, Param] = {"seat": Seat(seat), "have": have, "maximum": room + have}
    key = "refusal.buy_in.top_up_over_max" if room else "refusal.buy_in.top_up_at_max"
    if room:
        why |= {"room": room, "amount": amount}
    if pending:
        key += "_pending"
        why["pending"] = pending
    return BuyInError("R-BUY-4", Text(key, why))


class Table:
    """A poker table across hands: seats ``1 … profile.seats``, a game, its stakes and
    rules, the button and the blinds.

    >>> from hub.rules.games import game
    >>> from hub.rules.table import TableConfig
    >>> table = Table(TableConfig(game("NT"), small_blind=5, big_blind=10))
    >>> table.can_join(1, "Ann", 100, now=0.0)  # the minimum is 40 big blinds (R-BUY-2)
    False
    >>> table.join(1, "Ann", 400, now=0.0).limits
    BuyInLimits(minimum=400, maximum=1000, rule='R-BUY-2')
    >>> table.can_start_hand(now=0.0)  # a hand needs two players (R-POS-2)
    False

    :mod:`hub.rules.table` has a longer example. Operations, each with ``verify_…`` (raises a
    :class:`TableError` naming the rule) and ``can_…``, return a frozen event that is also
    appended to :attr:`log` (it keeps the latest :data:`LOG_KEPT` or more): :meth:`join`,
    :meth:`leave`, :meth:`sit_out`, :meth:`come_back`, :meth:`add_chips`,
    :meth:`start_hand` (returns the :class:`~hub.rules.setup.HandSetup`; the event is
    :attr:`current`), :meth:`finish_hand`, :meth:`misdeal`. Queries: :attr:`players`, :meth:`owes`,
    :meth:`buy_in_limits`, :attr:`button`, :attr:`hand_number`.
    """

    def __init__(
        self,
        config: TableConfig,
        profile: TableProfile | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        self.config = config
        self.profile = profile if profile is not None else TableProfile()
        self.tournament = tournament
        self.log: list[TableEvent] = []
        """The latest events, in order (overrides included, R-BUY-4): at least the last
        :data:`LOG_KEPT`, at most twice as many (the older are dropped)."""
        self.hand_number = 0
        """Number of the last hand started (hands are numbered 1, 2, …)."""
        self.current: HandStarted | None = None
        """The hand being played, or None between hands."""
        self._players: dict[int, SeatedPlayer] = {}
        self._departures: dict[str, tuple[int, float]] = {}
        self._button: int | None = None
        self._sb: int | None = None
        self._bb: int | None = None
        self._undo: dict[int, SeatedPlayer] = {}
        self._undo_positions: tuple[int | None, int | None, int | None] = (None, None, None)
        self._redeal_button: int | None = None
        """The drawn button of a first hand that was misdealt: the redeal keeps it (R-DEAL-6)."""

    # --------------------------------------------------------------- queries

    @property
    def players(self) -> Mapping[int, SeatedPlayer]:
        """Seated players by table seat (a copy)."""
        return dict(sorted(self._players.items()))

    @property
    def button(self) -> int | None:
        """Table seat of the button of the current or last hand (None before the first)."""
        return self._button

    @property
    def small_blind_seat(self) -> int | None:
        """Seat of the last hand's small blind (possibly dead under R-POS-3)."""
        return self._sb

    @property
    def big_blind_seat(self) -> int | None:
        """Seat of the last hand's big blind."""
        return self._bb

    def owes(self, seat: int) -> Owed:
        """The blinds the player in ``seat`` must post to be dealt in again."""
        return self.player(seat).owes

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or None."""
        for seat, p in self._players.items():
            if p.name == player:
                return seat
        return None

    def player(self, seat: int) -> SeatedPlayer:
        """The player in ``seat`` (SeatError: no such seat, or nobody in it)."""
        self._check_seat(seat)
        try:
            return self._players[seat]
        except KeyError:
            raise SeatError("R-POS-1", Text("refusal.seat.empty", {"seat": Seat(seat)})) from None

    def _check_seat(self, seat: int) -> None:
        if not 1 <= seat <= self.profile.seats:
            raise SeatError(
                "R-POS-1",
                Text("refusal.seat.no_such_seat", {"number": seat, "seats": self.profile.seats}),
            )

    def _in_hand(self, seat: int) -> bool:
        return self.current is not None and seat in self.current.setup.seats

    def buy_in_limits(self, player: str, now: float) -> BuyInLimits:
        """What ``player`` may bring to a seat at ``now``: R-BUY-1 (fixed limit), R-BUY-2
        (no/pot limit), R-BUY-3 (back within the window after leaving with more than the
        maximum: no maximum, and at least what they left with unless the table's
        ``return_with_stack`` option is off)."""
        cfg = self.config
        if self.tournament is not None:
            s = self.tournament.starting_stack
            return BuyInLimits(s, s, "R-BUY-1")
        lo, hi = cfg.minimum_buy_in, cfg.maximum_buy_in
        rule = "R-BUY-1" if cfg.fixed_limit else "R-BUY-2"
        left = self._departures.get(player)
        if left is not None:
            stack, at = left
            if now - at < cfg.rules.return_window and hi is not None and stack > hi:
                back = max(lo, stack) if cfg.rules.return_with_stack else lo
                return BuyInLimits(back, None, "R-BUY-3")
        return BuyInLimits(lo, hi, rule)

    # ------------------------------------------------------------------ join

    def _check_amount(self, amount: int) -> None:
        unit = self.config.chip_unit
        if amount <= 0 or amount % unit:
            raise BuyInError(
                "R-BUY-6", Text("refusal.buy_in.chip_unit", {"amount": amount, "unit": unit})
            )

    def verify_join(
        self, seat: int, player: str, buy_in: int, now: float, override: Override | None = None
    ) -> BuyInLimits:
        """Raise unless ``player`` may sit in ``seat`` with ``buy_in`` chips; returns the
        limits that applied."""
        self._check_seat(seat)
        if seat in self._players:
            taken: dict[str, Param] = {"seat": Seat(seat), "player": self._players[seat].name}
            raise SeatError("R-POS-1", Text("refusal.seat.taken", taken))
        where = self.seat_of(player)
        if where is not None:
            seated: dict[str, Param] = {"player": player, "seat": Seat(where)}
            raise SeatError("R-POS-1", Text("refusal.seat.already_seated", seated))
        if len(self._players) >= self.config.game.max_players:
            g = self.config.game
            rule = "R-DEAL-4" if g.family is Family.STUD else "R-DEAL-5"
            full: dict[str, Param] = {"game": g.name, "most": g.max_players}
            raise SeatError(rule, Text("refusal.seat.table_full", full))
        self._check_amount(buy_in)
        limits = self.buy_in_limits(player, now)
        if override is None:
            limits.verify(buy_in, what=BUY_IN)
        elif self.tournament is not None:
            raise BuyInError("R-BUY-4", Text("refusal.buy_in.tournament_stack"))
        return limits

    def can_join(
        self, seat: int, player: str, buy_in: int, now: float, override: Override | None = None
    ) -> bool:
        """True when :meth:`join` would be accepted."""
        return _accepted(self.verify_join, seat, player, buy_in, now, override)

    def join(
        self,
        seat: int,
        player: str,
        buy_in: int,
        now: float,
        entry: Entry = Entry.POST,
        override: Override | None = None,
        club_id: str = "",
        face: PlayerFace = NO_FACE,
    ) -> PlayerJoined:
        """Seat ``player`` with ``buy_in`` chips. A new player posts a live big blind at
        once (``Entry.POST``) or waits for the big blind (R-BLIND-3); the players seated
        before the first hand are simply dealt in (they drew for the button). ``club_id``
        and ``face`` (a country, a photo) are the player's record, which the rules keep
        but never read."""
        limits = self.verify_join(seat, player, buy_in, now, override)
        self._players[seat] = SeatedPlayer(
            player, buy_in, entry=entry, joined_at=now, club_id=club_id, face=face
        )
        self._departures.pop(player, None)
        if self.tournament is not None:
            self.tournament.entrants += 1
        return self._emit(PlayerJoined(seat, player, buy_in, entry, limits, override, now))

    # ----------------------------------------------------------------- leave

    def verify_leave(self, seat: int) -> None:
        """Raise unless the player in ``seat`` may leave now (not while dealt in)."""
        self.player(seat)
        if self._in_hand(seat):
            raise HandInProgressError(
                "R-BUY-5",
                Text(
                    "refusal.hand_in_progress.leave",
                    {"seat": Seat(seat), "hand": str(self.hand_number)},
                ),
            )

    def can_leave(self, seat: int) -> bool:
        """True when :meth:`leave` would be accepted (:meth:`verify_leave`'s test without
        building its refusal: the console asks it of every seat on every change)."""
        return seat in self._players and not self._in_hand(seat)

    def leave(self, seat: int, now: float) -> PlayerLeft:
        """The player in ``seat`` leaves with their chips (pending ones included); the
        stack and time are kept for R-BUY-3."""
        self.verify_leave(seat)
        p = self._players.pop(seat)
        stack = p.stack + p.pending
        self._departures[p.name] = (stack, now)
        return self._emit(PlayerLeft(seat, p.name, stack, now))

    # -------------------------------------------------------- sit out / back

    def verify_sit_out(self, seat: int) -> None:
        """Raise unless the player in ``seat`` can sit out."""
        if self.player(seat).sitting_out:
            raise SeatError(
                "R-BLIND-4", Text("refusal.seat.already_sitting_out", {"seat": Seat(seat)})
            )

    def can_sit_out(self, seat: int) -> bool:
        """True when :meth:`sit_out` would be accepted (as :meth:`can_leave`)."""
        p = self._players.get(seat)
        return p is not None and not p.sitting_out

    def sit_out(self, seat: int) -> SatOut:
        """The player in ``seat`` is not dealt in from the next hand on; blinds that pass
        meanwhile are owed (R-BLIND-4, R-BLIND-7). In a tournament an absent player is
        still dealt in and blinded off."""
        self.verify_sit_out(seat)
        p = self._players[seat]
        self._players[seat] = replace(p, sitting_out=True)
        return self._emit(SatOut(seat, p.name))

    def verify_come_back(self, seat: int) -> None:
        """Raise unless the player in ``seat`` is sitting out."""
        if not self.player(seat).sitting_out:
            raise SeatError("R-BLIND-4", Text("refusal.seat.not_sitting_out", {"seat": Seat(seat)}))

    def can_come_back(self, seat: int) -> bool:
        """True when :meth:`come_back` would be accepted (as :meth:`can_leave`)."""
        p = self._players.get(seat)
        return p is not None and p.sitting_out

    def come_back(self, seat: int, entry: Entry = Entry.POST) -> CameBack:
        """The player in ``seat`` is back from the next hand: they post what they owe
        (``Entry.POST``) or wait for the big blind (R-BLIND-4, R-BLIND-5, R-BLIND-7)."""
        self.verify_come_back(seat)
        p = self._players[seat]
        self._players[seat] = replace(p, sitting_out=False, entry=entry)
        return self._emit(CameBack(seat, p.name, entry, p.owes))

    def set_entry(self, seat: int, entry: Entry) -> None:
        """Change whether a new or returning player posts now or waits for the big blind."""
        self._players[seat] = replace(self.player(seat), entry=entry)

    # ------------------------------------------------------------- add chips

    def limits_for_top_up(self, seat: int, now: float) -> BuyInLimits:
        """Chips ``seat`` may add: up to the maximum (R-BUY-4); a player with no chips
        rebuys at least the minimum buy-in (R-BUY-2)."""
        p = self.player(seat)
        limits = self.buy_in_limits(p.name, now)
        have = p.stack + p.pending
        hi = None if limits.maximum is None else max(0, limits.maximum - have)
        lo = limits.minimum if have == 0 else self.config.chip_unit
        return BuyInLimits(lo, hi, "R-BUY-4" if have else limits.rule)

    def verify_add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> BuyInLimits:
        """Raise unless ``seat`` may add ``amount`` chips."""
        limits, refusal = self._add_chips_check(seat, amount, now, override)
        if refusal is not None:
            raise refusal()
        assert limits is not None
        return limits

    def can_add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> bool:
        """True when :meth:`add_chips` would be accepted. The refusals a console meets on
        every change — a freezeout, a stack already at the maximum — are not built (it
        asks this of every seat each time it is drawn)."""
        try:
            return self._add_chips_check(seat, amount, now, override)[1] is None
        except RulesError:
            return False

    def top_up_offer(self, seat: int, now: float) -> tuple[BuyInLimits, bool]:
        """``seat``'s top-up limits and whether it may add their least, worked out once
        (:meth:`limits_for_top_up`, :meth:`can_add_chips`): what the console shows."""
        limits = self.limits_for_top_up(seat, now)
        try:
            refusal = self._add_chips_check(seat, limits.minimum, now, None, limits)[1]
        except RulesError:
            return limits, False
        return limits, refusal is None

    def _add_chips_check(
        self,
        seat: int,
        amount: int,
        now: float,
        override: Override | None,
        limits: BuyInLimits | None = None,
    ) -> tuple[BuyInLimits | None, Callable[[], RulesError] | None]:
        """:meth:`verify_add_chips`'s check: the seat's limits and None when ``amount`` may
        be added, else what makes the refusal (R-BUY-4) — built only when raised. Raises
        the rarer refusals (an empty seat, an amount that is no amount, one under the
        least) itself. ``limits``: :meth:`limits_for_top_up` at ``now``, if known."""
        if self.tournament is not None:
            self.player(seat)
            return None, _freezeout
        if limits is None:
            limits = self.limits_for_top_up(seat, now)
        self._check_amount(amount)
        if override is None:
            p = self._players[seat]
            room, have = limits.maximum, p.stack + p.pending
            if room is not None and amount > room and have:
                pending = p.pending
                return limits, lambda: _over_maximum(seat, amount, room, have, pending)
            limits.verify(amount, what=ADDING)
        return limits, None

    def add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> ChipsAdded:
        """Add chips to a stack between hands (R-BUY-4). While the seat is in a hand the
        chips wait for its end (table stakes, R-BUY-5), when they are checked against the
        stack again: what would lift it over the maximum is refused then
        (:class:`ChipsDelivered`). A player who went all in and
        lost still owes the blinds they missed (R-BLIND-8)."""
        limits = self.verify_add_chips(seat, amount, now, override)
        p = self._players[seat]
        pending = self._in_hand(seat)
        if pending:
            extra = amount if override is not None else 0
            p = replace(p, pending=p.pending + amount, pending_override=p.pending_override + extra)
        else:
            p = replace(p, stack=p.stack + amount)
        self._players[seat] = p
        return self._emit(ChipsAdded(seat, p.name, amount, pending, limits, override, now))

    # ------------------------------------------------------------ start hand

    def verify_start_hand(self, now: float, button: int | None = None) -> None:
        """Raise unless a hand can start now."""
        self._plan(now, button)

    def can_start_hand(self, now: float, button: int | None = None) -> bool:
        """True when :meth:`start_hand` would be accepted."""
        return _accepted(self._plan, now, button)

    def start_hand(self, now: float, button: int | None = None) -> HandSetup:
        """Set up the next hand: who is dealt in (hand order, button last), the button's
        seat and the stakes whose per-seat blinds, dead blinds and antes say who posts
        what. ``button`` places the button for the first hand (the draw for the button);
        later the rules move it. The :class:`HandStarted` event is :attr:`current`."""
        plan = self._plan(now, button)
        self._undo = dict(self._players)
        self._undo_positions = (self._button, self._sb, self._bb)
        self._redeal_button = None
        for seat, p in list(self._players.items()):
            p = replace(p, owes=plan.owes[seat])
            if seat in plan.dealt or p.owes is not Owed.NOTHING:
                p = replace(p, new=False)
            self._players[seat] = p
        self.hand_number += 1
        cfg = self.config
        _sb, bb, ante = self._amounts(now)
        stakes = hand_stakes(cfg, plan, bb, ante)
        stacks = tuple(self._players[s].stack for s in plan.dealt)
        setup = HandSetup(
            number=self.hand_number,
            game=cfg.game,
            seats=tuple(TableSeat(t) for t in plan.dealt),
            button=plan.button,
            stakes=stakes,
            starting_stacks=stacks,
            options=cfg.hand_options(),
        )
        self._button, self._sb, self._bb = plan.button, plan.sb_position, plan.big_blind
        event = HandStarted(
            self.hand_number,
            setup,
            plan.small_blind,
            plan.big_blind,
            plan.posts,
            plan.waiting,
            plan.heads_up,
        )
        self.current = event
        self._emit(event)
        return setup

    def _amounts(self, now: float) -> tuple[int, int, int]:
        if self.tournament is not None:
            lv = self.tournament.level(now)
            return lv.small_blind, lv.big_blind, lv.ante
        c = self.config
        return c.small_blind, c.big_blind, c.ante

    def _ready(self) -> dict[int, SeatedPlayer]:
        tour = self.tournament is not None
        return {
            s: p
            for s, p in sorted(self._players.items())
            if p.stack + p.pending > 0 and (tour or not p.sitting_out)
        }

    def _plan(self, now: float, button: int | None) -> BlindPlan:
        if self.current is not None:
            raise HandInProgressError(
                "R-BUY-5",
                Text("refusal.hand_in_progress.still_running", {"hand": str(self.hand_number)}),
            )
        if button is not None:
            if self._bb is not None:
                raise TableError("R-POS-1", Text("refusal.table.button_first_hand_only"))
            self.player(button)
        if self.tournament is not None and self.tournament.started_at is None:
            raise HandInProgressError(
                "R-BLIND-1", Text("refusal.hand_in_progress.clock_not_started")
            )
        small_blind, big_blind, _ante = self._amounts(now)
        ready = self._ready()
        if len(ready) < 2:
            raise NotEnoughPlayersError(
                "R-POS-2", Text("refusal.not_enough_players.ready", {"count": len(ready)})
            )
        planner = BlindPlanner(
            self.config,
            self.profile.seats,
            self._players,
            (small_blind, big_blind),
            self._button,
            self._sb,
            self._bb,
            self._redeal_button,
            tournament=self.tournament is not None,
        )
        return planner.plan(ready, button)

    # ----------------------------------------------------------- finish hand

    def verify_finish_hand(self, outcome: Hand | HandResult | Sequence[int]) -> tuple[int, ...]:
        """Raise unless ``outcome`` can end the current hand; returns the finishing stacks."""
        if self.current is None:
            raise HandInProgressError("R-BUY-5", Text("refusal.hand_in_progress.no_hand"))
        if isinstance(outcome, Hand):
            if outcome.phase is not Phase.COMPLETE or outcome.result is None:
                raise HandInProgressError(
                    "R-BUY-5",
                    Text(
                        "refusal.hand_in_progress.not_complete",
                        {"hand": str(self.hand_number), "phase": phase(outcome.phase.value)},
                    ),
                )
            stacks = outcome.result.finishing_stacks
        elif isinstance(outcome, HandResult):
            stacks = outcome.finishing_stacks
        else:
            if self.config.rake.enabled:
                raise TableError("R-POT-1", Text("refusal.table.raked_needs_result"))
            stacks = tuple(outcome)
        setup = self.current.setup
        if len(stacks) != len(setup.seats):
            raise HandInProgressError(
                "R-BUY-5",
                Text(
                    "refusal.hand_in_progress.stack_count",
                    {"count": len(stacks), "seats": len(setup.seats)},
                ),
            )
        if sum(stacks) != sum(setup.starting_stacks) or min(stacks) < 0:
            raise HandInProgressError(
                "R-BUY-5",
                Text(
                    "refusal.hand_in_progress.chip_total",
                    {"total": sum(stacks), "started": sum(setup.starting_stacks)},
                ),
            )
        return tuple(stacks)

    def can_finish_hand(self, outcome: Hand | HandResult | Sequence[int]) -> bool:
        """True when :meth:`finish_hand` would be accepted."""
        return _accepted(self.verify_finish_hand, outcome)

    def finish_hand(
        self,
        outcome: Hand | HandResult | Sequence[int],
        now: float = 0.0,
        flop_seen: bool | None = None,
    ) -> HandFinished:
        """End the current hand with its finishing stacks (a complete :class:`Hand`, its
        :class:`HandResult`, or the stacks in hand order), less the rake taken from the
        winners; the button then moves per R-POS-3 at the next :meth:`start_hand`.
        ``flop_seen`` (for no-flop-no-drop) is read from a ``Hand``; pass it with a result."""
        stacks = self.verify_finish_hand(outcome)
        assert self.current is not None
        setup = self.current.setup
        rake_by_seat: dict[int, int] = {}
        rake_total = 0
        rake = self.config.rake
        if rake.enabled and not isinstance(outcome, Sequence):
            result = outcome.result if isinstance(outcome, Hand) else outcome
            assert result is not None
            if flop_seen is None:
                flop_seen = _flop_seen(outcome) if isinstance(outcome, Hand) else True
            pot = sum(a.amount for a in result.awards)
            rake_total = rake.amount(pot, flop_seen, self.config.chip_unit)
            won: dict[int, int] = {}
            for award in result.awards:
                for share in award.shares:
                    won[share.seat] = won.get(share.seat, 0) + share.amount
            rake_by_seat = take_rake(rake_total, won, self.config.chip_unit)
        final: list[tuple[int, int]] = []
        busted: list[int] = []
        for i, seat in enumerate(setup.seats):
            stack = stacks[i] - rake_by_seat.get(i, 0)
            p = self._players[seat]
            self._players[seat] = replace(p, stack=stack)
            final.append((seat, stack))
            if stack == 0 and p.pending == 0:
                busted.append(seat)
        eliminations: tuple[Elimination, ...] = ()
        if self.tournament is not None and busted:
            remaining = sum(1 for p in self._players.values() if p.stack > 0)
            out = [
                (self._players[s].name, setup.starting_stacks[setup.seats.index(s)]) for s in busted
            ]
            eliminations = self.tournament.eliminate(out, remaining, self.hand_number, now)
            for s in busted:
                del self._players[s]
            if remaining == 1:
                last = next(p for p in self._players.values() if p.stack > 0)
                self.tournament.declare_winner(last.name)
        deliveries = self._deliver(self.hand_number)
        event = HandFinished(
            self.hand_number,
            tuple(final),
            sum(rake_by_seat.values()),
            tuple((setup.seats[i], r) for i, r in sorted(rake_by_seat.items()) if r),
            tuple(busted),
            eliminations,
            deliveries,
        )
        self.current = None
        self._emit(event)
        for delivery in deliveries:
            self._emit(delivery)
        return event

    def _deliver(self, hand: int) -> tuple[ChipsDelivered, ...]:
        """Put the chips bought during ``hand`` in the stacks, up to the maximum (R-BUY-4);
        the rest is refused. Chips allowed by an override go in whole."""
        out: list[ChipsDelivered] = []
        maximum = self.config.maximum_buy_in
        unit = self.config.chip_unit
        for seat, p in sorted(self._players.items()):
            if not p.pending:
                continue
            forced = p.pending_override
            ordinary = p.pending - forced
            if maximum is not None:
                room = max(0, maximum - p.stack - forced) // unit * unit
                ordinary = min(ordinary, room)
            delivered = forced + ordinary
            stack = p.stack + delivered
            self._players[seat] = replace(p, stack=stack, pending=0, pending_override=0)
            refused = p.pending - delivered
            out.append(
                ChipsDelivered(seat, p.name, hand, p.pending, delivered, refused, stack, maximum)
            )
        return tuple(out)

    # --------------------------------------------------------------- misdeal

    def verify_misdeal(self) -> None:
        """Raise unless a hand is running."""
        if self.current is None:
            raise HandInProgressError("R-DEAL-6", Text("refusal.hand_in_progress.nothing_to_void"))

    def can_misdeal(self) -> bool:
        """True when :meth:`misdeal` would be accepted."""
        return self.current is not None

    def misdeal(self) -> HandVoided:
        """R-DEAL-6 *default*: the hand is void, every chip goes back, the button does not
        move and nobody's blinds count as paid or missed; the redeal is a new hand number
        with the same button and the same posts — the button drawn for a first hand too
        (placing it elsewhere for the redeal is refused)."""
        self.verify_misdeal()
        assert self.current is not None
        for seat, before in self._undo.items():
            now_p = self._players.get(seat)
            if now_p is not None and now_p.name == before.name:
                self._players[seat] = replace(now_p, owes=before.owes, new=before.new)
        self._button, self._sb, self._bb = self._undo_positions
        if self._bb is None:  # a first hand: the drawn button stays too
            self._redeal_button = self.current.setup.button
        number = self.current.number
        self.current = None
        deliveries = self._deliver(number)
        event = self._emit(HandVoided(number, deliveries=deliveries))
        for delivery in deliveries:
            self._emit(delivery)
        return event

    # --------------------------------------------------------------- snapshot

    def export_state(self) -> dict[str, Any]:
        """The table between hands as JSON values (a table snapshot,
        :mod:`hub.app.snapshot`): the players, who left with what, the button and the
        blinds' seats, the hand count, a misdeal's kept button, the tournament's clock and
        standings. :attr:`log` is not in it (a table started from it has an empty log).
        HandInProgressError while a hand runs: a snapshot is taken between hands."""
        self.verify_between_hands()
        return {
            "players": [[seat, _player_state(p)] for seat, p in sorted(self._players.items())],
            "departures": [[n, s, at] for n, (s, at) in self._departures.items()],
            "positions": [self._button, self._sb, self._bb],
            "redeal_button": self._redeal_button,
            "hand_number": self.hand_number,
            "tournament": None if self.tournament is None else self.tournament.export_state(),
        }

    def import_state(self, state: Mapping[str, Any]) -> None:
        """Take back what :meth:`export_state` gave (a table of the same config);
        ValueError or KeyError for a state of another shape. A hand running is dropped,
        and so is :attr:`log`."""
        self.current, self.log = None, []
        self._players = {int(seat): _player_of(p) for seat, p in state["players"]}
        self._departures = {str(n): (int(s), float(at)) for n, s, at in state["departures"]}
        button, sb, bb = (None if x is None else int(x) for x in state["positions"])
        self._button, self._sb, self._bb = button, sb, bb
        redeal = state["redeal_button"]
        self._redeal_button = None if redeal is None else int(redeal)
        self.hand_number = int(state["hand_number"])
        tournament = state["tournament"]
        if (tournament is None) != (self.tournament is None):
            raise ValueError("the snapshot's table and this one differ in their tournament")
        if self.tournament is not None:
            self.tournament.import_state(tournament)

    def verify_between_hands(self) -> None:
        """Raise HandInProgressError while a hand runs."""
        if self.current is not None:
            raise HandInProgressError(
                "R-BUY-5",
                Text("refusal.hand_in_progress.still_running", {"hand": str(self.hand_number)}),
            )

    # -------------------------------------------------------------------- log

    def _emit(self, event: _E) -> _E:
        if isinstance(event, PlayerJoined | ChipsAdded) and event.override is not None:
            self.log.append(event.override)
        self.log.append(event)
        if len(self.log) > 2 * LOG_KEPT:
            del self.log[:-LOG_KEPT]
        return event


def _player_state(p: SeatedPlayer) -> dict[str, Any]:
    return {
        "name": p.name,
        "stack": p.stack,
        "pending": p.pending,
        "pending_override": p.pending_override,
        "sitting_out": p.sitting_out,
        "entry": p.entry.value,
        "new": p.new,
        "owes": p.owes.value,
        "joined_at": p.joined_at,
    } | (
        {
            k: v
            for k, v in (
                ("club_id", p.club_id),
                ("country", p.face.country),
                ("photo", p.face.photo),
            )
            if v
        }
    )


def _player_of(state: Mapping[str, Any]) -> SeatedPlayer:
    return SeatedPlayer(
        name=str(state["name"]),
        stack=int(state["stack"]),
        pending=int(state["pending"]),
        pending_override=int(state["pending_override"]),
        sitting_out=bool(state["sitting_out"]),
        entry=Entry(state["entry"]),
        new=bool(state["new"]),
        owes=Owed(state["owes"]),
        joined_at=float(state["joined_at"]),
        club_id=str(state.get("club_id", "")),
        face=PlayerFace(str(state.get("country", "")), str(state.get("photo", ""))),
    )


def _flop_seen(hand: Hand) -> bool:
    """No flop, no drop: did the hand get past its first street?"""
    if hand.game.family is Family.BOARD:
        return len(hand.board) >= 3
    return hand.street_index > 0
