"""Compatibility shim (issue 14): the simulated dealer moved out of the hub, to the
top-level package :mod:`simulator` (:mod:`simulator.dealer`,
:mod:`simulator.monitor_table`). This shim imports upward (hub → simulator): the
import-linter contracts ignore exactly these imports, and the integrator deletes this
module once ``tests/rules/dealer_sim.py`` imports :mod:`simulator`.
"""

from simulator.dealer import (
    EXPECTED,
    Mistake,
    Outcome,
    SimulatedDealer,
    applicable,
    choose_mistake,
    play_hand,
    random_setup,
)
from simulator.monitor_table import MOTION, SLIDE, MonitorTable, c

__all__ = [
    "EXPECTED",
    "MOTION",
    "SLIDE",
    "Mistake",
    "MonitorTable",
    "Outcome",
    "SimulatedDealer",
    "applicable",
    "c",
    "choose_mistake",
    "play_hand",
    "random_setup",
]
