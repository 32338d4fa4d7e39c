"""A table's application in the test process: the table, antennas and deck the hub's unit
tests share, no broker, on a clock the test moves (:class:`~tests.support.clocks.FakeClock`)."""

from __future__ import annotations

from typing import Any

from feltwire.deck import simulated_deck
from hub.app.table_app import TableApp
from hub.config import default_readers
from tests.support.clocks import FakeClock


def hub_service(clock: FakeClock, *, opened: bool = True, **overrides: Any) -> TableApp:
    """Table ``t1`` with the standard antennas and the simulator's deck, no broker;
    the overlay live, live equity off and no rules unless ``overrides`` say otherwise
    (``rules=RulesSettings(…)``, ``game=…``, ``tournament=…``). The table is opened (its
    players seated, :meth:`~hub.app.table_app.TableApp.open`) unless ``opened`` is false
    (a test that subscribes to a feed first opens it itself)."""
    options: dict[str, Any] = {
        "table": "t1",
        "readers": default_readers(),
        "deck": simulated_deck(),
        "max_payload_bytes": 4096,
        "overlay_delay_s": 0,
        "clock": clock,
        "live_equity": False,
    } | overrides
    app = TableApp(**options)
    if opened:
        app.open()
    return app
