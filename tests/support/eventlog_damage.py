"""A real event log written by a process killed mid-way, as a power cut or ``kill -9``
would leave it (the inputs in the WAL), and the ways to damage its files: for the event
log's integrity tests and the ``feltwire event-log`` command's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
N = 20
"""Inputs the writer appends, one commit each."""
T0 = 1_700_000_000.0
"""The writer's first input time (input ``i`` has ``T0 + i - 1``)."""

WRITER = """
import json, os, sys
from pathlib import Path
from hub.adapters.eventlog import EventLog, InputKind
path, n, last_batch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
wal = path.with_name(path.name + "-wal")
log = EventLog(path, "t1")
sizes = []
single = n - last_batch if last_batch > 1 else n
for i in range(single):
    log.append(InputKind.TICK, {"i": i + 1, "pad": "x" * 300}, T0 + i)
    sizes.append(os.path.getsize(wal))
if last_batch > 1:
    log.append_many([(InputKind.TICK, {"i": i + 1, "pad": "x" * 300}, T0 + i, T0 + i)
                     for i in range(single, n)])
    sizes.append(os.path.getsize(wal))
print(json.dumps(sizes), flush=True)
sys.stdin.read()  # wait for SIGKILL
""".replace("T0", repr(T0))


def killed_writer(path: Path, n: int = N, *, last_batch: int = 1) -> list[int]:
    """Append ``n`` inputs to a new log at ``path`` in a child process, then SIGKILL it
    (no clean close: the inputs stay in the WAL). Returns the WAL's size after each
    commit (the last commit holds ``last_batch`` inputs)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(n), str(last_batch)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    proc.kill()
    proc.wait(timeout=10)
    assert line, "the writer died before it wrote"
    sizes: list[int] = json.loads(line)
    assert wal_of(path).exists() and os.path.getsize(path) < sizes[-1]
    return sizes


def wal_of(path: Path) -> Path:
    """The WAL file of the log at ``path``."""
    return path.with_name(path.name + "-wal")


def seal_of(path: Path) -> Path:
    """The seal file of the log at ``path``."""
    return path.with_name(path.name + ".seal")


def overwrite(path: Path, offset: int, data: bytes) -> None:
    """Write ``data`` over the bytes of ``path`` at ``offset``."""
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(data)
