"""What the hub's unit tests share: a clock the test moves, and a hub service on it."""

from __future__ import annotations

from typing import Any

from feltwire.deck import simulated_deck
from hub.app.hub_service import HubService
from hub.config import default_readers


class FakeClock:
    """A clock that stands still until the test moves ``now``."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def hub_service(clock: FakeClock, **overrides: Any) -> HubService:
    """Table ``t1`` with the standard antennas and the simulator's deck, no broker;
    the overlay live and live equity off unless ``overrides`` say otherwise."""
    options: dict[str, Any] = {
        "table": "t1",
        "readers": default_readers(),
        "deck": simulated_deck(),
        "max_payload_bytes": 4096,
        "overlay_delay_s": 0,
        "clock": clock,
        "live_equity": False,
    } | overrides
    return HubService(**options)
