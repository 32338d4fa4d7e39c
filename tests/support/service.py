"""A hub service in the test process: the table, antennas and deck the hub's unit tests
share, no broker, on a clock the test moves (:class:`~tests.support.clocks.FakeClock`)."""

from __future__ import annotations

from typing import Any

from feltwire.deck import simulated_deck
from hub.app.hub_service import HubService
from hub.config import default_readers
from tests.support.clocks import FakeClock


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
