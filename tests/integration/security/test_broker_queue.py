"""The shipped Mosquitto template keeps a flood for the hub (issue #12, item 8): a real
Mosquitto running ``systemd/mosquitto/feltwire.conf`` holds every one of 10,000 reads a
node sends while the hub's persistent session is away, and hands them over in order
when the hub is back — Mosquitto's default queue of 1,000 dropped the rest."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from feltwire.deck import simulated_deck
from feltwire.protocol import reader_tags_filter, reader_tags_topic
from tests.support.broker_checks import connect_on_hub_session, leave_hub_session
from tests.support.guarded_brokers import GuardedMosquitto, TableSecrets
from tests.support.mqtt_client import connect, wait_for

FLOOD = 10_000
DECK = simulated_deck()


@pytest.fixture
def mosquitto(table_secrets: TableSecrets, tmp_path: Path) -> Iterator[GuardedMosquitto]:
    broker = GuardedMosquitto(table_secrets, tmp_path, mutual=False)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def test_a_flood_is_kept_for_the_hub_while_it_is_away(
    mosquitto: GuardedMosquitto, table_secrets: TableSecrets
) -> None:
    # the hub's session stays while it is away: the broker queues for it
    leave_hub_session(mosquitto, table_secrets, "hub1", reader_tags_filter("table1"))

    node = connect(mosquitto, table_secrets, table_secrets.users["node1"])
    assert node.connected.is_set()
    topic = reader_tags_topic("table1", "pi1", "seat1")
    uids = [DECK.uid_for("As"), DECK.uid_for("Kd")]
    infos = []
    for seq in range(1, FLOOD + 1):
        body = {"v": 1, "node": "pi1", "seq": seq, "ts": 0, "reader": "seat1", "uids": uids}
        infos.append(node.paho.publish(topic, json.dumps(body).encode(), qos=1))
    for info in infos:
        info.wait_for_publish(timeout=30)
    node.close()

    back = connect_on_hub_session(mosquitto, table_secrets, "hub1")
    try:
        assert back.connected.is_set()
        wait_for(lambda: len(back.messages) >= FLOOD, 60)
        seqs = [json.loads(payload)["seq"] for _, payload in back.messages]
        assert len(seqs) == FLOOD, f"{FLOOD - len(seqs)} of {FLOOD} reads dropped"
        assert seqs == list(range(1, FLOOD + 1))  # each once, in order
    finally:
        back.close()
    assert (
        "messages are being dropped" not in (mosquitto.config.parent / "mosquitto.log").read_text()
    )
