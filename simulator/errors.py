"""Errors of the demo's simulator: one root, each also the builtin it resembles."""

from __future__ import annotations

from feltwire.errors import FeltwireError


class SimulatorError(FeltwireError):
    """Root of what the simulated dealer, players and antennas raise."""


class Stopped(SimulatorError, RuntimeError):
    """The demo was asked to stop in the middle of a hand."""


class ConsoleApiError(SimulatorError, RuntimeError):
    """The hub's console API failed (not a refusal: a bad credential, a server error)."""
