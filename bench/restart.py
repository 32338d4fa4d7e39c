"""How long a killed hub takes to serve again (issue #15): a table's event log of N hands
built the way a club's table builds it, then a cold start on that state directory.

    .venv/bin/python bench/restart.py                  # 1,000 hands
    .venv/bin/python bench/restart.py --hands 200 --starts 3 --keep /tmp/restart-state
    .venv/bin/python bench/restart.py --only-snapshots     # no full replay beside it

The log is built by the demo's own pieces, in-process: the simulated dealer
(:class:`simulator.dealer.SimulatedDealer`, mistakes in ``--mistakes`` of the hands) deals
no-limit hold'em to six players on the demo's antenna surface
(:class:`simulator.antennas.AntennaSurface`); the simulated node
(:class:`table_node.node.Node` over :class:`table_node.simulated.SimulatedTable`) sweeps
the antennas and its inventory publisher hands each payload straight to the table's
application (:meth:`hub.app.table_app.TableApp.handle_message`: the same screening,
recording and applying as a running hub, without a broker); console inputs go in
through :attr:`TableApp.rules`. The application is the one :func:`hub.bootstrap.start_hub`
builds (:func:`hub.bootstrap.builder.table_app`), with the real SQLite event log and the
rules on. The hub's clock moves one second per motion of the dealer
(:class:`simulator.antennas.MotionClock`) and, while a hand runs, the rules are ticked
every ``tick_seconds`` of it (0.25 s by default), as the running hub's tick task logs
them — so the log has the inputs, and the hub time, of a real night (a thousand hands
are about eleven hours of play).

The log ends as the last hand is played out, its cards still on the table: the newest
snapshot is as of that hand's start, so a start from it replays the whole hand — the most
a kill can leave to replay.

The log is written with ``sync = "normal"`` to build it in minutes rather than hours (one
fsync per input otherwise); its bytes are the same. The starts then open it as the
config says (``sync = "full"``).

The hub writes a table snapshot at every hand's start (:mod:`hub.app.snapshot`). The
starts are timed twice: from the newest snapshot (the hub's default), then with
``event_log_snapshots = false`` — the full replay of every input, the figure before
snapshots (``--only-snapshots`` skips it). Each start is a cold one in a fresh process
state (the log is closed in between):

* ``replay``: the event log opened (every row's chain and the seal verified) and
  :meth:`TableApp.replay` alone (the snapshot restored, then the inputs after it), as
  :func:`start_hub` does them, timed apart;
* ``first serve``: :func:`start_hub` on the config until ``GET /api/public`` answers 200
  (the MQTT broker is configured at a port where none listens: the hub serves the web
  meanwhile and retries the broker, so the broker is not part of the figure).

It prints the inputs in the log (by kind), the log's size, the build time, and per start
the open, replay and first-serve seconds (median of ``--starts``), as one JSON line too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from feltwire.deck import simulated_deck  # noqa: E402
from feltwire.publisher import InventoryPublisher  # noqa: E402
from hub.adapters.eventlog.store import EventLog  # noqa: E402
from hub.app.table_app import TableApp  # noqa: E402
from hub.app.table_time import TableTime  # noqa: E402
from hub.bootstrap import event_log_path, start_hub  # noqa: E402
from hub.bootstrap.builder import table_app  # noqa: E402
from hub.config import (  # noqa: E402
    HubConfig,
    HubMqttSettings,
    PlayerSettings,
    RulesSettings,
    WebSettings,
)
from hub.rules import procedure  # noqa: E402
from hub.rules.procedure import Step  # noqa: E402
from simulator.antennas import AntennaSurface, MotionClock  # noqa: E402
from simulator.dealer import SimulatedDealer, choose_mistake  # noqa: E402
from table_node.config import default_readers  # noqa: E402
from table_node.node import Node  # noqa: E402
from table_node.simulated import SimulatedTable  # noqa: E402

TABLE = "club"
NODE = "pi-table"
SEATS = (1, 2, 3, 4, 5, 6)


def free_port() -> int:
    """A TCP port nothing listens on (the broker's: the hub retries it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bench_config(state_dir: Path, delay_minutes: float) -> HubConfig:
    """The club's hub: six players at 5/10 who buy in again when bust, the rules ticked
    every 0.25 s, the overlay held back ``delay_minutes``."""
    return HubConfig(
        table=TABLE,
        state_dir=state_dir,
        live_equity=False,
        event_log_sync="full",
        mqtt=HubMqttSettings(url=f"mqtt://127.0.0.1:{free_port()}"),
        web=WebSettings(
            host="127.0.0.1",
            port=0,
            overlay_delay_minutes=delay_minutes,
            allow_live_hole_cards=delay_minutes == 0,
        ),
        rules=RulesSettings(
            small_blind=5,
            big_blind=10,
            players=[PlayerSettings(seat=s, name=f"Player {s}", buy_in=1000) for s in SEATS],
            rebuy=True,
        ),
    )


class DirectTransport:
    """The node's MQTT transport straight into the table's application (no broker)."""

    def __init__(self, app: TableApp) -> None:
        self.app = app

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        self.app.handle_message(topic, payload)


class TickingClock(MotionClock):
    """The motion clock, with the running hub's tick task — while a hand runs, the rules
    are ticked every ``tick_s`` of the hub's time as it passes (a tick that changes the
    hand is logged, as the running hub logs it) — and its release task: the overlay
    frames whose delay has passed are released as the time moves."""

    def __init__(self, start: float, tick_s: float) -> None:
        super().__init__(start)
        self.tick_s = tick_s
        self.app: TableApp | None = None

    def advance(self, seconds: float = 1.0) -> None:
        if self.app is not None:
            self.app.feeds.release_due()
        if self.app is None or self.tick_s <= 0:
            super().advance(seconds)
            return
        left = seconds
        while left > 1e-9:
            step = min(self.tick_s, left)
            super().advance(step)
            left -= step
            console = self.app.rules
            if console is not None and step >= self.tick_s - 1e-9:
                console.tick()


class InProcessSurface(AntennaSurface):
    """The demo's antenna surface with its console inputs entered in this thread (the
    bench runs no event loop while it builds the log)."""

    def _in_loop(self, fn: Any) -> Step | None:
        result: Step | None = fn()
        return result


def build(config: HubConfig, hands: int, seed: int, mistakes: float) -> dict[str, Any]:
    """Play ``hands`` hands into the config's state directory; what was built."""
    assert config.state_dir is not None and config.rules is not None
    config.state_dir.mkdir(parents=True, exist_ok=True)
    (table,) = config.table_configs()
    path = event_log_path(config.state_dir, TABLE, several=False)
    clock = TickingClock(time.time(), config.rules.tick_seconds)
    now = TableTime(monotonic=clock)
    event_log = EventLog(path, TABLE, sync="normal")
    app = table_app(config, table, simulated_deck(), now, event_log)
    app.open()
    clock.app = app
    console = app.rules
    assert console is not None
    antennas = SimulatedTable(default_readers())
    publisher = InventoryPublisher(
        table=TABLE, node=NODE, transport=DirectTransport(app), clock=now.wall
    )
    node = Node(list(antennas.readers.values()), publisher)
    surface = InProcessSurface(
        antennas=antennas,
        node=node,
        published=lambda: publisher.published,
        hub=app,
        rules=console,
        clock=clock,
        loop=None,  # type: ignore[arg-type]  # never used: console inputs go in directly
    )
    rng = random.Random(seed)
    started = time.perf_counter()
    played = 0
    while played < hands:
        setup = console.desk.setup
        if setup is None or not console.in_hand:
            raise RuntimeError("the table started no hand")
        profile = console.desk.profile
        mistake = choose_mistake(rng, mistakes, setup.game, profile)
        dealer = SimulatedDealer(rng, setup, profile, surface, mistake)
        dealer.play()
        if console.in_hand and console.hand_number == setup.number:
            surface.console(procedure.DeclareMisdeal(0.0))
        played += 1
        if played < hands:  # the last hand's cards stay out: its start is the snapshot
            dealer.collect()
        while not app.outgoing.empty():  # nobody sends them here
            app.outgoing.get_nowait()
        if played % 100 == 0:
            print(f"  {played} hands, {event_log.last_seq} inputs", file=sys.stderr, flush=True)
    took = time.perf_counter() - started
    kinds = Counter(rec.kind.value for rec in event_log.records())
    inputs = event_log.last_seq
    app.snapshots.close()
    event_log.close()
    return {
        "hands": played,
        "hands_finished": console.desk.hands_finished,
        "hands_voided": console.desk.hands_voided,
        "inputs": inputs,
        "inputs_by_kind": dict(sorted(kinds.items())),
        "build_s": round(took, 1),
    }


def state_bytes(state_dir: Path) -> int:
    """The size of the state directory's event log (database, WAL and seal)."""
    return sum(p.stat().st_size for p in state_dir.rglob("events.sqlite*") if p.is_file())


def replay_once(config: HubConfig) -> dict[str, float]:
    """Open the log and replay it as :func:`start_hub` does, timed apart (seconds); with
    ``config.event_log_snapshots`` from the newest snapshot."""
    assert config.state_dir is not None
    (table,) = config.table_configs()
    path = event_log_path(config.state_dir, TABLE, several=False)
    now = TableTime()
    t0 = time.perf_counter()
    event_log = EventLog(path, TABLE, sync=config.event_log_sync)
    now.resume(event_log.last_t)
    t1 = time.perf_counter()
    app = table_app(config, table, simulated_deck(), now, event_log)
    app.snapshots.enabled = config.event_log_snapshots
    app.open()
    replayed = app.replay()
    t2 = time.perf_counter()
    restored = app.snapshots.restored_seq
    app.snapshots.close()
    event_log.close()
    return {
        "open_s": t1 - t0,
        "replay_s": t2 - t1,
        "replayed": float(replayed),
        "restored": float(restored),
    }


async def serve_once(config: HubConfig) -> float:
    """Seconds from :func:`start_hub` to the first 200 of ``GET /api/public``."""
    t0 = time.perf_counter()
    runtime = await start_hub(config, deck=simulated_deck())
    try:
        async with httpx.AsyncClient(trust_env=False, timeout=5) as client:
            while True:
                try:
                    response = await client.get(f"{runtime.web_url}/api/public")
                except httpx.HTTPError:
                    response = None
                if response is not None and response.status_code == 200:
                    break
                await asyncio.sleep(0.005)
        return time.perf_counter() - t0
    finally:
        await runtime.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands in the log (1000)")
    parser.add_argument("--starts", type=int, default=3, help="cold starts timed (3)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--mistakes", type=float, default=0.03, help="share of hands (0.03)")
    parser.add_argument(
        "--delay-minutes", type=float, default=30.0, help="the overlay's delay (30)"
    )
    parser.add_argument(
        "--only-snapshots",
        action="store_true",
        help="time the starts from the snapshot only (not the full replay beside them)",
    )
    parser.add_argument("--dir", type=Path, default=None, help="where the state dir is made")
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the state dir here (reused when it exists)"
    )
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="feltwire-restart-", dir=args.dir))
    state_dir = args.keep if args.keep is not None else scratch / "state"
    config = bench_config(state_dir, args.delay_minutes)
    try:
        built: dict[str, Any]
        if args.keep is not None and (state_dir / "events.sqlite").exists():
            built = {"hands": args.hands, "reused": str(state_dir)}
        else:
            print(f"building a log of {args.hands} hands in {state_dir} …", file=sys.stderr)
            built = build(config, args.hands, args.seed, args.mistakes)
        size = state_bytes(state_dir)
        full = config.model_copy(update={"event_log_snapshots": False})
        result = dict(built)
        modes = [("", config)] + ([] if args.only_snapshots else [("full_", full)])
        for prefix, conf in modes:
            replays = [replay_once(conf) for _ in range(args.starts)]
            serves = [asyncio.run(serve_once(conf)) for _ in range(args.starts)]
            result |= {
                f"{prefix}open_s": round(statistics.median(r["open_s"] for r in replays), 3),
                f"{prefix}replay_s": round(statistics.median(r["replay_s"] for r in replays), 3),
                f"{prefix}replayed": int(replays[-1]["replayed"]),
                f"{prefix}restored_as_of": int(replays[-1]["restored"]),
                f"{prefix}first_serve_s": round(statistics.median(serves), 3),
                f"{prefix}first_serve_all_s": [round(s, 3) for s in serves],
            }
        result |= {
            "log_bytes": size,
            "python": platform.python_version(),
            "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        }
        print(f"inputs in the log   : {result.get('inputs', result['replayed'])}")
        if "inputs_by_kind" in result:
            print(f"  by kind           : {result['inputs_by_kind']}")
        print(f"log size            : {size / 1e6:.1f} MB")
        if "build_s" in result:
            print(f"build               : {result['build_s']} s")
        for prefix, what in (("", "snapshot"), ("full_", "full replay")):
            if f"{prefix}open_s" not in result:
                continue
            print(f"{what}:")
            print(f"  open (verify chain) : {result[f'{prefix}open_s']} s")
            print(
                f"  replay              : {result[f'{prefix}replay_s']} s "
                f"({result[f'{prefix}replayed']} inputs after input "
                f"{result[f'{prefix}restored_as_of']})"
            )
            print(
                f"  start to first serve: {result[f'{prefix}first_serve_s']} s "
                f"(median of {args.starts})"
            )
        print(json.dumps(result), flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
