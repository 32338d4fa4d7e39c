"""The hub SIGKILLed at random moments over many hands: after each restart the table is
the replay of its log, and the hand goes on to its award.

``feltwire node`` (simulated backend) deals hand after hand on a real Mosquitto
(persistence on, as shipped); the test is the dealer at the console — the seat to act
checks or calls, a seat asked to show shows — and ``feltwire hub`` gets SIGKILL at a
random moment (drawn from ``FELTWIRE_KILL_SEED``), whatever it is doing: taking a read,
logging it, answering the console. At each kill the node is frozen (SIGSTOP) so the
comparison below has a fixed point; the hub is started again on its state directory,
restores its newest table snapshot, replays the log after it and takes what the broker
queued for it. Once it is idle its public snapshot and console state are compared with
those of a second hub started on a copy of the log with snapshots off (on a broker of its
own, so it sees nothing but the replay of every input). Then the node goes
on (SIGCONT) and so does the hand: reads and console actions after the restart are
accepted, and every hand a kill fell in ends with its pot awarded.

``FELTWIRE_KILL_LOOPS`` kills (default 5, the run CI makes; issue 15 asks for 100:
``FELTWIRE_KILL_LOOPS=100``, 10–28 s a kill on a loaded 2-core machine). The dealer acts
on what the console shows and takes a hand ending between its look and its input as a
retry, never a refusal while the console still asks for that input
(:func:`~tests.support.table_procs.dealer_step`); the awards are counted by the hub
(``/metrics``' hands), not sampled between two hands.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from hub.adapters.eventlog import check_log
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.table_procs import (
    HubProc,
    copy_state,
    dealer_step,
    hub_and_node,
    persistent_broker,
    rules,
    scrub,
    start_hand_then_node,
    write_hub_config,
)

log = logging.getLogger(__name__)

KILLS = int(os.environ.get("FELTWIRE_KILL_LOOPS", "5"))
pytestmark = pytest.mark.timeout(120 + 60 * KILLS)  # a kill takes 10–28 s here; the rest slack
SEED = int(os.environ.get("FELTWIRE_KILL_SEED", "15"))
STEP = 0.3
"""The node's dealer: seconds between two motions (a hand is about 20 of them)."""
FROZEN = 300
"""Seconds the node may stay frozen (its MQTT keep-alive; the broker gives up on it after
1.5 times that) and the hub may hear nothing from a reader (``reader_silent_s``) before
either says so: the live picture at a kill is taken 3–13 s after the freeze here, and a
``node_offline`` or ``reader_silent`` raised meanwhile is the live hub's alone — the hub's
watch of the network now, not an input of its log — so the defaults (keep-alive and
``reader_silent_s`` 15 s) made it unequal to the replay whenever a comparison ran long."""
QUIET = 1.5
"""Seconds a hub's picture stays the same before it counts as idle: longer than what may
still change it with nothing coming in — a card gone from an antenna is a move only once
the debounce (0.5 s) has passed, at the next tick (every 0.25 s); a read held for the ones
before it waits up to the reorder grace (0.5 s). A shorter wait (it was 0.5 s) could take
a hub about to make such a move as idle: its picture then unequal to a replay that had
made it."""
UPTIME = (0.2, 8.0)
"""The hub lives this long (drawn uniformly) after it is serving again and the hand has
moved on, before the next SIGKILL: a moment anywhere in a hand."""


def picture(hub: HubProc) -> dict[str, Any]:
    """What the public page and the console show, without wall times and alert numbers."""
    public = hub.public()
    assert public is not None
    return {"public": scrub(public), "console": scrub(hub.console_state())}


def settled(hub: HubProc) -> dict[str, Any]:
    """The hub's picture once it stops changing (the replay done, the broker's queue
    taken): unchanged for :data:`QUIET`."""
    deadline = time.monotonic() + 30
    last, since = picture(hub), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = picture(hub)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET:
            return now
    pytest.fail(f"the hub never settled:\n{hub.log.read_text()[-3000:]}")


def replay_of(
    state: Path, copy: Path, broker: MosquittoProcess, hub: HubProc
) -> tuple[Path, dict[str, Any]]:
    """A copy of the hub's log taken while ``hub`` is idle, and the picture the hub held
    both before and after the copy — the state the copy is the log of (a copy caught
    mid-write, or across a change, is taken again)."""
    for attempt in range(20):
        before = picture(hub)
        dst = copy_state(state, copy / f"try{attempt}")
        after = picture(hub)
        if before == after and check_log(dst / "events.sqlite", "t1").damage is None:
            return dst, after
        time.sleep(0.2)
    pytest.fail("no quiet moment to copy the log")


def test_the_hub_killed_at_random_moments_restarts_to_the_replay_of_its_log(
    tmp_path: Path,
) -> None:
    rng = random.Random(SEED)
    broker = persistent_broker(tmp_path)
    broker.start()
    (tmp_path / "replays").mkdir()
    replays = MosquittoProcess(tmp_path / "replays")
    replays.start()
    hub, node = hub_and_node(
        tmp_path, broker.url, seed=SEED, step_seconds=STEP, keepalive=FROZEN, reader_silent_s=FROZEN
    )
    killed_in: list[int] = []
    moves_after: list[int] = []

    def play(seconds: float) -> int:
        """Be the dealer for ``seconds``; console actions accepted."""
        done = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if dealer_step(hub) is not None:
                done += 1
            hub.check_alive()
            time.sleep(0.03)
        return done

    try:
        start_hand_then_node(hub, node)
        for k in range(KILLS):
            play(rng.uniform(*UPTIME))
            assert node.proc is not None and hub.proc is not None
            node.proc.send_signal(signal.SIGSTOP)
            frozen = time.monotonic()
            hub.kill9()

            hub.start()
            live = settled(hub)
            at_kill = rules(live["public"])
            if at_kill["in_hand"]:
                killed_in.append(at_kill["hand"])
            # compared with the picture held around the copy, not the one read before it:
            # the rules' ticks go on while the hub is idle and may change it in between
            copy, live = replay_of(tmp_path / "state", tmp_path / f"kill{k}", replays, hub)
            pictured = time.monotonic() - frozen
            port = free_port()
            second = HubProc(
                write_hub_config(  # snapshots off: every input of the copy replayed
                    copy.parent,
                    replays.url,
                    port,
                    state_dir=copy,
                    reader_silent_s=FROZEN,
                    top="event_log_snapshots = false\n",
                ),
                port,
                copy.parent / "hub.log",
            )
            try:
                second.start()
                replayed = settled(second)
            finally:
                second.stop()
            assert replayed == live, f"kill {k}: the restarted hub is not its log's replay"

            accepted = hub.stats()["counters"].get("accepted", 0)
            node.proc.send_signal(signal.SIGCONT)
            hand = rules(live["public"])["hand"]
            moves = 0
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (
                moves and rules(hub.until(lambda s: True, what="the hub"))["hand"] > hand
            ):
                moves += play(0.3)
            assert rules(hub.until(lambda s: True, what="the hub"))["hand"] > hand
            assert hub.stats()["counters"].get("accepted", 0) > accepted  # reads go on
            moves_after.append(moves)
            log.info(
                "kill %d in hand %d (in_hand %s): the picture %.1f s after the freeze, "
                "the kill done in %.1f s",
                k,
                hand,
                at_kill["in_hand"],
                pictured,
                time.monotonic() - frozen,
            )
        hands = hub.hands()
    finally:
        if node.proc is not None:
            node.proc.send_signal(signal.SIGCONT)
        node.stop()
        hub.stop()
        broker.stop()
        replays.stop()
    assert all(m > 0 for m in moves_after), moves_after  # the console's actions accepted
    # hands are numbered as they start; each ends finished (its pots awarded) or voided
    assert hands["voided"] == 0, hands
    assert hands["finished"] >= max(killed_in, default=0), (hands, killed_in)
