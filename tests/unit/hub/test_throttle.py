"""Throttled log lines (:mod:`hub.app.throttle`): a few per key and window, the rest counted."""

from __future__ import annotations

import logging

import pytest

from hub.app.throttle import ThrottledLog
from tests.support.clocks import FakeClock


def test_a_flood_of_one_fault_logs_a_few_lines_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(0.0)
    lines = ThrottledLog(logging.getLogger("flood"), limit=2, window=60.0, monotonic=clock)
    with caplog.at_level(logging.WARNING, logger="flood"):
        for i in range(12_000):
            clock.now = i * 0.01  # 100 a second for 120 s, of two kinds
            lines.warning("cannot write", key="disk")
            lines.warning("another fault", key="other")
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 * 2 * 2  # two a minute of each kind, for two minutes
    assert any("left out before this one" in line for line in said)
    assert lines.suppressed_total == 2 * 12_000 - len(said)
