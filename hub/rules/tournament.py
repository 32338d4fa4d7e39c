"""Tournament mode: blinds that rise on a schedule, a clock you can pause, finishing places.

Seed 003: "in tournaments the blinds rise periodically, so that players are knocked out
one by one"; antes are optional and come late (R-BLIND-9). A :class:`Tournament` is the
clock and the standings; a :class:`~hub.rules.table.Table` given one takes the blinds and
ante of the level running when each hand starts, deals in everyone who still has chips
(absent players are blinded off, no missed blinds, no rebuys) and reports who busted.
Time is an explicit input (seconds, any monotonic origin): the rules core has no clock.

>>> t = Tournament([Level(10, 20, minutes=15), Level(15, 30, minutes=15), Level(25, 50, 5, 15)],
...                starting_stack=3000)
>>> _ = t.start(now=0.0)
>>> t.level(now=60.0).big_blind, t.time_left(now=60.0)
(20, 840.0)
>>> _ = t.pause(now=900.0 - 1); t.level(now=5000.0).big_blind   # paused 1 s before level 2
20
>>> _ = t.resume(now=5000.0); t.level(now=5001.0).big_blind, t.level_number(now=6000.0)
(30, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from feltwire.text import Text
from hub.rules.errors import ConfigurationError, PhaseError

__all__ = [
    "ClockPaused",
    "ClockResumed",
    "ClockStarted",
    "Elimination",
    "Level",
    "Tournament",
]


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level: small blind, big blind, ante (R-BLIND-1, R-BLIND-9) and length."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: float = 20.0


@dataclass(frozen=True, slots=True)
class ClockStarted:
    """The tournament clock started (level 1)."""

    at: float


@dataclass(frozen=True, slots=True)
class ClockPaused:
    """The clock stopped (a break, a dispute); ``level`` is the level it stopped in."""

    at: float
    level: int
    time_left: float


@dataclass(frozen=True, slots=True)
class ClockResumed:
    """The clock runs again."""

    at: float
    level: int


@dataclass(frozen=True, slots=True)
class Elimination:
    """A player who busted, their finishing place (1 = winner) and when."""

    player: str
    place: int
    hand: int
    at: float


class Tournament:
    """The blind schedule, its clock and the finishing places of one tournament.

    See the module docstring for an example. Operations (each with ``verify_…`` and
    ``can_…``): :meth:`start`, :meth:`pause`, :meth:`resume`; queries :meth:`level`,
    :meth:`level_number`, :meth:`time_left`, :attr:`places`.
    """

    def __init__(self, levels: Sequence[Level], starting_stack: int, chip_unit: int = 1) -> None:
        if not levels:
            raise ConfigurationError("R-BLIND-1", Text("refusal.configuration.no_levels"))
        for i, lv in enumerate(levels, 1):
            if not 0 < lv.small_blind <= lv.big_blind:
                sizes = {"level": i, "small": lv.small_blind, "big": lv.big_blind}
                raise ConfigurationError(
                    "R-BLIND-1", Text("refusal.configuration.level_blinds", sizes)
                )
            if lv.ante < 0 or lv.minutes <= 0:
                raise ConfigurationError(
                    "R-BLIND-9", Text("refusal.configuration.level_ante_duration", {"level": i})
                )
            if any(a % chip_unit for a in (lv.small_blind, lv.big_blind, lv.ante)):
                unit = {"level": i, "unit": chip_unit}
                raise ConfigurationError("R-BUY-6", Text("refusal.configuration.level_unit", unit))
        if starting_stack <= 0 or starting_stack % chip_unit:
            raise ConfigurationError(
                "R-BUY-6", Text("refusal.configuration.starting_stack_unit", {"unit": chip_unit})
            )
        self.levels: tuple[Level, ...] = tuple(levels)
        self.starting_stack = starting_stack
        self.chip_unit = chip_unit
        self.started_at: float | None = None
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._last_now = float("-inf")
        self.places: dict[str, int] = {}
        """Finishing place of every player knocked out so far (1 = the winner)."""
        self.eliminations: list[Elimination] = []
        self.entrants = 0
        """Players who have taken a seat (the table counts them in)."""

    # ----------------------------------------------------------------- clock

    @property
    def running(self) -> bool:
        """True between :meth:`start` (or :meth:`resume`) and :meth:`pause`."""
        return self.started_at is not None and self._paused_at is None

    @property
    def paused(self) -> bool:
        """True while the clock is stopped."""
        return self._paused_at is not None

    def _check_time(self, now: float) -> None:
        if now < self._last_now:
            raise PhaseError(
                "R-BLIND-1",
                Text(
                    "refusal.phase.clock_backwards", {"now": str(now), "last": str(self._last_now)}
                ),
            )

    def verify_start(self, now: float) -> None:
        """Raise unless the clock can start now."""
        if self.started_at is not None:
            raise PhaseError("R-BLIND-1", Text("refusal.phase.clock_started"))

    def can_start(self, now: float) -> bool:
        """True when :meth:`start` would be accepted."""
        return self.started_at is None

    def start(self, now: float) -> ClockStarted:
        """Start level 1 at ``now``."""
        self.verify_start(now)
        self.started_at = now
        self._last_now = now
        return ClockStarted(now)

    def verify_pause(self, now: float) -> None:
        """Raise unless the clock is running."""
        if not self.running:
            raise PhaseError("R-BLIND-1", Text("refusal.phase.clock_not_running"))
        self._check_time(now)

    def can_pause(self, now: float) -> bool:
        """True when :meth:`pause` would be accepted."""
        return self.running and now >= self._last_now

    def pause(self, now: float) -> ClockPaused:
        """Stop the clock: levels do not advance until :meth:`resume`."""
        self.verify_pause(now)
        left = self.time_left(now)
        self._paused_at = now
        self._last_now = now
        return ClockPaused(now, self.level_number(now), left)

    def verify_resume(self, now: float) -> None:
        """Raise unless the clock is paused."""
        if self._paused_at is None:
            raise PhaseError("R-BLIND-1", Text("refusal.phase.clock_not_paused"))
        self._check_time(now)

    def can_resume(self, now: float) -> bool:
        """True when :meth:`resume` would be accepted."""
        return self._paused_at is not None and now >= self._last_now

    def resume(self, now: float) -> ClockResumed:
        """Restart the clock where it stopped."""
        self.verify_resume(now)
        assert self._paused_at is not None
        self._paused_total += now - self._paused_at
        self._paused_at = None
        self._last_now = now
        return ClockResumed(now, self.level_number(now))

    def elapsed(self, now: float) -> float:
        """Seconds of play so far (pauses excluded); 0 before the start."""
        if self.started_at is None:
            return 0.0
        end = self._paused_at if self._paused_at is not None else now
        return max(0.0, end - self.started_at - self._paused_total)

    def _position(self, now: float) -> tuple[int, float]:
        t = self.elapsed(now)
        for i, lv in enumerate(self.levels):
            length = lv.minutes * 60.0
            if t < length or i == len(self.levels) - 1:
                return i, max(0.0, length - t)
            t -= length
        raise AssertionError("unreachable")  # pragma: no cover

    def level_number(self, now: float) -> int:
        """The running level, 1-based (the last level runs on once the schedule ends)."""
        return self._position(now)[0] + 1

    def level(self, now: float) -> Level:
        """The blinds and ante of the level running at ``now``."""
        return self.levels[self._position(now)[0]]

    def time_left(self, now: float) -> float:
        """Seconds until the next level (0 in the last level once its time is up)."""
        return self._position(now)[1]

    # ------------------------------------------------------------- standings

    def eliminate(
        self, busted: Iterable[tuple[str, int]], remaining: int, hand: int, now: float
    ) -> tuple[Elimination, ...]:
        """Record players knocked out in one hand. ``busted`` lists (player, chips they
        started the hand with); ``remaining`` counts players still holding chips. Of those
        busting in the same hand, the one who started with more finishes higher; equal
        starting stacks share the better place."""
        out: list[Elimination] = []
        ranked = sorted(busted, key=lambda b: -b[1])
        place = remaining + 1
        for i, (name, start) in enumerate(ranked):
            if i == 0 or start != ranked[i - 1][1]:
                place = remaining + 1 + i
            out.append(Elimination(name, place, hand, now))
            self.places[name] = place
        self.eliminations.extend(out)
        return tuple(out)

    def declare_winner(self, player: str) -> None:
        """Record the last player holding chips as the winner (place 1)."""
        self.places[player] = 1

    # ------------------------------------------------------------- snapshot

    def export_state(self) -> dict[str, Any]:
        """The clock and the standings as JSON values (a table snapshot,
        :mod:`hub.app.snapshot`); :meth:`import_state` takes them back."""
        return {
            "started_at": self.started_at,
            "paused_at": self._paused_at,
            "paused_total": self._paused_total,
            "last_now": None if self._last_now == float("-inf") else self._last_now,
            "places": dict(self.places),
            "eliminations": [[e.player, e.place, e.hand, e.at] for e in self.eliminations],
            "entrants": self.entrants,
        }

    def import_state(self, state: Mapping[str, Any]) -> None:
        """Take back what :meth:`export_state` gave (same schedule)."""
        self.started_at = state["started_at"]
        self._paused_at = state["paused_at"]
        self._paused_total = float(state["paused_total"])
        last = state["last_now"]
        self._last_now = float("-inf") if last is None else float(last)
        self.places = {str(k): int(v) for k, v in state["places"].items()}
        self.eliminations = [
            Elimination(str(p), int(place), int(hand), float(at))
            for p, place, hand, at in state["eliminations"]
        ]
        self.entrants = int(state["entrants"])
