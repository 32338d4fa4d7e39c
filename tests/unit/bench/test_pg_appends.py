"""The fenced-append bench (``bench/pg_appends.py``) run small on its own PostgreSQL
server: both modes run for each number of tables and every figure is named. No timing
is asserted — the figures live in docs/scaling.md."""

from __future__ import annotations

import pytest

from bench.pg_appends import main
from tests.support.postgres import postgres_bin


def test_a_small_run_names_the_figures_for_both_modes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if postgres_bin() is None:
        pytest.fail("no PostgreSQL binaries: ./scripts/test installs Debian's postgresql")
    assert main(["--tables", "1,3", "--inputs", "5", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["3"])]
    assert [(r[0], r[1]) for r in rows] == [
        ("1", "unfenced"),
        ("1", "fenced"),
        ("3", "unfenced"),
        ("3", "fenced"),
    ]
    assert all(float(r[2].replace(",", "")) > 0 for r in rows)
    assert len(rows[1]) == 6 and len(rows[3]) == 6  # the fenced rows carry the ratio


def test_a_run_with_a_synchronous_standby_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """``--standby sync``: the bench's server streams to a standby of its own that each
    commit waits for (a casino's primary); the same figures, the standby named."""
    if postgres_bin() is None:
        pytest.fail("no PostgreSQL binaries: ./scripts/test installs Debian's postgresql")
    assert main(["--tables", "2", "--inputs", "5", "--repeats", "1", "--standby", "sync"]) == 0
    out = capsys.readouterr().out
    assert "standby: sync;" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["2"]]
    assert [r[1] for r in rows] == ["unfenced", "fenced"]
    assert all(float(r[2].replace(",", "")) > 0 for r in rows)
