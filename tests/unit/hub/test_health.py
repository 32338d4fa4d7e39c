"""A table's nodes and readers watched: offline and back, silent and back, the broker.

A table's application on a clock the test moves, fed the MQTT messages a node and the
broker send (an inventory, ``online``/``offline`` on the availability topic); what the
test looks at is what the dealer and the public see: the alerts, the antennas.
"""

from __future__ import annotations

import json

from feltwire.deck import simulated_uid
from hub.app.table_app import TableApp
from hub.config import PlayerSettings, RulesSettings
from tests.support.clocks import FakeClock
from tests.support.service import hub_service

AS, KD = simulated_uid(51), simulated_uid(45)
AVAILABILITY = "feltwire/v1/t1/node/n1/availability"


def inv(
    reader: str,
    seq: int,
    uids: list[str],
    refresh_s: float | None = None,
    keepalive_s: int | None = None,
) -> tuple[str, bytes]:
    body = {"v": 1, "node": "n1", "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    if refresh_s is not None:
        body["refresh_s"] = refresh_s
    if keepalive_s is not None:
        body["keepalive_s"] = keepalive_s
    return f"feltwire/v1/t1/node/n1/reader/{reader}/tags", json.dumps(body).encode()


def rules() -> RulesSettings:
    players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
    return RulesSettings(players=players, tick_seconds=0)


def codes(alerts: list[dict[str, object]]) -> list[object]:
    return [a["code"] for a in alerts]


def test_an_offline_node_is_said_its_antennas_unknown_and_the_rules_see_no_card_leave() -> None:
    clock = FakeClock()
    svc = hub_service(clock, rules=rules())
    svc.handle_message(AVAILABILITY, b"online")
    svc.handle_message(*inv("seat1", 1, [AS]))
    assert svc.rules is not None
    with svc.public.subscribe() as pub:
        clock.now += 1
        svc.handle_message(AVAILABILITY, b"offline")
        frames = [pub.queue.get_nowait() for _ in range(pub.queue.qsize())]
    alert = next(f for f in frames if f["type"] == "alert")
    assert alert["code"] == "node_offline" and alert["node"] == "n1"
    assert alert["readers"] == ["seat1"] and "As" not in json.dumps(alert)
    assert not [f for f in frames if f["type"] == "antenna"]  # nothing changed on it
    snap = next(a for a in svc.public_snapshot()["antennas"] if a["reader"] == "seat1")
    assert snap == {"reader": "seat1", "kind": "seat", "count": 0, "unknown": True}
    # the rules still hold the card where it lay; nothing says it left
    assert svc.intake.presence.cards_on("seat1") == ("As",)
    said = codes(svc.rules.console_state()["alerts"])
    assert "node_offline" in said and "cards_left_seat" not in said
    assert svc.health()["nodes"] == {"n1": "offline"}


def test_the_node_back_online_clears_its_alert_and_shows_its_cards_again() -> None:
    clock = FakeClock()
    svc = hub_service(clock, rules=rules())
    svc.handle_message(*inv("seat1", 1, [AS]))
    svc.handle_message(AVAILABILITY, b"offline")
    assert svc.rules is not None
    with svc.public.subscribe() as pub:
        svc.handle_message(AVAILABILITY, b"online")
        frames = [pub.queue.get_nowait() for _ in range(pub.queue.qsize())]
    back = next(f for f in frames if f["type"] == "alert")
    assert back["code"] == "node_online" and back["clears"] == "node_offline"
    assert back["severity"] == "info"
    seat1 = next(a for a in svc.public_snapshot()["antennas"] if a["reader"] == "seat1")
    assert seat1 == {"reader": "seat1", "kind": "seat", "count": 1}
    said = codes(svc.rules.console_state()["alerts"])
    assert "node_offline" not in said and "node_online" in said
    assert svc.health()["nodes"] == {"n1": "online"}


def test_a_node_first_heard_online_raises_nothing() -> None:
    svc = hub_service(FakeClock())
    svc.handle_message(AVAILABILITY, b"online")
    assert list(svc.feeds.hub_alerts) == []


def test_a_reader_that_stops_refreshing_is_said_silent_then_back() -> None:
    clock = FakeClock()
    svc = hub_service(clock, reader_silent_s=10)
    svc.handle_message(*inv("seat2", 1, [], refresh_s=2))
    clock.now += 9.9
    svc.check_health(clock())
    assert list(svc.feeds.hub_alerts) == []
    clock.now += 0.1
    svc.check_health(clock())
    silent = list(svc.feeds.hub_alerts)
    assert codes(silent) == ["reader_silent"] and silent[0]["readers"] == ["seat2"]
    assert svc.health()["silent_readers"] == ["seat2"]
    svc.check_health(clock.now + 60)  # said once
    assert codes(list(svc.feeds.hub_alerts)) == ["reader_silent"]
    svc.handle_message(*inv("seat2", 2, [], refresh_s=2))
    assert codes(list(svc.feeds.hub_alerts)) == ["reader_back"]
    assert svc.health()["silent_readers"] == []


def test_a_slow_refresh_widens_the_window_and_changes_only_are_never_silent() -> None:
    clock = FakeClock()
    svc = hub_service(clock, reader_silent_s=10)
    svc.handle_message(*inv("seat2", 1, [], refresh_s=30))  # the window: 60 s
    svc.handle_message(*inv("seat3", 2, []))  # changes only: not watched
    clock.now += 59
    svc.check_health(clock())
    assert list(svc.feeds.hub_alerts) == []
    clock.now += 3600
    svc.check_health(clock())
    assert [a["readers"] for a in svc.feeds.hub_alerts] == [["seat2"]]


def _two_readers_until_cut(svc: TableApp, clock: FakeClock) -> None:
    """seat1 and seat2 of a node re-sending every 5 s (keep-alive 5 s), 2 s apart, the
    last at 7 s; then nothing: the node's link is cut."""
    for at, reader, seq in ((0, "seat1", 1), (2, "seat2", 2), (5, "seat1", 3), (7, "seat2", 4)):
        clock.now = 1000.0 + at
        svc.handle_message(*inv(reader, seq, [], refresh_s=5, keepalive_s=5))


def test_a_node_cut_off_is_said_offline_not_its_readers_silent() -> None:
    # the broker's will may come 1.5 × 5 s after the node's last packet, later than
    # seat1's window (15 s after 5 s): a node gone quiet as a whole waits for it
    clock = FakeClock()
    svc = hub_service(clock, reader_silent_s=15)
    _two_readers_until_cut(svc, clock)
    for clock.now in (1020.0, 1022.0, 1024.4):
        svc.check_health(clock())
        assert list(svc.feeds.hub_alerts) == [], clock.now
    svc.handle_message(AVAILABILITY, b"offline")  # the will
    alerts = list(svc.feeds.hub_alerts)
    assert codes(alerts) == ["node_offline"] and alerts[0]["readers"] == ["seat1", "seat2"]
    svc.check_health(clock.now + 600)
    assert codes(list(svc.feeds.hub_alerts)) == ["node_offline"]


def test_a_node_that_sends_nothing_and_keeps_its_link_has_its_readers_said_silent() -> None:
    # no will comes (the node answers its broker's pings): once it could have come, the
    # readers are said silent — 5 s (the re-send) and 2.5 × 5 s after the node's last
    clock = FakeClock()
    svc = hub_service(clock, reader_silent_s=15)
    _two_readers_until_cut(svc, clock)
    svc.check_health(1024.4)
    assert list(svc.feeds.hub_alerts) == []
    svc.check_health(1024.5)
    assert [a["readers"] for a in svc.feeds.hub_alerts] == [["seat1"], ["seat2"]]


def test_a_reader_silent_beside_a_live_one_is_said_at_its_window() -> None:
    clock = FakeClock(1000.0)
    svc = hub_service(clock, reader_silent_s=15)
    svc.handle_message(*inv("seat1", 1, [], refresh_s=5, keepalive_s=60))
    for n, clock.now in enumerate((1002.0, 1007.0, 1012.0), start=2):
        svc.handle_message(*inv("seat2", n, [], refresh_s=5, keepalive_s=60))
        svc.check_health(clock())
    svc.check_health(1014.9)
    assert list(svc.feeds.hub_alerts) == []
    svc.check_health(1015.0)
    assert [(a["code"], a["readers"]) for a in svc.feeds.hub_alerts] == [
        ("reader_silent", ["seat1"])
    ]


def test_an_offline_nodes_readers_are_not_said_silent() -> None:
    clock = FakeClock()
    svc = hub_service(clock, reader_silent_s=10)
    svc.handle_message(*inv("seat2", 1, [], refresh_s=2))
    svc.handle_message(AVAILABILITY, b"offline")
    clock.now += 100
    svc.check_health(clock())
    assert codes(list(svc.feeds.hub_alerts)) == ["node_offline"]
    svc.handle_message(AVAILABILITY, b"online")  # a fresh window
    svc.check_health(clock())
    assert codes(list(svc.feeds.hub_alerts)) == ["node_online"]


def test_a_bad_availability_payload_is_refused_and_counted() -> None:
    svc = hub_service(FakeClock())
    svc.handle_message(AVAILABILITY, b"maybe")
    assert svc.counters["rejected.malformed"] == 1 and svc.health()["nodes"] == {}


def test_the_broker_lost_and_back_is_said_once_each() -> None:
    svc = hub_service(FakeClock())
    svc.broker_connected(False, "refused")  # never connected yet: nothing to lose
    assert list(svc.feeds.hub_alerts) == [] and svc.health()["broker"] is False
    svc.broker_connected(True)
    svc.broker_connected(False, "connection reset")
    svc.broker_connected(False, "connection refused")
    lost = list(svc.feeds.hub_alerts)
    assert codes(lost) == ["broker_lost"] and "connection reset" in str(lost[0]["message"])
    svc.broker_connected(True)
    assert codes(list(svc.feeds.hub_alerts)) == ["broker_back"]
    assert svc.health()["broker"] is True


def test_a_node_back_online_gets_every_seat_light_again() -> None:
    """A node that moves to another broker of a cluster (or restarts) finds no retained
    light there for it (a RabbitMQ node keeps retained messages to itself, and gives none
    to a wildcard subscription): the hub sends every seat's light again when it says
    ``online``, and only then."""
    clock = FakeClock()
    svc = hub_service(clock, rules=rules())
    svc.handle_message(AVAILABILITY, b"online")

    def lights_sent() -> dict[str, bytes]:
        sent = {}
        while not svc.outgoing.empty():
            topic, payload, retain = svc.outgoing.get_nowait()
            if "/light/set" in topic:
                assert retain
                sent[topic] = payload
        return sent

    lights_sent()  # what the table's opening sent
    svc.handle_message(*inv("seat1", 1, [AS]))
    lights_sent()
    svc.handle_message(AVAILABILITY, b"offline")
    assert lights_sent() == {}
    svc.handle_message(AVAILABILITY, b"online")
    again = lights_sent()
    assert again == {topic: payload for topic, payload, _ in svc.light_messages()}
    assert {f"feltwire/v1/t1/seat/{s}/light/set" for s in (1, 2, 3)} <= set(again)
