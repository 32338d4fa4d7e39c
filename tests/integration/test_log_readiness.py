"""Issue 15, ``/readyz``: the event log's disk is looked at before a write fails.

Before, ``/readyz`` said the event log was writable until an input failed to be written
(``TableApp.log_writable``): a full disk or a read-only folder was ready until the next
read was refused. Now readiness looks at the log's folder and file (writable, on a
read-write filesystem) and the free space, without writing, at most every
``[health] log_check_s``. The hub's state directory lies on a real tiny filesystem (a
4 MiB tmpfs, as in ``test_disk_full``) that the test fills up, or a read-only bind mount.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from hub.adapters.eventlog.disk import LogDisk
from hub.config import HealthSettings, WebSettings
from tests.integration.test_disk_full import fill, small_disk
from tests.support.clocks import Clock
from tests.support.room import Room, room

HEALTH = HealthSettings(log_min_free_mb=1, log_check_s=0)
"""1 MiB kept free on the 4 MiB disk; looked at on every request (no wait in the test)."""


async def readyz(r: Room) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        response = await http.get("/readyz")
    body: dict[str, Any] = response.json()
    return response.status_code, body


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` seen through a read-only bind mount of itself (files already open for
    writing stay so: the disk is as a remount would leave it for the next open)."""
    subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


async def test_a_full_disk_makes_the_hub_unready_before_any_write_fails(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        async with room(WebSettings(port=0), live_equity=False, state_dir=disk / "state",
                        health=HEALTH) as r:  # fmt: skip
            await r.deal()
            service, log = r.hub.service, r.hub.service.log
            assert log is not None
            code, body = await readyz(r)
            assert code == 200 and body["event_log"] == {"t1": {"ok": True}}, body
            written = log.last_seq
            filler = fill(disk)
            code, body = await readyz(r)
            assert code == 503, body
            assert body["event_log"]["t1"]["ok"] is False
            assert "MiB free, below the 1 MiB kept" in body["event_log"]["t1"]["problem"]
            assert body["broker"]["ok"] and all(n["ok"] for n in body["nodes"].values())
            # known without a write: none failed, nothing was appended to find out
            assert service.counters.get("log_failed", 0) == 0
            assert log.last_seq == written
            filler.unlink()
            code, body = await readyz(r)
            assert code == 200 and body["event_log"] == {"t1": {"ok": True}}, body


async def test_a_read_only_log_folder_makes_the_hub_unready(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        state = disk / "state"
        async with room(WebSettings(port=0), live_equity=False, state_dir=state,
                        health=HEALTH) as r:  # fmt: skip
            await r.deal()
            folder = r.hub.service.log.path.parent  # type: ignore[union-attr]
            assert (await readyz(r))[0] == 200
            with read_only(folder):
                code, body = await readyz(r)
                assert code == 503, body
                assert body["event_log"]["t1"]["problem"].endswith("read-only filesystem")
                assert r.hub.service.counters.get("log_failed", 0) == 0
            code, body = await readyz(r)
            assert code == 200, body


def test_the_disk_is_looked_at_at_most_every_log_check_s(tmp_path: Path) -> None:
    clock = Clock(100.0)
    disk = LogDisk(tmp_path / "events.sqlite", min_free_bytes=0, every_s=5, clock=clock)
    assert disk.problem() is None and disk.looks == 1
    disk.min_free_bytes = 1 << 60  # the disk "fills": not seen before the interval is up
    clock.advance(4.9)
    assert disk.problem() is None and disk.looks == 1
    clock.advance(0.1)
    problem = disk.problem()
    assert problem is not None and "free, below" in problem and disk.looks == 2
