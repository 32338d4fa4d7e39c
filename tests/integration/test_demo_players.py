"""Issue 17, acceptance 5: the demo's simulated players look like a real table. Over 200
hands of ``feltwire demo --hands 200`` (its JSON summary) someone goes all in in under
15 % of the hands and someone folds in most; every rebuy and top-up the players asked for
was taken by the hub and lies within the table's buy-in rules, checked here against
RULES.md itself (no-limit: a buy-in of 40 to 100 big blinds, R-BUY-2; a top-up only up
to the maximum, R-BUY-4; whole multiples of the smallest chip, R-BUY-6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HANDS = 200
SMALLEST_CHIP = 5  # the demo's small blind: the smallest chip in play (R-BUY-6)


def summary(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "feltwire", "demo", *args],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def test_two_hundred_hands_fold_often_go_all_in_rarely_and_buy_in_by_the_rules() -> None:
    s = summary("--hands", str(HANDS), "--seed", "17")
    assert s["hands"] == HANDS and s["complete"] and s["rejected"] == 0
    assert s["missed"] == 0 and s["false_alerts"] == 0
    assert s["hands_all_in"] < 0.15 * HANDS, s["hands_all_in"]
    assert s["hands_all_in"] >= 1  # occasional, not never
    assert s["hands_folded"] > 0.5 * HANDS, s["hands_folded"]
    bb = s["big_blind"]
    minimum, maximum = 40 * bb, 100 * bb  # R-BUY-2 (no limit)
    buys = s["buys"]
    assert any(b["kind"] == "rebuy" for b in buys), buys  # the run has a bust to buy back
    for b in buys:
        assert b["accepted"], b
        assert b["amount"] > 0 and b["amount"] % SMALLEST_CHIP == 0, b  # R-BUY-6
        if b["kind"] == "rebuy":
            assert b["stack_before"] == 0 and minimum <= b["amount"] <= maximum, b
        else:
            assert b["kind"] == "top_up" and b["stack_before"] > 0, b
            assert b["stack_before"] + b["amount"] <= maximum, b  # R-BUY-4
