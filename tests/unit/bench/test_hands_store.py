"""The hands-store bench (``bench/hands_store.py``) run small on SQLite: it stores every
hand it made, exports each of them in every format and names every figure. No timing is
asserted — the figures live in docs/benchmarks.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.hands_store import main
from hub.rules.exports import FORMATS


def test_a_small_run_names_the_figures_and_counts_every_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hands.json"
    code = main(
        ["--hands", "24", "--databases", "sqlite", "--dir", str(tmp_path), "--json", str(out)]
    )
    printed = capsys.readouterr().out
    assert code == 0
    for figure in ("write: hands/s", "write: p50 ms", "write: p99 ms", "stats: player_stats s"):
        assert figure in printed
    for fmt in FORMATS:
        assert f"export {fmt}: hands/s" in printed
    [sqlite] = json.loads(out.read_text())["medians"]
    assert sqlite["database"] == "sqlite" and sqlite["hands"] == 24
    assert len(json.loads(out.read_text())["runs"]["sqlite"]) == 1
    assert {f: (e["hands"], e["failed"]) for f, e in sqlite["exports"].items()} == {
        f: (24, 0) for f in FORMATS
    }
    assert sqlite["players"] > 0 and sqlite["write_hands_per_s"] > 0
    assert list(tmp_path.iterdir()) == [out]  # the store and the files are gone
