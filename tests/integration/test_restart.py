"""The event log is the truth: a hub killed mid-hand comes back where it was.

``feltwire hub`` runs as a real subprocess against a Mosquitto the test starts, with its
event log in a state directory under ``tmp_path``. A node (paho transport, inventory
publisher, simulated antennas) deals a hand; the dealer's console actions go through
``POST /api/console/action``. Mid-hand the hub gets ``kill -9``; a new hub process on the
same state directory replays the log: same hand, same acting seat, same pot, same stacks,
and the hand plays on to the right pot award; stopped and started once more, the hub is
where the hand left it. Twice: with the event log in SQLite (the state directory) and in
PostgreSQL (``event_log_url``, a database of the tests' own server). And once moved: a
hub on SQLite stopped mid-hand, its log copied into PostgreSQL (``feltwire event-log
copy``), started on it.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from table_node.simulated import SimulatedTable
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer
from tests.support.table_procs import READERS, HubProc, feltwire, log_rows, write_hub_config

DECK = simulated_deck()
PLAYERS = [(1, "Ann"), (2, "Bob"), (3, "Cat")]


class Dealer:
    """The node: simulated antennas swept into an inventory publisher over paho."""

    def __init__(self, broker_url: str) -> None:
        self.table = SimulatedTable(READERS)
        self.transport = PahoTransport(MqttClientSettings(url=broker_url), table="t1", node="n1")
        assert self.transport.wait_connected(10)
        self.publisher = InventoryPublisher(table="t1", node="n1", transport=self.transport)

    def put(self, reader: str, card: str) -> None:
        self.table.reader(reader).place(DECK.uid_for(card))
        self.publisher.update(reader, self.table.reader(reader).inventory())

    def close(self) -> None:
        self.transport.close()


def rules(snap: dict[str, Any] | None) -> dict[str, Any]:
    assert snap is not None
    out: dict[str, Any] = snap["rules"]
    return out


def counts(snap: dict[str, Any] | None) -> dict[str, int]:
    assert snap is not None
    return {a["reader"]: a["count"] for a in snap["antennas"]}


@pytest.fixture(params=["sqlite", "postgresql"])
def log_url(request: pytest.FixtureRequest) -> str | None:
    """The hub's ``event_log_url``: None (SQLite in the state directory), then a fresh
    PostgreSQL database."""
    if request.param == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def rig(
    tmp_path: Path, mosquitto: MosquittoProcess, log_url: str | None
) -> Iterator[tuple[HubProc, Dealer]]:
    web_port = free_port()
    top = "" if log_url is None else f'event_log_url = "{log_url}"\n'
    hub = HubProc(
        write_hub_config(tmp_path, mosquitto.url, web_port, players=PLAYERS, top=top),
        web_port,
        tmp_path / "hub.log",
    )
    hub.start()
    dealer = Dealer(mosquitto.url)
    try:
        yield hub, dealer
    finally:
        dealer.close()
        hub.stop()


def test_a_hub_killed_mid_hand_replays_its_log_and_the_hand_continues(
    rig: tuple[HubProc, Dealer], tmp_path: Path, log_url: str | None
) -> None:
    hub, dealer = rig
    first = hub.until(lambda s: rules(s)["in_hand"], what="hand 1 to start")
    sb, bb, button = rules(first)["seats"]  # three-handed: the button acts first preflop
    hole = iter(["As", "Kd", "7c", "Ah", "Kc", "2d"])
    for _ in range(2):
        for seat in (sb, bb, button):
            dealer.put(f"seat{seat}", next(hole))
    hub.until(
        lambda s: rules(s)["acting"] == button and counts(s)[f"seat{sb}"] == 2,
        what="the deal to be seen",
    )
    hub.until(lambda s: all(counts(s)[f"seat{n}"] == 2 for n in (1, 2, 3)), what="every card")
    assert hub.act(button, "call")["accepted"]
    assert hub.act(sb, "call")["accepted"]
    refused = hub.act(button, "check")  # out of turn: refused, alerted, logged
    assert not refused["accepted"] and refused["alerts"]
    before = hub.until(lambda s: rules(s)["acting"] == bb, what="the big blind's turn")
    assert rules(before)["pot"] == 30

    log_file = tmp_path / "state" / "events.sqlite"
    if log_url is None:
        assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
    else:  # every input in the database, none in a file
        assert not log_file.exists() and logged_inputs(log_url) > 0
    hub.kill9()
    assert hub.public() is None  # really gone
    hub.start()

    after = hub.until(lambda s: rules(s)["in_hand"], what="the replayed hand")
    keys = ("hand", "acting", "pot", "button", "seats", "folded", "all_in", "alerts", "players")
    for key in keys:
        assert rules(after)[key] == rules(before)[key], key
    assert rules(after)["hand"] == 1 and rules(after)["acting"] == bb
    assert counts(after) == counts(before)
    stats = httpx.get(f"{hub.url}/api/stats").json()["counters"]
    assert stats["replayed"] > 0 and stats.get("replay_failed", 0) == 0
    assert stats.get("accepted", 0) == 0  # the broker's retained reads are duplicates now

    # the hand plays on: the big blind checks, the flop comes, the small blind bets, both fold
    assert hub.act(bb, "check")["accepted"]
    dealer.put("burn", "3h")
    for card in ("Qs", "Jh", "4c"):
        dealer.put("board", card)
    hub.until(lambda s: rules(s)["acting"] == sb, what="the flop to be dealt")
    assert hub.act(sb, "bet", 20)["accepted"]
    assert hub.act(bb, "fold")["accepted"]
    last = hub.act(button, "fold")
    # the pot is paid; the hand stays open until the uncalled winner shows or mucks
    assert last["accepted"] and last["in_hand"]  # R-SHOW-3
    assert not hub.console("muck", {"seat": sb})["in_hand"]
    awards = [e for e in last["events"] if e["event"] == "PotAwarded"]
    assert [(a["amount"], [p["seat"] for p in a["payouts"]]) for a in awards] == [(30, [sb])]
    done = hub.until(lambda s: rules(s)["awards"], what="the pot award")
    assert rules(done)["hand"] == 1 and not rules(done)["in_hand"]
    assert rules(done)["awards"] == [{"text": awards[0]["text"], "message": awards[0]["message"]}]
    if log_url is None:
        assert os.path.getsize(log_file) > 0
    else:
        assert not log_file.exists()

    # stopped and started again: the hand number and every stack as the hand left them
    inputs = None if log_url is None else logged_inputs(log_url)
    hub.stop()
    hub.start()
    again = hub.until(lambda s: rules(s)["awards"], what="the hub after its second start")
    for key in ("hand", "in_hand", "players", "awards", "button"):
        assert rules(again)[key] == rules(done)[key], key
    stacks = {p["seat"]: p["stack"] for p in rules(again)["players"]}
    assert stacks == {sb: 1000 + 20, bb: 1000 - 10, button: 1000 - 10}
    if log_url is not None:
        assert logged_inputs(log_url) >= (inputs or 0)


def test_a_table_moved_mid_hand_from_sqlite_to_postgresql_goes_on_where_it_was(
    tmp_path: Path, mosquitto: MosquittoProcess, postgres: PostgresServer
) -> None:
    """From one Pi to a room (docs/scaling.md): a hub on SQLite is stopped mid-hand, its
    log copied with ``feltwire event-log copy`` (refused while the hub runs), the config
    given ``event_log_url``; the hub comes back on PostgreSQL with the same hand, seat to
    act, pot and stacks — from the copied snapshot — and the hand plays on."""
    url = postgres.new_database()
    web_port = free_port()
    config = write_hub_config(tmp_path, mosquitto.url, web_port, players=PLAYERS)
    hub = HubProc(config, web_port, tmp_path / "hub.log")
    hub.start()
    dealer = Dealer(mosquitto.url)
    try:
        first = hub.until(lambda s: rules(s)["in_hand"], what="hand 1 to start")
        sb, bb, button = rules(first)["seats"]
        hole = iter(["As", "Kd", "7c", "Ah", "Kc", "2d"])
        for _ in range(2):
            for seat in (sb, bb, button):
                dealer.put(f"seat{seat}", next(hole))
        hub.until(lambda s: all(counts(s)[f"seat{n}"] == 2 for n in (1, 2, 3)), what="cards")
        assert hub.act(button, "call")["accepted"]
        assert hub.act(sb, "call")["accepted"]
        before = hub.until(lambda s: rules(s)["acting"] == bb, what="the big blind's turn")
        assert rules(before)["pot"] == 30

        running = feltwire("event-log", "copy", "--config", str(config), "--to", url)
        assert running.returncode == 1 and "stop it first" in running.stdout, running
        hub.stop()
        state = tmp_path / "state"
        rows = log_rows(state / "events.sqlite")
        copied = feltwire("event-log", "copy", "--config", str(config), "--to", url, "--json")
        assert copied.returncode == 0, copied
        report = json.loads(copied.stdout)
        assert report["status"] == "copied" and report["inputs"] == len(rows)
        assert report["snapshots"], report  # the state at the hand's start, for a quick start
        aside = tmp_path / "sqlite-aside"  # the hub must not need the SQLite files any more
        aside.mkdir()
        for file in state.glob("events.sqlite*"):
            file.rename(aside / file.name)
        config.write_text(f'event_log_url = "{url}"\n' + config.read_text())
        hub.start()

        after = hub.until(lambda s: rules(s)["in_hand"], what="the hand on PostgreSQL")
        keys = ("hand", "acting", "pot", "button", "seats", "folded", "all_in", "players")
        for key in keys:
            assert rules(after)[key] == rules(before)[key], key
        assert counts(after) == counts(before)
        stats = httpx.get(f"{hub.url}/api/stats").json()["counters"]
        assert 0 < stats["replayed"] < len(rows)  # from the copied snapshot on
        assert stats.get("replay_failed", 0) == 0
        assert not list(state.glob("events.sqlite*"))

        assert hub.act(bb, "check")["accepted"]
        dealer.put("burn", "3h")
        for card in ("Qs", "Jh", "4c"):
            dealer.put("board", card)
        hub.until(lambda s: rules(s)["acting"] == sb, what="the flop to be dealt")
        assert hub.act(sb, "bet", 20)["accepted"]
        assert hub.act(bb, "fold")["accepted"]
        assert hub.act(button, "fold")["accepted"]
        assert not hub.console("muck", {"seat": sb})["in_hand"]
        done = hub.until(lambda s: rules(s)["awards"], what="the pot award")
        stacks = {p["seat"]: p["stack"] for p in rules(done)["players"]}
        assert stacks == {sb: 1000 + 20, bb: 1000 - 10, button: 1000 - 10}
        assert logged_inputs(url) > len(rows)  # the hand went on in the copied log
    finally:
        dealer.close()
        hub.stop()


def logged_inputs(url: str) -> int:
    """How many inputs table t1's log holds in the PostgreSQL database at ``url``."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM event_inputs WHERE table_id = 't1'").fetchone()
    assert row is not None
    return int(row[0])


def _connect_mqtt(port: int) -> socket.socket:
    """A client on the hub's embedded broker: MQTT 3.1.1 CONNECT, CONNACK read."""
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    client.sendall(bytes([0x10, 12, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 60, 0, 0]))
    assert client.recv(4)[:1] == b"\x20"  # CONNACK
    return client


def test_a_hub_killed_on_its_embedded_broker_starts_again_at_once(tmp_path: Path) -> None:
    """systemd's ``Restart=`` after a crash: the broker's connections, closed by the hub's
    side first, sit in TIME_WAIT on the broker's port for a minute; the new hub must be
    able to listen there at once (issue 15)."""
    mqtt_port, web_port = free_port(), free_port()
    config = write_hub_config(tmp_path, "", web_port, players=PLAYERS)
    config.write_text(config.read_text().replace('url = ""', f"embedded_port = {mqtt_port}"))
    hub = HubProc(config, web_port, tmp_path / "hub.log")
    hub.start()
    try:
        client = _connect_mqtt(mqtt_port)
        hub.kill9()
        assert client.recv(16) == b""  # the hub's side closed first …
        client.close()  # … so the broker's port has a connection in TIME_WAIT
        hub.start()  # fails with the hub's log if the broker cannot listen
        _connect_mqtt(mqtt_port).close()
    finally:
        hub.stop()
    assert "Address already in use" not in hub.log.read_text()
