"""Issue 12, item 8 and acceptance 4: a flood of 10,000 messages in a few seconds.

A node (or whoever holds its credential) publishes 10,000 valid inventories as fast as
a real Mosquitto — with the shipped template's queue settings — takes them. The hub, with
its event log on disk at ``event_log_sync = "full"``, must account for every one: in the
log, refused over the node's rate (``rate_limited``, its sequence number kept), or
counted lost (a sequence number that never arrived) — never dropped without a trace —
and must keep serving its pages throughout.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import httpx
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.deck import simulated_deck
from feltwire.protocol import reader_tags_topic
from hub.app.records import InputKind
from hub.bootstrap import start_hub
from hub.config import HubConfig, HubMqttSettings, WebSettings
from tests.support.mosquitto import MosquittoProcess, template_queue_settings

FLOOD = 10_000
DECK = simulated_deck()
CARDS = [DECK.uid_for(c) for c in ("As", "Kd", "7c", "2h", "9s", "Qd")]


def flood(port: int, count: int) -> float:
    """Publish ``count`` inventories of node ``flood`` (seq 1..count) at QoS 1, as fast as
    the broker takes them; the seconds it took."""
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id="flood")
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    start = time.monotonic()
    infos = []
    for seq in range(1, count + 1):
        reader = f"seat{seq % 6 + 1}"
        body = {"v": 1, "node": "flood", "seq": seq, "ts": 1.0, "reader": reader}
        body["uids"] = [CARDS[seq % len(CARDS)]] if seq % 2 else []
        topic = reader_tags_topic("t1", "flood", reader)
        infos.append(client.publish(topic, json.dumps(body), qos=1))
    for info in infos:
        info.wait_for_publish(60)
    took = time.monotonic() - start
    client.loop_stop()
    client.disconnect()
    return took


def covered(ranges: list[list[int]]) -> set[int]:
    return {seq for first, last in ranges for seq in range(first, last + 1)}


async def test_a_flood_is_accounted_for_read_by_read_and_the_pages_keep_serving(
    tmp_path: Path,
) -> None:
    broker = MosquittoProcess(tmp_path, template_queue_settings() + "\npersistence false")
    broker.start()
    config = HubConfig(
        table="t1",
        live_equity=False,
        mqtt=HubMqttSettings(url=broker.url),
        web=WebSettings(port=0),
        state_dir=tmp_path / "state",
        event_log_sync="full",
    )
    hub = await start_hub(config)
    try:
        await asyncio.wait_for(hub.service.subscribed.wait(), 15)
        stop = threading.Event()
        answers: list[tuple[str, int]] = []

        async def keep_asking() -> None:
            async with httpx.AsyncClient(base_url=hub.web_url, timeout=5) as http:
                while not stop.is_set():
                    for path in ("/healthz", "/api/public", "/"):
                        answers.append((path, (await http.get(path)).status_code))
                    await asyncio.sleep(0.05)

        asking = asyncio.create_task(keep_asking())
        took = await asyncio.to_thread(flood, broker.port, FLOOD)
        service = hub.service
        settled = -1
        while settled != service.handled:  # until the hub has taken what it was sent
            settled = service.handled
            await asyncio.sleep(1.0)
        stop.set()
        await asyncio.wait_for(asking, 10)  # every page request answered, none timed out

        assert answers and {code for _, code in answers} == {200}, answers[-5:]
        assert hub.log is not None
        logged = {
            int(r.payload["seq"])
            for r in hub.log.records()
            if r.kind is InputKind.INVENTORY and r.payload["node"] == "flood"
        }
        async with httpx.AsyncClient(base_url=hub.web_url, timeout=10) as http:
            stats = (await http.get("/api/stats")).json()
        node = stats["nodes"]["flood"]
        limited, lost = covered(node["rate_limited_seqs"]), covered(node["lost_seqs"])
        assert len(limited) == node["rate_limited"] and len(lost) == node["lost"]
        print(  # the figures, for the record (pytest -s)
            f"flood: {FLOOD} in {took:.1f} s; logged {len(logged)}, rate-limited "
            f"{len(limited)}, lost {len(lost)}; {len(answers)} page answers"
        )
        # every read: in the log, refused over the rate or counted lost — each exactly once
        assert logged | limited | lost == set(range(1, FLOOD + 1))
        assert len(logged) + len(limited) + len(lost) == FLOOD
        assert stats["counters"]["accepted"] == len(logged) > 0
        assert stats["counters"]["rejected.rate_limited"] == len(limited) > 0
        alerts = [a["code"] for a in hub.service.feeds.hub_alerts]
        assert "node_flooding" in alerts  # the dealer was told
    finally:
        await hub.stop()
        broker.stop()
