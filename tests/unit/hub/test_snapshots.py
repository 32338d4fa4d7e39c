"""Table snapshots (:mod:`hub.app.snapshot`): a table started from its newest snapshot and
the inputs after it is the table a replay of every input makes — stopped between hands
or mid-hand, with the overlay held back, with mistakes dealt; a snapshot that is damaged,
foreign or does not restore is skipped with a log line and the state is still right; and
the hub writes one as each hand starts.

The table is the demo's: the simulated dealer deals hands (a share with mistakes) on
antennas reported straight to the table's application, into a real SQLite event log.
"""

from __future__ import annotations

import contextlib
import logging
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.adapters.eventlog.store import EventLog
from hub.app.snapshot import SNAPSHOT_FORMAT
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface
from tests.support.table_procs import copy_state

DELAY_S = 90.0
"""The overlay's delay: frames of the hand before are still held when a hand starts."""
HANDS = 14
PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3, 4)]


def table(log: EventLog, clock: FakeClock, *, delay_s: float = DELAY_S, **kw: Any) -> TableApp:
    return hub_service(
        clock,
        log=log,
        rules=RulesSettings(players=PLAYERS, rebuy=True),
        overlay_delay_s=delay_s,
        opened=False,
        **kw,
    )


def play(app: TableApp, clock: FakeClock, hands: int, seed: int, stop: Callable[[], None]) -> None:
    """Deal ``hands`` hands (30 % with a mistake), ticking the rules as a hub does;
    ``stop`` is called after every few motions (mid-hand) and as each hand ends."""
    app.open()
    rules = app.rules
    assert rules is not None
    surface = ServiceSurface(app, rules, clock)
    motions = 0

    def every_few() -> None:
        nonlocal motions
        motions += 1
        if rules.in_hand and motions % 4 == 0:
            rules.tick()
        if motions % 23 == 0:
            stop()

    surface.after_motion.append(every_few)
    rng = random.Random(seed)
    for _ in range(hands):
        setup = rules.desk.setup
        assert setup is not None and rules.in_hand
        mistake = choose_mistake(rng, 0.3, setup.game, rules.desk.profile)
        SimulatedDealer(rng, setup, rules.desk.profile, surface, mistake).play()
        stop()  # the hand is over, its cards still out: between hands
        surface.clear()
        stop()  # the table cleared: the next hand started


def restarted(state: Path, clock: FakeClock, *, snapshots: bool, **kw: Any) -> TableApp:
    log = EventLog(state / "events.sqlite", "t1")
    app = table(log, clock, **kw)
    app.snapshots.enabled = snapshots
    app.open()
    app.replay()
    app.snapshots.close()
    log.close()  # the state is in memory now
    return app


def sql(state: Path, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    """One statement on the log's file (the snapshots table is not append-only)."""
    with contextlib.closing(sqlite3.connect(state / "events.sqlite")) as db, db:
        return db.execute(statement, args).fetchall()


def picture(app: TableApp) -> dict[str, Any]:
    """What the pages and the metrics show of the table."""
    rules = app.rules
    assert rules is not None
    return {
        "public": app.public_snapshot(),
        "overlay": app.overlay_snapshot(),
        "console": rules.console_state(),
        "counters": {k: v for k, v in app.counters.items() if k != "replayed"},
        "hands": dict(app.hands),
        "nodes": app.node_stats(),
        "lights": app.light_messages(),
        "held": app.feeds.held,
        "next_release": app.feeds.next_release(),
    }


def released(app: TableApp, clock: FakeClock) -> Iterator[dict[str, Any]]:
    """Every overlay frame the delay releases from now on (the clock moved past it)."""
    with app.overlay.subscribe() as feed:
        app.feeds.release_due()
        while not feed.queue.empty():
            yield feed.queue.get_nowait()


def same_start(state: Path, clock: FakeClock, **kw: Any) -> tuple[TableApp, TableApp]:
    """A start from the snapshot and a full replay of a copy with its snapshots
    removed: the same table, and the overlay releases the same frames afterwards."""
    bare = copy_state(state, state.parent / f"{state.name}-bare")
    sql(bare, "DELETE FROM snapshots")
    full = restarted(bare, clock, snapshots=False, **kw)
    quick = restarted(state, clock, snapshots=True, **kw)
    assert picture(quick) == picture(full)
    clock.now += DELAY_S + 1
    assert list(released(quick, clock)) == list(released(full, clock))
    assert quick.overlay_snapshot() == full.overlay_snapshot()
    return quick, full


def test_a_start_from_the_snapshot_is_the_full_replay_between_hands_and_mid_hand(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    live_dir = tmp_path / "live"
    live_dir.mkdir(mode=0o700)
    live_log = EventLog(live_dir / "events.sqlite", "t1")
    live = table(live_log, clock)
    stops: list[tuple[Path, float, bool]] = []

    def stop() -> None:
        live.snapshots.flush()
        assert live.rules is not None
        here = copy_state(live_dir, tmp_path / f"stop{len(stops)}")
        stops.append((here, clock.now, live.rules.in_hand))

    play(live, clock, HANDS, seed=7, stop=stop)
    live.snapshots.close()
    assert live.hands["finished"] + live.hands["voided"] == HANDS
    assert {in_hand for _, _, in_hand in stops} == {True, False}
    from_snapshot = 0
    for state, at, _ in stops:
        later = FakeClock()
        later.now = at + 5.0  # restarted a moment later
        quick, full = same_start(state, later)
        assert full.snapshots.restored_seq == 0
        from_snapshot += quick.snapshots.restored_seq > 0
        assert quick.replayed + quick.snapshots.restored_seq == full.replayed
    assert from_snapshot >= len(stops) - 3  # all but the first hand's stops
    live_log.close()


@pytest.fixture
def night(tmp_path: Path) -> tuple[Path, float]:
    """A state directory of a few hands, stopped mid-hand, with its snapshots."""
    clock = FakeClock()
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    log = EventLog(state / "events.sqlite", "t1")
    app = table(log, clock)
    play(app, clock, 4, seed=3, stop=lambda: None)
    rules = app.rules
    assert rules is not None and rules.in_hand
    rules.tick()
    app.snapshots.close()
    log.close()
    return state, clock.now + 5.0


def later(at: float) -> FakeClock:
    clock = FakeClock()
    clock.now = at
    return clock


def test_a_damaged_snapshot_is_skipped_with_a_log_line_and_the_older_one_used(
    night: tuple[Path, float], caplog: pytest.LogCaptureFixture
) -> None:
    state, at = night
    (newest,), (older,) = sql(state, "SELECT seq FROM snapshots ORDER BY seq DESC")
    sql(state, "UPDATE snapshots SET state = replace(state, 'P1', 'P9') WHERE seq = ?", newest)
    with caplog.at_level(logging.WARNING):
        quick, _ = same_start(state, later(at))
    assert f"the snapshot as of input {newest} is not used: it does not verify" in caplog.text
    assert quick.snapshots.restored_seq == older


def test_every_snapshot_damaged_means_a_full_replay(
    night: tuple[Path, float], caplog: pytest.LogCaptureFixture
) -> None:
    state, at = night
    sql(state, "UPDATE snapshots SET digest = 'x'")
    with caplog.at_level(logging.WARNING):
        quick, _ = same_start(state, later(at))
    assert caplog.text.count("is not used: it does not verify") == 2
    assert quick.snapshots.restored_seq == 0


def test_a_snapshot_of_another_set_up_is_not_restored(
    night: tuple[Path, float], caplog: pytest.LogCaptureFixture
) -> None:
    state, at = night
    with caplog.at_level(logging.WARNING):
        quick, _ = same_start(state, later(at), delay_s=DELAY_S * 2)  # the config changed
    assert "it was taken with another table set-up" in caplog.text
    assert quick.snapshots.restored_seq == 0


def test_a_snapshot_that_fails_half_way_leaves_no_trace(
    night: tuple[Path, float], caplog: pytest.LogCaptureFixture
) -> None:
    state, at = night
    log = EventLog(state / "events.sqlite", "t1")
    newest = log.latest_snapshot(SNAPSHOT_FORMAT)
    assert newest is not None
    broken = newest.state | {"desk": newest.state["desk"] | {"table": {"players": "?"}}}
    seq = log.last_seq  # the last input (the night may end as the newest was taken)
    log.save_snapshot(seq, SNAPSHOT_FORMAT, broken)  # verifies; the intake restores
    log.close()
    with caplog.at_level(logging.WARNING):
        quick, _ = same_start(state, later(at))
    assert f"the snapshot as of input {seq} is not used" in caplog.text
    assert quick.snapshots.restored_seq == 0


def test_the_table_stores_a_snapshot_as_each_hand_starts(tmp_path: Path) -> None:
    clock = FakeClock()
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    log = EventLog(state / "events.sqlite", "t1")
    app = table(log, clock)
    starts: list[int] = []

    def stop() -> None:
        assert app.rules is not None
        if app.rules.in_hand and app.rules.hand_number not in starts:
            starts.append(app.rules.hand_number)
            app.snapshots.flush()
            found = log.latest_snapshot(SNAPSHOT_FORMAT)
            assert found is not None
            assert found.state["desk"]["hands"] == list(app.hands.values())
            assert found.state["desk"]["table"]["hand_number"] == app.rules.hand_number - 1

    play(app, clock, 3, seed=5, stop=stop)
    app.snapshots.close()
    assert app.snapshots.written >= 4  # hands 1 to 4 started
    log.close()
    assert sql(state, "SELECT count(*) FROM snapshots") == [(2,)]  # the newest two
