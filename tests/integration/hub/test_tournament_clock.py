"""The tournament clock: levels advance with the hub's clock, each new hand takes the
blinds of the level running when it starts, the dealer pauses and resumes it over HTTP
(dealer role only), and a restarted hub replays it from the event log.

The unit tests drive a table's :class:`~hub.app.table_console.TableConsole` with a clock the
test moves; the route and restart tests run the real hub (``start_hub``: web server,
embedded broker, SQLite event log) with that clock, over real HTTP."""

from __future__ import annotations

import asyncio
import re
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest

from feltwire.config import parse_config
from hub.app.errors import EventLogError
from hub.app.feeds import Subscription
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.bootstrap import HubRuntime, start_hub
from hub.config import HubConfig, LevelSettings, PlayerSettings, RulesSettings, TournamentSettings
from hub.web.auth import Role
from tests.support.clocks import FakeClock
from tests.support.hub_configs import embedded_hub_config
from tests.support.node_reports import Antennas
from tests.support.service import hub_service

ROOT = Path(__file__).resolve().parents[3]
LEVELS = [
    LevelSettings(small_blind=10, big_blind=20, minutes=15),
    LevelSettings(small_blind=15, big_blind=30, minutes=15),
    LevelSettings(small_blind=25, big_blind=50, ante=5, minutes=20),
]
TOURNAMENT = TournamentSettings(starting_stack=3000, levels=LEVELS)
PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=3000) for s in (2, 5, 7)]
HOLE = ["As", "Kd", "7c", "Ah", "Kc", "2d"]


def drain(sub: Subscription) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def make(clock: FakeClock) -> tuple[TableApp, TableConsole]:
    hub = hub_service(clock, rules=RulesSettings(players=PLAYERS), tournament=TOURNAMENT)
    rules = hub.rules
    assert rules is not None
    return hub, rules


def clock_state(rules: TableConsole) -> dict[str, Any]:
    state = rules.public_state()["clock"]
    assert isinstance(state, dict)
    return state


def test_levels_advance_with_the_clock_and_each_new_level_is_a_public_frame() -> None:
    clock = FakeClock()
    hub, rules = make(clock)
    state = clock_state(rules)
    assert (state["level"], state["small_blind"], state["big_blind"]) == (1, 10, 20)
    assert state["time_left"] == 15 * 60 and state["started"] and not state["paused"]
    assert state["next"] == {"small_blind": 15, "big_blind": 30, "ante": 0, "minutes": 15.0}
    with hub.public.subscribe() as pub:
        clock.now += 14 * 60
        rules.tick()
        assert clock_state(rules)["time_left"] == 60
        assert drain(pub) == []  # same level: nothing to announce
        clock.now += 61
        rules.tick()
        frames = [f for f in drain(pub) if f["type"] == "clock"]
        assert [(f["reason"], f["level"], f["big_blind"]) for f in frames] == [("level", 2, 30)]
        assert frames[0]["time_left"] == 15 * 60 - 1
        rules.tick()
        assert drain(pub) == []
        clock.now += 2 * 3600  # long past the schedule: the last level runs on
        rules.tick()
        (last,) = drain(pub)
        assert (last["level"], last["ante"], last["time_left"], last["next"]) == (3, 5, 0, None)


def test_the_blinds_of_a_new_hand_follow_the_level() -> None:
    clock = FakeClock()
    hub, rules = make(clock)
    table = Antennas(hub, clock)
    assert rules.desk.setup is not None
    sb, bb, button = rules.desk.setup.seats
    assert rules.desk.setup.stakes.blinds == (10, 20, 0)
    clock.now += 16 * 60  # level 2 while hand 1 runs: its blinds stay
    held: dict[int, list[str]] = {s: [] for s in (sb, bb, button)}
    cards = iter(HOLE)
    for _ in range(2):
        for seat in (sb, bb, button):
            card = next(cards)
            held[seat].append(card)
            table.put(f"seat{seat}", card)
    with hub.public.subscribe() as pub:
        table.move(held[button], f"seat{button}", "muck")
        table.move(held[sb], f"seat{sb}", "muck")
        # R-SHOW-3: the big blind may still show; nobody says anything
        assert (
            rules.in_hand
            and rules.desk.monitor is not None
            and rules.desk.monitor.winner_to_show == bb
        )
        table.clear()  # the table is clear: hand 1 closes (a muck), hand 2 starts, at level 2
        frames = drain(pub)
    assert rules.in_hand and rules.desk.setup.number == 2
    hand = next(f for f in frames if f["type"] == "hand")
    blinds = sorted(amount for _seat, kind, amount in hand["posts"] if "blind" in kind)
    assert blinds == [15, 30]
    assert sorted(rules.desk.setup.stakes.blinds) == [0, 15, 30]
    bets = {p["seat"]: p["bet"] for p in rules.public_state()["players"]}
    assert sorted(bets.values()) == [0, 15, 30]
    announced = [f for f in frames if f["type"] == "clock"]
    assert [(f["reason"], f["level"]) for f in announced] == [("level", 2)]
    assert frames.index(announced[0]) < frames.index(hand)  # the level, then the hand


def test_config_refuses_a_tournament_that_cannot_run() -> None:
    rules = RulesSettings(players=PLAYERS)
    HubConfig(rules=rules, tournament=TOURNAMENT)  # fine
    with pytest.raises(ValueError, match=r"needs a \[rules\] section"):
        HubConfig(tournament=TOURNAMENT)
    cash_buy_in = RulesSettings(players=[PlayerSettings(seat=1, name="Ann", buy_in=1000)])
    with pytest.raises(ValueError, match=r"seat 1 buys in for 1000.*starting stack \(3000\)"):
        HubConfig(rules=cash_buy_in, tournament=TOURNAMENT)
    with pytest.raises(ValueError, match="freezeout"):
        HubConfig(rules=rules.model_copy(update={"rebuy": True}), tournament=TOURNAMENT)
    with pytest.raises(ValueError, match="no- or pot-limit blind game"):
        HubConfig(game="FT", rules=rules, tournament=TOURNAMENT)
    with pytest.raises(ValueError, match=r"R-BLIND-1.*small blind \(50\)"):
        TournamentSettings(
            starting_stack=3000, levels=[LevelSettings(small_blind=50, big_blind=20, minutes=9)]
        )
    with pytest.raises(ValueError, match="levels"):
        TournamentSettings(starting_stack=3000, levels=[])


def test_the_readme_tournament_example_is_valid() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = {}
    for label in ("`hub.toml`:", "a `[tournament]` section:"):
        m = re.search(re.escape(label) + r"\s*\n\s*```toml\n(.*?)```", readme, re.S)
        assert m, f"no TOML example after {label!r} in README.md"
        blocks[label] = m.group(1)
    data = tomllib.loads(blocks["`hub.toml`:"] + "\n" + blocks["a `[tournament]` section:"])
    data.pop("deck")  # a file the reader makes with `feltwire deck register`
    cfg = parse_config(HubConfig, data, source="README hub.toml")
    assert cfg.tournament is not None and len(cfg.tournament.levels) >= 2


# ---------------------------------------------------------------- the real hub


def config(state_dir: Path | None = None, **overrides: Any) -> HubConfig:
    """The real hub with :data:`PLAYERS` seated and :data:`TOURNAMENT`'s clock ticking
    every 50 ms; ``overrides`` replace :class:`~hub.config.HubConfig` fields."""
    options: dict[str, Any] = {
        "rules": RulesSettings(players=PLAYERS, tick_seconds=0.05),
        "tournament": TOURNAMENT,
        "state_dir": state_dir,
    } | overrides
    return embedded_hub_config(**options)


async def post(hub: HubRuntime, action: str, role: Role | None = Role.DEALER) -> httpx.Response:
    headers = {"Authorization": f"Bearer {hub.token(role)}"} if role is not None else {}
    async with httpx.AsyncClient(base_url=hub.web_url, timeout=10) as http:
        return await http.post(f"/api/clock/{action}", headers=headers)


async def public_clock(hub: HubRuntime) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=hub.web_url, timeout=10) as http:
        snap = (await http.get("/api/public")).json()
    state: dict[str, Any] = snap["rules"]["clock"]
    return state


async def test_the_dealer_pauses_and_resumes_the_clock_over_http() -> None:
    clock = FakeClock()
    hub = await start_hub(config(), monotonic=clock)
    try:
        clock.now += 5 * 60
        assert (await post(hub, "pause", role=None)).status_code == 401
        refused = await post(hub, "pause", role=Role.PRODUCER)
        assert refused.status_code == 403 and "dealer" in refused.json()["detail"]
        assert not (await public_clock(hub))["paused"]
        with hub.service.public.subscribe() as pub:
            paused = await post(hub, "pause")
            assert paused.status_code == 200, paused.text
            assert paused.json()["paused"] and paused.json()["time_left"] == 10 * 60
            again = await post(hub, "pause")
            assert again.status_code == 409
            assert "R-BLIND-1" in again.json()["detail"] and "not running" in again.json()["detail"]
            clock.now += 3600  # an hour's break: the level does not run out
            state = await public_clock(hub)
            assert state["paused"] and state["level"] == 1 and state["time_left"] == 10 * 60
            resumed = await post(hub, "resume")
            assert resumed.status_code == 200 and not resumed.json()["paused"]
            assert (await post(hub, "resume")).status_code == 409
            clock.now += 10 * 60 + 1
            state = await public_clock(hub)
            assert (state["level"], state["big_blind"]) == (2, 30)
            frames = [f for f in drain(pub) if f["type"] == "clock"]
            while not any(f["reason"] == "level" for f in frames):  # the hub's ticks notice
                frame = await asyncio.wait_for(pub.get(), 10)
                frames += [frame] if frame["type"] == "clock" else []
        assert [f["reason"] for f in frames] == ["pause", "resume", "level"]
        assert (frames[-1]["level"], frames[-1]["big_blind"]) == (2, 30)
        assert hub.service.counters["refused.clock_pause"] == 1
        assert hub.service.counters["refused.clock_resume"] == 1
    finally:
        await hub.stop()


async def test_a_hub_without_a_tournament_has_no_clock_to_pause() -> None:
    cash = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (2, 5)]
    hub = await start_hub(config(tournament=None, rules=RulesSettings(players=cash)))
    try:
        response = await post(hub, "pause")
        assert response.status_code == 404 and "[tournament]" in response.json()["detail"]
        async with httpx.AsyncClient(base_url=hub.web_url, timeout=10) as http:
            assert (await http.get("/api/public")).json()["rules"]["clock"] is None
    finally:
        await hub.stop()


async def test_a_restarted_hub_replays_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    hub = await start_hub(config(tmp_path / "state"), monotonic=clock)
    try:
        clock.now += 20 * 60  # level 2, 10 minutes to go
        assert (await post(hub, "pause")).status_code == 200
        before = await public_clock(hub)
    finally:
        await hub.stop()
    assert (before["level"], before["time_left"], before["paused"]) == (2, 10 * 60, True)
    clock.now += 2 * 3600  # the hub was down; the clock stood still, paused
    hub = await start_hub(config(tmp_path / "state"), monotonic=clock)
    try:
        assert await public_clock(hub) == before
        assert (await post(hub, "resume")).status_code == 200
        clock.now += 10 * 60
        state = await public_clock(hub)
        assert (state["level"], state["big_blind"], state["ante"]) == (3, 50, 5)
    finally:
        await hub.stop()
    other = TournamentSettings(starting_stack=3000, levels=LEVELS[1:])
    with pytest.raises(EventLogError, match="tournament"):
        await start_hub(config(tmp_path / "state", tournament=other), monotonic=clock)
