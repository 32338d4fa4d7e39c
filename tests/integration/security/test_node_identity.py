"""A node's id is bound to its MQTT credential (issue #12, item 3), checked through a real
Mosquitto running the shipped template and through the embedded broker with the same
files, and by a real hub on top of them.

A stolen credential of node pi-south must not forge pi-north's reads: the broker drops
whatever pi-south publishes under pi-north's topics (reader inventories, buttons), a
credential made with ``--readers`` reaches only those readers, and the hub refuses a
payload that names another node than the topic it came on (``node_mismatch``) while it
goes on taking the real node's reads."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import httpx
import pytest

from feltwire.protocol import button_topic, reader_tags_filter, reader_tags_topic
from feltwire.publisher import InventoryPublisher, SeqCounter
from hub.config import TlsFiles
from hub.security.acl import Acl, read_acl_file
from tests.support.broker_checks import clients, retained_for_late_subscriber
from tests.support.guarded_brokers import Credential, Guarded, TableSecrets, add_credential
from tests.support.guarded_hub import (
    AS,
    KD,
    TOP_SEQ,
    hub_config,
    node_transport,
    running,
    url,
    wait_until,
)
from tests.support.mqtt_client import QUIET, connect, wait_for

BUTTONS = "feltwire/v1/table1/node/+/button"


@pytest.fixture(scope="module")
def board_only(secrets: TableSecrets) -> Credential:
    """Node pi-board, whose credential was given the readers ``board`` and ``burn`` only."""
    return add_credential(
        secrets, "board", "--table", "table1", "--node", "pi-board", "--readers", "board,burn"
    )


# ------------------------------------------------------------------ the broker's side


def test_a_node_cannot_publish_on_another_nodes_topics(
    broker: Guarded, secrets: TableSecrets
) -> None:
    norths_seat3 = reader_tags_topic("table1", "pi-north", "seat3")
    norths_button = button_topic("table1", "pi-north")
    with clients(broker, secrets, "hub", "north", "south") as (hub, north, south):
        assert hub.subscribe(reader_tags_filter("table1")) == [1]
        assert hub.subscribe(BUTTONS) == [1]
        south.publish(norths_seat3, b"forged", retain=True)
        south.publish(norths_button, b"forged")
        # the control: the real node gets through on the same topics
        north.publish(norths_seat3, b"genuine")
        north.publish(norths_button, b"genuine")
        assert wait_for(lambda: len([m for m in hub.messages if m[1] == b"genuine"]) == 2, 5)
        time.sleep(QUIET)
        assert not [m for m in hub.messages if m[1] == b"forged"], hub.messages
    # nor did the broker keep the forged inventory as pi-north's retained seat3
    retained = retained_for_late_subscriber(broker, secrets, "hub", reader_tags_filter("table1"))
    assert (norths_seat3, b"forged") not in retained, retained


def test_a_node_given_readers_reaches_only_those(
    broker: Guarded, secrets: TableSecrets, board_only: Credential
) -> None:
    with clients(broker, secrets, "hub", "board") as (hub, node):  # "board": board_only
        assert hub.subscribe(reader_tags_filter("table1")) == [1]
        node.publish(reader_tags_topic("table1", "pi-board", "seat3"), b"not its reader")
        node.publish(reader_tags_topic("table1", "pi-board", "burn"), b"its burn")
        node.publish(reader_tags_topic("table1", "pi-board", "board"), b"its board")
        assert wait_for(lambda: len(hub.messages) >= 2, 5)
        time.sleep(QUIET)
        assert sorted(p for _, p in hub.messages) == [b"its board", b"its burn"], hub.messages
    acl = Acl(read_acl_file(secrets.acl))
    assert acl.may_publish(board_only.username, "feltwire/v1/table1/node/pi-board/button")
    assert not acl.may_publish(board_only.username, "feltwire/v1/table1/node/pi-north/button")


# --------------------------------------------------------------------- the hub's side


async def test_a_stolen_credential_cannot_pin_another_nodes_antenna(
    broker: Guarded, secrets: TableSecrets, tmp_path: Path
) -> None:
    """pi-south's credential runs the real publisher under pi-north's id with the top
    sequence number: had the hub taken it, every later read of pi-north would be stale."""
    north_link = node_transport(broker, secrets, "north", "pi-north")
    north = InventoryPublisher(table="table1", node="pi-north", transport=north_link)
    thief_link = node_transport(broker, secrets, "south", "pi-south")
    (tmp_path / "seq").write_text(str(TOP_SEQ - 1))
    forger = InventoryPublisher(
        table="table1", node="pi-north", transport=thief_link, seq=SeqCounter(tmp_path / "seq")
    )
    config = hub_config(url(broker, secrets.users["hub"]), TlsFiles(secrets.ca))
    try:
        async with running(config) as hub:
            assert await asyncio.to_thread(north_link.wait_connected, 10)
            assert await asyncio.to_thread(thief_link.wait_connected, 10)
            await asyncio.wait_for(hub.service.subscribed.wait(), 15)
            north.update("seat3", frozenset({AS}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("As",))
            forger.update("seat3", frozenset())  # "seat 3 is empty", as pi-north, seq 2**63-1
            await wait_until(lambda: thief_link.unacknowledged == 0)
            north.update("seat3", frozenset({AS, KD}))
            await wait_until(
                lambda: set(hub.service.intake.presence.cards_on("seat3")) == {"As", "Kd"}
            )
            counters = hub.service.counters
            assert counters["accepted"] == 2 and counters.get("stale", 0) == 0, counters
            # the broker never passed it on: what came is the two reads and the two links'
            # availability (online)
            assert counters["received"] == 2 + counters["availability"], counters
            assert counters["availability"] == 2, counters
    finally:
        north_link.close()
        thief_link.close()


async def test_the_hub_refuses_a_payload_naming_another_node(
    broker: Guarded, secrets: TableSecrets, caplog: pytest.LogCaptureFixture
) -> None:
    """On its own topic pi-south may publish, but a payload that says it is pi-north's is
    refused as ``node_mismatch``; pi-north's reads go on being taken."""
    north_link = node_transport(broker, secrets, "north", "pi-north")
    north = InventoryPublisher(table="table1", node="pi-north", transport=north_link)
    south = connect(broker, secrets, secrets.users["south"])
    forged = (
        f'{{"v": 1, "node": "pi-north", "seq": {TOP_SEQ}, "ts": 0, "reader": "seat3", "uids": []}}'
    ).encode()
    caplog.set_level(logging.WARNING, logger="hub.app.ingest")
    config = hub_config(url(broker, secrets.users["hub"]), TlsFiles(secrets.ca))
    try:
        async with running(config) as hub:
            assert await asyncio.to_thread(north_link.wait_connected, 10)
            await asyncio.wait_for(hub.service.subscribed.wait(), 15)
            north.update("seat3", frozenset({AS}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("As",))
            await asyncio.to_thread(
                south.publish, reader_tags_topic("table1", "pi-south", "seat3"), forged
            )
            await wait_until(lambda: hub.service.counters.get("rejected.node_mismatch") == 1)
            north.update("seat3", frozenset({AS, KD}))
            await wait_until(
                lambda: set(hub.service.intake.presence.cards_on("seat3")) == {"As", "Kd"}
            )
            async with httpx.AsyncClient() as web:
                stats = (await web.get(f"{hub.web_url}/api/stats")).json()["counters"]
            assert stats["rejected.node_mismatch"] == 1 and stats["accepted"] == 2, stats
            assert stats.get("stale", 0) == 0, stats
            assert any(
                "node_mismatch" in r.getMessage() and "pi-north" in r.getMessage()
                for r in caplog.records
            ), [r.getMessage() for r in caplog.records]
    finally:
        north_link.close()
        south.close()
