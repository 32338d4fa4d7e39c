"""Duplicated, reordered and delayed MQTT messages give the hub the state of the clean run.

The same seeded heads-up hand is played twice against ``feltwire hub`` (a real process) on
a real Mosquitto: the node (the paho transport, inventory publisher and simulated antennas
``feltwire node`` runs, driven here step by step so both runs send the same messages)
deals at a fast pace, the dealer goes all-in preflop and tables both hands at the console.
The first run goes straight to the broker; the second through
:class:`~tests.support.mqtt_proxy.MqttFaultProxy`, which duplicates, delays and reorders
(across topics) the node's PUBLISH packets, on a Mosquitto of its own (so no retained
inventory of the clean run greets its hub). Afterwards the public snapshot, the console's
hand, the cards on each antenna and the counters of accepted reads are the same; every
copy of a read is counted as a duplicate, none as a read, none as lost, nothing refused.
The hub holds a read that overtook an earlier one (``[health] reorder_grace_s``) and
applies both in the node's sequence order.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from table_node.dealer import DealStepKind, apply_step
from table_node.node import Node
from table_node.simulated import SimulatedTable
from tests.support.loop_thread import LoopThread
from tests.support.mosquitto import MosquittoProcess
from tests.support.mqtt_proxy import Faults, MqttFaultProxy
from tests.support.ports import free_port
from tests.support.table_procs import (
    BUY_IN,
    READERS,
    HubProc,
    last_logged_cards,
    planned_hand,
    rules,
    seed_without_folds,
    write_hub_config,
)

PACE = 0.03
"""Seconds between two of the dealer's motions: fast, so delayed messages are overtaken."""
ROUNDS = int(os.environ.get("FELTWIRE_FAULT_ROUNDS", "1"))
"""Proxy seeds to run (each a faulted run compared with the clean one)."""
VOLATILE = {"t", "id"}
"""Alert fields that differ between any two runs (wall time, the alert's number)."""


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def play(workdir: Path, broker: MosquittoProcess, faults: Faults | None) -> dict[str, Any]:
    """One run: a fresh hub, the node through the proxy (``faults``) or straight to the
    broker; what the hub shows afterwards."""
    workdir.mkdir()
    web_port = free_port()
    hub = HubProc(write_hub_config(workdir, broker.url, web_port), web_port, workdir / "hub.log")
    proxy = LoopThread(
        lambda: _proxy_up(broker.port, faults), lambda p: p.stop(), name="mqtt-proxy"
    )
    port = proxy.start().port if faults is not None else broker.port
    table = SimulatedTable(READERS)
    transport = PahoTransport(
        MqttClientSettings(url=f"mqtt://127.0.0.1:{port}"), table="t1", node="n1"
    )
    publisher = InventoryPublisher(table="t1", node="n1", transport=transport)
    node = Node(list(table.readers.values()), publisher)
    deck = simulated_deck()

    def caught_up() -> None:
        want = publisher.published
        hub.until(
            lambda s: (
                hub.stats()["counters"].get("accepted", 0) >= want and transport.unacknowledged == 0
            ),
            what=f"the hub to take {want} reads",
        )
        time.sleep(0.5)  # any late duplicate lands now

    try:
        hub.start()
        assert transport.wait_connected(10)
        hub.until(lambda s: rules(s)["in_hand"], what="hand 1")
        steps = planned_hand(SEED)
        river = max(i for i, s in enumerate(steps) if s.kind is DealStepKind.BOARD)
        for i, step in enumerate(steps):
            apply_step(table, step, deck)
            node.poll_once()
            time.sleep(PACE)
            if i == 3:  # the hole cards are out: all-in and a call
                caught_up()
                acting = rules(hub.until(lambda s: True, what="hub"))["acting"]
                assert hub.act(acting, "raise", BUY_IN)["accepted"]
                other = next(s for s in (1, 2) if s != acting)
                assert hub.act(other, "call")["accepted"]
            if i == river:  # the board is out: both hands tabled
                caught_up()
                for seat in hub.console_state()["showdown"]["show"]:
                    assert hub.console("show", {"seat": seat})["accepted"]
        caught_up()
        snapshot = hub.until(lambda s: True, what="hub")
        console = hub.console_state()
        stats = hub.stats()
    finally:
        transport.close()
        if faults is not None:
            proxy.stop()
        hub.stop()
    return {
        "public": _scrub(snapshot),
        "console": _scrub(console),
        "cards": last_logged_cards(workdir / "state" / "events.sqlite"),
        "counters": stats["counters"],
        "lost": stats["nodes"]["n1"]["lost"],
        "published": publisher.published,
        "proxy": proxy_stats.get(id(faults)),
    }


proxy_stats: dict[int, Any] = {}


async def _proxy_up(upstream: int, faults: Faults | None) -> MqttFaultProxy:
    proxy = MqttFaultProxy(upstream, faults)
    await proxy.start()
    proxy_stats[id(faults)] = proxy.stats
    return proxy


SEED = seed_without_folds()


def test_duplicated_delayed_and_reordered_messages_leave_the_state_of_the_clean_run(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    clean = play(tmp_path / "clean", mosquitto, None)
    assert clean["counters"]["accepted"] == clean["published"]
    assert clean["public"]["rules"]["awards"], "the clean run's hand paid no pot"
    for round_ in range(ROUNDS):
        faults = Faults(seed=round_)
        with fresh_broker(tmp_path / f"broker-{round_}") as broker:  # no retained reads
            faulted = play(tmp_path / f"faulted-{round_}", broker, faults)
        stats = faulted["proxy"]
        assert stats.duplicated > 0 and stats.reordered > 0, stats  # the faults happened
        for key in ("public", "console", "cards"):
            assert faulted[key] == clean[key], (key, _diff(faulted[key], clean[key]))
        counters = faulted["counters"]
        assert counters["accepted"] == clean["counters"]["accepted"] == faulted["published"]
        read_copies = sum(n for t, n in stats.duplicated_by_topic.items() if t.endswith("/tags"))
        assert counters.get("duplicate", 0) == read_copies  # every copy known as one
        assert counters.get("stale", 0) == 0 and counters.get("lost", 0) == 0
        assert counters.get("rejected", 0) == 0
        assert faulted["lost"] == 0


@contextlib.contextmanager
def fresh_broker(workdir: Path) -> Iterator[MosquittoProcess]:
    """A Mosquitto of its own for one run: the clean run's retained inventories (and its
    node's last will) would otherwise greet the next hub as reads of its own."""
    workdir.mkdir()
    broker = MosquittoProcess(workdir)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            d for k in sorted(set(a) | set(b)) for d in _diff(a.get(k), b.get(k), f"{path}.{k}")
        ]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _diff(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]
