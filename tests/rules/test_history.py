"""``feltwire history replay``: output lines, JSON fields and exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub.history import main

DATA = Path("/work/shared/data/phh")
pytestmark = pytest.mark.skipif(not DATA.exists(), reason="the PHH corpus is not on this machine")


def test_replay_json_one_line_per_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object per hand with the replayed finishing stacks."""
    code = main(["replay", "--json", str(DATA / "wsop/2023/43/5/1.phh")])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert rows == [
        {
            "file": str(DATA / "wsop/2023/43/5/1.phh"),
            "hand": 1,
            "finishing_stacks": [7340000, 3775000, 5110000, 8935000, 4545000],
            "expected": [7340000, 3775000, 5110000, 8935000, 4545000],
            "matches": True,
        }
    ]


def test_replay_folder_with_half_chip_split(capsys: pytest.CaptureFixture[str]) -> None:
    """A folder is searched; a half-chip split is flagged but not a failure."""
    code = main(["replay", str(DATA / "pluribus/102")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith(f"{DATA}/pluribus/102/0.phh  ok (the file splits an odd chip")
    assert out[-1].endswith("0 mismatches, 0 illegal")
    assert " 1 half-chip splits" in out[-1]


def test_illegal_action_exits_1_with_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An illegal input prints the rule id and reason, and the exit status is 1."""
    text = (DATA / "wsop/2023/43/5/1.phh").read_text().replace("'p4 cbr 170000'", "'p4 cbr 90000'")
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    code = main(["replay", "--json", str(bad)])
    row = json.loads(capsys.readouterr().out)
    assert code == 1
    assert row["finishing_stacks"] is None
    assert row["error"].startswith(
        "R-BET-2: action 7 'p4 cbr 90000': a raise must be at least 80000"
    )


def test_mismatch_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Replayed stacks that differ from finishing_stacks are reported and exit 1."""
    text = (
        (DATA / "wsop/2023/43/5/1.phh").read_text().replace("7340000, 3775000", "7340000, 3775001")
    )
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    code = main(["replay", str(bad)])
    out = capsys.readouterr().out
    assert code == 1 and "MISMATCH" in out and "1 mismatches" in out
