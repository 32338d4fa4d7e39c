"""One node of a RabbitMQ cluster stopped mid-hand: the table node and the hub move to
another, no read is lost or applied twice, and the hand completes with the right award
(issue 19, acceptance 3).

Three RabbitMQ nodes of the test's own (``tests/support/rabbitmq.py``: own names, ports,
data dirs, epmd and cookie; the MQTT plugin, ``mqtt.durable_queue_type = quorum``),
``feltwire hub`` with rules and its event log and ``feltwire node`` with the simulated
backend dealing a seeded heads-up hand, both given the three nodes' MQTT listeners as
``[mqtt] url = [...]`` and so both on the first. Once the hub has the hole cards and the
dealer has put both players all-in at the console, that RabbitMQ node is stopped — cleanly
(``rabbitmqctl stop``, which closes their connections) or killed (SIGKILL) —; the node
deals the board on. Three nodes, not two: the MQTT plugin of RabbitMQ 3.8–3.11 tracks
client ids in Raft and refuses connections without a majority of the nodes.

Then: both are on another RabbitMQ node; the hub's event log holds every read the node
published (its seq file says which), each once, in order, none lost by the hub's count;
the pot went to the best hand; the broker the node ended on keeps each antenna's last
inventory and the node's ``offline``. How long each took to move is printed (``-s``) for
docs/scaling.md — no timing is asserted.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from feltwire.protocol import AVAILABILITY_OFFLINE, availability_topic, hub_client_id
from tests.support.bridge import retained
from tests.support.rabbitmq import RabbitCluster, rabbitmq_cluster
from tests.support.table_procs import (
    BUY_IN,
    SEATS,
    WAIT,
    HubProc,
    board_cards,
    counts,
    hole_cards,
    hub_and_node,
    last_logged_cards,
    logged_reads,
    planned_hand,
    retained_inventories,
    rules,
    seed_without_folds,
    show_down,
    start_hand_then_node,
    winner,
)

STEP = 1.2
"""The node's dealer: seconds between two motions (the dealer's pace)."""
HUB_ID = hub_client_id("t1", alone=True)
"""The session of the hub (alone: one connection for its tables)."""
NODE_ID = "feltwire-node-t1-n1"
FIRST_SEQ = 1000
"""The node's first sequence number (its seq file is written before it starts)."""


class Accepted:
    """Polls the hub's count of accepted reads, keeping when each new one was seen."""

    def __init__(self, hub: HubProc) -> None:
        self.hub = hub
        self.changes: list[tuple[float, int]] = []  # (time.time(), accepted)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self) -> None:
        last = -1
        while not self._stop.wait(0.05):
            data = self.hub.get("/api/stats")
            n = int(data["counters"].get("accepted", 0)) if data is not None else last
            if n != last:
                self.changes.append((time.time(), n))
                last = n

    def first_after(self, t: float) -> float | None:
        """When the first read accepted after ``t`` was seen (None: none yet)."""
        before = [n for at, n in self.changes if at <= t]
        floor = before[-1] if before else 0
        return next((at for at, n in self.changes if at > t and n > floor), None)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def last_logged_at(log: Path, text: str, after: float) -> float | None:
    """The time of the last line of ``log`` saying ``text``, if at or after ``after``
    (the processes log their local time to the millisecond: ``2026-01-01 12:00:00,123``).
    The last, not the first: a client may be taken and dropped again while the cluster
    settles, and the connection that stayed is the one that counts."""
    found = None
    for line in log.read_text(errors="replace").splitlines():
        if text in line:
            try:
                found = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
            except ValueError:
                continue
    return found if found is not None and found >= after - 0.001 else None


def holder(cluster: RabbitCluster, client_id: str) -> int:
    """The index (1…) of the RabbitMQ node holding ``client_id``'s connection, waiting
    for it to be up somewhere."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        node = cluster.node_holding(client_id)
        if node is not None:
            return node.index
        time.sleep(0.2)
    raise AssertionError(f"{client_id} is connected to no RabbitMQ node")


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_a_rabbitmq_node_stopped_mid_hand_loses_no_read_and_the_hand_completes(
    how: str, tmp_path: Path
) -> None:
    """``stop``: ``rabbitmqctl stop``, a clean shutdown; ``kill``: SIGKILL, a crash."""
    seed = seed_without_folds()
    steps = planned_hand(seed)
    hole, board = hole_cards(steps), board_cards(steps)
    with rabbitmq_cluster(3, tmp_path / "rabbit") as cluster:
        first = cluster.nodes[0]
        hub, node = hub_and_node(tmp_path, cluster.urls, seed=seed, step_seconds=STEP)
        (tmp_path / "node-state").mkdir(mode=0o700)
        (tmp_path / "node-state" / "seq").write_text(str(FIRST_SEQ - 1))
        accepted: Accepted | None = None
        try:
            start_hand_then_node(hub, node)
            hub.until(lambda s: all(counts(s)[f"seat{n}"] == 2 for n in SEATS), what="the deal")
            acting = rules(hub.until(lambda s: True, what="the hub"))["acting"]
            assert hub.act(acting, "raise", BUY_IN)["accepted"]  # all-in
            other = next(s for s in SEATS if s != acting)
            assert hub.act(other, "call")["accepted"]
            # both on the first RabbitMQ node, as their logs say (rabbitmqctl is too slow
            # here: the node deals a card every STEP); the board is still to come
            on_first = f"{first.url} (1 of 3)"
            assert f"hub subscribed at {on_first}" in hub.log.read_text()
            assert f"connected to the broker {on_first}" in node.log.read_text()

            accepted = Accepted(hub)
            stopped_at = time.time()
            first.stop(kill=how == "kill")  # the hub's and the node's connections end

            hub.until(lambda s: counts(s)["board"] == 5, what="the river")
            awards = show_down(hub, node)
            assert [(a["amount"], [p["seat"] for p in a["payouts"]]) for a in awards] == [
                (2 * BUY_IN, [winner(hole, board)])
            ]
            done = rules(hub.until(lambda s: not rules(s)["in_hand"], what="the hand's end"))
            assert done["hand"] == 1 and done["awards"][0]["message"] == awards[0]["message"]
            # the hub told the dealer it lost the broker and has it back (broker_back clears
            # broker_lost); the rules' only alert is the simulated node's first-hand one
            ruled = [a["code"] for a in done["alerts"] if a.get("id") is not None]
            told = [a["code"] for a in done["alerts"] if a.get("id") is None]
            assert ruled == ["deal_out_of_order"]
            assert told == ["broker_back"]
            # both on another RabbitMQ node, the node online, the hub ready
            moved = {who: holder(cluster, cid) for who, cid in (("hub", HUB_ID), ("node", NODE_ID))}
            assert moved["hub"] != 1 and moved["node"] != 1
            # the hub's session is a quorum queue, on every node: it outlived the first
            queues = cluster.nodes[moved["hub"] - 1].ctl("list_queues", "name", "type", "--silent")
            assert f"mqtt-subscription-{HUB_ID}qos1\tquorum" in queues.stdout
            ready = httpx.get(f"{hub.url}/readyz", timeout=WAIT).json()
            assert ready["broker"]["ok"] and ready["nodes"]["t1/n1"]["state"] == "online"

            # a quiet antenna is sent again every inventory_refresh_s (5 s): by then each
            # antenna's inventory is retained on the broker the node moved to, whose
            # retained messages are its own (RabbitMQ 3.x does not replicate them)
            node_moved = last_logged_at(node.log, "connected to the broker", stopped_at)
            assert node_moved is not None
            time.sleep(max(0.0, node_moved + 6.0 - time.time()))
            node.stop()  # SIGTERM: the node's last inventories and its offline are on its broker
            last_seq = int((tmp_path / "node-state" / "seq").read_text())
            hub.until(
                lambda s: hub.stats()["nodes"]["n1"]["last_seq"] == last_seq, what="all reads"
            )
            stats = hub.stats()
            landed = cluster.nodes[moved["node"] - 1]
            # the RabbitMQ node found holding the node's connection is the one its log
            # names last (rabbitmqctl lists the whole cluster's connections, whichever
            # node is asked: RabbitNode.mqtt_client_ids keeps this node's own)
            said_so = node.log.read_text().splitlines()
            joined = [ln for ln in said_so if "connected to the broker" in ln]
            assert joined[-1].endswith(f"{landed.url} ({landed.index} of 3)"), joined[-1]
            kept = retained_inventories(landed.mqtt_port, per_topic=True)
            said = retained(landed.mqtt_port, availability_topic("t1", "n1"))
        finally:
            if accepted is not None:
                accepted.close()
            node.stop()
            hub.stop()

    log_file = tmp_path / "state" / "events.sqlite"
    reads = logged_reads(log_file)
    seqs = [seq for who, _, seq in reads if who == "n1"]
    assert seqs == list(range(FIRST_SEQ, last_seq + 1))  # every read published, once, in order
    assert len(set(reads)) == len(reads)  # no (node, reader, seq) applied twice
    counters = stats["counters"]
    assert counters["accepted"] == len(seqs)
    assert counters.get("lost", 0) == 0 and counters.get("rejected", 0) == 0
    assert stats["nodes"]["n1"]["lost"] == 0
    # on the RabbitMQ node it ended on, the node's retained inventories are its last ones
    assert kept == last_logged_cards(log_file)
    assert said == AVAILABILITY_OFFLINE

    hub_moved = last_logged_at(hub.log, "hub subscribed at", stopped_at)
    assert accepted is not None and hub_moved is not None
    first_read = accepted.first_after(max(node_moved, hub_moved))
    print(
        f"\nbroker cluster move ({how} of RabbitMQ node 1): node connected to node "
        f"{moved['node']} for good after {node_moved - stopped_at:.2f} s, hub subscribed at "
        f"node {moved['hub']} after {hub_moved - stopped_at:.2f} s, first read accepted after "
        f"both: {(first_read or float('nan')) - stopped_at:.2f} s; node's connections in "
        f"between: {node.log.read_text().count('connected to the broker') - 1}"
    )
