"""Compatibility shim (issue 14): the tournament clock moved to
:mod:`hub.app.tournament_clock`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.tournament_clock import CLOCK_COMMAND, ClockAction, TournamentClock

__all__ = ["CLOCK_COMMAND", "ClockAction", "TournamentClock"]
