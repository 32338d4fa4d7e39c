"""Issue 12, item 10: a full disk. The hub's state directory lies on a real, tiny
filesystem (a 4 MiB tmpfs) that the test fills up mid-hand.

Before, a console action got a bare 500, a read was counted both ``accepted`` and
``failed``, and the tick task died silently. Now the dealer gets 503 with the reason and
an alert on the console, a read that could not be logged is counted ``failed`` only, every
task keeps running, and once there is room again the hand goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hub.config import WebSettings
from hub.web.auth import Role
from tests.support.room import DECK, Room, room, sweep_into


@contextlib.contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs mounted at ``where`` (a real filesystem that can fill up)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs (a real full disk); CI runs as root")
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; the filler file (remove it to make room)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


async def console(r: Room, act: str, seat: int) -> httpx.Response:
    async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        return await http.post(
            "/api/console/action",
            json={"seat": seat, "act": act},
            headers={"Authorization": f"Bearer {r.dealer}"},
        )


async def state(r: Room) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
        response = await http.get(
            "/api/console/state", headers={"Authorization": f"Bearer {r.dealer}"}
        )
        data: dict[str, object] = response.json()
        return data


async def test_a_full_disk_refuses_inputs_says_why_and_the_hub_carries_on(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        async with room(WebSettings(port=0), live_equity=False, state_dir=disk / "state") as r:
            await r.deal()
            first, second, button = r.seats
            service = r.hub.service
            filler = fill(disk)
            # the dealer's action: 503 with the reason, not a bare 500, and not taken
            refused = await console(r, "call", button)
            assert refused.status_code == 503, refused.text
            detail = refused.json()["detail"]
            assert "event log cannot be written" in detail and "full" in detail
            assert refused.headers["Retry-After"]
            # a read from the node: counted failed, never accepted as well
            accepted = service.counters.get("accepted", 0)
            r.table.reader("muck").place(DECK.uid_for("3c"))
            await sweep_into(r.node, r.publisher, service)
            assert service.counters.get("accepted", 0) == accepted
            assert service.counters["failed"] >= 1 and service.counters["log_failed"] >= 2
            # the dealer is told, on the console, in words
            alerts = [a for a in (await state(r))["alerts"] if a["code"] == "event_log_failed"]  # type: ignore[union-attr,index]
            assert alerts and "full" in alerts[0]["message"]
            # the overlay cannot be opened unaudited: 503, not a bare 500
            async with httpx.AsyncClient(base_url=r.hub.web_url, timeout=10) as http:
                overlay = await http.get(f"/overlay?token={r.hub.token(Role.PRODUCER)}")
            assert overlay.status_code == 503 and "audit trail" in overlay.json()["detail"]
            await asyncio.sleep(0.6)  # the rules' ticks fail meanwhile (0.25 s apart)
            running = {t.get_name(): t for t in r.hub._tasks}
            assert not [name for name, t in running.items() if t.done()], running
            # room again: the same action is taken, the hand goes on
            filler.unlink()
            r.table.reader("muck").lift(DECK.uid_for("3c"))
            taken = await console(r, "call", button)
            assert taken.status_code == 200 and taken.json()["accepted"], taken.text
            assert (await console(r, "call", first)).json()["accepted"]
            assert (await console(r, "check", second)).json()["accepted"]
