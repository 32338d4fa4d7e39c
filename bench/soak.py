"""Soak: one hub carrying N tables that play hold'em by the rules at a multiple of live
pace for minutes on end, through one Mosquitto (issue #15, acceptance 5).

    .venv/bin/python bench/soak.py                          # 50 tables, 10 minutes, 10x
    .venv/bin/python bench/soak.py --quick                  # 3 tables, 1 minute: a check
    .venv/bin/python bench/soak.py --tables 20 --minutes 30 --pace 5 --json soak.json

What runs: a Mosquitto of its own on a free port (the latency bench's), and ``python -m
feltwire hub --config hub.toml`` in a process of its own, the config generated here: N
``[[tables]]`` with the standard antennas (ten seats, board, burn, muck), live equity on,
``[rules]`` seating six players of 1,000 chips at 5/10 with rebuys, the event log in a
temporary ``state_dir`` with ``event_log_sync = "full"``, the overlay without delay.

Each table has, in this process, what a real table has: a simulated node (the node's own
:class:`~table_node.node.Node`, :class:`~feltwire.publisher.InventoryPublisher` and
:class:`~feltwire.mqtt.PahoTransport`, one MQTT connection per table) under the demo's
simulated dealer (:class:`~simulator.dealer.SimulatedDealer`), who deals legal hands card
by card, plays the players' random legal actions through the dealer console's HTTP API
(:class:`~simulator.demo.HttpConsole`, one keep-alive connection per table) and makes one
dealing mistake in ``--mistakes`` of the hands (the demo's kinds: a card to an empty seat,
out of order, a missing or extra burn, a duplicate, a card leaving a seat …). The hub is in
another process, so the dealer keeps his own picture of the hand: a
:class:`~hub.rules.procedure.DealingMonitor` fed the very inventories the node publishes
and the console inputs he enters, from the hand's setup the hub announces (its ``hand``
frame); an answer of the hub's console that differs from his picture is a *divergence*.
Before each console input the dealer waits until the overlay has shown every card he
laid (as a dealer glances at the console before pressing a button).

Pace: a live dealer makes one motion a second (:data:`~simulator.monitor_table.MOTION`);
at ``--pace 10`` each table makes one every 0.1 s, each motion's time varying ±``--jitter``
of it (0.25; :data:`~bench.table_rig.JITTER`). The hub's debounce (0.5 s live) is
divided by the pace so a card flickering or laid on the wrong place reads as it would at
live pace; the rules' tick stays the hub's default (0.25 s).

What is measured, over the whole run after the tables' first hand:

* lost events: the inventories the nodes published against the hub's
  ``feltwire_reads_accepted`` (``/metrics``) and against the inventory rows in each
  table's event log (read after the hub stopped), and card frames that never reached the
  overlay;
* read → overlay latency: from just before the node publishes an inventory to its
  antenna frame on the table's ``/ws/overlay`` WebSocket in this process (p50/p99/max);
  the hub's own ``feltwire_read_to_frame_seconds`` histogram (receipt → frame, bucketed)
  beside it;
* alerts: each alert frame on the overlay, by hand, against the mistake injected in that
  hand (the demo's tally: ``missed``, ``false_alerts``);
* the hub's resident memory each ``--sample-seconds`` (a least-squares slope, in MB per
  10 minutes), its CPU seconds per table per minute; Mosquitto's and this process's CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.overlay_latency import (  # noqa: E402
    cpu_seconds,
    machine,
    percentile,
    rss_mb,
    start_mosquitto,
)
from bench.table_rig import (  # noqa: E402
    CONNECT_S,
    JITTER,
    WAIT,
    Played,
    SoakSurface,
    Watch,
    deal,
    hub_config,
    quiet_collector,
    scrape,
    watch_overlays,
)
from simulator.dealer import EXPECTED  # noqa: E402
from simulator.demo import Tally  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.table_procs import Proc, logged_reads  # noqa: E402

# ------------------------------------------------------------------ the run


@dataclass
class Sample:
    """One look at the hub, each ``--sample-seconds``."""

    minute: float
    rss_mb: float
    hub_cpu_s: float
    published: int
    accepted: float
    hands: int
    p99_ms: float
    load1: float


def slope_per_10_min(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of ``ys`` over ``xs`` (minutes), times ten."""
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return 10 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def run(args: argparse.Namespace) -> dict[str, Any]:
    names = [f"s{i:03d}" for i in range(1, args.tables + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-soak-"))
    broker = start_mosquitto(workdir, nodelay=True)
    web_port = free_port()
    url = f"http://127.0.0.1:{web_port}"
    config = workdir / "hub.toml"
    config.write_text(hub_config(names, broker.port, web_port, workdir / "state", args.pace))
    hub = Proc("hub", config, workdir / "hub.log")
    stop_watching, stop_dealing, opened = threading.Event(), threading.Event(), threading.Event()
    watches = [Watch(t) for t in names]
    surfaces: list[SoakSurface] = []
    threads: list[threading.Thread] = []
    played = [Played() for _ in names]
    samples: list[Sample] = []
    try:
        hub.start()
        assert hub.proc is not None
        pid = hub.proc.pid
        deadline = time.monotonic() + 120
        while True:
            hub.check_alive()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise TimeoutError("the hub did not start")
            time.sleep(0.2)
        viewer = threading.Thread(
            target=watch_overlays, args=(url, watches, opened, stop_watching), daemon=True
        )
        viewer.start()
        if not opened.wait(60):
            raise TimeoutError("the overlays did not open")
        for t, w in zip(names, watches, strict=True):
            s = SoakSurface(t, broker.port, url, w, args.pace, jitter=args.jitter, seed=args.seed)
            if not s.transport.wait_connected(CONNECT_S):
                raise TimeoutError(f"table {t}'s node did not reach the broker")
            surfaces.append(s)
        quiet_collector()
        rng = random.Random(args.seed)
        for s, p in zip(surfaces, played, strict=True):
            th = threading.Thread(
                target=deal,
                args=(s, random.Random(rng.random()), args.mistakes, stop_dealing, p),
                daemon=True,
            )
            th.start()
            threads.append(th)
        t0 = time.monotonic()
        assert broker.proc is not None
        mosquitto = broker.proc.pid
        cpu0 = (cpu_seconds(pid), cpu_seconds(mosquitto), time.process_time())

        def look() -> Sample:
            m = scrape(url)
            lat = sorted(x for w in watches for x in w.latencies[-2000:])
            return Sample(
                minute=round((time.monotonic() - t0) / 60, 2),
                rss_mb=round(rss_mb(pid), 1),
                hub_cpu_s=round(cpu_seconds(pid) - cpu0[0], 1),
                published=sum(s.publisher.published for s in surfaces),
                accepted=sum(m.accepted.values()),
                hands=sum(len(p.hands) for p in played),
                p99_ms=round(percentile(lat, 99), 1),
                load1=round(os.getloadavg()[0], 2),
            )

        print(
            f"{'min':>5} {'RSS MB':>7} {'hub CPU s':>9} {'published':>9} {'accepted':>9} "
            f"{'hands':>6} {'p99 ms*':>8} {'load':>5}",
            flush=True,
        )
        end = t0 + args.minutes * 60
        while True:
            now = look()
            samples.append(now)
            print(
                f"{now.minute:>5.1f} {now.rss_mb:>7.1f} {now.hub_cpu_s:>9.1f} {now.published:>9} "
                f"{now.accepted:>9.0f} {now.hands:>6} {now.p99_ms:>8.1f} {now.load1:>5.2f}",
                flush=True,
            )
            if time.monotonic() >= end - 1:
                break
            time.sleep(max(0.0, min(args.sample_seconds, end - time.monotonic())))
        wall = time.monotonic() - t0
        hub_cpu = cpu_seconds(pid) - cpu0[0]
        broker_cpu = cpu_seconds(mosquitto) - cpu0[1]
        bench_cpu = time.process_time() - cpu0[2]
        stop_dealing.set()
        for th in threads:
            th.join(WAIT * 4)
        for w in watches:
            w.shown(5)
        final = scrape(url)
    finally:
        stop_dealing.set()
        stop_watching.set()  # before the nodes leave: their node_offline is not the run's
        time.sleep(0.5)
        for s in surfaces:
            s.close()
        hub.stop()
        broker.stop()
    published = {s.table: s.publisher.published for s in surfaces}
    logged = {t: len(logged_reads(workdir / "state" / t / "events.sqlite")) for t in names}
    rows = Counter[str]()  # every input the logs hold, by kind (ticks, console inputs …)
    for t in names:
        with sqlite3.connect(
            f"file:{workdir / 'state' / t / 'events.sqlite'}?mode=ro", uri=True
        ) as db:
            rows.update(dict(db.execute("SELECT kind, COUNT(*) FROM events GROUP BY kind")))
    shutil.rmtree(workdir, ignore_errors=True)
    tally, unasked, clean = Tally(), Counter[str](), 0
    for w, p in zip(watches, played, strict=True):
        for number, mistake, injected in p.hands:
            codes = w.alerts.get(number, [])
            tally.record(mistake, injected, codes)
            expected = EXPECTED.get(mistake) if injected else None
            clean += len(codes) if expected is None else 0
            for code in codes:
                if expected is None or code != expected.value:
                    unasked[f"{code} (hand's mistake: {mistake.value})"] += 1
    answered = sorted(x for s in surfaces for x in s.answered)
    steady = [x for x in samples if x.minute >= args.warmup_minutes]
    lat = sorted(x for w in watches for x in w.latencies)
    motions = sum(s.motions for s in surfaces)
    return {
        "machine": machine(),
        "tables": args.tables,
        "minutes": round(wall / 60, 2),
        "pace": args.pace,
        "jitter": args.jitter,
        "seed": args.seed,
        "mistake_rate": args.mistakes,
        "motions_per_table_s": round(motions / args.tables / wall, 2),
        "hands": tally.hands,
        "published": sum(published.values()),
        "accepted": int(sum(final.accepted.values())),
        "logged": sum(logged.values()),
        "lost": sum(published.values()) - sum(logged.values()),
        "log_rows_by_kind": dict(sorted(rows.items())),
        "hub_lost_counter": final.lost,
        "refused": final.refused,
        "frames_missing": sum(w.awaited for w in watches),
        "samples": len(lat),
        "p50_ms": round(percentile(lat, 50), 1),
        "p99_ms": round(percentile(lat, 99), 1),
        "max_ms": round(lat[-1], 1) if lat else None,
        "hub_p50_ms_bucket": final.quantile(0.5),
        "hub_p99_ms_bucket": final.quantile(0.99),
        "hub_mean_ms": round(
            1000 * final.frame_sum / max(1.0, final.buckets.get(float("inf"), 1.0)), 1
        ),
        "mistakes": tally.mistakes,
        "caught": tally.caught,
        "missed": tally.missed,
        "missed_kinds": dict(tally.missed_kinds),
        "false_alerts": tally.false_alerts,
        "false_kinds": dict(tally.false_kinds),
        "false_by_mistake": dict(unasked),
        "alerts_in_clean_hands": clean,
        "console_inputs": len(answered),
        "console_p50_ms": round(percentile(answered, 50), 1),
        "console_p99_ms": round(percentile(answered, 99), 1),
        "hub_alerts": sum(len(w.alerts.get(None, [])) for w in watches),
        "alerts_by_code": dict(sorted(tally.by_code.items())),
        "divergences": sum(len(s.divergences) for s in surfaces),
        "divergence_examples": [d for s in surfaces for d in s.divergences][:5],
        "late_console_inputs": sum(s.late for s in surfaces),
        "stuck_hands": sum(p.stuck for p in played),
        "setup_mismatch": sum(p.setup_mismatch for p in played),
        "errors": [e for p in played for e in p.errors][:5],
        "rss_mb": [s.rss_mb for s in samples],
        "rss_minutes": [s.minute for s in samples],
        "rss_slope_mb_per_10_min": round(
            slope_per_10_min([s.minute for s in steady], [s.rss_mb for s in steady]), 2
        ),
        "rss_slope_from_start": round(
            slope_per_10_min([s.minute for s in samples], [s.rss_mb for s in samples]), 2
        ),
        "warmup_minutes": args.warmup_minutes,
        "hub_cpu_s_per_table_min": round(hub_cpu / args.tables / (wall / 60), 2),
        "hub_cores": round(hub_cpu / wall, 2),
        "broker_cores": round(broker_cpu / wall, 2),
        "bench_cores": round(bench_cpu / wall, 2),
        "load_during": [s.load1 for s in samples],
    }


def summary(r: dict[str, Any]) -> list[tuple[str, str]]:
    """The final table: (figure, value) rows of a run's result."""
    return [
        ("tables × minutes at pace", f"{r['tables']} × {r['minutes']} min at {r['pace']:g}×"),
        ("motions a second per table", f"{r['motions_per_table_s']} (target {r['pace']:g})"),
        ("hands dealt", f"{r['hands']}"),
        (
            "reads published / accepted / logged",
            f"{r['published']} / {r['accepted']} / {r['logged']}",
        ),
        ("lost (published − logged)", f"{r['lost']}"),
        ("event-log inputs by kind", f"{r['log_rows_by_kind']}"),
        ("hub reads_lost; refused", f"{r['hub_lost_counter']:.0f}; {r['refused']:.0f}"),
        ("card frames missing on the overlay", f"{r['frames_missing']}"),
        (
            "read → overlay WS p50 / p99 / max ms",
            f"{r['p50_ms']} / {r['p99_ms']} / {r['max_ms']} ({r['samples']} reads)",
        ),
        (
            "hub read → frame p50 / p99 (bucket ≤ ms)",
            f"{r['hub_p50_ms_bucket']:g} / {r['hub_p99_ms_bucket']:g}, mean {r['hub_mean_ms']}",
        ),
        (
            "console input → answer p50 / p99 ms",
            f"{r['console_p50_ms']} / {r['console_p99_ms']} ({r['console_inputs']} inputs)",
        ),
        (
            "mistakes injected / caught / missed",
            f"{r['mistakes']} / {r['caught']} / {r['missed']} {r['missed_kinds'] or ''}",
        ),
        ("alerts in hands with no mistake", f"{r['alerts_in_clean_hands']}"),
        (
            "other alerts (any hand); hub's own",
            f"{r['false_alerts']} {r['false_kinds'] or ''}; {r['hub_alerts']}",
        ),
        (
            "divergences; late inputs; stuck hands",
            f"{r['divergences']}; {r['late_console_inputs']}; {r['stuck_hands']}",
        ),
        ("hub RSS MB, first → last", f"{r['rss_mb'][0]} → {r['rss_mb'][-1]}"),
        (
            "RSS slope MB / 10 min",
            f"{r['rss_slope_mb_per_10_min']} from minute {r['warmup_minutes']:g} "
            f"({r['rss_slope_from_start']} from 0)",
        ),
        (
            "hub CPU s per table per minute",
            f"{r['hub_cpu_s_per_table_min']} ({r['hub_cores']} cores)",
        ),
        ("broker / bench cores", f"{r['broker_cores']} / {r['bench_cores']}"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables in the hub (default 50)")
    parser.add_argument("--minutes", type=float, default=10, help="how long (default 10)")
    parser.add_argument("--pace", type=float, default=10, help="× live pace (default 10)")
    parser.add_argument(
        "--jitter",
        type=float,
        default=JITTER,
        help=f"each motion's time varies ± this share of it ({JITTER}; 0: metronomes)",
    )
    parser.add_argument("--seed", type=int, default=1, help="shuffles, actions, mistakes")
    parser.add_argument("--mistakes", type=float, default=0.03, help="share of hands with one")
    parser.add_argument("--sample-seconds", type=float, default=60, help="memory etc. (60)")
    parser.add_argument(
        "--warmup-minutes",
        type=float,
        default=1,
        help="RSS samples before this are not in the slope (1)",
    )
    parser.add_argument("--quick", action="store_true", help="3 tables, 1 minute, 15-s samples")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument(
        "--hub-env",
        action="append",
        metavar="KEY=VALUE",
        help="the hub's environment (default: MALLOC_ARENA_MAX=2, as its systemd unit sets; "
        "give 'MALLOC_ARENA_MAX=' for glibc's default)",
    )
    args = parser.parse_args()
    hub_env = dict(kv.split("=", 1) for kv in (args.hub_env or ["MALLOC_ARENA_MAX=2"]))
    for key, value in hub_env.items():  # the hub's process inherits them (not this one's
        if value:  # allocator: glibc read its settings when this process started)
            os.environ[key] = value
        else:
            os.environ.pop(key, None)
    if args.quick:
        args.tables, args.minutes, args.sample_seconds = 3, 1.0, 15.0
    print(f"machine: {machine()}")
    print(
        f"soak: {args.tables} tables, {args.minutes:g} min at {args.pace:g}× live pace "
        f"(± {args.jitter:.0%} a motion), "
        f"mistakes in {args.mistakes:.0%} of hands, seed {args.seed}; rules, live equity, "
        f"event_log_sync full; hub environment {hub_env}; * p99 of the last 2,000 reads "
        "per table so far",
        flush=True,
    )
    result = run(args)
    print()
    for label, value in summary(result):
        print(f"{label:<42} {value}")
    if result["false_by_mistake"]:
        print(f"alerts not asked for: {result['false_by_mistake']}")
    if result["errors"] or result["divergence_examples"]:
        print(f"errors: {result['errors']}\ndivergences: {result['divergence_examples']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    ok = result["lost"] == 0 and result["missed"] == 0 and result["alerts_in_clean_hands"] == 0
    return 0 if ok and not result["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
