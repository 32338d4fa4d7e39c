"""The tournament clock on the overlay: carried in the delayed picture, so the overlay
shows the clock as of the picture it shows — never the live one — with the time left as
of that picture each time the hub sends it; a running clock does not make a new picture
every second. The real table application in-process, on a clock the test moves."""

from __future__ import annotations

from typing import Any

from hub.app.table_app import TableApp
from hub.config import LevelSettings, PlayerSettings, RulesSettings, TournamentSettings
from tests.support.clocks import FakeClock
from tests.support.service import hub_service

DELAY = 600.0
LEVELS = [
    LevelSettings(small_blind=10, big_blind=20, minutes=15),
    LevelSettings(small_blind=15, big_blind=30, ante=5, minutes=15),
]


def tournament_table(clock: FakeClock) -> TableApp:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
    return hub_service(
        clock,
        overlay_delay_s=DELAY,
        rules=RulesSettings(players=players, tick_seconds=0),
        tournament=TournamentSettings(starting_stack=1000, levels=LEVELS),
    )


def shown_clock(app: TableApp) -> dict[str, Any] | None:
    clock: dict[str, Any] | None = app.overlay_snapshot()["state"].get("clock")
    return clock


def test_the_overlay_shows_the_clock_of_its_delayed_picture() -> None:
    clock = FakeClock(1000.0)
    app = tournament_table(clock)
    rules = app.rules
    assert rules is not None
    assert shown_clock(app) is None  # nothing released yet: the table opened just now

    clock.now = 1000.0 + DELAY  # the picture of the opening comes out: level 1, all of it
    app.feeds.release_due()
    shown = shown_clock(app)
    assert shown is not None
    assert (shown["level"], shown["paused"], shown["time_left"]) == (1, False, 900.0)
    assert (shown["small_blind"], shown["big_blind"], shown["next"]["big_blind"]) == (10, 20, 30)

    held = app.feeds.held
    for k in range(200):  # a running clock is no change: no new picture as time passes
        clock.now = 1600.0 + k * 0.4321987
        app.feeds.overlay_changed(clock.now)
    assert app.feeds.held == held

    clock.now = 2000.0  # live: level 2 (since 1900); the overlay still shows 1400
    rules.due_tick()  # time passes: the clock is polled, level 2 announced
    assert rules.desk.clock_state(clock.now)["level"] == 2
    shown = shown_clock(app)
    assert shown is not None and (shown["level"], shown["time_left"]) == (1, 500.0)

    clock.now = 2100.0  # the dealer pauses level 2 with 700 s left
    assert rules.clock_command("pause")["paused"] is True
    clock.now = 2000.0 + DELAY  # the overlay reaches level 2: running, 800 s left then
    app.feeds.release_due()
    shown = shown_clock(app)
    assert shown is not None
    assert (shown["level"], shown["paused"], shown["time_left"]) == (2, False, 800.0)
    assert (shown["small_blind"], shown["big_blind"], shown["ante"]) == (15, 30, 5)

    clock.now = 2100.0 + DELAY + 3000  # and then the pause: it stands at 700 s
    app.feeds.release_due()
    shown = shown_clock(app)
    assert shown is not None
    assert (shown["level"], shown["paused"], shown["time_left"]) == (2, True, 700.0)
    assert shown["ends_at"] is None


def test_a_released_picture_carries_the_time_left_as_of_itself() -> None:
    clock = FakeClock(1000.0)
    app = tournament_table(clock)
    frames: list[dict[str, Any]] = []
    with app.overlay.subscribe("overlay") as sub:
        clock.now = 1000.0 + DELAY + 2.5  # released 2.5 s late: the picture is 2.5 s old
        app.feeds.release_due()
        while not sub.queue.empty():
            frames.append(sub.queue.get_nowait())
    states = [f["state"] for f in frames if f["type"] == "state"]
    assert states and all(s["clock"]["time_left"] == 897.5 for s in states)
    # what the hub keeps is the level's end, not a time left that would go stale
    assert app.feeds.overlay_picture["clock"]["time_left"] is None
