"""Appends a second on the PostgreSQL event log, fenced by the tables' leases beside
unfenced (issue 19): what the fencing trigger costs, and how many tables' appends one
PostgreSQL server carries.

    .venv/bin/python bench/pg_appends.py                          # 1, 10, 50 tables
    .venv/bin/python bench/pg_appends.py --tables 1,50,200 --inputs 400 --repeats 3
    .venv/bin/python bench/pg_appends.py --pg-url postgresql://postgres@127.0.0.1/test
    .venv/bin/python bench/pg_appends.py --standby sync           # a casino's primary

For each number of tables N, N threads — each a table's log writer, as a hub runs one
per table — append ``--inputs`` inputs each, one transaction per input (a read as the
hub logs it, ``sync = "full"``: ``synchronous_commit`` on), all at once, on a fresh
database; once with no lease (epoch 0: the trigger finds no lease row and lets the
append pass) and once with every table leased (:class:`TableLeases`: the trigger takes
the lease row ``FOR SHARE`` and checks its epoch and expiry on every row). Reported:
appends a second over all tables, each append's p50 / p99 in ms, and the fenced run's
rate as a share of the unfenced one. The server is the bench's own
(:class:`tests.support.postgres.PostgresServer` with ``durable=True``: PostgreSQL's
defaults, ``fsync`` and ``synchronous_commit`` on), or ``--pg-url``'s (a database made
there per run); with ``--standby sync`` (or ``async``) the bench's server has a
streaming standby of its own (:meth:`PostgresServer.add_standby`) — ``sync``: every
commit waits until the standby has it on disk, as a casino's primary does. Figures are
medians of ``--repeats`` runs; fenced and unfenced runs alternate.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import threading
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from hub.adapters.eventlog.leases import LEASE_S, TableLeases  # noqa: E402
from hub.adapters.eventlog.pg import PgEventLog  # noqa: E402
from hub.app.records import InputKind  # noqa: E402
from tests.support.postgres import PostgresServer, postgres_bin  # noqa: E402

PAYLOAD = {"reader": "seat3", "node": "pi-north", "seq": 0, "cards": ["As", "Kd"], "unknown": []}


def new_database(server_url: str) -> str:
    """A fresh database on the server at ``server_url``; its URL."""
    name = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def run(url: str, tables: int, inputs: int, fenced: bool) -> tuple[float, list[float]]:
    """N tables appending at once: (appends a second, every append's ms)."""
    names = [f"t{i + 1}" for i in range(tables)]
    with ExitStack() as stack:
        epochs = dict.fromkeys(names, 0)
        if fenced:
            leases = TableLeases(url, "bench-hub", lease_s=3600)
            stack.callback(leases.close)
            for name in names:
                lease = leases.take(name)
                assert lease is not None
                epochs[name] = lease.epoch
        logs = [PgEventLog(url, name, epoch=epochs[name]) for name in names]
        for log in logs:
            stack.callback(log.close)
        took: list[list[float]] = [[] for _ in names]
        start = threading.Barrier(tables + 1)

        def write(i: int) -> None:
            log, mine = logs[i], took[i]
            start.wait()
            for seq in range(1, inputs + 1):
                t0 = time.perf_counter()
                log.append(InputKind.INVENTORY, PAYLOAD | {"seq": seq}, float(seq))
                mine.append((time.perf_counter() - t0) * 1000)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(tables)]
        for thread in threads:
            thread.start()
        start.wait()
        t0 = time.perf_counter()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - t0
    return tables * inputs / seconds, [ms for mine in took for ms in mine]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,10,50", help="numbers of tables, e.g. 1,10,50")
    parser.add_argument("--inputs", type=int, default=300, help="inputs each table appends")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (medians)")
    parser.add_argument("--pg-url", help="a PostgreSQL server to use instead of the bench's own")
    parser.add_argument(
        "--standby",
        choices=("none", "sync", "async"),
        default="none",
        help="the bench's own server with a streaming standby (sync: each commit waits for it)",
    )
    opt = parser.parse_args(argv)
    counts = [int(n) for n in opt.tables.split(",") if n]
    with ExitStack() as stack:
        if opt.pg_url:
            server_url = opt.pg_url
        else:
            bindir = postgres_bin()
            if bindir is None:
                print("no PostgreSQL binaries (apt-get install postgresql)", file=sys.stderr)
                return 2
            server = PostgresServer(bindir, durable=True, max_connections=max(counts) + 20)
            stack.callback(server.stop)
            server.start()
            if opt.standby != "none":
                server.add_standby(synchronous=opt.standby == "sync")
            server_url = server.url()
        with psycopg.connect(server_url) as db:
            version = db.execute("SHOW server_version").fetchone()
        print(
            f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, PostgreSQL {version[0] if version else '?'}, "
            f"load {os.getloadavg()[0]:.2f}; standby: {opt.standby}; "
            f"{opt.inputs} inputs a table, one commit each, "
            f"{opt.repeats} run(s) each (lease {LEASE_S} s in the hub; here an hour)"
        )
        head = f"{'tables':>6} {'mode':9} {'appends/s':>10} {'p50 ms':>7} {'p99 ms':>7}"
        print(f"{head}  fenced/unfenced")
        for n in counts:
            rates: dict[bool, list[float]] = {False: [], True: []}
            lat: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(opt.repeats):
                for fenced in (False, True):
                    rate, ms = run(new_database(server_url), n, opt.inputs, fenced)
                    rates[fenced].append(rate)
                    lat[fenced] += ms
                    print(
                        f"  ({n} tables, {'fenced' if fenced else 'unfenced'}: {rate:,.0f}/s)",
                        file=sys.stderr,
                    )
            base = statistics.median(rates[False])
            for fenced in (False, True):
                rate = statistics.median(rates[fenced])
                share = f"{rate / base:.2f}" if fenced else ""
                print(
                    f"{n:>6} {'fenced' if fenced else 'unfenced':9} {rate:>10,.0f} "
                    f"{pct(lat[fenced], 0.5):>7.2f} {pct(lat[fenced], 0.99):>7.2f}  {share}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
