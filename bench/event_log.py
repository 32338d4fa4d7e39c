"""The event log's write and open costs (issue #12): inputs a second, one commit each and
in batches, beside a bare SQLite insert of the same rows (no hash chain, no seal), and the
time to open — verify every row's chain and the seal — a log of many inputs.

    .venv/bin/python bench/event_log.py                 # 2,000 inputs, batches of 50
    .venv/bin/python bench/event_log.py --inputs 10000 --batch 100 --open 100000

Each figure is the median of ``--repeats`` runs on a fresh file in a temporary directory
on the disk of ``--dir`` (default: the system's temporary directory), ``sync = "full"``
unless ``--sync normal``. The bare insert is the stripped figure: what SQLite itself costs
for one transaction per input with the same pragmas.
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.adapters.eventlog.store import EventLog  # noqa: E402
from hub.app.records import InputKind  # noqa: E402

PAYLOAD = {"reader": "seat3", "node": "pi-north", "seq": 0, "cards": ["As", "Kd"], "unknown": []}


def bare(path: Path, n: int, sync: str) -> float:
    """Seconds for ``n`` single-row transactions of plain SQLite (WAL, the same sync)."""
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={sync.upper()}")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, t REAL, kind TEXT, payload TEXT)")
    start = time.perf_counter()
    for seq in range(1, n + 1):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO events VALUES (?, ?, 'inventory', ?)", (seq, float(seq), "{}"))
        db.execute("COMMIT")
    took = time.perf_counter() - start
    db.close()
    return took


def single(path: Path, n: int, sync: str) -> float:
    log = EventLog(path, "t1", sync=sync)
    start = time.perf_counter()
    for seq in range(1, n + 1):
        log.append(InputKind.INVENTORY, PAYLOAD | {"seq": seq}, float(seq), wall=float(seq))
    took = time.perf_counter() - start
    log.close()
    return took


def batched(path: Path, n: int, sync: str, size: int) -> float:
    log = EventLog(path, "t1", sync=sync)
    items = [
        (InputKind.INVENTORY, PAYLOAD | {"seq": seq}, float(seq), float(seq))
        for seq in range(1, n + 1)
    ]
    start = time.perf_counter()
    for i in range(0, n, size):
        log.append_many(items[i : i + size])
    took = time.perf_counter() - start
    log.close()
    return took


def opening(path: Path, n: int) -> float:
    log = EventLog(path, "t1", sync="normal")
    items = [
        (InputKind.INVENTORY, PAYLOAD | {"seq": seq}, float(seq), float(seq))
        for seq in range(1, n + 1)
    ]
    for i in range(0, n, 1000):
        log.append_many(items[i : i + 1000])
    log.close()
    start = time.perf_counter()
    EventLog(path, "t1").close()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs written per run")
    parser.add_argument("--batch", type=int, default=50, help="inputs per append_many")
    parser.add_argument("--open", type=int, default=100_000, help="inputs of the log opened")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (medians)")
    parser.add_argument("--sync", choices=["full", "normal"], default="full")
    parser.add_argument("--dir", type=Path, default=None, help="where the files go")
    opt = parser.parse_args()
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, sync={opt.sync}, {opt.repeats} runs each"
    )
    runs: dict[str, list[float]] = {
        "bare SQLite, one commit each": [],
        "event log, one commit each": [],
        f"event log, batches of {opt.batch}": [],
    }
    opens: list[float] = []
    for _ in range(opt.repeats):
        with tempfile.TemporaryDirectory(dir=opt.dir) as d:
            base = Path(d)
            runs["bare SQLite, one commit each"].append(
                bare(base / "bare.sqlite", opt.inputs, opt.sync)
            )
            runs["event log, one commit each"].append(
                single(base / "one.sqlite", opt.inputs, opt.sync)
            )
            runs[f"event log, batches of {opt.batch}"].append(
                batched(base / "many.sqlite", opt.inputs, opt.sync, opt.batch)
            )
            opens.append(opening(base / "open.sqlite", opt.open))
    bare_rate = opt.inputs / statistics.median(runs["bare SQLite, one commit each"])
    for name, took in runs.items():
        rate = opt.inputs / statistics.median(took)
        print(f"{name:34s} {rate:10,.0f} inputs/s   ({rate / bare_rate:5.2f} x bare)")
    print(f"open and verify {opt.open:,} inputs: {statistics.median(opens):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
