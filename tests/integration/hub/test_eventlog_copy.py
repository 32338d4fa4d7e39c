"""``feltwire event-log copy``: a table's SQLite log into PostgreSQL, as an operator moves a
room from one Pi to a database server (issue 19).

A night of real hands (the hands store's table, snapshots and all) is copied by the real
command: every row equal to the SQLite log's — sequence number, times, kind, payload,
chain —, the snapshots that verify, epoch 0; the copy checks as the hub checks it, and a
second run writes nothing. A damaged log is refused naming its damage, a log a running
hub holds with "stop it first", a table the database holds other rows of (a hub ran it on
PostgreSQL, or an earlier copy the SQLite log went on from) or a lease on is refused, and
the database is then as it was. Ctrl-C leaves the table under way out of the database
entirely, and the next run finishes. A log left by a killed hub (its inputs in the WAL)
and a schema-1 log (no chain) copy too. The hub resuming a table copied mid-hand is
``tests/integration/test_restart.py``'s.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from hub.adapters.eventlog import pg_copy
from hub.adapters.eventlog.leases import TableLeases
from hub.adapters.eventlog.pg import PgEventLog
from hub.adapters.eventlog.store import EventLog
from hub.adapters.hands.store import sqlite_url
from hub.app.records import InputKind
from hub.cli import event_log as event_log_cli
from hub.cli.progress import Progress
from tests.integration.hands.test_store import night
from tests.integration.hub.test_eventlog_cli import write_config
from tests.support.eventlog_damage import N, killed_writer
from tests.support.postgres import PostgresServer
from tests.support.table_procs import log_rows
from tests.unit.hub.test_eventlog_integrity import V1_SCHEMA

ROOT = Path(__file__).resolve().parents[3]
T0 = 1_700_000_000.0


def feltwire(*args: str) -> subprocess.CompletedProcess[str]:
    """The real ``feltwire`` command (this worktree's code)."""
    return subprocess.run(
        [sys.executable, "-m", "feltwire", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )


def copy(config: Path, url: str, *more: str) -> tuple[int, list[dict[str, Any]], str]:
    """``feltwire event-log copy --json``: exit code, one object per table, stderr."""
    done = feltwire("event-log", "copy", "--config", str(config), "--to", url, "--json", *more)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def pg_rows(url: str, table: str = "t1") -> list[tuple[Any, ...]]:
    """(seq, t, kind, payload, wall, chain) of ``table``'s rows in the database, in order."""
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT to_regclass('event_inputs')").fetchone() == (None,):
            return []
        return conn.execute(
            "SELECT seq, t, kind, payload, wall, chain FROM event_inputs WHERE table_id = %s "
            "ORDER BY seq",
            (table,),
        ).fetchall()


def snapshots(where: Path | str, table: str = "t1") -> list[tuple[Any, ...]]:
    """(seq, format, state, wall, chain, digest) of ``table``'s snapshots, newest first:
    of the SQLite log at ``where`` (a path) or in the database at ``where`` (a URL)."""
    sql = (
        "SELECT seq, format, state, wall, chain, digest FROM {} WHERE table_id = ? "
        "ORDER BY seq DESC"
    )
    if isinstance(where, Path):
        with sqlite3.connect(f"file:{where}?mode=ro", uri=True) as db:
            return db.execute(sql.format("snapshots"), (table,)).fetchall()
    with psycopg.connect(where) as conn:
        rows = conn.execute(sql.format("event_snapshots").replace("?", "%s"), (table,))
        return rows.fetchall()


def ticks(path: Path, table: str, n: int) -> None:
    """A SQLite log of ``n`` ticks for ``table`` at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    log = EventLog(path, table)
    log.append_many([(InputKind.TICK, {"i": i}, T0 + i, T0 + i + 0.5) for i in range(n)])
    log.close()


def test_copy_moves_every_input_and_the_snapshots_and_a_second_run_writes_nothing(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    state = night(tmp_path, sqlite_url(tmp_path / "live" / "hands.sqlite"), hands=4)
    config = write_config(tmp_path / "hub.toml", state)
    url = postgres.new_database()
    sqlite_log = state / "events.sqlite"
    before = log_rows(sqlite_log)
    kept = snapshots(sqlite_log)
    assert len(before) > 100 and kept  # a night of hands, snapshots at their starts

    code, (row,), _ = copy(config, url)
    assert code == 0, row
    assert row["status"] == "copied" and row["inputs"] == len(before)
    assert row["to"] == url and row["log"] == str(sqlite_log)
    assert pg_rows(url) == before  # every field of every row, the chain included
    assert snapshots(url) == kept and row["snapshots"] == [s[0] for s in kept]
    with psycopg.connect(url) as conn:
        epochs = conn.execute("SELECT DISTINCT epoch FROM event_inputs").fetchall()
        written = conn.execute("SELECT max(written) FROM event_inputs").fetchone()
    assert epochs == [(0,)]
    log = PgEventLog(url, "t1")  # as the hub opens it
    assert log.last_seq == len(before) and log.latest_snapshot(kept[0][1]) is not None
    log.close()

    code, (again,), _ = copy(config, url)
    assert code == 0 and again["status"] == "already" and again["inputs"] == len(before)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT max(written) FROM event_inputs").fetchone() == written
    assert pg_rows(url) == before

    on_pg = tmp_path / "pg.toml"
    on_pg.write_text(f'event_log_url = "{url}"\n' + config.read_text())
    checked = feltwire("event-log", "check", "--config", str(on_pg))
    assert checked.returncode == 0 and f"OK: {len(before)} inputs" in checked.stdout

    text = feltwire("event-log", "copy", "--config", str(on_pg))  # --to: its event_log_url
    assert text.returncode == 0, text
    assert f"already there: the database holds the same {len(before)} inputs" in text.stdout
    assert 'next: event_log_url = "' in text.stdout


def test_a_damaged_log_is_refused_with_its_damage_and_nothing_is_copied(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    state = tmp_path / "state"
    ticks(state / "events.sqlite", "t1", 12)
    db = sqlite3.connect(state / "events.sqlite")
    db.execute("DROP TRIGGER events_append_only_update")
    db.execute("""UPDATE events SET payload = '{"i":99}' WHERE seq = 5""")
    db.commit()
    db.close()
    config = write_config(tmp_path / "hub.toml", state)
    url = postgres.new_database()
    done = feltwire("event-log", "copy", "--config", str(config), "--to", url)
    assert done.returncode == 1, done
    assert "NOT COPIED" in done.stdout and "is damaged: input 5 was changed after it" in done.stdout
    assert "lost: inputs 5..12 (8 inputs)" in done.stdout and "Traceback" not in done.stderr
    assert pg_rows(url) == []


def test_a_log_a_running_hub_holds_is_refused(tmp_path: Path, postgres: PostgresServer) -> None:
    state = tmp_path / "state"
    ticks(state / "events.sqlite", "t1", 3)
    config = write_config(tmp_path / "hub.toml", state)
    url = postgres.new_database()
    held = EventLog(state / "events.sqlite", "t1")  # as a running hub holds it
    try:
        code, (row,), _ = copy(config, url)
    finally:
        held.close()
    assert code == 1 and row["status"] == "not copied"
    assert "is locked" in row["error"] and "stop it first" in row["error"]
    assert pg_rows(url) == []
    code, (row,), _ = copy(config, url)  # the hub stopped: copied
    assert code == 0 and row["status"] == "copied" and row["inputs"] == 3


def test_a_table_with_other_rows_or_a_lease_in_the_database_is_refused_and_left_alone(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    state = tmp_path / "state"
    path = state / "events.sqlite"
    ticks(path, "t1", 5)
    config = write_config(tmp_path / "hub.toml", state)

    ran_there = postgres.new_database()  # a hub ran the table on PostgreSQL
    log = PgEventLog(ran_there, "t1")
    log.append(InputKind.TICK, {"there": 1}, T0)
    log.close()
    code, (row,), _ = copy(config, ran_there)
    assert code == 1 and row["status"] == "not copied"
    assert "already holds input 1 of table t1 — not this log's" in row["error"]
    assert "does not mix two histories" in row["error"]
    assert [r[3] for r in pg_rows(ran_there)] == ['{"there":1}']

    earlier = postgres.new_database()  # copied, then the hub went on on SQLite
    assert copy(config, earlier)[0] == 0
    log = EventLog(path, "t1")
    log.append(InputKind.TICK, {"i": 5}, T0 + 5)
    log.close()
    code, (row,), _ = copy(config, earlier)
    assert code == 1
    assert "inputs 1..5 (5 inputs) of table t1 — the first 5 of this log's 6" in row["error"]
    assert len(pg_rows(earlier)) == 5

    leased = postgres.new_database()
    leases = TableLeases(leased, "hub-a")
    assert leases.take("t1") is not None
    leases.close()
    code, (row,), _ = copy(config, leased)
    assert code == 1 and "table t1 has a lease there (hub hub-a, epoch 1, live)" in row["error"]
    assert pg_rows(leased) == []


def test_ctrl_c_leaves_the_table_under_way_out_and_the_next_run_finishes(
    tmp_path: Path,
    postgres: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = tmp_path / "state"
    for table in ("t1", "t2"):
        ticks(state / table / "events.sqlite", table, 50)
    config = write_config(tmp_path / "hub.toml", state, tables=["t1", "t2"])
    url = postgres.new_database()
    monkeypatch.setattr(pg_copy, "BATCH", 10)
    real = Progress.__call__

    def interrupted(self: Progress, done: int) -> None:
        if self.table == "t2" and done > 20:
            raise KeyboardInterrupt  # Ctrl-C in the middle of t2's rows
        real(self, done)

    monkeypatch.setattr(Progress, "__call__", interrupted)
    args = ["copy", "--config", str(config), "--to", url, "--json"]
    assert event_log_cli.main(args) == 130
    assert "interrupted at table t2, of which nothing was copied" in capsys.readouterr().err
    assert len(pg_rows(url, "t1")) == 50 and pg_rows(url, "t2") == []

    monkeypatch.setattr(Progress, "__call__", real)
    assert event_log_cli.main(args) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["table"], r["status"]) for r in out] == [("t1", "already"), ("t2", "copied")]
    assert pg_rows(url, "t2") == log_rows(state / "t2" / "events.sqlite")


def test_a_terminal_sees_the_progress(
    tmp_path: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    ticks(state / "events.sqlite", "t1", 30)
    config = write_config(tmp_path / "hub.toml", state)
    monkeypatch.setattr(pg_copy, "BATCH", 10)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, out = Terminal(), io.StringIO()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr("sys.stdout", out)
    url = postgres.new_database()
    assert event_log_cli.main(["copy", "--config", str(config), "--to", url]) == 0
    assert "\rt1: [" in screen.getvalue() and "30/30 inputs copied" in screen.getvalue()
    assert "copied 30 inputs (the last of " in out.getvalue()


def test_a_killed_hubs_log_and_a_schema_1_log_copy_as_the_hub_reads_them(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    killed = tmp_path / "killed"
    killed_writer(killed / "events.sqlite")  # SIGKILL: every input still in the WAL
    url = postgres.new_database()
    code, (row,), _ = copy(write_config(tmp_path / "k.toml", killed), url)
    assert code == 0 and row["inputs"] == N
    assert pg_rows(url) == log_rows(killed / "events.sqlite")

    old = tmp_path / "old"
    old.mkdir()
    db = sqlite3.connect(old / "events.sqlite")
    db.executescript(V1_SCHEMA)
    db.executemany(
        "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
        [("t1", i, T0 + i, "tick", json.dumps({"i": i})) for i in range(1, 11)],
    )
    db.commit()
    db.close()
    url = postgres.new_database()
    code, (row,), _ = copy(write_config(tmp_path / "o.toml", old), url)
    assert code == 0 and row["inputs"] == 10
    migrated = EventLog(old / "events.sqlite", "t1")  # the hub's own migration: the same chain
    migrated.close()
    assert pg_rows(url) == log_rows(old / "events.sqlite")


def test_no_log_anywhere_and_a_wrong_url_are_said(tmp_path: Path, postgres: PostgresServer) -> None:
    config = write_config(tmp_path / "hub.toml", tmp_path / "nowhere")
    url = postgres.new_database()
    code, (row,), err = copy(config, url)
    assert code == 1 and row["status"] == "no log"
    assert "no table has a SQLite log in" in err and "state_dir" in err
    wrong = feltwire("event-log", "copy", "--config", str(config), "--to", "mysql://x/y")
    assert wrong.returncode == 2 and "postgresql://" in wrong.stderr
    nowhere = feltwire("event-log", "copy", "--config", str(config))
    assert nowhere.returncode == 2 and "--to postgresql://" in nowhere.stderr
