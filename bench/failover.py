"""A card room's failover, measured (issue 19): a hub SIGKILLed, and how long until
another hub serves its tables — against the length of a table's log, and against how
many tables the dead hub held.

    PYTHONPATH=$PWD .venv/bin/python bench/failover.py                      # both, 3 kills each
    PYTHONPATH=$PWD .venv/bin/python bench/failover.py --hands 10,100,1000 --tables ''
    PYTHONPATH=$PWD .venv/bin/python bench/failover.py --hands '' --tables 1,10,50
    PYTHONPATH=$PWD .venv/bin/python bench/failover.py --quick               # a check

What runs: a PostgreSQL of the bench's own (durable: ``fsync`` and ``synchronous_commit``
on, :mod:`tests.support.postgres`), one Mosquitto, and two ``feltwire hub`` processes
with ``[cluster]`` (the default ``lease_seconds = 6``), rules on, live equity off:

* **log length** — table ``club``'s log holds N hands of six players at 5/10 played by
  the demo's dealer with the rules on (:func:`bench.restart.build`, SQLite), moved into
  PostgreSQL as a club would move it (``feltwire event-log copy``: the snapshots too),
  and the hands store filled from it (``feltwire history import-log``, docs/scaling.md).
  Hub A takes the table; hub B waits; A is SIGKILLed; the figure is the time from the
  kill until B serves the table (``/tables`` names B and ``/api/public`` answers there).
  Then the roles swap (the killed hub is started again and the next kill is of the
  other), ``--kills`` times;
* **tables at once** — a room of 2N tables on fresh logs: hub A takes them all (it alone
  is up), B starts and A hands it half, a table at a time (they even out their shares
  between hands); the hub holding N is SIGKILLed, and the figure is until the other
  serves the last of them.

Each figure comes with B's own account — its log's ``serving after X s``, the time from
its take of a table to serving it (the log opened, verified, restored from the newest
snapshot and replayed) — the rest of the time is the lease running out (at most
``lease_seconds`` after the dead hub's last renewal, which it sent every third of that)
and B's next look (every second). Medians of the kills; ``--json`` writes everything.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.restart import TABLE, bench_config, build  # noqa: E402
from hub.adapters.eventlog.pg_copy import copy_log  # noqa: E402
from hub.bootstrap import event_log_path  # noqa: E402
from tests.support.mosquitto import MosquittoProcess  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.postgres import PostgresServer, postgres_bin  # noqa: E402

SEATS = (1, 2, 3, 4, 5, 6)
WAIT = 120.0
"""The longest a step may take before the bench gives up (not a target)."""


def hub_toml(
    workdir: Path, name: str, *, pg_url: str, broker_url: str, tables: list[str]
) -> tuple[Path, int]:
    """Hub ``name``'s config: the room's ``tables`` as :func:`bench.restart.bench_config`
    plays them (six players at 5/10, rebuys), on PostgreSQL, ``[cluster]``; the config
    and its web port."""
    port = free_port()
    players = ", ".join(f'{{ seat = {s}, name = "Player {s}", buy_in = 1000 }}' for s in SEATS)
    entries = "".join(f'\n[[tables]]\ntable = "{t}"\n' for t in tables)
    config = workdir / "hub.toml"
    config.write_text(
        f'live_equity = false\nstate_dir = "{workdir / "state"}"\nevent_log_url = "{pg_url}"\n'
        f'event_log_sync = "full"\n\n[mqtt]\nurl = "{broker_url}"\n\n'
        f'[web]\nport = {port}\nproducer_token = "bench-failover-token"\n'
        f'token_secret = "bench-failover-secret-0123456789"\n\n'
        f"[rules]\nsmall_blind = 5\nbig_blind = 10\nrebuy = true\nplayers = [{players}]\n\n"
        f'[cluster]\nhub = "{name}"\nweb_url = "http://127.0.0.1:{port}"\nsettle_seconds = 0\n'
        f"{entries}"
    )
    return config, port


class Hub:
    """A ``feltwire hub`` process of the room."""

    def __init__(self, workdir: Path, name: str, **kw: Any) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.config, self.port = hub_toml(workdir, name, **kw)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "hub.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "feltwire", "hub", "--config", str(self.config)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        until(lambda: self._get("/healthz") is not None, f"{self.name} to answer")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def _get(self, path: str) -> Any:
        try:
            response = httpx.get(self.url + path, timeout=5, follow_redirects=False)
        except httpx.HTTPError:
            return None
        return response.json() if response.status_code == 200 else None

    def serves(self, tables: list[str]) -> bool:
        """Whether this hub serves every one of ``tables`` (``/tables`` and each page)."""
        listed = self._get("/tables") or []
        mine = {t["table"] for t in listed if t.get("hub") == self.name}
        return set(tables) <= mine and all(
            self._get(f"/api/public?table={t}") is not None for t in tables
        )

    def takes(self) -> list[tuple[str, float, int]]:
        """(table, seconds from its take to serving it, inputs replayed), from its log."""
        said = self.log.read_text(errors="replace")
        return [
            (m[0], float(m[2]), int(m[1]))
            for m in re.findall(
                r"took table (\S+) \(lease epoch \d+\): (\d+) inputs replayed, serving after "
                r"([0-9.]+) s",
                said,
            )
        ]


def until(check: Any, what: str, wait: float = WAIT) -> None:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise RuntimeError(f"waited {wait:.0f} s for {what}")


def held(a: Hub, b: Hub) -> dict[str, str]:
    """Which of the two hubs serves which table, as ``/tables`` of one of them says."""
    listed = a._get("/tables") or b._get("/tables") or []
    return {t["table"]: t["hub"] for t in listed if t.get("hub") in (a.name, b.name)}


def settled(a: Hub, b: Hub, tables: list[str], quiet_s: float = 3.0) -> dict[str, str]:
    """Who serves which table once every table is served and nothing moved for
    ``quiet_s`` (the hubs even out their shares between hands)."""
    last: dict[str, str] = {}
    since = time.monotonic()
    deadline = since + WAIT
    while time.monotonic() < deadline:
        now = held(a, b)
        if now != last:
            last, since = now, time.monotonic()
        elif len(now) == len(tables) and time.monotonic() - since >= quiet_s:
            return now
        time.sleep(0.2)
    raise RuntimeError(f"the room did not settle: {last}")


def kill_and_time(a: Hub, b: Hub, tables: list[str]) -> dict[str, Any]:
    """Both up and every table served: SIGKILL the hub serving more of them, time until
    the other serves them all."""
    owners = settled(a, b, tables)
    victim, other = (
        (a, b) if sum(o == a.name for o in owners.values()) >= len(tables) / 2 else (b, a)
    )
    lost = sorted(t for t, o in owners.items() if o == victim.name)
    seen = len(other.takes())
    killed = time.monotonic()
    victim.kill9()
    until(lambda: other.serves(lost), f"{other.name} to take {len(lost)} tables")
    took = time.monotonic() - killed
    new = other.takes()[seen:]
    victim.start()  # back, as the standby
    return {
        "tables": len(lost),
        "failover_s": round(took, 2),
        "take_to_serve_s": round(max((s for _, s, _ in new), default=0.0), 3),
        "replayed": sum(n for *_, n in new),
    }


def kill_rounds(
    work: Path, pg_url: str, broker: MosquittoProcess, tables: list[str], kills: int
) -> list[dict[str, Any]]:
    """Hub A takes ``tables`` alone, hub B starts (the two even out their shares between
    hands), then ``kills`` times: the hub serving more tables is SIGKILLed and timed
    until the other serves its tables (:func:`kill_and_time`), then started again."""
    kw = {"pg_url": pg_url, "broker_url": broker.url, "tables": tables}
    a, b = Hub(work / "a", "hub-a", **kw), Hub(work / "b", "hub-b", **kw)
    runs = []
    try:
        a.start()
        until(lambda: a.serves(tables), f"hub-a to take {len(tables)} tables")
        b.start()
        for k in range(kills):
            run = kill_and_time(a, b, tables)
            runs.append(run)
            print(f"  {len(tables)} tables, kill {k + 1}: {run}", file=sys.stderr, flush=True)
    finally:
        a.stop()
        b.stop()
    return runs


def import_hands(work: Path, pg_url: str, broker: MosquittoProcess) -> float:
    """Fill the room's hands store (PostgreSQL: a card room's default) from the copied log,
    as a club moving to a card room does before its hubs start (docs/scaling.md): else the
    first hub to take the table replays every input to write the hands the store lacks,
    and that — not the failover — is what a kill would time. Its seconds."""
    work.mkdir(parents=True, exist_ok=True)
    config, _ = hub_toml(work, "import", pg_url=pg_url, broker_url=broker.url, tables=[TABLE])
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "feltwire", "history", "import-log", "--config", str(config)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return round(time.monotonic() - started, 1)


def run_log_length(root: Path, pg: PostgresServer, broker: MosquittoProcess, hands: int,
                   kills: int, seed: int) -> dict[str, Any]:  # fmt: skip
    """The log-length figure for a log of ``hands`` hands."""
    work = root / f"hands{hands}"
    state = work / "sqlite"
    print(f"log of {hands} hands: building …", file=sys.stderr, flush=True)
    built = build(bench_config(state, 30.0), hands, seed, 0.03)
    url = pg.new_database()
    copied = copy_log(event_log_path(state, TABLE, several=False), TABLE, url)
    imported = import_hands(work / "import", url, broker)
    runs = kill_rounds(work, url, broker, [TABLE], kills)
    return {
        "hands": hands,
        "inputs": built["inputs"],
        "snapshots": len(copied.snapshots),
        "import_log_s": imported,
        "runs": runs,
        "failover_p50_s": statistics.median(r["failover_s"] for r in runs),
        "take_to_serve_p50_s": statistics.median(r["take_to_serve_s"] for r in runs),
    }


def run_tables(root: Path, pg: PostgresServer, broker: MosquittoProcess, n: int,
               kills: int) -> dict[str, Any]:  # fmt: skip
    """The tables-at-once figure for ``n`` tables: a room of ``2n``, shared by the two
    hubs, the killed hub holding ``n`` of them."""
    work = root / f"tables{n}"
    tables = [f"t{i}" for i in range(1, 2 * n + 1)]
    runs = kill_rounds(work, pg.new_database(), broker, tables, kills)
    return {
        "tables": n,
        "runs": runs,
        "failover_p50_s": statistics.median(r["failover_s"] for r in runs),
        "take_to_serve_p50_s": statistics.median(r["take_to_serve_s"] for r in runs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", default="10,100,1000", help="log lengths, in hands")
    parser.add_argument("--tables", default="1,10,50", help="tables held by the killed hub")
    parser.add_argument("--kills", type=int, default=3, help="kills per figure (3)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--quick", action="store_true", help="10 hands and 2 tables, 1 kill")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args()
    if args.quick:
        args.hands, args.tables, args.kills = "10", "2", 1
    bindir = postgres_bin()
    if bindir is None:
        print("bench/failover.py needs PostgreSQL's server binaries", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="feltwire-failover-"))
    pg = PostgresServer(bindir, durable=True, max_connections=200)
    pg.start()
    broker = MosquittoProcess(root)
    broker.start()
    out: dict[str, Any] = {"log_length": [], "tables_at_once": []}
    try:
        for hands in [int(x) for x in args.hands.split(",") if x]:
            out["log_length"].append(run_log_length(root, pg, broker, hands, args.kills, args.seed))
        for n in [int(x) for x in args.tables.split(",") if x]:
            out["tables_at_once"].append(run_tables(root, pg, broker, n, args.kills))
    finally:
        broker.stop()
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)
    print("| log | inputs | import-log s | failover p50 s | B's take → serving p50 s | runs |")
    print("|---|---:|---:|---:|---:|---|")
    for r in out["log_length"]:
        runs = " / ".join(f"{x['failover_s']:.2f}" for x in r["runs"])
        print(
            f"| {r['hands']} hands | {r['inputs']} | {r['import_log_s']:.1f} | "
            f"{r['failover_p50_s']:.2f} | {r['take_to_serve_p50_s']:.3f} | {runs} |"
        )
    print("\n| tables held by the killed hub | failover p50 s (the last served) | B's take → "
          "serving p50 s (the slowest) | runs |")  # fmt: skip
    print("|---:|---:|---:|---|")
    for r in out["tables_at_once"]:
        runs = " / ".join(f"{x['failover_s']:.2f}" for x in r["runs"])
        print(
            f"| {r['tables']} | {r['failover_p50_s']:.2f} | {r['take_to_serve_p50_s']:.3f} "
            f"| {runs} |"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
