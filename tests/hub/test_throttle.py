"""Throttled log lines (:mod:`hub.throttle`): one per key and interval, the rest counted."""

from __future__ import annotations

import doctest
import logging

import pytest

import hub.throttle
from hub.throttle import LogThrottle
from tests.hub.support import FakeClock


def test_docstring_examples() -> None:
    result = doctest.testmod(hub.throttle)
    assert result.attempted > 0 and result.failed == 0


def test_a_flood_of_one_fault_logs_one_line_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(0.0)
    throttle = LogThrottle(logging.getLogger("flood"), every=10.0, clock=clock)
    with caplog.at_level(logging.WARNING, logger="flood"):
        for i in range(10_000):
            clock.now = i * 0.01  # 100 a second for 100 s
            throttle.warning("disk", "cannot write")
            throttle.warning("other", "another fault")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 * 10  # one per key every 10 s
    assert "999 more like it held back" in lines[2]
