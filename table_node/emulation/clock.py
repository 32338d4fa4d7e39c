"""Virtual time for emulated hardware: chips and the drivers on them share one clock."""

from __future__ import annotations


class VirtualClock:
    """Virtual time shared by emulated chips and the code driving them.

    >>> clock = VirtualClock()
    >>> clock.sleep(0.0015); clock.now_us
    1500.0
    """

    def __init__(self) -> None:
        self.now_us = 0.0

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass (use it as the driver's ``sleep``)."""
        if seconds > 0:
            self.now_us += seconds * 1e6

    def advance_us(self, microseconds: float) -> None:
        """Let ``microseconds`` of virtual time pass."""
        if microseconds > 0:
            self.now_us += microseconds

    def monotonic(self) -> float:
        """The virtual time in seconds, like :func:`time.monotonic`."""
        return self.now_us / 1e6
