"""The tournament clock of a table: the pure :class:`~hub.rules.tournament.Tournament`
driven by the hub's time, its dealer inputs and what the public sees of it.

The rules core has no clock: every call here takes ``now`` (the hub's clock, or the
recorded time of a logged input on replay). The clock starts when the table opens; the
dealer pauses and resumes it (``POST /api/clock/pause``, ``/api/clock/resume``), and each
of those is a table command in the event log — ``{"command": "clock", "action": "pause"}``
— so a restarted hub replays the clock to where it was. Each hand takes the blinds and
ante of the level running when it starts (:class:`~hub.rules.table.Table` asks the
tournament). The public feed gets a ``clock`` frame when the clock starts, pauses,
resumes or reaches a new level (noticed by :meth:`TournamentClock.poll`, which the table
service calls as time passes).

>>> from hub.config import LevelSettings, TournamentSettings
>>> settings = TournamentSettings(starting_stack=3000, levels=[
...     LevelSettings(small_blind=10, big_blind=20, minutes=15),
...     LevelSettings(small_blind=15, big_blind=30, ante=5, minutes=15)])
>>> frames = []
>>> clock = TournamentClock(settings, frames.append)
>>> clock.start(now=0.0)
>>> s = clock.state(now=60.0)
>>> s["level"], s["big_blind"], s["time_left"], s["next"]["big_blind"]
(1, 20, 840.0, 30)
>>> clock.apply(clock.command("pause", now=60.0), now=60.0)
>>> clock.state(now=5000.0)["time_left"], clock.state(now=5000.0)["paused"]
(840.0, True)
>>> clock.apply(clock.command("resume", now=5000.0), now=5000.0)
>>> clock.poll(now=5000.0 + 841.0)
>>> [(f["reason"], f["level"]) for f in frames]
[('start', 1), ('pause', 1), ('resume', 1), ('level', 2)]
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Literal

from hub.app.errors import EventLogError
from hub.config import TournamentSettings, tournament_of
from hub.rules.tournament import Level
from hub.views.frames import Event

log = logging.getLogger(__name__)

__all__ = ["CLOCK_COMMAND", "ClockAction", "TournamentClock", "tournament_of"]

CLOCK_COMMAND = "clock"
"""The ``command`` of a clock input in the event log (an ``InputKind.TABLE`` payload)."""

ClockAction = Literal["pause", "resume"]
"""What the dealer does to the clock."""

_ACTIONS: tuple[ClockAction, ...] = ("pause", "resume")


def _level_view(level: Level) -> dict[str, Any]:
    return {
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "minutes": level.minutes,
    }


class TournamentClock:
    """One table's tournament clock: start, pause and resume at the hub's times, the
    state the public view shows, and a ``clock`` frame for each change (to ``publish``).

    See the module docstring for an example.
    """

    def __init__(self, settings: TournamentSettings, publish: Callable[[Event], None]) -> None:
        self.settings = settings
        self.tournament = tournament_of(settings)
        """The rules' tournament: the table takes each hand's blinds from it."""
        self._publish = publish
        self._announced: int | None = None

    def stakes(self) -> dict[str, Any]:
        """The schedule as the event log records it when the table opens (a restart with
        another schedule is refused, like other stakes)."""
        return self.settings.model_dump(mode="json")

    # ---------------------------------------------------------------- inputs

    def start(self, now: float) -> None:
        """Start level 1 (when the table opens; nothing if it has started already)."""
        if self.tournament.can_start(now):
            self.tournament.start(now)
            self._announce("start", now)

    def verify(self, action: str, now: float) -> ClockAction:
        """Raise unless the dealer may ``action`` (``pause``/``resume``) the clock now:
        ValueError for an unknown action, PhaseError (a RulesError) when the clock is not
        running (pause) or not paused (resume)."""
        if action == "pause":
            self.tournament.verify_pause(now)
            return "pause"
        if action == "resume":
            self.tournament.verify_resume(now)
            return "resume"
        raise ValueError(f"the clock can {' or '.join(_ACTIONS)}, not {action!r}")

    def command(self, action: str, now: float) -> dict[str, Any]:
        """The event-log payload of a checked dealer input (see :meth:`verify`)."""
        return {"command": CLOCK_COMMAND, "action": self.verify(action, now)}

    def apply(self, payload: dict[str, Any], now: float) -> None:
        """Apply a logged clock input (live or replayed, the same code); PhaseError when
        the clock refuses it, EventLogError for an action this hub does not know."""
        action = payload.get("action")
        if action == "pause":
            self.tournament.pause(now)
        elif action == "resume":
            self.tournament.resume(now)
        else:
            raise EventLogError(f"unknown clock action {action!r} in the event log")
        log.info("tournament clock %s at level %d", action, self.tournament.level_number(now))
        self._announce(action, now)

    def poll(self, now: float) -> None:
        """Time passed: announce the level if it changed since the last frame."""
        if self.tournament.started_at is None:
            return
        if self.tournament.level_number(now) != self._announced:
            self._announce("level", now)

    # ---------------------------------------------------------------- views

    def state(self, now: float) -> Event:
        """The clock as the public sees it: the level (1-based, of ``levels``), its blinds
        and ante, seconds to the next level, paused or not, and the next level's blinds
        (None in the last level)."""
        t = self.tournament
        number = t.level_number(now)
        level = t.levels[number - 1]
        nxt = t.levels[number] if number < len(t.levels) else None
        return {
            "level": number,
            "levels": len(t.levels),
            **_level_view(level),
            "time_left": round(t.time_left(now), 3),
            "started": t.started_at is not None,
            "paused": t.paused,
            "next": _level_view(nxt) if nxt is not None else None,
            "starting_stack": t.starting_stack,
        }

    def export_state(self) -> dict[str, Any]:
        """The level last announced (the rules' tournament is the table's, see
        :meth:`hub.rules.table.Table.export_state`)."""
        return {"announced": self._announced}

    def import_state(self, state: Mapping[str, Any]) -> None:
        """Take back what :meth:`export_state` gave."""
        announced = state["announced"]
        self._announced = None if announced is None else int(announced)

    def _announce(self, reason: str, now: float) -> None:
        state = self.state(now)
        self._announced = state["level"]
        self._publish({"type": "clock", "reason": reason, "t": now} | state)
