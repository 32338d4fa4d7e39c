"""The event log's last write torn: the hub says what it dropped and loses nothing before.

``feltwire hub`` plays hands dealt by ``feltwire node`` (simulated backend) on a real
Mosquitto, the dealer checking, calling and showing at the console, and is SIGKILLed
mid-hand. Its state directory is copied twice: one copy is left whole, in the other the
WAL is cut in the middle of its last commit's first frame (a write cut short,
:func:`tests.support.wal_frames.tear_last_commit`). On the torn copy:

* with ``event_log_torn = "stop"``, ``feltwire hub`` refuses to start and says the last
  write was torn, which inputs it lost and what to do (exit 1); ``feltwire event-log
  check`` says the same;
* by default (``event_log_torn = "drop"``) ``feltwire hub`` drops the torn write, sets the
  damaged files aside, starts, logs what was dropped and shows it on the console as the
  ``event_log_loss_accepted`` alert;
* ``feltwire event-log accept-loss`` on a second torn copy keeps the same inputs;
* every input before the torn one is there, byte for byte (seq, times, payload, chain),
  and the replayed table — ``GET /api/public`` and the console's state — is the table of
  a hub started on a log holding exactly those inputs (written by :class:`EventLog` from
  the whole copy's rows).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from hub.adapters.eventlog import EventLog
from hub.adapters.eventlog.seal import read_seal
from hub.app.records import InputKind
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.table_procs import (
    HubProc,
    copy_state,
    dealer_step,
    feltwire,
    hub_and_node,
    log_rows,
    persistent_broker,
    rules,
    scrub,
    start_hand_then_node,
    write_hub_config,
)
from tests.support.wal_frames import commits, tear_last_commit

STEP = 0.3
"""The node's dealer: seconds between two motions."""
SEED = 1
LOSS = "event_log_loss_accepted"
STOP = 'event_log_torn = "stop"\n'


def picture(hub: HubProc) -> dict[str, Any]:
    """What the public page and the console show, without wall times and alert numbers,
    and without the alert that tells of the accepted loss."""
    public, console = hub.public(), hub.console_state()
    assert public is not None
    for view in (public["rules"], console):
        view["alerts"] = [a for a in view["alerts"] if a["code"] != LOSS]
    return {"public": scrub(public), "console": scrub(console)}


def test_a_torn_last_write_is_named_and_every_input_before_it_is_replayed(
    tmp_path: Path,
) -> None:
    broker = persistent_broker(tmp_path)
    broker.start()
    hub, node = hub_and_node(tmp_path, broker.url, seed=SEED, step_seconds=STEP)
    try:
        start_hand_then_node(hub, node)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # hand 1 played out, hand 2 under way
            dealer_step(hub)
            snap = hub.until(lambda s: True, what="the hub")
            if rules(snap)["hand"] >= 2 and sum(a["count"] for a in snap["antennas"]) >= 3:
                break
            time.sleep(0.05)
        assert rules(snap)["hand"] >= 2, snap
        hub.kill9()
    finally:
        node.stop()
        hub.stop()
        broker.stop()

    state = tmp_path / "state"
    whole = log_rows(state / "events.sqlite")
    torn = copy_state(state, tmp_path / "torn")
    _, found = commits(torn / "events.sqlite-wal")
    assert len(found) >= 10, "the hub's inputs are in the WAL (no checkpoint yet)"
    tear_last_commit(torn / "events.sqlite-wal")

    by_hand = copy_state(torn, tmp_path / "by-hand")  # for the operator's way (below)

    (tmp_path / "broker2").mkdir()
    other = MosquittoProcess(tmp_path / "broker2")  # nothing retained: replay only
    other.start()
    try:
        torn_port = free_port()
        stop = write_hub_config(tmp_path / "torn", other.url, torn_port, state_dir=torn, top=STOP)
        refused = feltwire("hub", "--config", str(stop))
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert "is damaged" in refused.stdout and "was torn" in refused.stdout
        assert "accept-loss" in refused.stdout and "Traceback" not in refused.stderr
        checked = feltwire("event-log", "check", "--config", str(stop))
        assert checked.returncode == 1 and "was torn" in checked.stdout

        # the default (event_log_torn = "drop"): the hub drops the torn write and starts
        torn_config = write_hub_config(tmp_path / "torn", other.url, torn_port, state_dir=torn)
        resumed = HubProc(torn_config, torn_port, tmp_path / "torn" / "hub.log")
        try:
            resumed.start()
            kept = log_rows(torn / "events.sqlite")
            lost = len(whole) - len(kept)
            assert lost >= 1  # the last commit, and nothing before it
            assert kept == whole[: len(kept)]  # byte for byte, chain included
            dropped = (
                f"input {len(whole)}" if lost == 1 else f"inputs {len(kept) + 1}..{len(whole)}"
            )
            told = [a for a in resumed.console_state()["alerts"] if a["code"] == LOSS]
            assert len(told) == 1 and f"dropped {dropped}" in told[0]["message"], told
            assert [
                a["code"] for a in rules(resumed.until(lambda s: True, what="it"))["alerts"]
            ].count(LOSS) == 1
            torn_picture = picture(resumed)
        finally:
            resumed.stop()
        seal = read_seal(state / "events.sqlite.seal")  # the whole log's
        assert seal is not None and (seal.seq, seal.prev_seq) == (len(whole), len(kept))
        lines = [ln for ln in resumed.log.read_text().splitlines() if f"dropped {dropped}" in ln]
        assert any("was torn" in ln and "WARNING" in ln for ln in lines), lines
        assert list(torn.glob("events.sqlite.damaged-*")), "the torn files are set aside"

        # the operator's way: `accept-loss` keeps the same inputs and says so
        accepted = feltwire(
            "event-log",
            "accept-loss",
            "--config",
            str(write_hub_config(tmp_path / "by-hand", other.url, free_port(), state_dir=by_hand)),
        )
        assert accepted.returncode == 0, accepted.stdout + accepted.stderr
        assert log_rows(by_hand / "events.sqlite") == kept
        assert f"dropped {dropped}" in accepted.stdout
        assert f"kept inputs 1..{len(kept)}" in accepted.stdout

        # the reference: a log of exactly the inputs before the torn one
        ref = tmp_path / "ref" / "state"
        log = EventLog(ref / "events.sqlite", "t1")
        log.append_many([(InputKind(k), json.loads(p), t, w) for _, t, k, p, w, _ in kept])
        log.close()
        assert log_rows(ref / "events.sqlite") == kept
        ref_port = free_port()
        reference = HubProc(
            write_hub_config(tmp_path / "ref", other.url, ref_port, state_dir=ref),
            ref_port,
            tmp_path / "ref" / "hub.log",
        )
        try:
            reference.start()
            ref_picture = picture(reference)
        finally:
            reference.stop()
    finally:
        other.stop()
    assert torn_picture == ref_picture
