"""Errors of the table node."""

from __future__ import annotations

from feltwire.errors import FeltwireError


class NodeError(FeltwireError, RuntimeError):
    """Something the node cannot do (a missing antenna, a tag that is not there …)."""


class ReaderChipError(NodeError, OSError):
    """An RC522 that does not answer like one.

    Raised when the chip reads back 00 or FF (not powered, MISO or chip select not wired),
    never signals the end of a command, or reports overheating. It is an ``OSError`` so
    the node loop skips that antenna and keeps sweeping the others.
    """


class ReaderWiringError(NodeError, ValueError):
    """A reader layout that cannot work: two readers on one chip select, a shared bus
    whose spidev chip select is also wired to a reader, an unknown reader id …"""


class EmulatorError(NodeError, ValueError):
    """A misuse of the emulated RC522: an impossible UID, a tag placed twice or removed
    although it is not on the antenna."""
