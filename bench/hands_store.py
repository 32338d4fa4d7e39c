"""The hands store's speed (issue #18): hands written a second, one transaction per hand
as the hub writes them, with each write's latency; ``feltwire history export`` of every
stored hand in each format (phh, pokerstars, ohh); and the players' statistics over all
of them — on SQLite and on PostgreSQL side by side, the same hands on both.

    .venv/bin/python bench/hands_store.py                       # 2,000 hands, both databases
    .venv/bin/python bench/hands_store.py --hands 100000 --json hands.json
    .venv/bin/python bench/hands_store.py --databases sqlite --hands 500
    .venv/bin/python bench/hands_store.py --pg-url postgresql://postgres@127.0.0.1/test

The hands (generated once, before any timing, and reused for every database and run;
held in memory — the RSS after generation is printed): random legal hands played to the
end on the engine (:func:`tests.support.random_hands.play_out`: random folds, calls,
bets, raises and all-ins, draws, shows and mucks), made into the
:class:`~hub.app.hand_record.HandRecord` the hub keeps by the production
:func:`~hub.app.hand_record.hand_record` (:func:`tests.support.stored_hands.kept_hand`),
at :data:`TABLES` tables whose players change every :data:`SESSION_HANDS` hands, from a
pool of :data:`PEOPLE` people (half with a club id). The games (:data:`MIX`): 70 %
no-limit hold'em and 15 % pot-limit Omaha of 2–9 players, 5 % fixed-limit Omaha hi-lo
(2–9), 5 % seven-card stud (2–7), 3 % no-limit five-card draw (2–6), 2 % deuce-to-seven
triple draw (2–3: no reshuffle).

Each run starts on an empty store: SQLite a fresh ``hands.sqlite`` in a temporary
directory (``--dir``) opened by :meth:`HandStore.open` (the production settings: WAL,
``synchronous=FULL``, foreign keys); PostgreSQL a fresh database on a server the bench
starts itself (:class:`tests.support.postgres.PostgresServer` with ``durable=True``:
PostgreSQL's own defaults, ``fsync`` and ``synchronous_commit`` on), or on ``--pg-url``'s
server (a database made there and dropped at the end). Then:

* **write**: every hand through :meth:`HandStore.write`, one transaction each, in the
  tables' order of play; hands a second, each write's p50 / p99 in ms, and the rate
  over the first and the last tenth of the hands (a write that slows as the store
  grows shows there);
* **export**: ``feltwire history export --format F --perspective shown --out FILE
  --json`` (:func:`hub.cli.history.main`, in this process) for each format, over every
  stored hand; hands a second and the file's size;
* **stats**: :func:`hub.adapters.hands.stats.player_stats` over every hand, seconds.

Figures are the medians of ``--repeats`` runs (default 1: a 100,000-hand run is long).
Progress goes to standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import random
import resource
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.adapters.hands.stats import player_stats  # noqa: E402
from hub.adapters.hands.store import HANDS_FILE, HandStore, sqlite_url  # noqa: E402
from hub.app.hand_record import HandRecord  # noqa: E402
from hub.cli.history import main as history_main  # noqa: E402
from hub.rules.errors import TableSeat  # noqa: E402
from hub.rules.exports import FORMATS  # noqa: E402
from hub.rules.games import Family, Stakes, game  # noqa: E402
from hub.rules.setup import HandSetup  # noqa: E402
from tests.support.postgres import PostgresServer, PostgresUnavailable, postgres_bin  # noqa: E402
from tests.support.random_hands import play_out  # noqa: E402
from tests.support.stored_hands import kept_hand  # noqa: E402

MIX: tuple[tuple[str, float, int, int], ...] = (
    ("NT", 0.70, 2, 9),
    ("PO", 0.15, 2, 9),
    ("FO/8", 0.05, 2, 9),
    ("F7S", 0.05, 2, 7),
    ("N5D", 0.03, 2, 6),
    ("F2L3D", 0.02, 2, 3),
)
"""The games: (variant, share of the hands, fewest and most players)."""
TABLES = 10
"""Tables the hands are played at (hand ``i`` at table ``i % TABLES``)."""
PEOPLE = 150
"""The people who play them."""
SESSION_HANDS = 200
"""Hands a table's players stay for (then other people sit down)."""
NIGHT = 1_793_556_000.0
"""The first hand's start (2026-11-02 18:00 UTC); a table deals one every 90 s."""
DATABASES = ("sqlite", "postgresql")


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def rss_mb() -> float:
    """This process's peak resident memory, MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------------- hands


def one_hand(i: int, rng: random.Random) -> HandRecord:
    """Hand ``i`` of the night (see the module)."""
    t, number = i % TABLES, i // TABLES + 1
    variant, _, fewest, most = rng.choices(MIX, weights=[m[1] for m in MIX])[0]
    g = game(variant)
    n = rng.randint(fewest, min(most, g.max_players))
    chosen = sorted(rng.sample(range(1, 11), n))
    k = number % n  # the button moves round the seats dealt in; hand order ends on it
    seats = tuple(TableSeat(s) for s in chosen[k + 1 :] + chosen[: k + 1])
    block = number // SESSION_HANDS
    people = {s: (t * 10 + s + 37 * block) % PEOPLE for s in seats}
    players: dict[int, str] = {s: f"Player {p:03d}" for s, p in people.items()}
    club_ids = {f"Player {p:03d}": f"C{p:04d}" for p in people.values() if p % 2 == 0}
    stacks = tuple(rng.choice((200, 500, 1000, 1000, 2500)) for _ in seats)
    if g.family is Family.STUD:
        stakes = Stakes.stud_game(n, 1, 3, 10, 20)
    else:
        stakes = Stakes.blind_game(n, 5, 10, small_bet=10, big_bet=20)
    setup = HandSetup(number, g, seats, seats[-1], stakes, stacks)
    hand = play_out(setup.new_hand(), rng)
    return kept_hand(
        setup,
        hand,
        players,
        variant=variant,
        started_at=NIGHT + 90.0 * number + 7.0 * t,
        seconds=30.0 + rng.random() * 55.0,
        table=f"t{t + 1:02d}",
        club_ids=club_ids,
    )


def make_hands(n: int, seed: int) -> list[HandRecord]:
    rng = random.Random(seed)
    hands: list[HandRecord] = []
    start = last = time.perf_counter()
    for i in range(n):
        hands.append(one_hand(i, rng))
        now = time.perf_counter()
        if now - last >= 10.0:
            last = now
            say(f"generating: {i + 1:,}/{n:,} hands, {now - start:.0f} s")
    return hands


# ---------------------------------------------------------------------------- databases


@dataclass
class Run:
    """One run's figures on one database."""

    database: str
    hands: int
    write_s: float = 0.0
    write_ms: list[float] = field(default_factory=list, repr=False)
    exports: dict[str, dict[str, Any]] = field(default_factory=dict)
    stats_s: float = 0.0
    players: int = 0
    size_mb: float | None = None

    def as_json(self) -> dict[str, Any]:
        p50, p99 = percentiles(self.write_ms)
        return {
            "database": self.database,
            "hands": self.hands,
            "write_s": self.write_s,
            "write_hands_per_s": self.hands / self.write_s,
            "write_p50_ms": p50,
            "write_p99_ms": p99,
            "write_first_tenth_per_s": tenth_rate(self.write_ms[: max(1, self.hands // 10)]),
            "write_last_tenth_per_s": tenth_rate(self.write_ms[-max(1, self.hands // 10) :]),
            "exports": self.exports,
            "stats_s": self.stats_s,
            "players": self.players,
            "size_mb": self.size_mb,
        }


def tenth_rate(ms: Sequence[float]) -> float:
    """Hands a second over these writes (their own time: the store's cost as it grows)."""
    return len(ms) / (sum(ms) / 1000.0) if ms else 0.0


def percentiles(ms: Sequence[float]) -> tuple[float, float]:
    if len(ms) < 2:
        return (ms[0], ms[0]) if ms else (0.0, 0.0)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return q[49], q[98]


class Postgres:
    """Fresh databases on a PostgreSQL server: the bench's own (durable), or ``url``'s."""

    def __init__(self, url: str | None) -> None:
        self.given = url
        self.server: PostgresServer | None = None
        self.made: list[str] = []

    def start(self) -> None:
        if self.given is not None:
            return
        bindir = postgres_bin()
        if bindir is None:
            raise PostgresUnavailable("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin)")
        self.server = PostgresServer(bindir, durable=True)
        self.server.start()

    def _admin(self) -> str:
        if self.server is not None:
            return self.server.url()
        assert self.given is not None
        return self.given.replace("postgresql+psycopg://", "postgresql://", 1)

    def new_database(self) -> str:
        import psycopg

        name = f"feltwire_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self._admin(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.made.append(name)
        base, _, _ = self._admin().rpartition("/")
        return f"{base}/{name}"

    def size_mb(self, url: str) -> float:
        import psycopg

        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        return float(row[0]) / 1e6 if row else 0.0

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()  # the cluster's directory goes with its databases
            return
        import psycopg

        with psycopg.connect(self._admin(), autocommit=True) as conn:
            for name in self.made:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

    def version(self) -> str:
        import psycopg

        url = self._admin()
        with psycopg.connect(url) as conn:
            row = conn.execute("SHOW server_version").fetchone()
            sync = conn.execute("SHOW synchronous_commit").fetchone()
            fsync = conn.execute("SHOW fsync").fetchone()
        where = "the bench's own server" if self.server is not None else "--pg-url's server"
        return (
            f"PostgreSQL {row[0] if row else '?'} ({where}, fsync={fsync[0] if fsync else '?'}, "
            f"synchronous_commit={sync[0] if sync else '?'})"
        )


@contextlib.contextmanager
def sqlite_store(parent: Path | None) -> Iterator[tuple[str, Path]]:
    with tempfile.TemporaryDirectory(dir=parent, prefix="hands-bench-") as d:
        yield sqlite_url(Path(d) / HANDS_FILE), Path(d)


def write_all(store: HandStore, hands: Sequence[HandRecord], run: Run, label: str) -> None:
    ms = run.write_ms
    start = last = time.perf_counter()
    for i, hand in enumerate(hands):
        t0 = time.perf_counter()
        store.write(hand)
        t1 = time.perf_counter()
        ms.append((t1 - t0) * 1000.0)
        if t1 - last >= 10.0:
            last = t1
            say(f"{label}: written {i + 1:,}/{len(hands):,}, {(i + 1) / (t1 - start):,.0f}/s")
    run.write_s = time.perf_counter() - start


def export_all(where: list[str], out: Path, fmt: str) -> dict[str, Any]:
    """``feltwire history export`` of every hand in format ``fmt`` to ``out``."""
    argv = ["export", "--format", fmt, *where, "--perspective", "shown", "--out", str(out)]
    stdout = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(stdout):
        code = history_main([*argv, "--json"])
    took = time.perf_counter() - start
    counts = json.loads(stdout.getvalue() or "{}")
    size = out.stat().st_size if out.exists() else 0
    out.unlink(missing_ok=True)
    return {
        "exit": code,
        "hands": int(counts.get("hands", 0)),
        "failed": int(counts.get("failed", 0)),
        "s": took,
        "hands_per_s": int(counts.get("hands", 0)) / took,
        "file_mb": size / 1e6,
    }


def one_run(
    database: str, hands: Sequence[HandRecord], pg: Postgres | None, parent: Path | None
) -> Run:
    run = Run(database, len(hands))
    with sqlite_store(parent) as (sqlite, tmp):
        url = sqlite if database == "sqlite" else (pg.new_database() if pg else "")
        store = HandStore.open(url)
        try:
            write_all(store, hands, run, database)
            say(f"{database}: written {len(hands):,} hands in {run.write_s:.1f} s")
            start = time.perf_counter()
            found = player_stats(store)
            run.stats_s = time.perf_counter() - start
            run.players = len(found)
        finally:
            store.close()
        if database == "sqlite":
            where = ["--state-dir", str(tmp)]
            run.size_mb = sum(p.stat().st_size for p in tmp.glob(HANDS_FILE + "*")) / 1e6
        else:
            config = tmp / "hub.toml"
            config.write_text(
                f'state_dir = "{tmp / "state"}"\n[hands]\nurl = "{url}"\n'
                '[[tables]]\ntable = "t01"\n'
            )
            where = ["--config", str(config)]
            assert pg is not None
            run.size_mb = pg.size_mb(url)
        for fmt in FORMATS:
            say(f"{database}: exporting {fmt} …")
            run.exports[fmt] = export_all(where, tmp / f"export.{fmt}", fmt)
            e = run.exports[fmt]
            say(f"{database}: {fmt} {e['hands']:,} hands in {e['s']:.1f} s")
    return run


# ---------------------------------------------------------------------------- report


def median_of(runs: Sequence[Run]) -> dict[str, Any]:
    docs = [r.as_json() for r in runs]
    med = dict(docs[0])
    for key in (
        "write_s",
        "write_hands_per_s",
        "write_p50_ms",
        "write_p99_ms",
        "write_first_tenth_per_s",
        "write_last_tenth_per_s",
        "stats_s",
    ):
        med[key] = statistics.median(d[key] for d in docs)
    med["exports"] = {
        fmt: {
            **docs[0]["exports"][fmt],
            "s": statistics.median(d["exports"][fmt]["s"] for d in docs),
            "hands_per_s": statistics.median(d["exports"][fmt]["hands_per_s"] for d in docs),
        }
        for fmt in docs[0]["exports"]
    }
    med["runs"] = len(docs)
    return med


def table(results: Sequence[dict[str, Any]]) -> str:
    head = ["figure", *(r["database"] for r in results)]
    rows: list[list[str]] = [
        ["hands", *(f"{r['hands']:,}" for r in results)],
        [
            "write: hands/s (1 transaction each)",
            *(f"{r['write_hands_per_s']:,.0f}" for r in results),
        ],
        ["write: p50 ms", *(f"{r['write_p50_ms']:.2f}" for r in results)],
        ["write: p99 ms", *(f"{r['write_p99_ms']:.2f}" for r in results)],
        [
            "write: hands/s, first / last tenth",
            *(
                f"{r['write_first_tenth_per_s']:,.0f} / {r['write_last_tenth_per_s']:,.0f}"
                for r in results
            ),
        ],
        ["write: s", *(f"{r['write_s']:.1f}" for r in results)],
    ]
    for fmt in FORMATS:
        rows.append(
            [
                f"export {fmt}: hands/s",
                *(f"{r['exports'][fmt]['hands_per_s']:,.0f}" for r in results),
            ]
        )
        rows.append(
            [
                f"export {fmt}: hands, failed, MB",
                *(
                    f"{r['exports'][fmt]['hands']:,}, {r['exports'][fmt]['failed']}, "
                    f"{r['exports'][fmt]['file_mb']:.1f}"
                    for r in results
                ),
            ]
        )
    rows.append(["stats: player_stats s", *(f"{r['stats_s']:.2f}" for r in results)])
    rows.append(["stats: players", *(f"{r['players']:,}" for r in results)])
    rows.append(
        ["store size MB", *(f"{r['size_mb']:.0f}" if r["size_mb"] else "?" for r in results)]
    )
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [head, *rows]
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands generated and stored")
    parser.add_argument("--repeats", type=int, default=1, help="runs per database (medians)")
    parser.add_argument(
        "--databases", default=",".join(DATABASES), help="sqlite, postgresql or both (a,b)"
    )
    parser.add_argument("--pg-url", help="a PostgreSQL server to use instead of the bench's own")
    parser.add_argument("--dir", type=Path, default=None, help="where the SQLite files go")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--json", help="write the figures (every run and the medians) here")
    opt = parser.parse_args(argv)
    databases = [d.strip() for d in opt.databases.split(",") if d.strip()]
    unknown = set(databases) - set(DATABASES)
    if unknown or not databases or opt.hands < 1:
        parser.error(f"--databases: {', '.join(DATABASES)}; --hands at least 1")
    pg: Postgres | None = None
    notes = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"load {os.getloadavg()[0]:.2f}"
    ]
    if "postgresql" in databases:
        pg = Postgres(opt.pg_url)
        try:
            pg.start()
            notes.append(pg.version())
        except (PostgresUnavailable, RuntimeError) as exc:
            say(f"postgresql: skipped ({exc})")
            databases.remove("postgresql")
            pg = None
    say(f"generating {opt.hands:,} hands …")
    start = time.perf_counter()
    hands = make_hands(opt.hands, opt.seed)
    gen_s = time.perf_counter() - start
    games: dict[str, int] = {}
    for h in hands:
        games[h.game] = games.get(h.game, 0) + 1
    seated = sum(len(h.seats) for h in hands)
    notes.append(
        f"hands: {opt.hands:,} generated in {gen_s:.1f} s ({opt.hands / gen_s:,.0f}/s, not "
        f"in the figures), {seated / opt.hands:.1f} players a hand, "
        f"{sum(len(h.actions) for h in hands) / opt.hands:.1f} actions and "
        f"{sum(len(h.cards) for h in hands) / opt.hands:.1f} cards a hand; peak RSS "
        f"{rss_mb():,.0f} MB with them in memory"
    )
    notes.append("games: " + ", ".join(f"{g} {n:,}" for g, n in sorted(games.items())))
    runs: dict[str, list[Run]] = {d: [] for d in databases}
    try:
        for r in range(opt.repeats):
            for database in databases:  # alternate the databases run by run
                say(f"run {r + 1}/{opt.repeats}: {database}")
                runs[database].append(one_run(database, hands, pg, opt.dir))
                done = runs[database][-1].as_json()
                say(f"{database}: {json.dumps({k: v for k, v in done.items() if k != 'exports'})}")
                if opt.json:  # what is done so far, should a long run be stopped
                    partial = {"notes": notes, "generation_s": gen_s, "partial": True}
                    partial["runs"] = {d: [r.as_json() for r in rs] for d, rs in runs.items()}
                    Path(opt.json).write_text(json.dumps(partial, indent=2))
    finally:
        if pg is not None:
            pg.stop()
    results = [median_of(runs[d]) for d in databases]
    print("\n".join(notes))
    print(f"medians of {opt.repeats} run(s) each:")
    print(table(results))
    if opt.json:
        doc = {
            "notes": notes,
            "generation_s": gen_s,
            "medians": results,
            "runs": {d: [r.as_json() for r in rs] for d, rs in runs.items()},
        }
        Path(opt.json).write_text(json.dumps(doc, indent=2))
    failed = any(
        e["failed"] or e["exit"] or e["hands"] != r["hands"]
        for r in results
        for e in r["exports"].values()
    )
    return 1 if failed else 0


if __name__ == "__main__":
    # stopped by a kill (a background run ignores Ctrl-C's SIGINT): the server still stops
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    raise SystemExit(main())
