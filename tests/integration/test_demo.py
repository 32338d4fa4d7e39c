"""The README's demo command, run as a user would."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

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


def test_readme_demo_command_brings_the_page_up() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "./scripts/demo" in readme
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "demo"), "--port", "0", "--step-seconds", "0.02"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"public view : (http://\S+)", line)
            url = m.group(1) if m else None
        assert url, "the demo did not print its page URL"
        page = httpx.get(url, timeout=5)
        assert page.status_code == 200 and "table.js" in page.text
        seen = 0
        for _ in range(100):
            snap = httpx.get(url + "api/public", timeout=5).json()
            seen = sum(a["count"] for a in snap["antennas"])
            if seen:
                break
            time.sleep(0.05)
        assert seen > 0, "no card ever appeared on the simulated table"
    finally:
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=20)
    assert rc == 0
