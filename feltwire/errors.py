"""Errors shared by every feltwire process.

Each error subclasses :class:`FeltwireError` and the builtin it resembles, so callers can
catch either (``except ValueError`` keeps working), in the manner of gpiozero's ``exc.py``.
"""

from __future__ import annotations


class FeltwireError(Exception):
    """Root of every error feltwire raises on purpose."""


class ProtocolError(FeltwireError, ValueError):
    """A message on the wire that does not follow docs/protocol.md.

    ``reason`` is a short machine-readable word used as the counter name
    (``oversized``, ``malformed``, ``schema_version``, ``bad_topic`` …).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class ConfigError(FeltwireError, ValueError):
    """A configuration file that cannot be read or does not validate."""


class DeckError(FeltwireError, ValueError):
    """A deck file that is not a valid one-to-one map of tag uids to cards."""
