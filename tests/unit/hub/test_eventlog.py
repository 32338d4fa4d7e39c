"""The event log: append-only, in order, durable across a reopen, private — and the hub's
state after a replay is the state live processing reached. The tests that take
``log_place`` run on both backends (a SQLite file, then PostgreSQL); the file's own
properties are SQLite's."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltwire.deck import simulated_deck
from hub.adapters.eventlog.store import EventLog
from hub.app.errors import EventLogError
from hub.app.ports import EventStore
from hub.app.records import InputKind
from hub.app.table_app import TableApp
from hub.app.table_console import TableConsole
from hub.config import PlayerSettings, RulesSettings
from hub.rules.procedure import Act, ConsoleAction, DeclareMisdeal, ShowHand, UndoAction
from tests.support.clocks import FakeClock
from tests.support.eventlogs import LogPlace
from tests.support.service import hub_service

DECK = simulated_deck()
CARDS = ["As", "Kd", "7c", "Ah", "Kc", "2d", "Qs", "Jh", "3c", "9d", "4s", "5h"]
READERS = ["seat2", "seat5", "seat7", "board", "burn", "muck"]
BOGUS = "04DEADBEEF0000"


def build(
    log: EventStore | None,
    clock: FakeClock,
    *,
    rules: bool = True,
    big_blind: int = 10,
    overlay_delay_s: float = 0,
) -> tuple[TableApp, TableConsole | None]:
    settings = None
    if rules:
        players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (2, 5, 7)]
        settings = RulesSettings(players=players, big_blind=big_blind)
    svc = hub_service(clock, log=log, rules=settings, overlay_delay_s=overlay_delay_s)
    return svc, svc.rules


def message(reader: str, seq: int, uids: list[str], node: str = "n1") -> tuple[str, bytes]:
    body = {"v": 1, "node": node, "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    return f"feltwire/v1/t1/node/{node}/reader/{reader}/tags", json.dumps(body).encode()


def _without_hub_alerts(view: dict[str, Any]) -> dict[str, Any]:
    """A view's alert list without the alerts the hub raised itself (security, the event
    log: ``id`` None): they are news of the live run, not inputs, so no replay repeats them."""
    # the delay's status (how many frames it holds, when the next is due) counts the live
    # run's own news too (its alerts, held like any frame), which no replay holds; the
    # frames released are compared after the delay (``_released``)
    view = {k: v for k, v in view.items() if k not in ("held", "next_release_s")}
    if "alerts" in view:
        view = view | {"alerts": [a for a in view["alerts"] if a.get("id") is not None]}
    if isinstance(view.get("rules"), dict):
        view = view | {"rules": _without_hub_alerts(view["rules"])}
    return view


def state(svc: TableApp, table: TableConsole | None) -> dict[str, Any]:
    """Everything a restart must bring back."""
    out: dict[str, Any] = {
        "presence": dict(svc.intake.presence.snapshot()),
        "public": _without_hub_alerts(svc.public_snapshot()),
        "overlay": svc.overlay_snapshot(),
        "lights": svc.feeds.lights.current(),
        "changes": svc.changes,
        "last_seq": dict(svc.intake.ingest._last_seq),
        "buttons": {k: v for k, v in svc.counters.items() if k.startswith("button.")},
    }
    if table is not None:
        desk = table.desk
        hand = desk.monitor.hand if desk.monitor is not None else None
        out |= {
            "rules": _without_hub_alerts(table.public_state()),
            "stacks": {s: (p.stack, p.pending) for s, p in desk.table.players.items()},
            "finished": (desk.hands_finished, desk.hands_voided),
            "alerts": {n: [a.as_dict() for a in al] for n, al in desk.alerts_by_hand.items()},
            "hand": None if hand is None else (hand.phase, hand.pot_total, hand.actor),
        }
    return out


def test_appends_read_back_in_order_and_survive_a_reopen(log_place: LogPlace) -> None:
    log = log_place.open()
    assert log.last_seq == 0 and log.origin is None and log.last_t is None
    for i in range(5):
        rec = log.append(InputKind.TICK, {"i": i}, 100.0 + i)
        assert rec.seq == i + 1
    origin = log.origin
    log.close()
    again = log_place.open()
    assert (again.last_seq, again.origin, again.last_t) == (5, origin, 104.0)
    again.append(InputKind.CONSOLE, {"type": "UndoAction"}, 200.0)
    got = [(r.seq, r.t, r.kind, r.payload) for r in again.records()]
    assert got == [(i + 1, 100.0 + i, InputKind.TICK, {"i": i}) for i in range(5)] + [
        (6, 200.0, InputKind.CONSOLE, {"type": "UndoAction"})
    ]
    assert [r.seq for r in again.records(after=4)] == [5, 6]
    again.close()


# The file's own properties (its modes, SQLite's lock, the WAL): SQLite's only. The
# PostgreSQL log's counterparts are in test_eventlog_pg.py.


def test_the_file_is_private_and_append_only(tmp_path: Path) -> None:
    path = tmp_path / "state" / "events.sqlite"
    log = EventLog(path, "t1")
    log.append(InputKind.INVENTORY, {"cards": ["As"]}, 1.0)
    files = [p for p in path.parent.iterdir() if p.name.startswith("events.sqlite")]
    assert len(files) >= 2  # the database and its WAL
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    log.close()
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET payload = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_a_looser_existing_file_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    EventLog(path, "t1").close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_one_log_per_table_and_one_hub_per_log(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    log = EventLog(path, "t1")
    log.append(InputKind.TICK, {}, 1.0)
    with pytest.raises(EventLogError, match="locked"):
        EventLog(path, "t1")  # a second hub on the same log
    log.close()
    with pytest.raises(EventLogError, match="table 't1'"):
        EventLog(path, "t2")


def test_refused_messages_are_not_inputs() -> None:
    log = EventLog.memory("t1")
    svc, _ = build(log, FakeClock(), rules=False)
    svc.handle_message(*message("seat3", 5, [DECK.uid_for("As")]))
    svc.handle_message(*message("seat3", 5, [DECK.uid_for("As")]))  # duplicate
    svc.handle_message(*message("seat3", 4, []))  # stale
    svc.handle_message("feltwire/v1/t1/node/n1/reader/seat3/tags", b"not json")  # malformed
    svc.handle_message(*message("up9", 6, []))  # not an antenna of this table
    svc.handle_message("feltwire/v1/t1/node/n1/reader/seat3/tags", b"x" * 5000)  # oversized
    svc.handle_message("feltwire/v1/t1/node/n1/button", b'{"v": 2}')  # malformed button
    press = b'{"v": 1, "node": "n1", "button": "undo", "ts": 0}'
    svc.handle_message("feltwire/v1/t1/node/n1/button", press)
    assert svc.counters["rejected"] == 4
    kinds = [(r.kind, r.payload.get("seq")) for r in log.records()]
    assert kinds == [(InputKind.INVENTORY, 5), (InputKind.BUTTON, None)]


def test_replay_sends_nothing_to_the_broker_but_the_lights_are_right() -> None:
    log = EventLog.memory("t1")
    clock = FakeClock()
    live, rules = build(log, clock)
    assert rules is not None and rules.desk.setup is not None
    sb, _bb, _button = rules.desk.setup.seats
    seq = 0
    for _ in range(2):
        for seat in rules.desk.setup.seats:
            seq += 1
            clock.now += 1
            card = CARDS[seq - 1]
            on = [DECK.uid_for(c) for c in CARDS[:seq] if CARDS.index(c) % 3 == (seq - 1) % 3]
            live.handle_message(*message(f"seat{seat}", seq, sorted(on)))
    clock.now += 1
    step = rules.console(ConsoleAction(sb, Act.CALL, 0.0))  # out of turn: an alert
    assert step is not None and step.alerts and card
    clock.now += 100
    live.snapshots.flush()
    again, rules2 = build(log, clock)
    assert again.has_history and rules2 is not None and not rules2.desk.opened
    assert again.replay() == log.last_seq - again.snapshots.restored_seq  # the hand's inputs
    assert again.snapshots.restored_seq == 1  # the table opened and hand 1 started: stored
    assert again.outgoing.empty()  # no alert, no light command went out again
    assert again.light_messages() == live.light_messages()
    assert state(again, rules2) == state(live, rules)


def test_replay_refuses_a_log_of_other_stakes() -> None:
    log = EventLog.memory("t1")
    build(log, FakeClock())
    again, _ = build(log, FakeClock(), big_blind=20)
    with pytest.raises(EventLogError, match="big_blind"):
        again.replay()


# ------------------------------------------------------------- replay == live, any inputs

ops = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.sampled_from(READERS), st.sampled_from(CARDS)),
        st.tuples(st.just("take"), st.sampled_from(READERS), st.sampled_from(CARDS)),
        st.tuples(st.just("bogus"), st.sampled_from(READERS), st.booleans()),
        st.tuples(st.just("act"), st.sampled_from([2, 5, 7]), st.sampled_from(list(Act))),
        st.tuples(st.just("show"), st.sampled_from([2, 5, 7]), st.just(0)),
        st.tuples(st.just("misc"), st.sampled_from(["tick", "undo", "misdeal", "dup"]), st.just(0)),
        st.tuples(st.just("clear"), st.just(""), st.just(0)),
        st.tuples(st.just("button"), st.sampled_from(["undo", "misdeal"]), st.just(0)),
    ),
    max_size=60,
)


def drive(svc: TableApp, rules: TableConsole | None, clock: FakeClock, script: list[Any]) -> None:
    """Play a script of table motions and console inputs into a live hub."""
    on: dict[str, set[str]] = {r: set() for r in READERS}
    bogus: dict[str, bool] = dict.fromkeys(READERS, False)
    seq = 0

    def report(reader: str, resend: bool = False) -> None:
        nonlocal seq
        if not resend:
            seq += 1
        uids = sorted(DECK.uid_for(c) for c in on[reader]) + ([BOGUS] if bogus[reader] else [])
        svc.handle_message(*message(reader, seq, uids))

    for op, a, b in script:
        clock.now += 0.37
        if op == "put":
            for r in READERS:
                on[r].discard(b)  # a card lies in one place
            on[a].add(b)
            report(a)
        elif op == "take":
            on[a].discard(b)
            report(a)
        elif op == "bogus":
            bogus[a] = b
            report(a)
        elif op == "clear":
            for r in READERS:
                on[r].clear()
                bogus[r] = False
                report(r)
        elif op == "button":
            body = {"v": 1, "node": "n1", "button": a, "ts": 0}
            svc.handle_message("feltwire/v1/t1/node/n1/button", json.dumps(body).encode())
        elif rules is None:
            continue
        elif op == "deal" and rules.desk.setup is not None:  # two cards a seat, in order
            free = iter([c for c in CARDS if not any(c in cs for cs in on.values())])
            for _ in range(2):
                for seat in rules.desk.setup.seats:
                    card = next(free, None)
                    if card is not None:
                        clock.now += 0.37
                        on[f"seat{seat}"].add(card)
                        report(f"seat{seat}")
        elif op == "act":
            rules.console(ConsoleAction(a, b, 0.0, 40))
        elif op == "show":
            rules.console(ShowHand(a, 0.0))
        elif a == "tick":
            rules.tick()
        elif a == "undo":
            rules.console(UndoAction(0.0))
        elif a == "misdeal":
            rules.console(DeclareMisdeal(0.0))
        elif a == "dup":
            report("seat2", resend=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=ops, with_rules=st.booleans(), dealt=st.booleans())
def test_replayed_state_equals_live_state(script: list[Any], with_rules: bool, dealt: bool) -> None:
    log = EventLog.memory("t1")
    clock = FakeClock()
    live, rules = build(log, clock, rules=with_rules)
    drive(live, rules, clock, [("deal", "", 0)] * dealt + script)
    clock.now += 1000  # a restart later: the replay must not read the clock
    live.snapshots.flush()
    again, rules2 = build(log, clock, rules=with_rules)
    assert again.replay() == log.last_seq - again.snapshots.restored_seq
    assert again.counters.get("replay_failed", 0) == 0
    assert state(again, rules2) == state(live, rules)


def test_a_stored_log_replays_after_a_reopen(log_place: LogPlace) -> None:
    clock = FakeClock()
    log = log_place.open()
    live, rules = build(log, clock)
    script = [("put", "seat2", "As"), ("put", "seat5", "Kd"), ("put", "seat7", "7c")]
    script += [("put", "seat2", "Ah"), ("put", "seat5", "Kc"), ("put", "seat7", "2d")]
    script += [("act", 2, Act.CALL), ("act", 5, Act.CALL), ("misc", "tick", 0)]
    drive(live, rules, clock, script)
    assert rules is not None and rules.in_hand and rules.public_state()["pot"] == 30
    expected = state(live, rules)
    log.close()
    log2 = log_place.open()
    again, rules2 = build(log2, clock)
    again.replay()
    assert state(again, rules2) == expected
    log2.close()


def _released(svc: TableApp) -> list[dict[str, Any]]:
    """What the overlay's feed receives when the held frames that are due are released,
    but for the hub's own alerts (news of the live run: a replay does not repeat them)."""
    with svc.overlay.subscribe() as feed:
        svc.feeds.release_due()
        out = []
        while not feed.queue.empty():
            frame = feed.queue.get_nowait()
            if not (frame["type"] == "alert" and frame.get("id") is None):
                out.append(frame)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=ops,
    with_rules=st.booleans(),
    delay=st.sampled_from([1.0, 2.5, 6.0]),
    back=st.floats(0.0, 8.0),
)
def test_a_restart_within_the_overlay_delay_holds_back_what_the_live_hub_held(
    script: list[Any], with_rules: bool, delay: float, back: float
) -> None:
    """The hub restarts while some of the overlay's frames are still held back by the
    delay: the overlay shows the same picture now, and later releases the same frames in
    the same order, as the hub that never stopped (the replay projects only the last
    picture of the inputs whose delay has passed)."""
    log = EventLog.memory("t1")
    clock = FakeClock()
    live, rules = build(log, clock, rules=with_rules, overlay_delay_s=delay)
    drive(live, rules, clock, [("deal", "", 0)] * with_rules + script)
    clock.now += back
    again, _ = build(log, clock, rules=with_rules, overlay_delay_s=delay)
    again.replay()
    live.feeds.release_due()
    assert _without_hub_alerts(again.overlay_snapshot()) == _without_hub_alerts(
        live.overlay_snapshot()
    )
    clock.now += delay + 1
    assert _released(again) == _released(live)
    assert _without_hub_alerts(again.overlay_snapshot()) == _without_hub_alerts(
        live.overlay_snapshot()
    )
