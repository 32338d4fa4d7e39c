"""Hub memory: RSS of one ``feltwire hub`` process at N tables with the rules and live equity
on, and whether it stays flat over a longer run (issue 16, acceptance 3).

    .venv/bin/python bench/memory.py                          # 1, 50, 200 tables; 2-minute run
    .venv/bin/python bench/memory.py --minutes 10             # the issue's 10-minute run
    .venv/bin/python bench/memory.py --tables 1 --minutes 0 --trace top.txt

The hub is the one of ``bench/overlay_latency.py`` (its config, processes and dealers are
reused from there): a Mosquitto of its own, ``feltwire hub`` in a process of its own with N
``[[tables]]``, a ``[rules]`` section per table (six players, rebuys), ``live_equity = true``
and the event log at ``event_log_sync = "full"``. This process opens every table's overlay
WebSocket (frames are read and counted: antenna and equity) and deals one inventory a
second per table. The hub's RSS (/proc VmRSS, with any child processes) is sampled every
``--sample`` seconds.

* Steps: for each N of ``--tables``, ``--seconds`` of dealing after ``--warmup``; reported
  are the RSS at the end, the largest sample, and MB per table above one table.
* The long run: ``--minutes`` at ``--long-tables`` tables; reported are the first and last
  samples from ``--settle`` seconds after the warm-up on, and their least-squares slope in
  MB per 10 minutes.
* ``--hub-env KEY=VALUE``: the hub process runs with that in its environment (to compare
  allocator settings such as ``MALLOC_ARENA_MAX=2``).
* ``--trace FILE``: the hub runs under :mod:`tracemalloc` (slower) and writes its top
  allocations to FILE at the end of each run (a file per run, the N in its name).

The targets are the issue's (≤ 120 MB at one table, ≤ 400 MB at 200, flat over 10 minutes);
there is no peer implementation to race.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import heapq
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from overlay_latency import (
    TOKEN,
    Dealer,
    Hub,
    HubOptions,
    close_rig,
    machine,
    serve_hub,
    start_mosquitto,
    start_publisher,
)

TRACE_ENV = "FELTWIRE_BENCH_TRACEMALLOC"
TARGET_ONE_MB = 120.0
TARGET_200_MB = 400.0


def rss_mb(pid: int) -> float:
    """Resident set size (VmRSS) of a process and its children, in MB (10**6 bytes), from
    Linux /proc."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return total / 1e6


def wait_for_file(path: Path, limit: float) -> bool:
    """Whether ``path`` appears within ``limit`` seconds (polled)."""
    deadline = time.monotonic() + limit
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def slope_mb_per_10min(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of ``(seconds, MB)`` samples, in MB per 10 minutes."""
    if len(samples) < 2:
        return float("nan")
    fit = statistics.linear_regression([t for t, _ in samples], [m for _, m in samples])
    return fit.slope * 600


@dataclass
class Run:
    tables: int
    seconds: float
    reads: int = 0
    antenna_frames: int = 0
    equity_frames: int = 0
    samples: list[tuple[float, float]] = field(default_factory=list)
    """``(seconds since dealing began, RSS MB)``, warm-up included."""
    idle_mb: float = 0.0
    """RSS once the hub is ready, before any socket or read."""

    def after(self, warmup: float) -> list[tuple[float, float]]:
        return [(t, m) for t, m in self.samples if t >= warmup]


async def run(n: int, seconds: float, args: argparse.Namespace, trace: Path | None) -> Run:
    """Deal to ``n`` tables for ``args.warmup + seconds``, sampling the hub's RSS."""
    tables = [f"m{i:03d}" for i in range(1, n + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-memory-"))
    opt = HubOptions(event_log=True, sync="full", equity=True, rules=True, broker_nodelay=True)
    broker = start_mosquitto(workdir, nodelay=True)
    env = dict(kv.split("=", 1) for kv in args.hub_env)
    if trace is not None:
        env[TRACE_ENV] = str(trace)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the hub process inherits them
    try:
        hub = Hub(workdir, tables, broker.port, opt, script=Path(__file__))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    result = Run(tables=n, seconds=seconds)
    sockets: list[ClientConnection] = []
    readers: list[asyncio.Task[None]] = []
    publisher = paho.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, client_id=f"memory-{os.getpid()}"
    )
    try:
        await hub.ready(limit=120)
        result.idle_mb = rss_mb(hub.proc.pid)
        base = hub.url.replace("http://", "ws://")

        async def read_frames(ws: ClientConnection) -> None:
            async for raw in ws:
                kind = json.loads(raw).get("type")
                if kind == "antenna":
                    result.antenna_frames += 1
                elif kind == "equity":
                    result.equity_frames += 1

        for t in tables:
            ws = await connect(f"{base}/ws/overlay?table={t}&token={TOKEN}", max_queue=None)
            await ws.recv()  # the snapshot
            sockets.append(ws)
            readers.append(asyncio.create_task(read_frames(ws)))
        start_publisher(publisher, broker.port)

        rng = random.Random(args.seed)
        dealers = [Dealer(t, random.Random(rng.random())) for t in tables]
        start = time.perf_counter() + 0.5
        end = start + args.warmup + seconds
        heap = [(start + rng.random(), i) for i in range(n)]  # phases spread over 1 s
        heapq.heapify(heap)
        next_sample = start
        while True:
            due, i = heap[0]
            if next_sample <= due:
                if next_sample >= end:
                    break
                delay = next_sample - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                result.samples.append((next_sample - start, rss_mb(hub.proc.pid)))
                next_sample += args.sample
                continue
            heapq.heappop(heap)
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            _, _, topic, payload = dealers[i].next_read()
            publisher.publish(topic, payload, qos=1, retain=True)
            result.reads += 1
            heapq.heappush(heap, (due + 1.0, i))
        result.samples.append((time.perf_counter() - start, rss_mb(hub.proc.pid)))
        await asyncio.sleep(3.0)  # frames still on their way are counted
        if trace is not None:
            hub.proc.send_signal(signal.SIGUSR1)
            await asyncio.to_thread(wait_for_file, trace, 120)
    finally:
        await close_rig(readers, sockets, publisher, hub, broker, workdir)
    return result


# ------------------------------------------------------------------ the hub side


def serve_traced(config_path: str) -> int:
    """The hub of ``config_path``; under tracemalloc when the bench asks, writing the top
    allocations to the file it names on SIGUSR1."""
    out = os.environ.get(TRACE_ENV)
    if out:
        import tracemalloc

        tracemalloc.start(12)

        def dump(_signum: int, _frame: object) -> None:
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            traced, peak = tracemalloc.get_traced_memory()
            lines = [f"traced {traced / 1e6:.1f} MB (peak {peak / 1e6:.1f} MB)", ""]
            lines.append("top 30 by line:")
            for stat in snap.statistics("lineno")[:30]:
                frame = stat.traceback[0]
                lines.append(
                    f"{stat.size / 1e6:8.2f} MB {stat.count:>8} blocks  "
                    f"{frame.filename}:{frame.lineno}"
                )
            lines.append("")
            lines.append("top 8 by traceback:")
            for stat in snap.statistics("traceback")[:8]:
                lines.append(f"{stat.size / 1e6:8.2f} MB {stat.count:>8} blocks")
                lines += ["    " + s for s in stat.traceback.format(limit=12)]
            tmp = Path(out + ".tmp")
            tmp.write_text("\n".join(lines) + "\n")
            tmp.rename(out)

        signal.signal(signal.SIGUSR1, dump)
    return serve_hub(config_path)


# ------------------------------------------------------------------ the report


def trace_file(base: str | None, n: int, label: str) -> Path | None:
    if base is None:
        return None
    p = Path(base)
    return p.with_name(f"{p.stem}-{label}{n}{p.suffix}")


async def main_async(args: argparse.Namespace) -> int:
    print(f"machine: {machine()} (shared with other sessions' work)")
    print(
        "hub: rules on (6 players, rebuy), live equity on, event log sync=full, one Mosquitto; "
        f"one read a second per table; {args.warmup:.0f} s warm-up, RSS every {args.sample:g} s"
        + (f"; hub environment {' '.join(args.hub_env)}" if args.hub_env else "")
    )
    out: dict[str, Any] = {"machine": machine(), "steps": [], "long": None}
    steps: list[Run] = []
    if args.tables:
        print(
            f"{'tables':>6} {'idle MB':>8} {'end MB':>8} {'max MB':>8} {'MB/table':>9} "
            f"{'reads':>7} {'antenna':>8} {'equity':>7}  target"
        )
    for n in args.tables:
        r = await run(n, args.seconds, args, trace_file(args.trace, n, "step"))
        steps.append(r)
        end_mb = r.samples[-1][1]
        peak = max(m for _, m in r.samples)
        one = steps[0] if steps[0].tables == 1 else None
        per = (end_mb - one.samples[-1][1]) / (n - 1) if one is not None and n > 1 else 0.0
        target = TARGET_ONE_MB if n == 1 else TARGET_200_MB if n == 200 else None
        verdict = (
            "" if target is None else f"<= {target:.0f}: {'ok' if end_mb <= target else 'MISS'}"
        )
        print(
            f"{n:>6} {r.idle_mb:>8.1f} {end_mb:>8.1f} {peak:>8.1f} {per:>9.2f} "
            f"{r.reads:>7} {r.antenna_frames:>8} {r.equity_frames:>7}  {verdict}"
        )
        out["steps"].append(asdict(r))
    if args.minutes > 0:
        n = args.long_tables
        r = await run(n, args.minutes * 60, args, trace_file(args.trace, n, "long"))
        kept = r.after(args.warmup + args.settle)
        slope = slope_mb_per_10min(kept)
        print(
            f"long run: {n} tables, {args.minutes:g} min after the warm-up, {len(kept)} samples "
            f"from {args.settle:g} s on: "
            f"first {kept[0][1]:.1f} MB, last {kept[-1][1]:.1f} MB, "
            f"max {max(m for _, m in kept):.1f} MB, slope {slope:+.2f} MB per 10 min "
            f"({r.reads} reads, {r.equity_frames} equity frames)"
        )
        out["long"] = asdict(r) | {"slope_mb_per_10min": slope}
    if args.json:
        await asyncio.to_thread(Path(args.json).write_text, json.dumps(out, indent=2))
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--serve-hub"]:
        return serve_traced(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        type=lambda s: [int(x) for x in s.split(",")] if s else [],
        default=[1, 50, 200],
        help="table counts of the steps (default 1,50,200; '' = none)",
    )
    parser.add_argument("--seconds", type=float, default=30, help="dealt seconds per step")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before measuring")
    parser.add_argument("--sample", type=float, default=5, help="seconds between RSS samples")
    parser.add_argument(
        "--minutes", type=float, default=2, help="the long run's length (0 = none; 10 for #16)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=60,
        help="the long run's first seconds after the warm-up, left out of its figures "
        "(the equity threads' heaps fill over the first half minute)",
    )
    parser.add_argument("--long-tables", type=int, default=50, help="tables of the long run")
    parser.add_argument("--seed", type=int, default=1, help="the dealers' random seed")
    parser.add_argument("--trace", help="run the hub under tracemalloc; top allocations here")
    parser.add_argument(
        "--hub-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the hub process (e.g. MALLOC_ARENA_MAX=2); repeatable",
    )
    parser.add_argument("--json", help="write the samples to this file")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
