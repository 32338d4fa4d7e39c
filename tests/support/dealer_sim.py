"""The simulated dealer for the rules tests: a re-export of :mod:`simulator`.

The dealer and its mistakes live in the package (the demo deals with them too);
:class:`Table` is the fake antenna surface that drives a monitor directly
(:class:`simulator.monitor_table.MonitorTable`), which scenario tests use as a short table script.
"""

from __future__ import annotations

from simulator.dealer import (
    EXPECTED,
    Mistake,
    Outcome,
    SimulatedDealer,
    applicable,
    play_hand,
    random_setup,
)
from simulator.monitor_table import MOTION, SLIDE, c
from simulator.monitor_table import MonitorTable as Table

__all__ = [
    "EXPECTED",
    "MOTION",
    "SLIDE",
    "Mistake",
    "Outcome",
    "SimulatedDealer",
    "Table",
    "applicable",
    "c",
    "play_hand",
    "random_setup",
]
