"""Live equity in worker processes (:mod:`hub.adapters.equity_workers`): the same
figures as in the hub's own process, the reads' loop free of it, and a worker that dies
replaced without the table noticing more than one slow figure."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.adapters.equity_workers import EquityWorkers
from hub.app.live_equity import LiveSpot, final_frame, presence_spot, quick_frame

ROOT = Path(__file__).resolve().parents[3]

AA_KK = {"seat1": ("As", "Ah"), "seat3": ("Kd", "Kc"), "board": ()}
OMAHA = {
    "seat1": ("As", "Ah", "2c", "3c"),
    "seat2": ("Kd", "Kc", "Qh", "Jh"),
    "seat5": ("9s", "8s", "7d", "6d"),
    "board": ("Ts", "5s", "2h"),
}


def spot(snap: dict[str, tuple[str, ...]], game: str = "T") -> LiveSpot:
    live = presence_spot(snap, game)
    assert live is not None
    return live


@pytest.fixture
def workers() -> Iterator[EquityWorkers]:
    pool = EquityWorkers(2)
    pool.start()
    yield pool
    pool.close()


def test_a_worker_gives_the_frames_the_hub_would_compute(workers: EquityWorkers) -> None:
    async def both() -> list[dict[str, object]]:
        return [
            await workers(final_frame, spot(AA_KK), 0),
            await workers(quick_frame, spot(OMAHA, "O"), 3),
        ]

    got = asyncio.run(both())
    assert got == [final_frame(spot(AA_KK), 0), quick_frame(spot(OMAHA, "O"), 3)]
    assert [p["equity"] for p in got[0]["players"]] == [0.8126, 0.1874]  # type: ignore[index]
    assert all(pid != os.getpid() for pid in workers.pids())


def test_a_worker_killed_is_replaced_and_the_figure_still_comes(workers: EquityWorkers) -> None:
    first = workers.pids()
    assert first
    for pid in first:
        os.kill(pid, signal.SIGKILL)

    async def after() -> dict[str, object]:
        return await workers(final_frame, spot(AA_KK), 0)

    got = asyncio.run(after())
    assert [p["equity"] for p in got["players"]] == [0.8126, 0.1874]  # type: ignore[index]
    assert workers.broken == 1
    assert set(workers.pids()).isdisjoint(first)


def test_the_workers_yield_the_cpu_to_the_hub(workers: EquityWorkers) -> None:
    """A figure waits for a read, never a read for a figure: the workers run niced."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert workers.pids()
    for pid in workers.pids():
        assert os.getpriority(os.PRIO_PROCESS, pid) == mine + 10


HUB = """
import sys, time
from hub.adapters.equity_workers import EquityWorkers
if __name__ == "__main__":
    workers = EquityWorkers(2)
    workers.start()
    print(*workers.pids(), flush=True)
    time.sleep(600)
"""


def test_a_hub_killed_takes_its_workers_with_it(tmp_path: Path) -> None:
    """SIGKILL leaves no orphan: a worker holds its own call queue's writing end and the
    forkserver lives while a worker does, so without a watch they would stay forever."""
    script = tmp_path / "serve_equity.py"
    script.write_text(HUB)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    hub = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert hub.stdout is not None
    pids = [int(p) for p in hub.stdout.readline().split()]
    assert pids
    hub.kill()
    hub.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in pids):
        assert time.monotonic() < deadline, f"workers {pids} outlived the killed hub"
        time.sleep(0.1)


def test_close_while_a_worker_starts_stops_at_once() -> None:
    """A hub stopped during its start (the first worker still warming up) stops: the
    workers are terminated, and no pool is started after the close."""
    workers = EquityWorkers(1)
    starting = threading.Thread(target=workers.start)
    starting.start()
    workers.close()
    starting.join(timeout=60)
    assert not starting.is_alive()
    assert workers.pids() == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child of an exited forkserver is reaped by init: gone for this test
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
