"""Issue 12, item 3 (the hub's side): one message must never pin an antenna or stall a
table, and the operator can reset a node's sequence.

``test_node_identity.py`` (next to this file) shows that one node's credential cannot speak for
another. What is left is a message on a node's own topic — its stolen credential, or
anyone on the machine of an open loopback broker (the demo) — carrying a sequence number
no node can have reached (``2**63 - 1``): the hub refuses it (``seq_jump``), says so, and
the node's later reads go on being taken, across a restart too. A count pushed far ahead
but plausibly (or a node whose count went back) makes the node's reads arrive ``stale``:
the hub tells the dealer, and an admin resets that node's sequence — logged, so a
restarted hub does the same.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.protocol import reader_tags_topic
from feltwire.publisher import InventoryPublisher, SeqCounter
from hub.app.nodes import STALE_STREAK
from hub.bootstrap import HubRuntime, start_hub
from hub.config import TlsFiles
from hub.web.auth import Role
from tests.support.guarded_brokers import Guarded, TableSecrets
from tests.support.guarded_hub import (
    AS,
    DECK,
    KD,
    TOP_SEQ,
    hub_config,
    node_transport,
    url,
    wait_until,
)
from tests.support.hub_configs import embedded_hub_config
from tests.support.room import SimulatedNode, simulated_node

QS = DECK.uid_for("Qs")


def raw_publish(port: int, topic: str, body: dict[str, Any], **login: str) -> None:
    """One QoS 1 message from a client of its own (a forger), retained like a node's."""
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id="forger")
    if login:
        client.username_pw_set(login["username"], login["password"])
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.publish(topic, json.dumps(body), qos=1, retain=True).wait_for_publish(10)
    client.loop_stop()
    client.disconnect()


async def test_a_top_sequence_on_the_nodes_own_credential_pins_nothing(
    broker: Guarded, secrets: TableSecrets, tmp_path: Path
) -> None:
    """pi-north's own (stolen) credential sends "seat 3 is empty" with seq 2**63-1 on
    pi-north's topic: refused as implausible; pi-north's next read is taken — also by a
    hub restarted on the same event log."""
    north_link = node_transport(broker, secrets, "north", "pi-north")
    thief_link = node_transport(broker, secrets, "north", "pi-north")
    (tmp_path / "seq").write_text(str(TOP_SEQ - 1))

    north = InventoryPublisher(table="table1", node="pi-north", transport=north_link)
    forger = InventoryPublisher(
        table="table1", node="pi-north", transport=thief_link, seq=SeqCounter(tmp_path / "seq")
    )
    config = hub_config(url(broker, secrets.users["hub"]), TlsFiles(secrets.ca))
    config = config.model_copy(update={"state_dir": tmp_path / "state"})
    try:
        hub = await start_hub(config)
        try:
            assert await asyncio.to_thread(north_link.wait_connected, 10)
            assert await asyncio.to_thread(thief_link.wait_connected, 10)
            await asyncio.wait_for(hub.service.subscribed.wait(), 15)
            north.update("seat3", frozenset({AS}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("As",))
            forger.update("seat3", frozenset())
            await wait_until(lambda: hub.service.counters.get("rejected.seq_jump") == 1)
            north.update("seat3", frozenset({AS, KD}))
            await wait_until(
                lambda: set(hub.service.intake.presence.cards_on("seat3")) == {"As", "Kd"}
            )
            assert hub.service.counters.get("stale", 0) == 0
            assert [a for a in hub.service.feeds.hub_alerts if a["code"] == "node_sequence"]
        finally:
            await hub.stop()
        hub = await start_hub(config)  # the forged message was never logged
        try:
            await asyncio.wait_for(hub.service.subscribed.wait(), 15)
            north.update("seat3", frozenset({KD}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("Kd",))
        finally:
            await hub.stop()
    finally:
        north_link.close()
        thief_link.close()


async def node_reads_as_on_seat1(hub: HubRuntime, sim: SimulatedNode) -> None:
    """The node reads the ace of spades on seat1; wait until the hub has it there."""
    sim.table.reader("seat1").place(AS)
    sim.node.poll_once()
    await wait_until(lambda: hub.service.intake.presence.cards_on("seat1") == ("As",))


async def forge_the_board(hub: HubRuntime, seq: int) -> None:
    """An anonymous forger on the open broker publishes the queen of spades as node n's
    board inventory, with sequence number ``seq``."""
    forged = {"v": 1, "node": "n", "seq": seq, "ts": 0, "reader": "board", "uids": [QS]}
    board = reader_tags_topic("t1", "n", "board")
    await asyncio.to_thread(raw_publish, hub.broker.port, board, forged)


async def admin_post(hub: HubRuntime, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=hub.web_url, timeout=10) as http:
        token = hub.token(Role.ADMIN)
        return await http.post(path, headers={"Authorization": f"Bearer {token}"})


async def test_an_anonymous_forger_on_the_open_loopback_broker_stalls_nothing(
    tmp_path: Path,
) -> None:
    """The demo's situation: anyone on the machine may publish on the open loopback
    broker. A board card with seq 2**63-1 on the node's own topic is refused; the board
    stays as the node reads it and the node's reads go on."""
    hub = await start_hub(embedded_hub_config(state_dir=tmp_path / "state"))
    try:
        async with simulated_node(hub) as sim:
            await node_reads_as_on_seat1(hub, sim)
            await forge_the_board(hub, TOP_SEQ)
            await wait_until(lambda: hub.service.counters.get("rejected.seq_jump") == 1)
            assert hub.service.intake.presence.cards_on("board") == ()
            sim.table.reader("board").place(KD)
            sim.node.poll_once()
            await wait_until(lambda: hub.service.intake.presence.cards_on("board") == ("Kd",))
    finally:
        await hub.stop()


async def test_an_admin_resets_a_node_pushed_far_ahead_and_the_reset_is_kept(
    tmp_path: Path,
) -> None:
    """A forged count plausibly ahead (seq + 50,000) is taken; the node's real reads then
    arrive stale. The dealer is told, an admin resets the node's sequence over the web,
    the node's reads are taken again — and a restarted hub replays the reset."""
    hub = await start_hub(embedded_hub_config(state_dir=tmp_path / "state"))
    try:
        async with simulated_node(hub) as sim:
            await node_reads_as_on_seat1(hub, sim)
            ahead = sim.publisher._seq.take() + 50_000  # the node's next number, far ahead
            await forge_the_board(hub, ahead)
            await wait_until(lambda: hub.service.intake.presence.cards_on("board") == ("Qs",))
            board_reader = sim.table.reader("board")
            for n in range(STALE_STREAK):  # the node's real reads of the board: all stale
                (board_reader.place if n % 2 == 0 else board_reader.lift)(KD)
                sim.node.poll_once()
            await wait_until(lambda: hub.service.counters.get("stale", 0) == STALE_STREAK)
            assert hub.service.intake.presence.cards_on("board") == ("Qs",)  # pinned, for now
            await wait_until(
                lambda: any(a["code"] == "node_sequence" for a in hub.service.feeds.hub_alerts)
            )
            refused = await admin_post(hub, "/api/admin/nodes/nobody/reset")
            assert refused.status_code == 404
            reset = await admin_post(hub, "/api/admin/nodes/n/reset")
            assert reset.status_code == 200 and reset.json()["was"] == ahead, reset.text
            board_reader.lift(KD)
            board_reader.place(AS)  # the dealer's next card: taken again
            sim.node.poll_once()
            await wait_until(lambda: hub.service.intake.presence.cards_on("board") == ("As",))
        assert hub.log is not None
        kept = [r.payload for r in hub.log.records() if r.payload.get("command") == "reset_node"]
        assert kept == [{"command": "reset_node", "node": "n"}]
    finally:
        await hub.stop()
    again = await start_hub(embedded_hub_config(state_dir=tmp_path / "state"))
    try:  # the reset is replayed: the board as it was, the forged count forgotten
        assert again.service.intake.presence.cards_on("board") == ("As",)
        assert again.service.node_stats()["n"]["last_seq"] < ahead
    finally:
        await again.stop()
