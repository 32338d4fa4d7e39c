"""The overlay frames a delay holds: bytes per table and CPU per frame (issue 16, acceptance 3).

    .venv/bin/python bench/held_frames.py                  # 30 minutes, the default delay
    .venv/bin/python bench/held_frames.py --minutes 10 --no-equity

A club that streams runs the overlay's default 30-minute delay, so every table of a hub
holds half an hour of its overlay frames (:class:`hub.app.feeds.DelayedRelease`): the
antenna frames, the rules' frames, the equity frames and after every change a ``state``
frame with the overlay's whole picture of the table. This runs one table in this process,
as the hub's unit tests do (no broker; a clock the bench moves): six players with the
rules and rebuys, the simulated dealer (30 % of hands with a mistake) at one motion a
second for ``--minutes`` of table time, the overlay delayed by ``--delay`` minutes.
Equity frames (unless ``--no-equity``) are the quick figure the hub's equity task sends
for each new spot, computed in line.

* **Held**: :mod:`tracemalloc` is on for the whole run; the bytes held are the traced
  memory at the end less the traced memory once every held frame was released (to no
  subscriber). Reported with the frames held and the bytes per frame, and again after a
  table snapshot encoded what is held (:func:`hub.app.publisher.encode_held`).
* **CPU**: the overlay frames of the run (taken live with the delay off, in a second run)
  are pushed into a fresh delay and released again in one-second steps, ``--repeats``
  times, tracemalloc off; reported are the medians of push and release per frame (µs of
  CPU — :func:`time.process_time`, less noisy than the wall clock on a shared machine —
  on the event loop in a hub), of one snapshot's first encoding of everything held (ms,
  in the snapshot thread in a hub) and of a restore from that text (ms, at start).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.app.feeds import DelayedRelease  # noqa: E402
from hub.app.live_equity import equity_event, quick_equity  # noqa: E402
from hub.app.publisher import encode_held  # noqa: E402
from hub.app.table_app import TableApp  # noqa: E402
from hub.config import PlayerSettings, RulesSettings  # noqa: E402
from simulator.dealer import SimulatedDealer, choose_mistake  # noqa: E402
from tests.support.clocks import FakeClock  # noqa: E402
from tests.support.service import hub_service  # noqa: E402
from tests.support.service_surface import ServiceSurface  # noqa: E402

PLAYERS = [PlayerSettings(seat=s, name=f"Player {s}", buy_in=1000) for s in range(1, 7)]


def play(
    delay_s: float, seconds: float, *, equity: bool, seed: int, taken: list[Any] | None = None
) -> tuple[TableApp, FakeClock]:
    """A table dealt for ``seconds`` of table time; ``taken`` gets its overlay frames (as
    they are released, with the time they were released at)."""
    clock = FakeClock()
    app = hub_service(
        clock,
        overlay_delay_s=delay_s,
        rules=RulesSettings(players=PLAYERS, rebuy=True),
        opened=False,
    )
    app.open()
    rules = app.rules
    assert rules is not None
    surface = ServiceSurface(app, rules, clock)
    last: list[object] = [None]
    motions = 0
    with app.overlay.subscribe("overlay") as sub:

        def after_motion() -> None:
            nonlocal motions
            motions += 1
            if rules.in_hand and motions % 4 == 0:
                rules.tick()
            if equity:
                live = app.equity_spot()
                key = None if live is None else live.key
                if live is not None and key != last[0]:
                    frame = equity_event(live, quick_equity(live, motions)) | {"t": clock.now}
                    app._equity_out(frame, clock.now)  # what the equity task does
                last[0] = key
            while not sub.queue.empty():
                event = sub.queue.get_nowait()
                if taken is not None:
                    taken.append((clock.now, event))

        surface.after_motion.append(after_motion)
        rng = random.Random(seed)
        start = clock.now
        while clock.now - start < seconds:
            setup = rules.desk.setup
            assert setup is not None
            mistake = choose_mistake(rng, 0.3, setup.game, rules.desk.profile)
            SimulatedDealer(rng, setup, rules.desk.profile, surface, mistake).play()
            surface.clear()
    return app, clock


def held_bytes(args: argparse.Namespace) -> dict[str, Any]:
    gc.collect()
    tracemalloc.start()
    app, clock = play(args.delay * 60, args.minutes * 60, equity=not args.equity_off, seed=1)
    gc.collect()
    held = app.feeds.held
    with_held = tracemalloc.get_traced_memory()[0]
    encode_held(app.feeds.export_state()[1])  # what a snapshot does (in its thread)
    gc.collect()
    after_snapshot = tracemalloc.get_traced_memory()[0]
    clock.now += args.delay * 60 + 1
    app.feeds.release_due()
    gc.collect()
    without = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "frames": held,
        "bytes": with_held - without,
        "after_snapshot": after_snapshot - without,
    }


def cpu(args: argparse.Namespace) -> dict[str, Any]:
    taken: list[Any] = []
    play(0, args.minutes * 60, equity=not args.equity_off, seed=1, taken=taken)
    kinds = Counter(event["type"] for _, event in taken)
    push_us, due_us, encode_ms, restore_ms = [], [], [], []
    delay = args.delay * 60
    for _ in range(args.repeats):
        frames = [(t, json.loads(json.dumps(e))) for t, e in taken]  # fresh dicts each time
        gc.collect()
        d = DelayedRelease(delay)
        start = time.process_time()
        for t, event in frames:
            d.push(event, t)
        push_us.append((time.process_time() - start) / len(frames) * 1e6)
        start = time.process_time()
        text = encode_held(d.held())
        encode_ms.append((time.process_time() - start) * 1e3)
        start = time.process_time()
        DelayedRelease(delay).restore(d.parse(text))
        restore_ms.append((time.process_time() - start) * 1e3)
        now, end = frames[0][0] + delay, frames[-1][0] + delay + 1
        released = 0
        start = time.process_time()
        while now <= end:
            released += len(d.due(now))
            now += 1.0
        due_us.append((time.process_time() - start) / len(frames) * 1e6)
        assert released == len(frames)
    return {
        "frames": len(taken),
        "kinds": dict(kinds.most_common()),
        "json_bytes": sum(len(json.dumps(e, separators=(",", ":"))) for _, e in taken),
        "push_us": statistics.median(push_us),
        "due_us": statistics.median(due_us),
        "encode_ms": statistics.median(encode_ms),
        "restore_ms": statistics.median(restore_ms),
        "push_runs": push_us,
        "due_runs": due_us,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30, help="table time dealt")
    parser.add_argument("--delay", type=float, default=30, help="the overlay's delay, minutes")
    parser.add_argument("--repeats", type=int, default=3, help="runs of the CPU figures")
    parser.add_argument("--no-equity", dest="equity_off", action="store_true")
    args = parser.parse_args()
    with open("/proc/cpuinfo") as f:
        model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "?")
    load = " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())
    print(f"{__import__('os').cpu_count()} cores ({model}), Python {platform.python_version()}")
    print(f"load average before: {load}")
    held = held_bytes(args)
    per_table = held["bytes"] / 1e6
    print(
        f"held: {held['frames']} frames after {args.minutes:g} min at a {args.delay:g}-min delay: "
        f"{per_table:.2f} MB per table, {held['bytes'] / max(held['frames'], 1):.0f} B/frame; "
        f"{per_table * 200:.0f} MB at 200 tables; after a snapshot encoded them "
        f"{held['after_snapshot'] / 1e6:.2f} MB per table"
    )
    c = cpu(args)
    print(f"frames: {c['frames']} ({c['json_bytes'] / 1e6:.2f} MB as compact JSON) {c['kinds']}")
    print(
        f"cpu (median of {args.repeats}): push {c['push_us']:.1f} us/frame, "
        f"release {c['due_us']:.1f} us/frame, a snapshot's encoding {c['encode_ms']:.0f} ms, "
        f"a restore from it {c['restore_ms']:.0f} ms "
        f"(push runs {[round(x, 1) for x in c['push_runs']]}, "
        f"release runs {[round(x, 1) for x in c['due_runs']]})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
