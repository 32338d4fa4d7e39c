"""The restart bench still runs (``bench/restart.py``: not part of CI's figures): three
hands into a real event log, one cold start from the snapshot and one with snapshots off
— the replay and a real ``start_hub`` that serves. No timing is asserted; the figures
live in docs/benchmarks.md ("Restart")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_restart_bench_builds_a_log_and_starts_on_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "restart.py"),
            "--hands",
            "3",
            "--starts",
            "1",
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["hands_finished"] + result["hands_voided"] == 3
    # from the snapshot of the last hand's start, then the full replay beside it
    assert result["restored_as_of"] > 0
    assert result["restored_as_of"] + result["replayed"] == result["inputs"] > 0
    assert result["full_restored_as_of"] == 0 and result["full_replayed"] == result["inputs"]
    # ticks are logged only when they change a hand (a mistake's alert): maybe none here
    assert result["inputs_by_kind"]["inventory"] > 0 and result["inputs_by_kind"]["console"] > 0
    assert result["first_serve_s"] > 0
    assert list(tmp_path.iterdir()) == []  # the scratch state dir is removed
