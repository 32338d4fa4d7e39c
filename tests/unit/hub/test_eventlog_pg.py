"""The PostgreSQL event log's own properties (:mod:`hub.adapters.eventlog.pg`), beside
the tests both backends pass (``log_place`` in test_eventlog*.py): one table's inputs
totally ordered — a second writer fails, never interleaves —, each row with its writer's
epoch, append-only in the database itself, a missing row refused, every table of a room
in one database, ``feltwire event-log check`` on it, a hub refusing to start on a
damaged one. On the tests' own server (:mod:`tests.support.postgres`); a lost connection
is ``test_eventlog_pg_reconnect.py``'s."""

from __future__ import annotations

import socket
from pathlib import Path

import psycopg
import pytest

from hub.adapters.eventlog import EventLogDamaged, EventLogWriteError
from hub.adapters.eventlog.backend import open_event_log
from hub.adapters.eventlog.pg import PgEventLog
from hub.adapters.eventlog.store import EventLog
from hub.app.records import InputKind
from hub.bootstrap import start_hub
from hub.cli.event_log import main as event_log_main
from hub.config import HubConfig, HubMqttSettings, WebSettings
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer
from tests.support.web_hub import two_seated

T0 = 1_700_000_000.0


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A fresh database of the tests' own server."""
    return postgres.new_database()


def ticks(n: int, first: int = 0) -> list[tuple[InputKind, dict[str, int], float, None]]:
    return [(InputKind.TICK, {"i": i}, T0 + i, None) for i in range(first, first + n)]


def test_a_second_writer_of_the_same_table_fails_and_never_interleaves(url: str) -> None:
    """Two hubs that both believe they own table t1 (the lease that will prevent it is
    the next step): the one that appends second is refused, with nothing written."""
    one = PgEventLog(url, "t1", epoch=1)
    two = PgEventLog(url, "t1", epoch=2)
    one.append_many(ticks(3))
    with pytest.raises(EventLogWriteError, match="another writer appended input 1 of table t1"):
        two.append_many(ticks(2, 100))
    assert two.last_seq == 0
    one.append_many(ticks(2, 3))
    with pytest.raises(EventLogWriteError, match="not written"):
        two.append(InputKind.TICK, {"late": True}, T0 + 50)
    two.close()
    one.close()
    again = PgEventLog(url, "t1")
    assert [(r.seq, r.payload) for r in again.records()] == [(i + 1, {"i": i}) for i in range(5)]
    again.close()


def test_each_row_carries_the_epoch_of_the_hub_that_appended_it(url: str) -> None:
    log = PgEventLog(url, "t1")  # no lease yet: epoch 0
    log.append(InputKind.TICK, {}, T0)
    log.close()
    log = PgEventLog(url, "t1", epoch=7)
    log.append_many(ticks(2))
    log.close()
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT seq, epoch FROM event_inputs ORDER BY seq").fetchall()
    assert rows == [(1, 0), (2, 7), (3, 7)]


def test_the_database_refuses_to_change_or_remove_an_input(url: str) -> None:
    log = PgEventLog(url, "t1")
    log.append_many(ticks(2))
    log.close()
    for sql in (
        "UPDATE event_inputs SET payload = '{}'",
        "DELETE FROM event_inputs WHERE seq = 2",
        "TRUNCATE event_inputs",
    ):
        with (
            psycopg.connect(url, autocommit=True) as conn,
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
        ):
            conn.execute(sql.encode())
    again = PgEventLog(url, "t1")
    assert again.last_seq == 2
    again.close()


def test_a_missing_input_is_named_and_refused(url: str) -> None:
    log = PgEventLog(url, "t1")
    log.append_many(ticks(6))
    log.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")  # past the triggers
        conn.execute("DELETE FROM event_inputs WHERE seq = 4")
    with pytest.raises(EventLogDamaged) as caught:
        PgEventLog(url, "t1")
    message = str(caught.value)
    assert "input 4 is missing from the log" in message
    assert "lost: inputs 4..6 (3 inputs); inputs 1..3 verify" in message
    assert "restore the database from its backup" in message


def test_every_table_of_a_room_in_one_database(url: str) -> None:
    t1, t2 = PgEventLog(url, "t1"), PgEventLog(url, "t2")
    t1.append_many(ticks(3))
    t2.append(InputKind.TICK, {"t2": True}, T0)
    t1.save_snapshot(3, 1, {"hand": 1})
    assert (t1.last_seq, t2.last_seq) == (3, 1)
    assert t2.latest_snapshot(1) is None
    assert t1.origin != t2.origin
    t1.close()
    t2.close()
    assert [r.payload for r in PgEventLog(url, "t2").records()] == [{"t2": True}]


def test_a_full_sync_log_commits_to_the_servers_disk(url: str) -> None:
    """The tests' server runs with synchronous_commit off; the log's session turns it on
    (``sync = "full"``) and leaves it off for ``"normal"``."""
    full, normal = PgEventLog(url, "t1"), PgEventLog(url, "t2", sync="normal")
    assert full._db.execute("SHOW synchronous_commit").fetchone() == ("on",)
    assert normal._db.execute("SHOW synchronous_commit").fetchone() == ("off",)
    full.close()
    normal.close()


def test_the_config_picks_the_backend(url: str, tmp_path: Path) -> None:
    on_pg = open_event_log("t1", url=url, path=tmp_path / "events.sqlite")
    assert isinstance(on_pg, PgEventLog) and on_pg.where == url
    on_pg.close()
    assert not (tmp_path / "events.sqlite").exists()
    on_file = open_event_log("t1", url=None, path=tmp_path / "events.sqlite")
    assert isinstance(on_file, EventLog) and on_file.where == str(tmp_path / "events.sqlite")
    on_file.close()
    with pytest.raises(ValueError, match="postgresql://"):
        open_event_log("t1", url="mysql://x/y", path=None)


def test_the_password_stays_out_of_the_messages(postgres: PostgresServer) -> None:
    url = postgres.url("no_such_db").replace("postgres@", "postgres:s3cret@")
    with pytest.raises(Exception) as caught:
        PgEventLog(url, "t1")
    assert "s3cret" not in str(caught.value) and "no_such_db" in str(caught.value)


def test_the_check_command_verifies_a_postgresql_log_read_only(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "hub.toml"
    config.write_text(
        f'table = "t1"\nstate_dir = "{tmp_path / "state"}"\nevent_log_url = "{url}"\n'
    )
    check = ["check", "--config", str(config)]
    assert event_log_main(check) == 0
    assert "OK: no log yet" in capsys.readouterr().out
    with psycopg.connect(url) as conn:  # read-only: not even the tables were made
        assert conn.execute("SELECT to_regclass('event_inputs')").fetchone() == (None,)
    log = PgEventLog(url, "t1")
    log.append_many(ticks(3))
    log.close()
    assert event_log_main(check) == 0
    assert "OK: 3 inputs, the last of" in capsys.readouterr().out
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE event_inputs SET t = t + 1 WHERE seq = 2")
    assert event_log_main(check) == 1
    out = capsys.readouterr().out
    assert "input 2 was changed after it was written" in out and "lost: inputs 2..3" in out
    assert event_log_main(["accept-loss", "--config", str(config)]) == 2
    assert "restore the database from its backup" in capsys.readouterr().err


async def test_the_hub_refuses_a_damaged_postgresql_log_and_starts_nothing(
    url: str, tmp_path: Path
) -> None:
    log = PgEventLog(url, "t1")
    log.append_many(ticks(4))
    log.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("""UPDATE event_inputs SET payload = '{"i":7}' WHERE seq = 3""")
    web, broker = free_port(), free_port()
    config = HubConfig(
        table="t1",
        live_equity=False,
        mqtt=HubMqttSettings(embedded_port=broker),
        web=WebSettings(port=web),
        rules=two_seated(),
        state_dir=tmp_path / "state",
        event_log_url=url,
    )
    with pytest.raises(EventLogDamaged, match="input 3 was changed"):
        await start_hub(config)
    for port in (web, broker):  # nothing started
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0
    assert not (tmp_path / "state" / "events.sqlite").exists()
