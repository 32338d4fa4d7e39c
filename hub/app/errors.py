"""The errors of the per-table application: one root, each also a builtin."""

from __future__ import annotations


class AppError(Exception):
    """The root of the application's errors."""


class LogUnavailable(AppError, RuntimeError):
    """The event log cannot take an input (the disk is full, the file went away), so the
    input was not taken: nothing the hub acted on is lost, and the hub keeps running.
    The dealer console answers 503 with :attr:`reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the event log cannot be written ({reason}): the input was not taken")
        self.reason = reason
