"""A node cut off the network mid-hand: the hub says it is offline and back, the reads it
dealt meanwhile arrive afterwards in order, and the hand completes.

``feltwire node`` (simulated backend, a seeded heads-up hand with no early fold) reaches a
real Mosquitto through :class:`~tests.support.mqtt_proxy.MqttFaultProxy`; ``feltwire hub``
talks to the broker directly. Once the hole cards are in the dealer goes all-in at the
console, and the proxy cuts the network for ``FELTWIRE_CUT_SECONDS`` (issue 15 asks for
60 s; default 20). The TCP connections stay open, so neither end is told: the broker
finds the node silent after 1.5 × its keep-alive and publishes its will (``offline``),
the node's paho finds its ping unanswered and reconnects (refused while the cut lasts).
The node deals on meanwhile (burn, flop, …) into its outbox. After the cut it reconnects
(paho's back-off is at most 5 s) and sends what it held.

Then: the console and the alerts topic said ``node_offline`` and, after it, the clearing
``node_online`` (on the console in the offline alert's place), and nothing else but the
baseline ``deal_out_of_order`` of the simulated node's first hand (docs/reliability.md);
the event log holds every read the node sent, once, in order; none was counted lost or
refused; the pot goes to the seat PokerKit names.

The node's keep-alive is 5 s here (the least ``[mqtt] keepalive`` allows; 15 s by
default): the broker gives up on it after 7.5 s, so a 20-s cut is well past detection; with
the default 15 s it would take 22.5 s, longer than the default cut. The dealer's pace is
a fifth of the cut, so the cut falls between the all-in and the turn and the river comes
after it, when the dealer can table the hands before the node's dealer mucks them.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from tests.support.loop_thread import LoopThread
from tests.support.mqtt_proxy import Faults, MqttFaultProxy
from tests.support.ports import free_port
from tests.support.table_procs import (
    BUY_IN,
    SEATS,
    WAIT,
    AlertsTopic,
    HubProc,
    Proc,
    board_cards,
    counts,
    hole_cards,
    logged_reads,
    pending_in_outbox,
    persistent_broker,
    planned_hand,
    rules,
    seed_without_folds,
    show_down,
    winner,
    write_hub_config,
    write_node_config,
)

CUT = float(os.environ.get("FELTWIRE_CUT_SECONDS", "20"))
KEEPALIVE = 5
STEP = max(1.2, CUT / 5)
BASELINE = "deal_out_of_order"
"""The simulated node's first hand's alert (its button differs from the hub's)."""


async def _proxy_up(upstream: int) -> MqttFaultProxy:
    proxy = MqttFaultProxy(upstream, Faults(duplicate=0.0, delay_chance=0.0))
    await proxy.start()
    return proxy


async def _proxy_down(proxy: MqttFaultProxy) -> None:
    await proxy.stop()
    await asyncio.sleep(0)


def test_a_node_cut_off_mid_hand_is_said_offline_and_back_and_loses_no_read(
    tmp_path: Path,
) -> None:
    seed = seed_without_folds()
    steps = planned_hand(seed)
    hole, board = hole_cards(steps), board_cards(steps)
    broker = persistent_broker(tmp_path)
    broker.start()
    proxy_thread = LoopThread(lambda: _proxy_up(broker.port), _proxy_down, name="mqtt-proxy")
    proxy = proxy_thread.start()
    web_port = free_port()
    hub = HubProc(write_hub_config(tmp_path, broker.url, web_port), web_port, tmp_path / "hub.log")
    node = Proc(
        "node",
        write_node_config(
            tmp_path,
            f"mqtt://127.0.0.1:{proxy.port}",
            seed=seed,
            step_seconds=STEP,
            keepalive=KEEPALIVE,
        ),
        tmp_path / "node.log",
    )
    alerts = AlertsTopic(broker.port)
    try:
        hub.start()
        hub.until(lambda s: rules(s)["in_hand"], what="hand 1 to start")
        node.start()
        hub.until(
            lambda s: all(counts(s)[f"seat{n}"] == 2 for n in SEATS),
            what="the deal",
            wait=WAIT + 4 * STEP,
        )
        acting = rules(hub.until(lambda s: True, what="the hub"))["acting"]
        assert hub.act(acting, "raise", BUY_IN)["accepted"]  # all-in
        other = next(s for s in SEATS if s != acting)
        assert hub.act(other, "call")["accepted"]

        proxy.cut()
        cut_at = time.monotonic()
        hub.until(
            lambda s: "node_offline" in {a["code"] for a in hub.console_state()["alerts"]},
            what="node_offline on the console",
            wait=WAIT + CUT,
        )
        said_after = time.monotonic() - cut_at  # on the console
        hub.until(lambda s: "node_offline" in alerts.codes(), what="node_offline on the topic")
        time.sleep(max(0.0, CUT - (time.monotonic() - cut_at)))
        node.check_alive()
        held = pending_in_outbox(tmp_path / "node-state")
        assert held >= 1, "the node dealt into its outbox while cut off"
        before = counts(hub.until(lambda s: True, what="the hub"))
        in_cut = [a["code"] for a in hub.console_state()["alerts"]]
        proxy.restore()

        hub.until(lambda s: counts(s)["board"] == 5, what="the river", wait=WAIT + 8 * STEP)
        awards = show_down(hub)
        assert [(a["amount"], [p["seat"] for p in a["payouts"]]) for a in awards] == [
            (2 * BUY_IN, [winner(hole, board)])
        ]
        done = rules(hub.until(lambda s: not rules(s)["in_hand"], what="the hand's end"))
        assert done["hand"] == 1
        console = hub.console_state()
        hub.until(lambda s: "node_online" in alerts.codes(), what="node_online on the topic")
        topic = alerts.codes()
        node.stop()
        last_seq = int((tmp_path / "node-state" / "seq").read_text())
        stats = hub.stats()
    finally:
        alerts.close()
        node.stop()
        hub.stop()
        proxy_thread.stop()
        broker.stop()

    print(f"node_offline after {said_after:.1f} s; {held} reads held; {proxy.refused} refused")
    # said while the cut lasted (the wait for it ends before the proxy restores the link),
    # so by the broker's keep-alive and will; how soon is a figure, not a test's (printed;
    # 12.8 s once with a second worker's tests beside it, against 7.5 s of keep-alive)
    assert proxy.refused >= 1  # the node tried to reconnect during the cut
    assert before["board"] == 0  # nothing of the node's came through the cut
    assert sorted(in_cut) == sorted([BASELINE, "node_offline"]), in_cut
    # afterwards the console shows the clearing alert in the offline one's place
    codes = [a["code"] for a in console["alerts"]]
    assert sorted(codes) == sorted([BASELINE, "node_online"]), console["alerts"]
    assert [c for c in topic if c != BASELINE] == ["node_offline", "node_online"], topic
    assert sorted(a["code"] for a in done["alerts"]) == [BASELINE, "node_online"]  # public
    reads = logged_reads(tmp_path / "state" / "events.sqlite")
    seqs = [seq for _, _, seq in reads]
    assert seqs == list(range(seqs[0], seqs[-1] + 1)) and seqs[-1] <= last_seq  # in order
    counters = stats["counters"]
    assert counters["accepted"] == len(seqs)
    assert counters.get("lost", 0) == 0 and counters.get("rejected", 0) == 0
    assert stats["nodes"]["n1"]["lost"] == 0
