"""Card read → overlay WebSocket frame latency, through a real Mosquitto, for one hub
process serving N simulated tables at live pace (issue #7, acceptance 4).

    .venv/bin/python bench/overlay_latency.py                    # N = 1, 50, then the sweep
    .venv/bin/python bench/overlay_latency.py --tables 200 --seconds 60
    .venv/bin/python bench/overlay_latency.py --repeats 3 --json results.json

Each run starts a Mosquitto on a free port and ``feltwire hub`` in a process of its own
with N ``[[tables]]`` (overlay delay 0 with ``allow_live_hole_cards``, the event log in a
temporary ``state_dir``). This process opens every table's ``/ws/overlay?table=…``
WebSocket and plays a dealer at each table: one inventory per second per table (a card
laid on a seat, the burn or the board, then the table cleared antenna by antenna), the
tables' phases spread evenly over the second. A read is stamped just before it is
published; its latency ends when the matching antenna frame (same table, antenna and
cards) arrives on that table's overlay WebSocket. The first ``--warmup`` seconds are not
counted. The sweep steps N up until p99 passes 100 ms.

The hub's peers here are its own targets (p99 ≤ 50 ms at 50 tables; ≥ 200 tables before
p99 passes 100 ms): there is no other implementation of this path to race.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import heapq
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from feltwire.cards import FULL_DECK  # noqa: E402
from feltwire.deck import simulated_deck  # noqa: E402
from tests.support.mosquitto import MosquittoProcess, template_queue_settings  # noqa: E402
from tests.support.ports import free_port  # noqa: E402

DECK = simulated_deck()
SEATS = 6
READERS = [f"seat{n}" for n in range(1, SEATS + 1)] + ["board", "burn", "muck"]
TOKEN = "bench-producer-token"
LIMIT_MS = 100.0
HUB_PROCESS = ROOT / "bench" / "hub_process.py"
"""The hub's process (``python HUB_PROCESS CONFIG``): nothing of the bench loaded in it."""


# ------------------------------------------------------------------ processes


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (children, their children …), alive now (Linux /proc):
    the hub's equity workers, their forkserver and multiprocessing's resource tracker."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], list(children.get(pid, []))
    while todo:
        child = todo.pop()
        found.append(child)
        todo += children.get(child, [])
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and every process under it (see :func:`descendants`)."""
    total = 0.0
    for p in [pid, *descendants(pid)]:
        with contextlib.suppress(OSError):
            total += cpu_seconds(p)
    return total


def rss_mb(pid: int) -> float:
    """Resident memory of a process so far, in MB (Linux /proc)."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def start_mosquitto(workdir: Path, *, nodelay: bool = False) -> MosquittoProcess:
    """A Mosquitto of the bench's own on a free port (the tests' broker fixture), with the
    queue settings of the template a club installs (``systemd/mosquitto/feltwire.conf``:
    its queue and in-flight window; its ``set_tcp_nodelay`` when ``nodelay``)."""
    broker = MosquittoProcess(
        workdir,
        extra_config="persistence false\n" + template_queue_settings(nodelay=nodelay) + "\n",
    )
    broker.start()
    return broker


@dataclass(frozen=True)
class HubOptions:
    """What the hub runs besides presence and the overlay feed."""

    event_log: bool = True
    sync: str = "full"
    equity: bool = False
    rules: bool = False
    broker_nodelay: bool = False
    cpus: tuple[int, ...] | None = None
    """The cores the hub process (and all it starts) may run on (None: any)."""


def hub_toml(tables: list[str], mqtt_port: int, web_port: int, state: Path, opt: HubOptions) -> str:
    lines = [
        f"readers = {json.dumps(READERS)}",
        f"live_equity = {'true' if opt.equity else 'false'}",
        f'event_log_sync = "{opt.sync}"',
    ]
    if opt.event_log:
        lines.append(f'state_dir = "{state}"')
    lines += [
        "[mqtt]",
        f'url = "mqtt://127.0.0.1:{mqtt_port}"',
        "[web]",
        f"port = {web_port}",
        f'producer_token = "{TOKEN}"',
        "overlay_delay_minutes = 0",
        "allow_live_hole_cards = true",
        # every overlay WebSocket of the bench comes from this one address (as from one
        # production machine): the per-address connection limit must admit them all
        f"max_connections_per_address = {len(tables) + 32}",
        f"max_connections = {max(1000, len(tables) + 64)}",
    ]
    if opt.rules:
        players = ", ".join(
            f'{{ seat = {s}, name = "P{s}", buy_in = 1000 }}' for s in range(1, SEATS + 1)
        )
        lines += ["[rules]", f"players = [{players}]", "rebuy = true"]
    for t in tables:
        lines += ["[[tables]]", f'table = "{t}"']
    return "\n".join(lines) + "\n"


class Hub:
    """The hub in a process of its own (:data:`HUB_PROCESS`): :func:`start_hub` on the
    bench's config, as ``feltwire hub`` runs it (``feltwire hub`` itself would give a config
    without a ``state_dir`` a default one; ``--no-event-log`` means none)."""

    def __init__(
        self,
        workdir: Path,
        tables: list[str],
        mqtt_port: int,
        opt: HubOptions,
        script: Path | None = None,
    ) -> None:
        """``script`` serves the hub (``python script CONFIG``; default
        :data:`HUB_PROCESS`)."""
        self.web_port = free_port()
        config = workdir / "hub.toml"
        config.write_text(hub_toml(tables, mqtt_port, self.web_port, workdir / "state", opt))
        self.log = workdir / "hub.log"
        cpus = opt.cpus
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, str(script or HUB_PROCESS), str(config)],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
            )
        self.url = f"http://127.0.0.1:{self.web_port}"

    async def ready(self, limit: float = 60) -> None:
        deadline = time.monotonic() + limit
        async with httpx.AsyncClient() as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the hub exited: {self.log.read_text()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"{self.url}/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise TimeoutError("the hub did not start")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ------------------------------------------------------------------ the dealers


def start_publisher(publisher: Any, port: int) -> None:
    """Connect the bench's one MQTT client (every table's reads) to the broker on ``port``
    and start its network thread."""
    publisher.max_inflight_messages_set(1000)
    publisher.connect("127.0.0.1", port)
    # one connection carries every table's reads here (hundreds a second, where a real
    # node sends about one): without TCP_NODELAY, Nagle would hold each read until
    # the broker acknowledged the last one, adding up to ~40 ms no real node sees
    sock = publisher.socket()
    assert isinstance(sock, socket.socket)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    publisher.loop_start()


async def close_rig(
    readers: list[asyncio.Task[Any]],
    sockets: list[Any],
    publisher: Any,
    hub: Hub,
    broker: Any,
    workdir: Path,
) -> None:
    """End a run: the overlay readers, their WebSockets, the node's MQTT client, the hub
    and the broker; the run's folder removed."""
    for task in readers:
        task.cancel()
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    publisher.disconnect()
    publisher.loop_stop()
    hub.stop()
    broker.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def hand_script(rng: random.Random) -> list[tuple[str, frozenset[str]]]:
    """One hand as the inventories a node sends, one per step: two hole cards to each
    seat (one at a time, round by round), burn, flop card by card, burn, turn, burn,
    river; then each antenna cleared. Every step changes one antenna."""
    cards = iter(rng.sample(FULL_DECK, len(FULL_DECK)))
    on: dict[str, set[str]] = {r: set() for r in READERS}
    steps: list[tuple[str, frozenset[str]]] = []

    def lay(reader: str) -> None:
        on[reader].add(next(cards))
        steps.append((reader, frozenset(on[reader])))

    for _ in range(2):
        for n in range(1, SEATS + 1):
            lay(f"seat{n}")
    for street in (3, 1, 1):
        lay("burn")
        for _ in range(street):
            lay("board")
    for reader in READERS:
        if on[reader]:
            on[reader].clear()
            steps.append((reader, frozenset()))
    return steps


@dataclass
class Dealer:
    """One simulated table: its node's sequence numbers and its script."""

    table: str
    rng: random.Random
    seq: int = 0
    script: list[tuple[str, frozenset[str]]] = field(default_factory=list)

    def next_read(self) -> tuple[str, frozenset[str], str, bytes]:
        if not self.script:
            self.script = hand_script(self.rng)
        reader, cards = self.script.pop(0)
        self.seq += 1
        body = {
            "v": 1,
            "node": "bench",
            "seq": self.seq,
            "ts": time.time(),
            "reader": reader,
            "uids": sorted(DECK.uid_for(c) for c in cards),
        }
        topic = f"feltwire/v1/{self.table}/node/bench/reader/{reader}/tags"
        return reader, cards, topic, json.dumps(body).encode()


# ------------------------------------------------------------------ one run


@dataclass
class RunResult:
    tables: int
    seconds: float
    reads: int
    samples: int
    lost: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    hub_cpu: float
    """The hub process's CPU use over the measurement, in cores (1.0 = one core busy)."""
    broker_cpu: float
    bench_cpu: float
    hub_rss_mb: float = float("nan")
    """The hub's resident memory at the end of the measurement."""


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


async def run_once(n: int, seconds: float, warmup: float, opt: HubOptions, seed: int) -> RunResult:
    tables = [f"b{i:03d}" for i in range(1, n + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-bench-"))
    broker = start_mosquitto(workdir, nodelay=opt.broker_nodelay)
    hub = Hub(workdir, tables, broker.port, opt)
    pending: dict[tuple[str, str, frozenset[str]], float] = {}
    latencies: list[float] = []
    counting = False
    sockets: list[ClientConnection] = []
    readers: list[asyncio.Task[None]] = []
    publisher = paho.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, client_id=f"bench-{os.getpid()}"
    )
    try:
        await hub.ready()
        base = hub.url.replace("http://", "ws://")

        async def read_frames(table: str, ws: ClientConnection) -> None:
            async for raw in ws:
                now = time.perf_counter()
                ev = json.loads(raw)
                if ev.get("type") != "antenna":
                    continue
                t0 = pending.pop((table, ev["reader"], frozenset(ev["cards"])), None)
                if t0 is not None and counting:
                    latencies.append((now - t0) * 1000)

        for t in tables:
            ws = await connect(f"{base}/ws/overlay?table={t}&token={TOKEN}", max_queue=None)
            snapshot = json.loads(await ws.recv())
            assert snapshot["type"] == "snapshot" and snapshot["table"] == t, snapshot
            sockets.append(ws)
            readers.append(asyncio.create_task(read_frames(t, ws)))
        start_publisher(publisher, broker.port)

        rng = random.Random(seed)
        dealers = [Dealer(t, random.Random(rng.random())) for t in tables]
        start = time.perf_counter() + 0.5
        heap = [(start + rng.random(), i) for i in range(n)]  # phases spread over 1 s
        heapq.heapify(heap)
        measure_from = start + warmup
        end = measure_from + seconds
        reads = 0
        cpu0: tuple[float, float, float] | None = None
        while heap[0][0] < end:
            due, i = heapq.heappop(heap)
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if not counting and time.perf_counter() >= measure_from:
                counting = True
                pending.clear()  # reads sent in the warm-up are not counted
                assert broker.proc is not None
                cpu0 = (
                    tree_cpu_seconds(hub.proc.pid),
                    cpu_seconds(broker.proc.pid),
                    time.process_time(),
                )
                wall0 = time.perf_counter()
            reader, cards, topic, payload = dealers[i].next_read()
            pending[(dealers[i].table, reader, cards)] = time.perf_counter()
            publisher.publish(topic, payload, qos=1, retain=True)
            if counting:
                reads += 1
            heapq.heappush(heap, (due + 1.0, i))
        assert cpu0 is not None
        wall = time.perf_counter() - wall0
        assert broker.proc is not None
        hub_cpu = (tree_cpu_seconds(hub.proc.pid) - cpu0[0]) / wall
        broker_cpu = (cpu_seconds(broker.proc.pid) - cpu0[1]) / wall
        bench_cpu = (time.process_time() - cpu0[2]) / wall
        hub_rss_mb = rss_mb(hub.proc.pid)
        await asyncio.sleep(3.0)  # frames still on their way
        lost = len(pending)
    finally:
        await close_rig(readers, sockets, publisher, hub, broker, workdir)
    values = sorted(latencies)
    return RunResult(
        tables=n,
        seconds=round(wall, 1),
        reads=reads,
        samples=len(values),
        lost=lost,
        p50_ms=round(percentile(values, 50), 2),
        p99_ms=round(percentile(values, 99), 2),
        max_ms=round(values[-1] if values else float("nan"), 2),
        hub_cpu=round(hub_cpu, 2),
        broker_cpu=round(broker_cpu, 2),
        bench_cpu=round(bench_cpu, 2),
        hub_rss_mb=round(hub_rss_mb, 1),
    )


# ------------------------------------------------------------------ the report


def machine() -> str:
    model = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = os.getloadavg()
    return (
        f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, "
        f"load average before the run {load[0]:.2f}"
    )


HEADER = (
    f"{'tables':>6} {'reads/s':>8} {'samples':>8} {'lost':>5} {'p50 ms':>8} {'p99 ms':>8} "
    f"{'max ms':>8} {'hub CPU':>8} {'broker':>7} {'bench':>6}"
)


def row(r: RunResult) -> str:
    return (
        f"{r.tables:>6} {r.reads / r.seconds:>8.0f} {r.samples:>8} {r.lost:>5} "
        f"{r.p50_ms:>8.2f} {r.p99_ms:>8.2f} {r.max_ms:>8.1f} {r.hub_cpu:>8.2f} "
        f"{r.broker_cpu:>7.2f} {r.bench_cpu:>6.2f}"
    )


def median_result(runs: list[RunResult]) -> RunResult:
    """Each figure's median over repeated runs of one N."""
    fields = [f for f in RunResult.__dataclass_fields__ if f != "tables"]
    med = {k: statistics.median(getattr(r, k) for r in runs) for k in fields}
    return RunResult(tables=runs[0].tables, **med)


async def measure(
    n: int, args: argparse.Namespace, opt: HubOptions, out: list[dict[str, Any]]
) -> RunResult:
    runs = []
    for k in range(args.repeats):
        seconds = args.seconds if n > 1 else max(args.seconds, args.single_seconds)
        r = await run_once(n, seconds, args.warmup, opt, seed=args.seed + k)
        print(row(r) + (f"   (run {k + 1}/{args.repeats})" if args.repeats > 1 else ""))
        out.append(asdict(r) | {"run": k + 1})
        runs.append(r)
    med = median_result(runs)
    if args.repeats > 1:
        print(row(med) + "   (median)")
    return med


async def main_async(args: argparse.Namespace) -> int:
    opt = HubOptions(
        event_log=not args.no_event_log,
        sync=args.sync,
        equity=args.equity,
        rules=args.rules,
        broker_nodelay=args.broker_nodelay,
    )
    print(f"machine: {machine()}")
    print(
        f"hub: event log {'off' if not opt.event_log else 'sync=' + opt.sync}, "
        f"live equity {'on' if opt.equity else 'off'}, rules {'on' if opt.rules else 'off'}, "
        f"Mosquitto set_tcp_nodelay {'true' if opt.broker_nodelay else 'false'}; "
        f"{args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up, "
        f"{args.repeats} run(s) per N"
    )
    print(HEADER)
    out: list[dict[str, Any]] = []
    medians: dict[int, RunResult] = {}
    for n in args.tables:
        medians[n] = await measure(n, args, opt, out)
    carried = None
    if args.sweep:
        for n in args.sweep:
            if n not in medians:
                medians[n] = await measure(n, args, opt, out)
            if medians[n].p99_ms > LIMIT_MS or medians[n].lost:
                break
            carried = n
        print(
            f"largest N of the sweep with p99 <= {LIMIT_MS:.0f} ms and nothing lost: "
            f"{carried if carried is not None else 'none'}"
        )
    if args.json:
        await asyncio.to_thread(
            Path(args.json).write_text,
            json.dumps(
                {
                    "machine": machine(),
                    "options": asdict(opt),
                    "runs": out,
                    "medians": {n: asdict(r) for n, r in medians.items()},
                    "carried": carried,
                },
                indent=2,
            ),
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 50],
        help="table counts to measure first (default 1,50)",
    )
    parser.add_argument(
        "--sweep",
        type=lambda s: [int(x) for x in s.split(",")] if s else [],
        default=[50, 100, 200, 300, 400, 500, 600],
        help="table counts stepped up until p99 passes 100 ms ('' = no sweep)",
    )
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds per run")
    parser.add_argument(
        "--single-seconds",
        type=float,
        default=120,
        help="measured seconds for N = 1 (one read a second: more samples for its p99)",
    )
    parser.add_argument("--warmup", type=float, default=5, help="uncounted seconds first")
    parser.add_argument("--repeats", type=int, default=1, help="runs per N (medians reported)")
    parser.add_argument("--seed", type=int, default=1, help="the dealers' random seed")
    parser.add_argument("--no-event-log", action="store_true", help="run the hub without a log")
    parser.add_argument(
        "--sync", choices=["full", "normal"], default="full", help="event_log_sync (default full)"
    )
    parser.add_argument("--equity", action="store_true", help="live equity on the overlay")
    parser.add_argument("--rules", action="store_true", help="a [rules] section per table")
    parser.add_argument(
        "--broker-nodelay",
        action="store_true",
        help="Mosquitto with set_tcp_nodelay true (no Nagle delay on its sends)",
    )
    parser.add_argument("--json", help="write every run's figures to this file")
    args = parser.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
