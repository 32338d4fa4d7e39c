"""The rules' ticks: a tick is logged only when time passing changes the hand (a departure
or a doubled card becoming certain, an alert's red light going back). An idle running hand
writes nothing to the event log, and the table ends up exactly where logging every tick
took it — live, on the feeds, in the lights, and after a replay."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltwire.deck import simulated_deck
from hub.adapters.eventlog.store import EventLog
from hub.app.feeds import Subscription
from hub.app.records import InputKind
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from hub.rules.procedure import Act, ConsoleAction
from tests.support.clocks import FakeClock
from tests.support.service import hub_service

DECK = simulated_deck()
SEATS = (2, 5, 7)
CARDS = ["As", "Kd", "7c", "Ah", "Kc", "2d", "Qs", "Jh", "3c", "9d", "4s", "5h"]
READERS = ["seat2", "seat5", "seat7", "board", "burn", "muck"]


def build(log: EventLog, clock: FakeClock) -> TableApp:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in SEATS]
    return hub_service(clock, log=log, rules=RulesSettings(players=players))


class Dealer:
    """Lays and lifts cards at one table (its node's reads, in order)."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.seq = 0
        self.on: dict[str, set[str]] = {r: set() for r in READERS}

    def report(self, reader: str) -> None:
        self.seq += 1
        uids = sorted(DECK.uid_for(c) for c in self.on[reader])
        body = {"v": 1, "node": "n1", "seq": self.seq, "ts": 0, "reader": reader, "uids": uids}
        topic = f"feltwire/v1/t1/node/n1/reader/{reader}/tags"
        self.app.handle_message(topic, json.dumps(body).encode())

    def put(self, reader: str, card: str) -> None:
        for cards in self.on.values():
            cards.discard(card)
        self.on[reader].add(card)
        self.report(reader)

    def take(self, reader: str, card: str) -> None:
        self.on[reader].discard(card)
        self.report(reader)

    def deal(self) -> None:
        """Two hole cards to every seat in the hand, one round after another."""
        desk = self.app.desk
        assert desk is not None and desk.setup is not None
        cards = iter(CARDS)
        for _ in range(2):
            for seat in desk.setup.seats:
                self.put(f"seat{seat}", next(cards))


def ticks(log: EventLog) -> int:
    return sum(rec.kind is InputKind.TICK for rec in log.records())


def test_an_idle_running_hand_writes_nothing_to_the_log() -> None:
    clock = FakeClock()
    log = EventLog.memory("t1")
    app = build(log, clock)
    Dealer(app).deal()
    rules = app.rules
    assert rules is not None and rules.in_hand
    logged = log.last_seq
    with app.public.subscribe() as public:
        for _ in range(40):  # ten seconds of the running hub's 0.25-s ticks
            clock.now += 0.25
            assert rules.tick() is None
        assert public.queue.empty()
    assert log.last_seq == logged
    assert rules.in_hand and rules.public_state()["acting"] is not None  # waits for a bet


def test_a_tick_that_makes_a_departure_certain_is_logged_and_replays_the_same() -> None:
    clock = FakeClock()
    log = EventLog.memory("t1")
    app = build(log, clock)
    dealer = Dealer(app)
    dealer.deal()
    rules = app.rules
    assert rules is not None
    clock.now += 1
    card = min(dealer.on["seat5"])
    dealer.take("seat5", card)  # a hole card leaves its seat: gone for good only later
    logged = log.last_seq
    clock.now += 0.25
    assert rules.tick() is None and log.last_seq == logged  # within the debounce window
    clock.now += 0.5
    step = rules.tick()
    assert step is not None and [a.code.value for a in step.alerts] == ["cards_left_seat"]
    assert log.last_seq == logged + 1 and ticks(log) == 1
    clock.now += 0.25
    assert rules.tick() is not None  # the alert's red light on seat 5 goes back
    assert app.feeds.lights.current()[5] != "error"
    clock.now += 0.25
    assert rules.tick() is None and ticks(log) == 2
    alerts = [a["code"] for a in rules.public_state()["alerts"]]
    assert alerts == ["cards_left_seat"]
    again = build(log, FakeClock(clock.now + 100))
    assert again.replay() + again.snapshots.restored_seq == log.last_seq  # from a snapshot
    assert again.rules is not None
    assert again.rules.public_state() == rules.public_state()
    assert again.feeds.lights.current() == app.feeds.lights.current()


# ----------------------------------------------- skipping a tick that changes nothing


def every_tick(app: TableApp, clock: FakeClock) -> None:
    """The tick as it was before a tick that changes nothing was skipped: logged and
    applied whenever a hand runs."""
    desk = app.desk
    assert desk is not None
    desk.poll_clock(clock.now)
    if desk.in_hand:
        app.record(InputKind.TICK, {}, clock.now)


def drain(sub: Subscription) -> list[Any]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


def outgoing(app: TableApp) -> list[Any]:
    out = []
    while not app.outgoing.empty():
        out.append(app.outgoing.get_nowait())
    return out


def picture(app: TableApp) -> dict[str, Any]:
    rules = app.rules
    assert rules is not None
    return {
        "public": app.public_snapshot(),
        "overlay": app.overlay_snapshot(),
        "lights": app.feeds.lights.current(),
        "console": rules.console_state(),
        "finished": (rules.desk.hands_finished, rules.desk.hands_voided),
        "alerts": {n: [a.as_dict() for a in al] for n, al in rules.desk.alerts_by_hand.items()},
    }


motions = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.sampled_from(READERS), st.sampled_from(CARDS)),
        st.tuples(st.just("take"), st.sampled_from(READERS), st.sampled_from(CARDS)),
        st.tuples(st.just("act"), st.sampled_from(SEATS), st.sampled_from(list(Act))),
        st.tuples(st.just("wait"), st.sampled_from([0.1, 0.25, 0.45, 0.6, 1.5]), st.just("")),
        st.tuples(st.just("clear"), st.just(""), st.just("")),
    ),
    max_size=50,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=motions, dealt=st.booleans())
def test_skipping_the_ticks_that_change_nothing_changes_nothing(
    script: list[Any], dealt: bool
) -> None:
    """The same motions, ticked every 0.25 s of waiting, at two tables: one logs every
    tick (as before), one only those that change the hand. Both show the same on every
    feed, send the same lights, and end in the same state; so does the replay of the
    shorter log."""
    clock = FakeClock()
    logs = EventLog.memory("t1"), EventLog.memory("t1")
    apps = build(logs[0], clock), build(logs[1], clock)
    dealers = Dealer(apps[0]), Dealer(apps[1])
    with apps[0].public.subscribe() as pub0, apps[1].public.subscribe() as pub1:
        for dealer in dealers if dealt else ():
            dealer.deal()
        for op, a, b in script:
            if op == "wait":
                end = clock.now + a
                while clock.now + 0.25 <= end:
                    clock.now += 0.25
                    every_tick(apps[0], clock)
                    assert apps[1].rules is not None
                    apps[1].rules.tick()
                clock.now = end
                continue
            clock.now += 0.37
            for app, dealer in zip(apps, dealers, strict=True):
                if op == "put":
                    dealer.put(a, b)
                elif op == "take":
                    dealer.take(a, b)
                elif op == "clear":
                    for reader in READERS:
                        dealer.on[reader].clear()
                        dealer.report(reader)
                else:
                    assert app.rules is not None
                    app.rules.console(ConsoleAction(a, b, 0.0, 40))
            assert drain(pub0) == drain(pub1)
            assert outgoing(apps[0]) == outgoing(apps[1])
        assert drain(pub0) == drain(pub1)
        assert outgoing(apps[0]) == outgoing(apps[1])
    assert picture(apps[0]) == picture(apps[1])
    assert ticks(logs[1]) <= ticks(logs[0])
    again = build(logs[1], FakeClock(clock.now + 100))
    assert again.replay() + again.snapshots.restored_seq == logs[1].last_seq
    assert rules_alerts(picture(again)) == rules_alerts(picture(apps[1]))
    assert again.feeds.lights.current() == apps[1].feeds.lights.current()


def rules_alerts(pic: dict[str, Any]) -> dict[str, Any]:
    """A picture without the alerts the hub raised itself (``id`` None: news of the live
    run, which no replay repeats)."""
    rules = pic["public"]["rules"]
    kept = [a for a in rules["alerts"] if a.get("id") is not None]
    console = pic["console"] | {"alerts": [a for a in pic["console"]["alerts"] if a["id"]]}
    return pic | {"public": pic["public"] | {"rules": rules | {"alerts": kept}}, "console": console}
