"""Burst ingest: one node sends N valid reads as fast as the broker takes them; the hub
must log every one (``event_log_sync = "full"``) and apply it. Group commit (the
default ``event_log_batch``) beside one commit per read (``event_log_batch = 1``), in one
run (issue #16, acceptance 2).

    .venv/bin/python bench/burst_ingest.py                    # 5,000 reads, one run each
    .venv/bin/python bench/burst_ingest.py --repeats 3 --json results.json

Each run starts a Mosquitto on a free port and ``feltwire hub`` in a process of its own
(one table, live equity off, the event log in a temporary ``state_dir`` at full sync, the
node's rate limit raised so that no read of the burst is refused). This process is the
node: one paho client at QoS 1 with the node's in-flight window (100), retained, as
``feltwire.mqtt`` sends, publishing inventories of the board built with the protocol's
model, ``seq`` 1..N, two card sets in turn so that every read changes the antenna. The
rate is from the first publish to the N-th frame of the board on the hub's public MQTT
topic (the hub sends one for each read once it is logged and applied; a second client
here listens). Then the applied state is checked (``/api/stats``: the
table's changes, the node's last seq, the board's cards on ``/api/public``), the commits
read from ``/metrics`` (``feltwire_event_log_batch_inputs``), the hub stopped, and the
inventory rows of its event log counted with sqlite3. A read not logged or not applied
fails the run (exit 1). The runs of the two modes alternate; medians over ``--repeats``.

There is no peer to race here: the comparison is the hub with and without group commit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as paho
import tomli_w
from paho.mqtt.enums import CallbackAPIVersion
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.overlay_latency import HUB_PROCESS, cpu_seconds, machine, start_mosquitto  # noqa: E402
from feltwire.deck import simulated_deck  # noqa: E402
from feltwire.protocol import (  # noqa: E402
    ReaderInventory,
    encode,
    public_topic,
    reader_tags_topic,
)
from hub.config import EVENT_LOG_BATCH  # noqa: E402
from tests.support.ports import free_port  # noqa: E402

TABLE, NODE, READER = "t1", "burst", "board"
DECK = simulated_deck()
SETS = (("As", "Kd", "7c"), ("2h", "9s", "Qd"))
"""The board's two card sets, laid in turn (read ``seq`` shows ``SETS[seq % 2]``)."""
METRICS = "burst-bench-metrics-token-0123456789"
RATE_LIMIT, BURST = 100_000, 1_000_000
"""``node_rate_limit`` and ``node_burst`` for the bench's node: the config's largest, so
the hub refuses none of the burst (the defaults, 100/s and 500, would refuse most)."""
NODE_INFLIGHT = 100
"""The node's MQTT in-flight window (``feltwire.mqtt``)."""
MODES = (("group commit", EVENT_LOG_BATCH), ("one commit per read", 1))


# ------------------------------------------------------------------ the hub


def hub_toml(mqtt_port: int, web_port: int, state: Path, batch: int) -> str:
    return tomli_w.dumps(
        {
            "table": TABLE,
            "readers": [f"seat{n}" for n in range(1, 7)] + ["board", "burn", "muck"],
            "live_equity": False,
            "state_dir": str(state),
            "event_log_sync": "full",
            "event_log_batch": batch,
            "node_rate_limit": RATE_LIMIT,
            "node_burst": BURST,
            "mqtt": {"url": f"mqtt://127.0.0.1:{mqtt_port}"},
            "web": {"port": web_port, "metrics_token": METRICS},
        }
    )


class HubProcess:
    """``feltwire hub``'s :func:`start_hub` on the bench's config, in a process of its
    own (``bench/hub_process.py``)."""

    def __init__(self, workdir: Path, mqtt_port: int, batch: int) -> None:
        web_port = free_port()
        config = workdir / "hub.toml"
        config.write_text(hub_toml(mqtt_port, web_port, workdir / "state", batch))
        self.state = workdir / "state"
        self.log = workdir / "hub.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, str(HUB_PROCESS), str(config)],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.url = f"http://127.0.0.1:{web_port}"

    async def ready(self, http: httpx.AsyncClient, limit: float = 60) -> None:
        """Until the hub is subscribed at the broker (``/readyz`` says the broker is)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                body = (await http.get(f"{self.url}/readyz")).json()
                if body["broker"]["ok"]:
                    return
            await asyncio.sleep(0.1)
        raise TimeoutError("the hub did not connect to the broker")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ------------------------------------------------------------------ the node


def payloads(reads: int) -> list[tuple[str, bytes]]:
    """The node's ``reads`` inventories of the board, ``seq`` 1..reads, each a change."""
    topic = reader_tags_topic(TABLE, NODE, READER)
    ts = time.time()
    return [
        (
            topic,
            encode(
                ReaderInventory(
                    v=1,
                    node=NODE,
                    seq=seq,
                    ts=ts,
                    reader=READER,
                    uids=sorted(DECK.uid_for(c) for c in SETS[seq % 2]),
                )
            ),
        )
        for seq in range(1, reads + 1)
    ]


def connect_node(port: int) -> paho.Client:
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id=NODE)
    client.max_inflight_messages_set(NODE_INFLIGHT)
    client.max_queued_messages_set(0)  # paho queues the rest of the burst
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def burst(client: paho.Client, messages: list[tuple[str, bytes]]) -> tuple[float, float]:
    """Publish every message at QoS 1, retained, as fast as the broker acknowledges
    them: (monotonic time of the first publish, of the last acknowledgement)."""
    first = time.monotonic()
    infos = [client.publish(topic, body, qos=1, retain=True) for topic, body in messages]
    for info in infos:
        info.wait_for_publish(300)
        if not info.is_published():
            raise RuntimeError("the broker did not acknowledge the burst")
    return first, time.monotonic()


class Watch:
    """The hub's public MQTT topic (every frame of its public feed, sent once a read is
    logged and applied): when the board's ``reads``-th antenna frame came."""

    def __init__(self, port: int, reads: int) -> None:
        self.reads, self.frames = reads, 0
        self.done = threading.Event()
        self.at = 0.0
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id="burst-watch")
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(public_topic(TABLE), qos=1)
        self.client.loop_start()

    def _message(self, client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        body = json.loads(msg.payload)
        if body.get("type") == "antenna" and body.get("reader") == READER:
            self.frames += 1
            if self.frames == self.reads:
                self.at = time.monotonic()
                self.done.set()


# ------------------------------------------------------------------ one run


@dataclass
class RunResult:
    mode: str
    batch: int
    reads: int
    seconds: float
    """First publish → the last read's frame on the hub's public topic."""
    reads_per_s: float
    published_per_s: float
    """The broker's acknowledgements to the node (first publish → last PUBACK)."""
    commits: float
    logged: int
    """The node's inventory rows in the event log."""
    every_read_logged: bool
    """The rows are exactly the reads 1..N, in order, each once."""
    applied: bool
    refused: float
    lost: float
    hub_cpu_s: float

    @property
    def ok(self) -> bool:
        return self.applied and self.every_read_logged and not self.refused and not self.lost


async def stats(http: httpx.AsyncClient, url: str) -> dict[str, Any]:
    body: dict[str, Any] = (await http.get(f"{url}/api/stats")).json()
    return body


async def commits(http: httpx.AsyncClient, url: str) -> float:
    """The event log's transactions so far (``/metrics``)."""
    headers = {"Authorization": f"Bearer {METRICS}"}
    text = (await http.get(f"{url}/metrics", headers=headers)).text
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "feltwire_event_log_batch_inputs_count":
                return s.value
    return 0.0


def logged_reads(state: Path) -> list[int]:
    """The node's reads in the table's event log (after the hub stopped), by seq."""
    path = next(state.rglob("events.sqlite"))
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT payload FROM events WHERE table_id = ? AND kind = 'inventory' ORDER BY seq",
            (TABLE,),
        ).fetchall()
    finally:
        db.close()
    return [int(json.loads(p)["seq"]) for (p,) in rows if json.loads(p)["node"] == NODE]


def applied(body: dict[str, Any], public: dict[str, Any], reads: int) -> bool:
    """The hub applied every read: one antenna change each, the node's last seq the
    last read's, the board showing the last read's cards."""
    board = next(a for a in public["antennas"] if a["reader"] == READER)
    return (
        body["changes"] == reads
        and body["nodes"][NODE]["last_seq"] == reads
        and sorted(board["cards"]) == sorted(SETS[reads % 2])
    )


def refused_of(counters: dict[str, float]) -> float:
    return sum(
        v
        for k, v in counters.items()
        if k.startswith("rejected.") or k in ("duplicate", "stale", "failed")
    )


async def run_once(mode: str, batch: int, reads: int, limit_s: float) -> RunResult:
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-burst-"))
    broker = start_mosquitto(workdir)
    hub = HubProcess(workdir, broker.port, batch)
    client: paho.Client | None = None
    watch: Watch | None = None
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            await hub.ready(http)
            messages = payloads(reads)
            watch = Watch(broker.port, reads)
            client = connect_node(broker.port)
            await asyncio.sleep(0.5)  # both clients connected and subscribed
            before_commits, cpu_before = await commits(http, hub.url), cpu_seconds(hub.proc.pid)
            sending = asyncio.create_task(asyncio.to_thread(burst, client, messages))
            await asyncio.to_thread(watch.done.wait, limit_s)
            hub_cpu = cpu_seconds(hub.proc.pid) - cpu_before
            first, acked = await sending
            taken_at = watch.at if watch.done.is_set() else time.monotonic()
            await asyncio.sleep(0.5)  # anything still coming (a duplicate) is counted too
            body = await stats(http, hub.url)
            public = (await http.get(f"{hub.url}/api/public")).json()
            made = await commits(http, hub.url) - before_commits
    finally:
        for c in (client, watch.client if watch is not None else None):
            if c is not None:
                c.loop_stop()
                c.disconnect()
        hub.stop()
        broker.stop()
    seqs = logged_reads(hub.state)
    seconds = taken_at - first
    counters = body["counters"]
    result = RunResult(
        mode=mode,
        batch=batch,
        reads=reads,
        seconds=seconds,
        reads_per_s=counters.get("accepted", 0) / seconds,
        published_per_s=reads / (acked - first),
        commits=made,
        logged=len(seqs),
        every_read_logged=seqs == list(range(1, reads + 1)),
        applied=applied(body, public, reads),
        refused=refused_of(counters),
        lost=float(counters.get("lost", 0)),
        hub_cpu_s=hub_cpu,
    )
    if result.ok:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"   run failed; its folder (hub.log, state) kept: {workdir}")
    return result


# ------------------------------------------------------------------ the report

HEADER = (
    f"{'mode':<20} {'batch':>5} {'reads':>6} {'reads/s':>8} {'acked/s':>8} {'took s':>7} "
    f"{'commits':>7} {'reads/commit':>12} {'logged':>6} {'applied':>7} {'refused':>7} "
    f"{'lost':>4} {'hub CPU s':>9} {'CPU ms/read':>11}"
)


def row(r: RunResult, note: str = "") -> str:
    per_commit = r.reads / r.commits if r.commits else float("nan")
    return (
        f"{r.mode:<20} {r.batch:>5} {r.reads:>6} {r.reads_per_s:>8.0f} "
        f"{r.published_per_s:>8.0f} {r.seconds:>7.2f} {r.commits:>7.0f} {per_commit:>12.1f} "
        f"{r.logged:>6}{' ' if r.every_read_logged else '!'} "
        f"{'yes' if r.applied else 'NO':>7} {r.refused:>7.0f} {r.lost:>4.0f} "
        f"{r.hub_cpu_s:>9.2f} {1000 * r.hub_cpu_s / r.reads:>11.3f}{note}"
    )


def median_of(runs: list[RunResult]) -> RunResult:
    """Each timed figure's median; the counts of the worst run (a loss in any run shows)."""

    def med(name: str) -> float:
        return float(statistics.median(getattr(r, name) for r in runs))

    worst = min(runs, key=lambda r: (r.ok, r.logged == r.reads))
    return RunResult(
        mode=runs[0].mode,
        batch=runs[0].batch,
        reads=runs[0].reads,
        seconds=med("seconds"),
        reads_per_s=med("reads_per_s"),
        published_per_s=med("published_per_s"),
        commits=med("commits"),
        logged=worst.logged,
        every_read_logged=all(r.every_read_logged for r in runs),
        applied=all(r.applied for r in runs),
        refused=max(r.refused for r in runs),
        lost=max(r.lost for r in runs),
        hub_cpu_s=med("hub_cpu_s"),
    )


async def main_async(args: argparse.Namespace) -> int:
    print(f"machine: {machine()}")
    print(
        f"load: one node, {args.reads} valid reads of the board at QoS 1 (in flight "
        f"{NODE_INFLIGHT}), each a change; hub: one table, event_log_sync full, live "
        f"equity off, no rules; node_rate_limit raised to {RATE_LIMIT}/s and node_burst "
        f"to {BURST} so that none of the burst is refused (the defaults: 100/s, 500); "
        f"{args.repeats} run(s) per mode, alternating"
    )
    print(HEADER)
    modes = [m for m in MODES if args.only is None or m[1] == args.only]
    runs: dict[str, list[RunResult]] = {mode: [] for mode, _ in modes}
    for k in range(args.repeats):
        for mode, batch in modes:
            r = await run_once(mode, batch, args.reads, args.limit)
            runs[mode].append(r)
            print(row(r, f"   (run {k + 1}/{args.repeats})"), flush=True)
    medians = {mode: median_of(rs) for mode, rs in runs.items()}
    if args.repeats > 1:
        for r in medians.values():
            print(row(r, "   (median)"))
    if len(modes) < len(MODES):
        return 0 if all(r.ok for rs in runs.values() for r in rs) else 1
    group, single = (medians[mode] for mode, _ in MODES)
    ratio = group.reads_per_s / single.reads_per_s if single.reads_per_s else float("inf")
    print(
        f"group commit takes the burst at {ratio:.1f}x the rate of one commit per read "
        f"({group.reads_per_s:.0f} vs {single.reads_per_s:.0f} reads/s, medians); hub CPU "
        f"{1000 * group.hub_cpu_s / group.reads:.3f} vs "
        f"{1000 * single.hub_cpu_s / single.reads:.3f} ms a read"
    )
    failed = [r for rs in runs.values() for r in rs if not r.ok]
    if args.json:
        await asyncio.to_thread(
            Path(args.json).write_text,
            json.dumps(
                {
                    "machine": machine(),
                    "runs": [asdict(r) | {"ok": r.ok} for rs in runs.values() for r in rs],
                    "medians": {m: asdict(r) for m, r in medians.items()},
                    "ratio": ratio,
                },
                indent=2,
            ),
        )
    if failed:
        print(f"FAILED: {len(failed)} run(s) did not log and apply every read exactly once")
        return 1
    print(f"every read logged (full sync) and applied, in every run ({len(MODES) * args.repeats})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=5000, help="reads in the burst")
    parser.add_argument("--repeats", type=int, default=1, help="runs per mode (medians)")
    parser.add_argument("--limit", type=float, default=900, help="seconds a run may take")
    parser.add_argument("--json", help="write every run's figures to this file")
    parser.add_argument(
        "--only",
        type=int,
        choices=[batch for _, batch in MODES],
        help="run one mode only (its event_log_batch), e.g. to profile the hub with "
        "FELTWIRE_BENCH_PROFILE=hub.prof (cProfile)",
    )
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
