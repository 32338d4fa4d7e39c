"""The engine bench still runs (it is not part of CI's figures, and once broke unseen when
the differential driver's factories changed): two hands a game, one repeat. No timing is
asserted — performance lives in bench/ and docs/benchmarks.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def test_the_rules_engine_bench_runs_on_both_engines() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "rules_engine.py"), "--hands", "2", "--repeats", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for code in ("NT", "PO", "PO/8"):  # a row of hands per second for each game
        assert re.search(rf"^{re.escape(code)}\s+[\d,]+\s+[\d,.]+\s", done.stdout, re.M), (
            done.stdout
        )
