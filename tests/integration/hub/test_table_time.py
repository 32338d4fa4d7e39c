"""The hub's time (:mod:`hub.app.table_time`): anchored on the wall clock once, then monotonic,
and never behind what the event log already holds."""

from __future__ import annotations

from pathlib import Path

from hub.app.table_time import TableTime
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, PlayerSettings, RulesSettings, WebSettings
from tests.support.clocks import FakeClock


def test_a_wall_clock_jump_either_way_does_not_move_the_hubs_time() -> None:
    wall, mono = FakeClock(1_800_000_000.0), FakeClock(50.0)
    now = TableTime(wall=wall, monotonic=mono)
    start = now()
    for jump in (31 * 60, -3600, 10**6):
        wall.now += jump
        assert now() == start
    mono.now += 7.25
    assert now() == start + 7.25
    assert now.wall() == wall.now


def test_resuming_never_goes_back_and_never_skips_time_that_passed() -> None:
    wall, mono = FakeClock(1000.0), FakeClock(0.0)
    now = TableTime(wall=wall, monotonic=mono)
    now.resume(after=None)
    now.resume(after=400.0)  # the log's last input is older: the wall clock is right
    assert now() == 1000.0
    now.resume(after=1500.0)  # a stale clock (no RTC): continue after the log
    assert now() == 1500.0
    mono.now += 2.0
    assert now() == 1502.0


def config(state_dir: Path) -> HubConfig:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=500) for s in (1, 2)]
    return HubConfig(
        table="t1",
        live_equity=False,
        mqtt=HubMqttSettings(embedded_port=0),
        web=WebSettings(port=0),
        rules=RulesSettings(players=players, tick_seconds=0),
        state_dir=state_dir,
    )


async def test_a_hub_that_boots_with_a_stale_wall_clock_carries_on_after_its_log(
    tmp_path: Path,
) -> None:
    hub = await start_hub(config(tmp_path / "state"))
    try:
        assert hub.log is not None and hub.log.last_seq >= 1  # the table opened
        last = [r.t for r in hub.log.records()][-1]
    finally:
        await hub.stop()
    stale = FakeClock(last - 3 * 3600)  # a Pi without a real-time clock, three hours behind
    hub = await start_hub(config(tmp_path / "state"), clock=stale)
    try:
        assert hub.service.clock() >= last
        stale.now += 3 * 3600 + 60  # NTP corrects the clock: the hub's time does not jump
        assert hub.service.clock() - last < 60
    finally:
        await hub.stop()
