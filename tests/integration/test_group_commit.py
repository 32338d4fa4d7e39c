"""Issue 16, acceptance 2: group commit, and the knob that turns it off.

A real hub (``start_hub``, its event log on disk at ``event_log_sync = "full"``, a real
Mosquitto): messages of one table that wait together are logged in one transaction, at
most ``event_log_batch`` of them; ``event_log_batch = 1`` is one commit per read. The
commits are counted by ``/metrics``' ``feltwire_event_log_batch_inputs`` histogram (one
observation per transaction, the inputs it held), scraped over HTTP; every read is in
the log and applied either way. ``bench/burst_ingest.py`` times the two.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError

from feltwire.deck import simulated_deck
from feltwire.protocol import ReaderInventory, encode, reader_tags_topic
from hub.app.records import InputKind
from hub.bootstrap import HubRuntime, start_hub
from hub.config import EVENT_LOG_BATCH, HubConfig, HubMqttSettings, WebSettings
from tests.support.mosquitto import MosquittoProcess

DECK = simulated_deck()
SETS = (["As", "Kd", "7c"], ["2h", "9s", "Qd"])
"""The board's two card sets, laid in turn: every read changes the antenna."""
METRICS = "group-commit-metrics-token-0123456789"


def read(seq: int) -> tuple[str, bytes]:
    """Node ``burst``'s inventory ``seq`` of the board: its topic and payload."""
    cards = SETS[seq % 2]
    msg = ReaderInventory(
        v=1, node="burst", seq=seq, ts=1.0, reader="board", uids=[DECK.uid_for(c) for c in cards]
    )
    return reader_tags_topic("t1", "burst", "board"), encode(msg)


def config(broker: MosquittoProcess, state: Path, batch: int | None) -> HubConfig:
    return HubConfig(
        table="t1",
        live_equity=False,
        mqtt=HubMqttSettings(url=broker.url),
        web=WebSettings(port=0, metrics_token=METRICS),
        state_dir=state,
        event_log_sync="full",
        node_burst=10_000,
        **({} if batch is None else {"event_log_batch": batch}),
    )


async def commits(hub: HubRuntime) -> tuple[float, float]:
    """The event log's transactions so far and the inputs they held (``/metrics``)."""
    text = (
        await asyncio.to_thread(
            httpx.get,
            f"{hub.web_url}/metrics",
            headers={"Authorization": f"Bearer {METRICS}"},
            timeout=10,
        )
    ).text
    found = {
        s.name: s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name.startswith("feltwire_event_log_batch_inputs")
    }
    return found["feltwire_event_log_batch_inputs_count"], found[
        "feltwire_event_log_batch_inputs_sum"
    ]


def logged_seqs(hub: HubRuntime) -> list[int]:
    assert hub.log is not None
    return [int(r.payload["seq"]) for r in hub.log.records() if r.kind is InputKind.INVENTORY]


def board(hub: HubRuntime) -> list[str]:
    antennas = hub.service.public_snapshot()["antennas"]
    return next(list(a["cards"]) for a in antennas if a["reader"] == "board")


@pytest.mark.parametrize(
    ("batch", "reads", "expected"),
    [(1, 40, 40), (16, 40, 3), (None, 40, 1), (None, EVENT_LOG_BATCH + 10, 2)],
)
async def test_reads_waiting_together_share_transactions_up_to_event_log_batch(
    tmp_path: Path, mosquitto: MosquittoProcess, batch: int | None, reads: int, expected: int
) -> None:
    """``reads`` messages queued for the table at once, as the broker connection queues
    them (nothing runs between them): ``expected`` transactions hold them — one each with
    ``event_log_batch = 1``, ``ceil(reads / batch)`` otherwise — and each is logged and
    applied in order."""
    hub = await start_hub(config(mosquitto, tmp_path / "state", batch))
    try:
        await asyncio.wait_for(hub.service.subscribed.wait(), 15)
        before = await commits(hub)
        for seq in range(1, reads + 1):
            hub.service.inbox.put_nowait((*read(seq), False, None))
        assert await asyncio.to_thread(hub.service.wait_handled, reads, 30)
        count, inputs = await commits(hub)
        assert (count - before[0], inputs - before[1]) == (expected, reads)
        assert logged_seqs(hub) == list(range(1, reads + 1))
        assert hub.service.counters["accepted"] == reads and hub.service.changes == reads
        assert set(board(hub)) == set(SETS[reads % 2])
    finally:
        await hub.stop()


async def test_one_commit_per_read_over_a_real_broker_burst(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    """A node's burst of 300 reads at QoS 1 through Mosquitto with
    ``event_log_batch = 1``: 300 transactions of one input, every read logged and
    applied."""
    reads = 300
    hub = await start_hub(config(mosquitto, tmp_path / "state", 1))
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="burst")
    try:
        await asyncio.wait_for(hub.service.subscribed.wait(), 15)
        before = await commits(hub)
        client.connect("127.0.0.1", mosquitto.port)
        client.loop_start()
        infos = [client.publish(*read(seq), qos=1, retain=True) for seq in range(1, reads + 1)]
        for info in infos:
            await asyncio.to_thread(info.wait_for_publish, 30)
        assert await asyncio.to_thread(hub.service.wait_handled, reads, 60)
        count, inputs = await commits(hub)
        assert (count - before[0], inputs - before[1]) == (reads, reads)
        assert logged_seqs(hub) == list(range(1, reads + 1))
        assert hub.service.counters["accepted"] == reads and hub.service.changes == reads
        assert set(board(hub)) == set(SETS[reads % 2])
    finally:
        client.loop_stop()
        client.disconnect()
        await hub.stop()


@pytest.mark.parametrize("bad", [0, -1])
def test_event_log_batch_below_one_is_refused(bad: int) -> None:
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        HubConfig(event_log_batch=bad)
