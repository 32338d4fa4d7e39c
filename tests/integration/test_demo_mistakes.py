"""``feltwire demo --mistakes``: the simulated dealer's errors are each caught by the hub,
through the whole pipeline (node → MQTT → hub), and nothing else is flagged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def demo(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "feltwire", "demo", *args],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1, lines
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def test_every_injected_mistake_is_caught_and_nothing_else_is_flagged() -> None:
    s = demo("--hands", "40", "--mistakes", "0.1", "--seed", "5")
    assert s["hands"] == 40 and s["complete"] and s["rejected"] == 0
    assert s["mistakes"] > 0
    assert s["missed"] == 0 and s["false_alerts"] == 0
    assert s["alerts"] == sum(s["alerts_by_code"].values()) >= s["mistakes"]
    assert s["reads"] == s["published"]


def test_a_dealer_who_makes_no_mistake_raises_no_alert() -> None:
    s = demo("--hands", "20", "--mistakes", "0", "--seed", "5")
    assert s["hands"] == 20 and s["complete"]
    assert s["mistakes"] == 0 and s["alerts"] == 0 and s["alerts_by_code"] == {}
    assert s["missed"] == 0 and s["false_alerts"] == 0


def test_the_same_seed_replays_the_same_run() -> None:
    keys = ["reads", "changes", "mistakes", "alerts", "alerts_by_code", "unknown_tags"]
    keys += ["console_api", "console_refused"]
    # seed 13: a run with actions entered out of turn (the players of simulator/players.py)
    a = demo("--hands", "15", "--mistakes", "0.5", "--seed", "13")
    b = demo("--hands", "15", "--mistakes", "0.5", "--seed", "13")
    assert a["mistakes"] > 0
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
    # an action entered out of turn went in through the console API, was refused there,
    # and raised its alert; the hand went on
    assert a["alerts_by_code"]["action_out_of_turn"] == a["console_refused"] > 0
