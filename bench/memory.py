"""Hub memory: RSS of one ``feltwire hub`` process at N tables with the rules and live equity
on, and whether it stays flat over a longer run (issue 16, acceptance 3).

    .venv/bin/python bench/memory.py                          # 1, 50, 200 tables; 2-minute run
    .venv/bin/python bench/memory.py --minutes 10             # the issue's 10-minute run
    .venv/bin/python bench/memory.py --tables 1 --minutes 0 --trace top.txt
    .venv/bin/python bench/memory.py --tables '' --minutes 6 --native --types --without equity

The hub is the one of ``bench/overlay_latency.py`` (its config, processes and dealers are
reused from there): a Mosquitto of its own, ``feltwire hub`` in a process of its own
(``bench/hub_process.py``, which loads nothing of the bench: its RSS is the hub's) with N
``[[tables]]``, a ``[rules]`` section per table (six players, rebuys), ``live_equity = true``
and the event log at ``event_log_sync = "full"``. This process opens every table's overlay
WebSocket (frames are read and counted: antenna and equity) and deals one inventory a
second per table (no betting action is entered: each table's first hand runs on for the
whole run, its dealing alerts with it). The hub's RSS (/proc VmRSS of the hub and of every
process descended from it, found by the parent pid in /proc/*/stat, so an equity worker
process counts) is sampled every ``--sample`` seconds.

* Steps: for each N of ``--tables``, ``--seconds`` of dealing after ``--warmup``; reported
  are the RSS at the end, the largest sample, and MB per table above one table.
* The long run: ``--minutes`` at ``--long-tables`` tables; reported are the first and last
  samples from ``--settle`` seconds after the warm-up on, their least-squares slope in MB
  per 10 minutes, and the slope over the last ``--flat-window`` seconds (default 300).
  **Flat** means that last slope is at most ``--flat-limit`` (default 1 MB per 10
  minutes): caches that fill and stop (SQLite's page cache, the evaluator's, malloc's
  arenas) may grow early on; what still grows in the last five minutes grows for the
  night (1 MB per 10 minutes is 60 MB over a 10-hour night).
* ``--native``: the hub also writes, every ``--sample`` seconds, SQLite's memory
  (``sqlite3_memory_used``), glibc malloc's (``mallinfo2``: in use, free in the arenas,
  mmapped), Python's allocated block count and the messages waiting in the tables'
  queues; the long run reports each one's slope. ``--types`` adds the 40 most numerous
  object types (gc) and reports those that grew.
* ``--hub-env KEY=VALUE``: the hub process runs with that in its environment (to compare
  allocator settings such as ``MALLOC_ARENA_MAX=2``, which the systemd unit sets).
* ``--without equity|rules|event-log``: the hub without that part (to find what grows).
* ``--trace FILE``: the hub runs under :mod:`tracemalloc` (slower) and writes its top
  allocations to FILE at the end of each run (a file per run, the N in its name). With
  ``--trace-every SECONDS`` it also dumps a snapshot that often from the settling time on
  and at the end; what grew from the first to the last (``Snapshot.compare_to`` by line
  and by traceback) is printed and written beside FILE (``…-growth``).

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.hub_process import NATIVE_ENV, TRACE_ENV  # noqa: E402
from bench.overlay_latency import (  # noqa: E402
    TOKEN,
    Dealer,
    Hub,
    HubOptions,
    close_rig,
    descendants,
    machine,
    start_mosquitto,
    start_publisher,
)

TARGET_ONE_MB = 120.0
TARGET_200_MB = 400.0


def process_tree(pid: int) -> list[int]:
    """``pid`` and every descendant of it now."""
    return [pid, *descendants(pid)]


def pss(pid: int) -> int:
    """Proportional set size of one process in bytes (a page shared by k processes counts
    1/k in each; 0 once it is gone): the equity workers share the pages of their
    forkserver, so RSS summed over the tree counts those pages once per process."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def vm_rss(pid: int) -> int:
    """VmRSS of one process in bytes (0 once it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def rss_mb(pid: int) -> float:
    """Resident set size (VmRSS) of a process and all its descendants (an equity worker
    process, say), in MB (10**6 bytes), from Linux /proc. Pages the processes share are
    counted in each (RSS, not PSS)."""
    return sum(vm_rss(p) for p in process_tree(pid)) / 1e6


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
    processes: int = 1
    """The most processes the hub's tree had at a sample (the hub and its children)."""
    pss_mb: float = 0.0
    """PSS of the hub's tree at the last sample (shared pages counted once), MB."""
    native: list[dict[str, Any]] = field(default_factory=list)
    """With ``--native``: the hub's native figures (``bench/hub_process.py``'s
    ``native_figures`` and ``queued``) every ``--sample`` seconds (``t`` from the hub's
    first line, about when it was ready)."""
    growth: list[str] = field(default_factory=list)
    """With ``--trace-every``: what tracemalloc saw grow from the first snapshot after the
    settling time to the last (:func:`growth_report`)."""

    def after(self, warmup: float) -> list[tuple[float, float]]:
        return [(t, m) for t, m in self.samples if t >= warmup]


async def run(n: int, seconds: float, args: argparse.Namespace, trace: Path | None) -> Run:
    """Deal to ``n`` tables for ``args.warmup + seconds``, sampling the hub's RSS."""
    tables = [f"m{i:03d}" for i in range(1, n + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-memory-"))
    off = set(args.without)
    opt = HubOptions(
        event_log="event-log" not in off,
        sync="full",
        equity="equity" not in off,
        rules="rules" not in off,
        broker_nodelay=True,
    )
    broker = start_mosquitto(workdir, nodelay=True)
    env = dict(kv.split("=", 1) for kv in args.hub_env)
    if trace is not None:
        env[TRACE_ENV] = str(trace)
    native = workdir / "native.jsonl"
    if args.native:
        env[NATIVE_ENV] = str(native)
        env[NATIVE_ENV + "_EVERY"] = str(args.sample)
        if args.types:
            env[NATIVE_ENV + "_TYPES"] = "1"
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the hub process inherits them
    try:
        hub = Hub(workdir, tables, broker.port, opt)
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
            # no keepalive pings: a traced hub stops for seconds while it takes a snapshot
            url = f"{base}/ws/overlay?table={t}&token={TOKEN}"
            ws = await connect(url, max_queue=None, ping_interval=None)
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
        snaps: list[tuple[float, Path]] = []
        every = args.trace_every if trace is not None else 0.0
        next_snap = start + args.warmup + args.settle if every > 0 else float("inf")

        def sample(at: float) -> None:
            tree = process_tree(hub.proc.pid)
            result.processes = max(result.processes, len(tree))
            result.samples.append((at - start, sum(vm_rss(p) for p in tree) / 1e6))
            result.pss_mb = sum(pss(p) for p in tree) / 1e6

        def snapshot(at: float) -> None:
            assert trace is not None
            snaps.append((at - start, trace.with_name(f"{trace.name}.{len(snaps)}.snap")))
            hub.proc.send_signal(signal.SIGUSR2)

        while True:
            due, i = heap[0]
            if next_sample <= due:
                if next_sample >= end:
                    break
                delay = next_sample - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                sample(next_sample)
                if next_sample >= next_snap:
                    snapshot(next_sample)
                    next_snap += every
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
        sample(time.perf_counter())
        if every > 0:
            snapshot(time.perf_counter())
        await asyncio.sleep(3.0)  # frames still on their way are counted
        if trace is not None:
            for _, path in snaps:  # the hub writes them one after the other
                await asyncio.to_thread(wait_for_file, path, 300)
            hub.proc.send_signal(signal.SIGUSR1)
            await asyncio.to_thread(wait_for_file, trace, 120)
        if args.native:
            text = await asyncio.to_thread(native.read_text)
            lines = [json.loads(line) for line in text.splitlines() if line.strip()]
            t0 = lines[0]["t"] if lines else 0.0
            result.native = [line | {"t": line["t"] - t0} for line in lines]
    finally:
        await close_rig(readers, sockets, publisher, hub, broker, workdir)
    if len(snaps) >= 2 and all(p.exists() for _, p in snaps):
        (t0, first), (t1, last) = snaps[0], snaps[-1]
        report = await asyncio.to_thread(growth_report, first, last, args.trace_top)
        result.growth = [f"tracemalloc, {t0:.0f} s -> {t1:.0f} s after dealing began:", *report]
        assert trace is not None
        out = trace.with_name(f"{trace.stem}-growth{trace.suffix}")
        await asyncio.to_thread(out.write_text, "\n".join(result.growth) + "\n")
        if not args.keep_snapshots:
            for _, p in snaps:
                p.unlink()
    return result


def growth_report(first: Path, last: Path, top: int) -> list[str]:
    """What grew between two tracemalloc snapshots of the hub (``Snapshot.compare_to``):
    the total, the ``top`` lines, and the ``top`` tracebacks (innermost frames, which
    tracemalloc keeps) by bytes gained."""
    import tracemalloc

    a, b = (tracemalloc.Snapshot.load(str(p)) for p in (first, last))
    size = [sum(t.size for t in s.traces) for s in (a, b)]
    lines = [f"traced {size[0] / 1e6:.2f} MB -> {size[1] / 1e6:.2f} MB", "", "by line:"]
    for stat in b.compare_to(a, "lineno")[:top]:
        frame = stat.traceback[0]
        lines.append(
            f"{stat.size_diff / 1e3:+10.1f} kB {stat.count_diff:+8d} blocks "
            f"(now {stat.size / 1e3:.1f} kB)  {frame.filename}:{frame.lineno}"
        )
    lines += ["", "by traceback (innermost last):"]
    for stat in b.compare_to(a, "traceback")[:top]:
        lines.append(f"{stat.size_diff / 1e3:+10.1f} kB {stat.count_diff:+8d} blocks")
        lines += ["    " + f for f in stat.traceback.format(limit=12)]
    return lines


# ------------------------------------------------------------------ the report


def trace_file(base: str | None, n: int, label: str) -> Path | None:
    if base is None:
        return None
    p = Path(base)
    return p.with_name(f"{p.stem}-{label}{n}{p.suffix}")


def native_slopes(r: Run, since: float) -> dict[str, str]:
    """Each native figure's slope and first/last value over the samples from ``since``
    seconds after dealing began (the hub's lines are timed from its start, a little
    before dealing: near enough for a slope)."""
    end = r.native[-1]["t"]
    start = end - (r.samples[-1][0] - since)
    kept = [line for line in r.native if line["t"] >= start]
    out: dict[str, str] = {}
    for key in kept[0] if kept else {}:
        if key in ("t", "types"):
            continue
        pts = [(line["t"], line[key]) for line in kept if key in line]
        slope = slope_mb_per_10min(pts)
        out[key] = f"{slope:+.2f}  ({pts[0][1]:.2f} -> {pts[-1][1]:.2f})"
    typed = [line["types"] for line in kept if "types" in line]
    if len(typed) >= 2:
        first, last = typed[0], typed[-1]
        grown = sorted(last, key=lambda k: first.get(k, 0) - last[k])[:8]
        out["objects grown"] = ", ".join(f"{k} +{last[k] - first.get(k, 0)}" for k in grown)
    return out


def parts(without: list[str]) -> str:
    """What the hub runs, for the report's head line."""
    on = {
        "rules": "rules on (6 players, rebuy)",
        "equity": "live equity on",
        "event-log": "event log sync=full",
    }
    return ", ".join(v if k not in without else f"{k} OFF" for k, v in on.items())


async def main_async(args: argparse.Namespace) -> int:
    print(f"machine: {machine()} (shared with other sessions' work)")
    print(
        f"hub: {parts(args.without)}, one Mosquitto; "
        f"one read a second per table; {args.warmup:.0f} s warm-up, RSS every {args.sample:g} s"
        + (f"; hub environment {' '.join(args.hub_env)}" if args.hub_env else "")
    )
    out: dict[str, Any] = {"machine": machine(), "steps": [], "long": None}
    steps: list[Run] = []
    if args.tables:
        print(
            f"{'tables':>6} {'idle MB':>8} {'end MB':>8} {'max MB':>8} {'MB/table':>9} "
            f"{'PSS MB':>7} {'procs':>5} {'reads':>7} {'antenna':>8} {'equity':>7}  target"
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
            f"{r.pss_mb:>7.1f} {r.processes:>5} "
            f"{r.reads:>7} {r.antenna_frames:>8} {r.equity_frames:>7}  {verdict}"
        )
        out["steps"].append(asdict(r))
    if args.minutes > 0:
        n = args.long_tables
        r = await run(n, args.minutes * 60, args, trace_file(args.trace, n, "long"))
        kept = r.after(args.warmup + args.settle)
        tail = r.after(r.samples[-1][0] - args.flat_window)
        slope = slope_mb_per_10min(kept)
        tail_slope = slope_mb_per_10min(tail)
        flat = tail_slope <= args.flat_limit
        print(
            f"long run: {n} tables, {args.minutes:g} min after the warm-up "
            f"({r.reads} reads, {r.equity_frames} equity frames, up to {r.processes} "
            f"hub process{'es' if r.processes > 1 else ''}); {len(kept)} samples from "
            f"{args.settle:g} s on: first {kept[0][1]:.1f} MB, last {kept[-1][1]:.1f} MB, "
            f"max {max(m for _, m in kept):.1f} MB"
        )
        print(f"  slope from {args.settle:g} s on: {slope:+.2f} MB per 10 min")
        print(
            f"  slope over the last {args.flat_window:g} s ({len(tail)} samples): "
            f"{tail_slope:+.2f} MB per 10 min; flat (<= {args.flat_limit:g}): "
            f"{'yes' if flat else 'NO'}"
        )
        if r.native:
            print(f"  native, slope from {args.settle:g} s on (MB per 10 min), first -> last:")
            for key, line in native_slopes(r, args.warmup + args.settle).items():
                print(f"    {key:>16}: {line}")
        for line in r.growth:
            print("  " + line)
        out["long"] = asdict(r) | {
            "slope_mb_per_10min": slope,
            "tail_slope_mb_per_10min": tail_slope,
            "flat": flat,
        }
    if args.json:
        await asyncio.to_thread(Path(args.json).write_text, json.dumps(out, indent=2))
    return 0


def main() -> int:
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
    parser.add_argument(
        "--flat-window",
        type=float,
        default=300,
        help="the long run's last seconds whose slope decides 'flat' (default 300)",
    )
    parser.add_argument(
        "--flat-limit",
        type=float,
        default=1.0,
        help="the most MB per 10 minutes a flat run's last --flat-window may grow (default 1)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the dealers' random seed")
    parser.add_argument("--trace", help="run the hub under tracemalloc; top allocations here")
    parser.add_argument(
        "--trace-every",
        type=float,
        default=0,
        metavar="SECONDS",
        help="with --trace: a tracemalloc snapshot of the hub this often from the settling "
        "time on, and at the end; the growth from the first to the last is reported",
    )
    parser.add_argument("--trace-top", type=int, default=15, help="lines of the growth report")
    parser.add_argument(
        "--keep-snapshots", action="store_true", help="keep the tracemalloc snapshot files"
    )
    parser.add_argument(
        "--hub-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the hub process (e.g. MALLOC_ARENA_MAX=2); repeatable",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=["equity", "rules", "event-log"],
        help="run the hub without this part (to find what grows); repeatable",
    )
    parser.add_argument(
        "--native",
        action="store_true",
        help="the hub also reports its native memory (SQLite's, malloc's) every --sample s",
    )
    parser.add_argument(
        "--types",
        action="store_true",
        help="with --native: also the hub's 40 most numerous object types (gc) each line",
    )
    parser.add_argument("--json", help="write the samples to this file")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
