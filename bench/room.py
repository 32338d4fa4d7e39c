"""The card room: one hub carrying N tables of the real workload at live pace — the rules,
live equity and the event log at ``event_log_sync = "full"`` — beside the bare read path,
through one Mosquitto, in one run (issue #16).

    .venv/bin/python bench/room.py                              # 50 tables, hold'em
    .venv/bin/python bench/room.py --quick                      # 3 tables, a check
    .venv/bin/python bench/room.py --game PO --repeats 3        # pot-limit Omaha
    .venv/bin/python bench/room.py --sweep 50,100,200,400 --json room.json
    .venv/bin/python bench/room.py --sweep 10,20,40 --hub-cpus 0   # the hub on one core

Each step of N runs, ``--repeats`` times each (medians printed):

* **room** — :mod:`bench.soak`'s tables (:mod:`bench.table_rig`): ``feltwire hub`` in a
  process of its own with N ``[[tables]]`` of ``--game`` (``NT`` no-limit hold'em, ``PO``
  pot-limit Omaha: four hole cards), ``[rules]`` seating six players, live equity on, the
  event log fsync'd; per table, in a bench process holding at most
  ``--tables-per-process`` tables (100; :mod:`bench.room_shards`: one process held 400
  tables' 1,029 descriptors, and paho's ``select()`` serves none numbered 1,024 or more;
  and ~800 threads under one GIL stamped their own frames late), a simulated node (the
  node's own code, one MQTT connection) under the demo's simulated dealer, who deals legal
  hands card by card at ``--pace`` × live pace (one motion a second at 1, each varying
  ±``--jitter`` of it: :data:`~bench.table_rig.JITTER`) and plays the players' random
  legal actions through the console's HTTP API, a dealing mistake in ``--mistakes`` of the
  hands; the table's ``/ws/overlay`` and (unless ``--no-console-feed``) its
  ``/ws/console`` open, as a producer's overlay and the dealer's console page hold them.
* **bare** — :mod:`bench.overlay_latency`'s bare mode at the same N: no rules, no equity,
  the event log fsync'd, one scripted read a second per table.

Figures, over ``--seconds`` after ``--warmup`` seconds:

* read → overlay: from just before the node publishes an inventory to its antenna frame
  on the table's overlay WebSocket, p50/p99/max; lost: reads published that never showed
  on the overlay, and (room) reads published against the inputs in the event logs;
* action → console: a console input's HTTP call to the hub's answer, p50/p99/max; and a
  betting action's call to its frame on the console WebSocket (the first public event of
  the answer, matched by content);
* equity (room): for each street's last card in a hand with no mistake — the last hole
  card, the flop's third card, the turn, the river — from just before its read is
  published to the first equity frame of those cards (``first``) and to the exact one
  (``exact``; where the hub's final figure is an estimate, as Omaha's before the flop, the
  final estimate instead, counted apart). A change of cards before the frame came
  supersedes the measurement (counted);
* the hub's CPU (cores) and resident memory, summed over the hub and its descendants
  (``/proc``), and memory per table; Mosquitto's CPU and the bench's (this process and
  its shard processes); the bench's lag — how late the dealers' pauses woke (p99) and the
  motions a table made a second against the pace — so a slow bench is not taken for a
  slow hub. Once a shard's tables are set up, its own cyclic collector is frozen and set
  as the hub's (:func:`~bench.table_rig.quiet_collector`): its full collections stamped
  the frames that arrived meanwhile late.

The sweep steps N up until the room's median p99 read → overlay passes 100 ms. With
``--hub-cpus 0`` the hub and everything it starts run on core 0 only
(``os.sched_setaffinity`` before it execs; a proxy for a Raspberry Pi's budget) and this
process, its shards and Mosquitto on the other cores; the result names the most tables
with p99 ≤ ``--target-ms`` (50).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.overlay_latency import (  # noqa: E402
    HubOptions,
    cpu_seconds,
    machine,
    percentile,
    run_once,
    start_mosquitto,
)
from bench.room_shards import (  # noqa: E402
    COLLECT_S,
    READY_S,
    Shards,
    ShardSpec,
    ShardWindow,
    split,
)
from bench.room_shards import RoomWatch as RoomWatch  # noqa: E402  (tests import it here)
from bench.room_shards import feed_key as feed_key  # noqa: E402
from bench.table_rig import (  # noqa: E402
    JITTER,
    hub_config,
    process_tree,
    release_collector,
    tree_rss_mb,
)
from simulator.monitor_table import MOTION  # noqa: E402
from tests.support.mosquitto import template_queue_settings  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.table_procs import logged_reads  # noqa: E402

LIMIT_MS = 100.0
STOP_S = 120.0
"""How long the hub is given to stop at a run's end before it is killed."""
STREETS = ("hole", "flop", "turn", "river")


# ------------------------------------------------------------------ one run


@dataclass
class Step:
    """One run's figures (``mode`` room or bare)."""

    mode: str
    tables: int
    seconds: float
    reads: int = 0
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    max_ms: float = float("nan")
    lost_frames: int = 0
    lost_logged: int = 0
    actions: int = 0
    action_p50_ms: float = float("nan")
    action_p99_ms: float = float("nan")
    action_max_ms: float = float("nan")
    feed_p50_ms: float = float("nan")
    feed_p99_ms: float = float("nan")
    feed_max_ms: float = float("nan")
    hub_cores: float = float("nan")
    hub_waiting: float = float("nan")
    """Seconds a second the hub's threads were runnable but had no core (other load)."""
    rss_mb: float = float("nan")
    rss_mb_per_table: float = float("nan")
    hub_processes: int = 1
    broker_cores: float = float("nan")
    bench_cores: float = float("nan")
    lag_p99_ms: float = float("nan")
    motions_per_s: float = float("nan")
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    equity: list[dict[str, Any]] = field(default_factory=list)
    superseded: dict[str, int] = field(default_factory=dict)
    load1: float = float("nan")
    stop_s: float = float("nan")
    """Seconds the hub took to stop on SIGTERM at the run's end (nan: killed after
    :data:`STOP_S`)."""


def _pcts(values: Sequence[float]) -> tuple[float, float, float]:
    s = sorted(values)
    if not s:
        return (float("nan"),) * 3
    return round(percentile(s, 50), 1), round(percentile(s, 99), 1), round(s[-1], 1)


def tree_waited(pid: int) -> float:
    """Seconds the threads of ``pid`` and its descendants have spent runnable but waiting
    for a core so far (``/proc/…/task/…/schedstat``: the machine's other load)."""
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the hub exited: {log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                return
        time.sleep(0.2)
    raise TimeoutError("the hub did not start")


def run_room(n: int, args: argparse.Namespace, cpus: tuple[int, ...] | None, seed: int) -> Step:
    names = [f"r{i:03d}" for i in range(1, n + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-room-"))
    broker = start_mosquitto(workdir, nodelay=True)
    web_port = free_port()
    url = f"http://127.0.0.1:{web_port}"
    config = workdir / "hub.toml"
    config.write_text(
        hub_config(
            names,
            broker.port,
            web_port,
            workdir / "state",
            args.pace,
            game=args.game,
            sockets_per_table=3,
            equity=args.equity,
            equity_workers=args.equity_workers,
        )
    )
    log = workdir / "hub.log"
    env = os.environ | {"MALLOC_ARENA_MAX": "2"}  # as the hub's systemd unit sets
    rng = random.Random(seed)
    seeds = [rng.random() for _ in names]  # each table's dealer's, however they are spread
    specs, at = [], 0
    for k, part in enumerate(split(names, args.tables_per_process)):
        specs.append(
            ShardSpec(
                index=k, tables=part, dealer_seeds=seeds[at : at + len(part)],
                broker_port=broker.port, broker_log=broker.log, url=url, pace=args.pace,
                game=args.game, equity=args.equity, jitter=args.jitter, seed=seed,
                mistakes=args.mistakes, console_feed=args.console_feed,
            )
        )  # fmt: skip
        at += len(part)
    step = Step("room", n, args.seconds, load1=round(os.getloadavg()[0], 2))
    proc: subprocess.Popen[bytes] | None = None
    shards: Shards | None = None
    try:
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "feltwire", "hub", "--config", str(config)],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
            )
        _wait_healthy(url, proc, log)
        pid = proc.pid
        shards = Shards(specs)
        shards.hear("ready", READY_S)  # every shard's overlays open, its nodes connected
        shards.tell("deal")
        shards.pause(args.warmup, "in the warm-up")
        assert broker.proc is not None
        mosquitto = broker.proc.pid

        def cpu() -> tuple[float, float, float, float, float]:
            hub_s = 0.0
            for p in process_tree(pid):
                with contextlib.suppress(OSError):
                    hub_s += cpu_seconds(p)
            assert shards is not None
            return (
                hub_s,
                cpu_seconds(mosquitto),
                time.process_time() + shards.cpu(),
                time.perf_counter(),
                tree_waited(pid),
            )

        shards.tell("mark")
        c0 = cpu()
        rss: list[float] = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            shards.pause(min(5.0, max(0.0, end - time.monotonic())), "in the measured window")
            rss.append(tree_rss_mb(pid))
        c1 = cpu()
        step.hub_processes = len(process_tree(pid))
        wall = c1[3] - c0[3]
        shards.tell("collect")  # the window's figures, then the dealers stop
        windows: list[ShardWindow] = shards.hear("collected", COLLECT_S)
        published = sum(shards.stop())
    finally:
        if shards is not None:
            shards.close()
        if proc is not None:
            stopping = time.perf_counter()
            proc.terminate()
            try:
                proc.wait(STOP_S)
                step.stop_s = round(time.perf_counter() - stopping, 1)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        broker.stop()
    logged = 0
    for t in names:
        db = workdir / "state" / t / "events.sqlite"
        with contextlib.suppress(sqlite3.Error):
            logged += len(logged_reads(db))
    shutil.rmtree(workdir, ignore_errors=True)
    lat = [x for w in windows for x in w.latencies]
    answered = [x for w in windows for x in w.answered]
    wakes = [x for w in windows for x in w.wakes]
    step.seconds = round(wall, 1)
    step.reads = len(lat)
    step.p50_ms, step.p99_ms, step.max_ms = _pcts(lat)
    step.lost_frames = sum(w.lost_frames for w in windows)
    step.lost_logged = published - logged
    step.actions = len(answered)
    step.action_p50_ms, step.action_p99_ms, step.action_max_ms = _pcts(answered)
    step.feed_p50_ms, step.feed_p99_ms, step.feed_max_ms = _pcts(
        [x for w in windows for x in w.feed]
    )
    step.hub_cores = round((c1[0] - c0[0]) / wall, 2)
    step.hub_waiting = round((c1[4] - c0[4]) / wall, 2)
    step.rss_mb = round(statistics.median(rss), 1)
    step.rss_mb_per_table = round(step.rss_mb / n, 2)
    step.broker_cores = round((c1[1] - c0[1]) / wall, 2)
    step.bench_cores = round((c1[2] - c0[2]) / wall, 2)
    step.lag_p99_ms = _pcts(wakes)[1]
    step.motions_per_s = round(len(wakes) / n / wall, 2)
    step.hands = sum(w.hands for w in windows)
    step.errors = [e for w in windows for e in w.errors][:5]
    step.equity = [e for w in windows for e in w.equity]
    total: Counter[str] = Counter()
    for w in windows:
        total.update(w.superseded)
    step.superseded = dict(total)
    return step


def run_bare(n: int, args: argparse.Namespace, cpus: tuple[int, ...] | None, seed: int) -> Step:
    load1 = round(os.getloadavg()[0], 2)
    opt = HubOptions(broker_nodelay=True, cpus=cpus)
    r = asyncio.run(run_once(n, args.seconds, args.warmup, opt, seed))
    return Step(
        "bare", n, r.seconds, reads=r.samples, p50_ms=r.p50_ms, p99_ms=r.p99_ms,
        max_ms=r.max_ms, lost_frames=r.lost, hub_cores=r.hub_cpu, rss_mb=r.hub_rss_mb,
        rss_mb_per_table=round(r.hub_rss_mb / n, 2), broker_cores=r.broker_cpu,
        bench_cores=r.bench_cpu, load1=load1,
    )  # fmt: skip


# ------------------------------------------------------------------ the report

NUMERIC = [
    f for f, t in Step.__dataclass_fields__.items()
    if t.type in ("float", "int") and f != "tables"
]  # fmt: skip


def median_step(runs: list[Step]) -> Step:
    """Each figure's median over the repeats; equity samples and errors pooled."""
    med = {k: statistics.median(getattr(r, k) for r in runs) for k in NUMERIC}
    out = Step(runs[0].mode, runs[0].tables, **med)
    out.equity = [e for r in runs for e in r.equity]
    out.errors = [e for r in runs for e in r.errors][:5]
    total: Counter[str] = Counter()
    for r in runs:
        total.update(r.superseded)
    out.superseded = dict(total)
    return out


HEADER = (
    f"{'mode':<5} {'N':>4} {'reads':>6} {'p50':>6} {'p99':>7} {'max':>7} {'lost':>5} "
    f"{'act p50':>7} {'p99':>6} {'max':>6} {'feed p99':>8} {'hub':>5} {'wait':>5} {'RSS MB':>7} "
    f"{'/table':>6} {'mosq':>5} {'bench':>5} {'lag99':>6} {'mot/s':>5} {'load':>5}"
)


def row(s: Step, note: str = "") -> str:
    lost = f"{s.lost_frames:.0f}" + (f"/{s.lost_logged:.0f}" if s.mode == "room" else "")
    return (
        f"{s.mode:<5} {s.tables:>4} {s.reads:>6.0f} {s.p50_ms:>6.1f} {s.p99_ms:>7.1f} "
        f"{s.max_ms:>7.1f} {lost:>5} {s.action_p50_ms:>7.1f} {s.action_p99_ms:>6.1f} "
        f"{s.action_max_ms:>6.0f} {s.feed_p99_ms:>8.1f} {s.hub_cores:>5.2f} "
        f"{s.hub_waiting:>5.2f} {s.rss_mb:>7.0f} "
        f"{s.rss_mb_per_table:>6.2f} {s.broker_cores:>5.2f} {s.bench_cores:>5.2f} "
        f"{s.lag_p99_ms:>6.0f} {s.motions_per_s:>5.2f} {s.load1:>5.2f}{note}"
    )


def equity_rows(s: Step) -> list[dict[str, Any]]:
    """Per street and in all: samples, first frame p50/p99, exact (or final) p50/p99."""
    out = []
    for street in (*STREETS, "all"):
        es = [e for e in s.equity if street in ("all", e["street"])]
        exact = [e["final_ms"] for e in es if e["exact"]]
        est = [e["final_ms"] for e in es if not e["exact"]]
        first = _pcts([e["first_ms"] for e in es])
        out.append({
            "street": street,
            "samples": len(es),
            "first_p50_ms": first[0],
            "first_p99_ms": first[1],
            "exact": len(exact),
            "exact_p50_ms": _pcts(exact)[0],
            "exact_p99_ms": _pcts(exact)[1],
            "estimate_final": len(est),
            "estimate_p50_ms": _pcts(est)[0],
            "superseded": s.superseded.get(street, sum(s.superseded.values())
                                           if street == "all" else 0),
        })  # fmt: skip
    return out


def print_equity(s: Step, game: str) -> None:
    print(
        f"equity ({game}, {s.tables} tables): street  samples  first p50/p99 ms  "
        "exact n  p50/p99 ms  final estimate n  p50 ms  superseded"
    )
    for e in equity_rows(s):
        print(
            f"  {e['street']:<6} {e['samples']:>6}  {e['first_p50_ms']:>7.1f} / "
            f"{e['first_p99_ms']:<7.1f} {e['exact']:>6}  {e['exact_p50_ms']:>7.1f} / "
            f"{e['exact_p99_ms']:<7.1f} {e['estimate_final']:>8}  {e['estimate_p50_ms']:>7.1f} "
            f"{e['superseded']:>8}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    parser.add_argument("--tables", type=int, default=50, help="N without a sweep (50)")
    parser.add_argument("--sweep", type=ints, default=[], help="N stepped up, e.g. 50,100,200")
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds (60)")
    parser.add_argument("--warmup", type=float, default=20, help="uncounted seconds first (20)")
    parser.add_argument("--repeats", type=int, default=1, help="runs per N and mode (medians)")
    parser.add_argument("--pace", type=float, default=1, help="× live pace (1)")
    parser.add_argument(
        "--jitter",
        type=float,
        default=JITTER,
        help=f"each motion's time varies ± this share of it ({JITTER}; 0: metronomes)",
    )
    parser.add_argument("--game", choices=["NT", "PO"], default="NT", help="hold'em or PLO")
    parser.add_argument("--mistakes", type=float, default=0.03, help="share of hands with one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tables-per-process", type=int, default=100,
        help="the most tables one bench process holds (100; more tables: more processes)",
    )  # fmt: skip
    parser.add_argument("--no-bare", action="store_true", help="the room mode only")
    parser.add_argument(
        "--no-equity", dest="equity", action="store_false", help="live equity off (a diagnosis)"
    )
    parser.add_argument(
        "--no-console-feed", dest="console_feed", action="store_false",
        help="no /ws/console per table (and no action → feed figure)",
    )  # fmt: skip
    parser.add_argument(
        "--equity-workers", type=int, default=None,
        help="the hub's equity_workers (unset: its default)",
    )  # fmt: skip
    parser.add_argument(
        "--hub-cpus", type=ints, default=None,
        help="cores the hub runs on, e.g. 0 (the bench and Mosquitto: the others)",
    )  # fmt: skip
    parser.add_argument("--target-ms", type=float, default=50, help="p99 for 'tables carried'")
    parser.add_argument("--quick", action="store_true", help="3 tables, 45 s + 15 s warm-up")
    parser.add_argument("--json", help="write every run's figures to this file")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.sweep, args.seconds, args.warmup, args.repeats = 3, [], 45, 15, 1
    cpus = tuple(args.hub_cpus) if args.hub_cpus else None
    if cpus is not None:  # this process (its shards, Mosquitto) off the hub's cores
        others = set(range(os.cpu_count() or 1)) - set(cpus)
        os.sched_setaffinity(0, others or set(cpus))
    print(f"machine: {machine()}")
    print(
        f"room: {args.game}, rules + live equity {'on' if args.equity else 'OFF'} + "
        f"event_log_sync full, pace {args.pace:g}× (± {args.jitter:.0%} a motion), "
        f"mistakes in {args.mistakes:.0%} of hands, console feed "
        f"{'on' if args.console_feed else 'off'}; hub on cores "
        f"{'any' if cpus is None else ','.join(map(str, cpus))}; {args.seconds:g} s after "
        f"{args.warmup:g} s warm-up, {args.repeats} run(s) per N and mode; Mosquitto with "
        f"the template's {template_queue_settings().replace(chr(10), ', ')}\n"
        "latencies ms; lost = frames never shown (room: /published − logged); hub cores and "
        "RSS of the hub and its children, wait = its threads runnable with no core free "
        "(s/s); lag99 = the bench's pauses, ms late; mot/s = "
        f"motions a table made a second (pace: {args.pace / MOTION:g})"
    )
    print(HEADER, flush=True)
    runs: list[Step] = []
    medians: dict[str, dict[int, Step]] = {"room": {}, "bare": {}}
    carried: int | None = None
    target: int | None = None
    modes = ("room",) if args.no_bare else ("room", "bare")
    for n in args.sweep or [args.tables]:
        mine: dict[str, list[Step]] = {m: [] for m in modes}
        for k in range(args.repeats):  # the modes interleaved: the machine's load drifts
            for mode in modes:
                fn = run_room if mode == "room" else run_bare
                s = fn(n, args, cpus, args.seed + k)
                release_collector()  # the run's clients and their descriptors gone
                print(row(s, f"  ({k + 1}/{args.repeats})" if args.repeats > 1 else ""), flush=True)
                if s.mode == "room":
                    print(f"  the hub stopped {s.stop_s:g} s after SIGTERM (nan: killed)")
                if s.errors:
                    print(f"  errors: {s.errors}")
                mine[mode].append(s)
                runs.append(s)
        for mode in modes:
            medians[mode][n] = median_step(mine[mode])
            if args.repeats > 1:
                print(row(medians[mode][n], "  (median)"), flush=True)
        room = medians["room"][n]
        print_equity(room, args.game)
        if room.p99_ms <= args.target_ms and not room.lost_frames:
            target = n
        if room.p99_ms > LIMIT_MS or room.lost_frames:
            break
        carried = n
    if args.sweep:
        print(f"largest N with the room's p99 ≤ {LIMIT_MS:.0f} ms, nothing lost: {carried}")
        print(f"largest N with the room's p99 ≤ {args.target_ms:.0f} ms, nothing lost: {target}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "machine": machine(),
                    "args": {k: v for k, v in vars(args).items()},
                    "runs": [asdict(r) | {"equity": len(r.equity)} for r in runs],
                    "medians": {
                        mode: {n: asdict(s) | {"equity": equity_rows(s)} for n, s in ms.items()}
                        for mode, ms in medians.items()
                    },
                    "carried_100ms": carried,
                    "carried_target": target,
                },
                indent=2,
                default=str,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
