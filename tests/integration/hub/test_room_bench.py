"""The card-room bench still runs (``bench/room.py``: not part of CI's figures): two
tables dealing by the rules with live equity, the bare read path beside them, a real
Mosquitto and a real hub process each. No timing is asserted; the figures live in
docs/benchmarks.md ("The card room")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_room_bench_plays_two_tables_beside_the_bare_path(tmp_path: Path) -> None:
    out = tmp_path / "room.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "room.py"),
            *("--tables", "2", "--seconds", "10", "--warmup", "5", "--pace", "4"),
            *("--mistakes", "0", "--json", str(out)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    medians = json.loads(out.read_text())["medians"]
    room, bare = medians["room"]["2"], medians["bare"]["2"]
    assert room["reads"] > 0 and bare["reads"] > 0
    # every read published reached the overlay and the event log; the dealers kept going
    assert room["lost_frames"] == 0 and room["lost_logged"] == 0 and bare["lost_frames"] == 0
    assert room["actions"] > 0 and room["errors"] == []
    assert room["hub_processes"] >= 1 and room["rss_mb"] > 0
    assert "equity (NT, 2 tables)" in done.stdout
