"""``feltwire demo --hands N``, run as a user would (the paced demo that the README's
``./scripts/demo`` starts is tested with its three pages in test_demo_pages.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_demo_hands_20_prints_the_summary_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "feltwire", "demo", "--hands", "20", "--seed", "7"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["hands"] == 20 and summary["rejected"] == 0 and summary["complete"]
    # every published inventory was accepted: 20 hands of six players is hundreds of reads
    assert summary["reads"] == summary["published"] > 20 * 30
    # the dealer's mistakes (a few per hundred hands by default) are all caught
    assert summary["missed"] == 0 and summary["false_alerts"] == 0
    assert summary["alerts"] >= summary["mistakes"] >= 0
    # the players acted through the console's HTTP API, a few times in every hand
    assert summary["console_api"] > 20 * 3
