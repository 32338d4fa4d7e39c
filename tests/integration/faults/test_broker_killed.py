"""The broker killed mid-hand and started again: no read lost, none taken twice, the hand
completes with the right pot award.

A real Mosquitto (persistence on, as ``systemd/mosquitto/feltwire.conf`` runs it),
``feltwire hub`` with rules and its event log, and ``feltwire node`` with the simulated
backend dealing a seeded heads-up hand, all as child processes. Once the hub has the hole
cards the broker gets SIGKILL; while it is down the dealer goes all-in preflop at the
console and the node deals the burn and the flop into its outbox; the broker starts again
on the same port; the rest of the board comes, the dealer tables both hands, the hub pays
the pot. Then: the event log holds every read the node sent, once, in order; the hub counted
none lost; each antenna's cards at the hub are the node's last inventory of it.

Both are given the broker as a list of one (``url = ["…"]``): the single-broker side of
``test_broker_cluster.py``, where one RabbitMQ node of three is stopped instead.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.support.table_procs import (
    BUY_IN,
    SEATS,
    board_cards,
    counts,
    hole_cards,
    hub_and_node,
    kill9_broker,
    last_logged_cards,
    logged_reads,
    pending_in_outbox,
    persistent_broker,
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


def test_broker_killed_mid_hand_loses_no_read_and_the_hand_completes(tmp_path: Path) -> None:
    seed = seed_without_folds()
    steps = planned_hand(seed)
    hole, board = hole_cards(steps), board_cards(steps)
    broker = persistent_broker(tmp_path)
    broker.start()
    # a list of one broker (issue 19): the single Mosquitto the cluster test's RabbitMQ
    # nodes stand beside; the plain `url = "…"` form runs in every other fault test
    hub, node = hub_and_node(tmp_path, [broker.url], seed=seed, step_seconds=STEP)
    try:
        start_hand_then_node(hub, node)
        hub.until(lambda s: all(counts(s)[f"seat{n}"] == 2 for n in SEATS), what="the deal")

        kill9_broker(broker)
        acting = rules(hub.until(lambda s: True, what="the hub"))["acting"]
        assert hub.act(acting, "raise", BUY_IN)["accepted"]  # all-in
        other = next(s for s in SEATS if s != acting)
        assert hub.act(other, "call")["accepted"]
        time.sleep(4 * STEP)  # burn and flop dealt with the broker down
        node.check_alive()
        assert pending_in_outbox(tmp_path / "node-state") >= 1
        assert counts(hub.until(lambda s: True, what="the hub"))["board"] == 0
        broker.start()  # same port, same persistence

        hub.until(lambda s: counts(s)["board"] == 5, what="the river")
        awards = show_down(hub, node)
        assert [(a["amount"], [p["seat"] for p in a["payouts"]]) for a in awards] == [
            (2 * BUY_IN, [winner(hole, board)])
        ]
        done = rules(hub.until(lambda s: not rules(s)["in_hand"], what="the hand's end"))
        assert done["hand"] == 1 and done["awards"][0]["message"] == awards[0]["message"]
        console = hub.console_state()
        assert console["last_hand"] is None or console["hand"] == 1
        # the only rules alert is the one every first hand of the simulated node raises (its
        # dealer puts its button on the highest seat, the hub on the lowest); the hub's own
        # say the broker came back (broker_back clears broker_lost, which leaves the page)
        ruled = [a["code"] for a in done["alerts"] if a.get("id") is not None]
        told = [a["code"] for a in done["alerts"] if a.get("id") is None]
        assert ruled == ["deal_out_of_order"]
        assert told == ["broker_back"]

        time.sleep(2 * STEP)
        node.stop()  # SIGTERM: the node's last inventories are on the broker
        last_seq = int((tmp_path / "node-state" / "seq").read_text())
        hub.until(lambda s: hub.stats()["nodes"]["n1"]["last_seq"] == last_seq, what="all reads")
        stats = hub.stats()
        # the node stopped: the hub says its antennas are unknown, not empty (issue 15)
        final = hub.until(
            lambda s: all(a.get("unknown") for a in s["antennas"]),
            what="the node's antennas unknown",
        )
        node_last = retained_inventories(broker.port)
    finally:
        node.stop()
        hub.stop()
        broker.stop()

    log_file = tmp_path / "state" / "events.sqlite"
    seqs = [seq for _, _, seq in logged_reads(log_file)]
    assert seqs == list(range(seqs[0], last_seq + 1))  # every read, once, in order
    counters = stats["counters"]
    assert counters["accepted"] == len(seqs)
    assert counters.get("lost", 0) == 0 and counters.get("rejected", 0) == 0
    assert stats["nodes"]["n1"]["lost"] == 0
    assert last_logged_cards(log_file) == {r: node_last.get(r, []) for r in node_last}
    assert counts(final) == dict.fromkeys(counts(final), 0)  # nothing said of the cards
