"""Errors of the serial reader-board bridge.

Each error subclasses :class:`BridgeError` and the builtin it resembles, so callers can
catch either, as ``feltwire/errors.py`` does for the whole project.
"""

from __future__ import annotations

from feltwire.errors import FeltwireError


class BridgeError(FeltwireError, RuntimeError):
    """Root of every error the bridge raises on purpose."""


class FrameError(BridgeError, ValueError):
    """A frame that does not follow ``docs/serial-protocol.md``.

    ``reason`` is the drop counter it is counted under (``malformed``, ``unknown_type`` …).

    >>> FrameError("malformed", "uid of 5 bytes").reason
    'malformed'
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class PortError(BridgeError, OSError):
    """The serial port cannot be opened, read or written (cable pulled, wrong path …)."""


__all__ = ["BridgeError", "FrameError", "PortError"]
