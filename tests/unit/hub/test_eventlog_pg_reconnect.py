"""The PostgreSQL event log after a lost connection (:mod:`hub.adapters.eventlog.pg`): an
append that finds its connection gone connects again and is written — after the backend
was terminated, after the server was stopped and started again — while the server cannot
be reached an append is refused and the log stays as it was; an append whose ``COMMIT``
was cut off (:class:`tests.support.pg_proxy.PgProxy` cuts it before or after the server
committed) is settled by reading its rows back: written once, never twice, and refused
when another writer's rows are in their place. On the tests' own server; the test that
stops the server has a server of its own."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from hub.adapters.eventlog import EventLogWriteError
from hub.adapters.eventlog import pg as pg_log
from hub.adapters.eventlog.leases import TableLeases
from hub.adapters.eventlog.pg import PgEventLog
from hub.app.records import InputKind
from hub.security.chain import GENESIS, row_chain
from tests.support.pg_proxy import PgProxy
from tests.support.postgres import PostgresServer, postgres_server

T0 = 1_700_000_000.0


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A fresh database of the tests' own server."""
    return postgres.new_database()


@pytest.fixture
def proxy(postgres: PostgresServer) -> Iterator[PgProxy]:
    """A proxy to the tests' server that cuts connections at a COMMIT."""
    through = PgProxy(postgres.port)
    try:
        yield through
    finally:
        through.close()


def tick(i: int) -> tuple[InputKind, dict[str, int], float, None]:
    return (InputKind.TICK, {"i": i}, T0 + i, None)


def terminate_others(url: str) -> int:
    """End every other session on ``url``'s database (as an administrator, or a server
    restart, would); how many."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def stored(url: str, table: str = "t1") -> list[tuple[int, str]]:
    """(seq, payload) of every row of ``table`` in the database, in order."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seq, payload FROM event_inputs WHERE table_id = %s ORDER BY seq", (table,)
        ).fetchall()
    return [(int(seq), str(payload)) for seq, payload in rows]


def payloads(n: int) -> list[tuple[int, str]]:
    return [(i + 1, f'{{"i":{i}}}') for i in range(n)]


def test_an_append_after_the_backend_was_terminated_connects_again(url: str) -> None:
    log = PgEventLog(url, "t1")
    log.append_many([tick(0), tick(1)])
    assert terminate_others(url) == 1  # the log's connection
    (rec,) = log.append_many([tick(2)])
    assert rec.seq == 3 and log.last_seq == 3
    assert terminate_others(url) == 1
    assert [r.seq for r in log.records()] == [1, 2, 3]  # a read connects again too
    terminate_others(url)
    log.save_snapshot(3, 1, {"hand": 1})
    terminate_others(url)
    snapshot = log.latest_snapshot(1)
    assert snapshot is not None and snapshot.seq == 3
    log.close()
    assert stored(url) == payloads(3)  # each input once
    with pytest.raises(EventLogWriteError, match="is closed"):
        log.append_many([tick(3)])


def test_while_the_server_is_down_appends_are_refused_and_the_first_after_it_is_back_works() -> (
    None
):
    with postgres_server() as server:  # its own: this test stops it
        url = server.new_database()
        log = PgEventLog(url, "t1")
        log.append_many([tick(0)])
        server.halt()
        for i in (1, 2):
            with pytest.raises(EventLogWriteError) as refused:
                log.append_many([tick(i)])
            message = str(refused.value)
            assert "input 2 of table t1 not written (the database cannot be reached" in message
            assert "the next input tries to connect again" in message
            assert log.last_seq == 1
        server.resume()
        (rec,) = log.append_many([tick(1)])
        assert rec.seq == 2
        log.append_many([tick(2)])
        log.close()
        assert stored(url) == payloads(3)


def test_a_commit_the_server_made_but_never_answered_is_read_back_not_written_twice(
    url: str, proxy: PgProxy
) -> None:
    log = PgEventLog(proxy.url(url), "t1")
    log.append_many([tick(0)])
    proxy.cut_next_commit("after")
    records = log.append_many([tick(1), tick(2)])
    assert proxy.cuts == 1
    assert [r.seq for r in records] == [2, 3] and log.last_seq == 3
    log.append_many([tick(3)])
    log.close()
    assert stored(url) == payloads(4)


def test_a_commit_that_never_reached_the_server_is_written_again(url: str, proxy: PgProxy) -> None:
    log = PgEventLog(proxy.url(url), "t1")
    log.append_many([tick(0)])
    proxy.cut_next_commit("before")
    (rec,) = log.append_many([tick(1)])
    assert proxy.cuts == 1 and rec.seq == 2
    log.close()
    assert stored(url) == payloads(2)


def test_another_writers_rows_in_place_of_a_cut_commit_refuse_the_append(
    url: str, proxy: PgProxy
) -> None:
    log = PgEventLog(proxy.url(url), "t1")
    log.append_many([tick(0)])
    first = stored(url)

    def another_writer() -> None:  # appends input 2 while the cut one is unknown
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(pg_log.INSERT, ("t1", 2, T0 + 9, "tick", '{"other":1}', None, "x", 0))

    proxy.cut_next_commit("before", then=another_writer)
    with pytest.raises(EventLogWriteError, match="another writer appended input 2 of table t1"):
        log.append_many([tick(1)])
    assert log.last_seq == 1
    with pytest.raises(EventLogWriteError, match="this log no longer writes"):
        log.append_many([tick(2)])
    log.close()
    assert stored(url) == [*first, (2, '{"other":1}')]  # the other's row, never this log's


def test_an_unknown_commit_found_missing_later_lets_the_log_go_on(
    url: str, proxy: PgProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_log, "DOUBT_WAIT_S", 0.3)
    log = PgEventLog(proxy.url(url), "t1")
    log.append_many([tick(0)])

    def server_gone() -> None:
        proxy.refusing = True

    proxy.cut_next_commit("before", then=server_gone)
    with pytest.raises(EventLogWriteError, match="whether input 2 of table t1 was written is unk"):
        log.append_many([tick(1)])
    with pytest.raises(EventLogWriteError, match=r"whether input 2 .* is unknown"):
        log.append_many([tick(1)])  # still unreachable: refused, asked again next time
    proxy.refusing = False
    (rec,) = log.append_many([tick(1)])  # not written, as the hub was told: go on
    assert rec.seq == 2
    log.close()
    assert stored(url) == payloads(2)


def test_an_unknown_commit_found_written_later_stops_the_log_until_a_restart(
    url: str, proxy: PgProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_log, "DOUBT_WAIT_S", 0.3)
    log = PgEventLog(proxy.url(url), "t1")
    log.append_many([tick(0)])

    def server_gone() -> None:
        proxy.refusing = True

    proxy.cut_next_commit("after", then=server_gone)
    with pytest.raises(EventLogWriteError, match="is unknown"):
        log.append_many([tick(1)])
    assert log.last_seq == 1
    proxy.refusing = False
    for _ in range(2):
        with pytest.raises(EventLogWriteError, match=r"written after all.*restart the hub"):
            log.append_many([tick(5)])
    log.close()
    assert stored(url) == payloads(2)  # input 2 was committed; nothing after it
    again = PgEventLog(url, "t1")  # a restart: the log as it is
    assert again.last_seq == 2
    again.close()


def test_the_outcome_of_a_commit_read_back_in_each_case(url: str) -> None:
    log = PgEventLog(url, "t1")
    log.append_many([tick(0), tick(1)])
    chain_1 = log._chain_at(1)
    assert chain_1 is not None
    with psycopg.connect(url, autocommit=True) as conn:
        ours = [
            ("t1", 2, T0 + 1, "tick", '{"i":1}', None, log._chain, 0),
        ]
        assert pg_log.commit_outcome(conn, "t1", ours) is pg_log.Outcome.WRITTEN
        other_chain = row_chain(chain_1, "t1", 2, T0 + 1, "tick", '{"i":7}', None)
        theirs = [("t1", 2, T0 + 1, "tick", '{"i":7}', None, other_chain, 0)]
        assert pg_log.commit_outcome(conn, "t1", theirs) is pg_log.Outcome.OTHER
        missing = [("t1", 3, T0 + 2, "tick", "{}", None, GENESIS, 0)]
        assert pg_log.commit_outcome(conn, "t1", missing) is pg_log.Outcome.ABSENT
        half = [*ours, ("t1", 3, T0 + 2, "tick", "{}", None, GENESIS, 0)]
        assert pg_log.commit_outcome(conn, "t1", half) is pg_log.Outcome.OTHER
    log.close()


def test_the_leases_connect_again_after_a_lost_connection(url: str) -> None:
    leases = TableLeases(url, "hub-a")
    lease = leases.take("t1")
    assert lease is not None
    terminate_others(url)
    renewed = leases.renew(lease)
    assert renewed is not None and renewed.epoch == lease.epoch
    terminate_others(url)
    assert [h.hub for h in leases.holders()] == ["hub-a"]
    leases.close()
