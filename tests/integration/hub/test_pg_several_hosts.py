"""A casino's PostgreSQL: a primary with a synchronous standby, and one URL of both hosts
with ``target_session_attrs=read-write`` — how a hub finds the server that takes writes
after a promotion without a change of its config (docs/scaling.md, "A casino").

Every place a hub connects takes such a URL — the event log (:class:`PgEventLog`), the
table leases (:class:`TableLeases`) and the hands store (:class:`HandStore`, SQLAlchemy:
its own URL parser takes one ``host:port``, so the URL goes to libpq whole) — and each
reaches the primary even when the standby and a dead host are listed before it. When
the primary dies, each refuses (nothing written) until the standby is promoted; then
the same objects, not reopened, write on the promoted server, where everything they
were told was written is (the standby was synchronous). And the price of a synchronous
standby: while it is gone, every commit waits for it. On the tests' own servers
(:func:`tests.support.postgres.replicated_postgres`).
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import text

from hub.adapters.eventlog.errors import EventLogError, EventLogWriteError
from hub.adapters.eventlog.leases import TableLeases
from hub.adapters.eventlog.pg import PgEventLog
from hub.adapters.eventlog.pg_schema import connect
from hub.adapters.hands.store import HandStore
from hub.app.errors import HandStoreError
from hub.app.hand_record import HandRecord
from hub.app.records import InputKind
from hub.rules.games import Stakes
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer, replicated_postgres
from tests.support.stored_hands import stored_hand

T0 = 1_764_000_000.0
HAND = ["d dh p1 8h8s", "d dh p2 KcQd", "d dh p3 AdJs", "p3 cbr 30", "p1 f", "p2 f"]


@pytest.fixture
def servers() -> Iterator[tuple[PostgresServer, PostgresServer]]:
    """A primary and its synchronous standby of the test's own (the test kills one)."""
    with replicated_postgres() as pair:
        yield pair


def tick(i: int) -> tuple[InputKind, dict[str, int], float, None]:
    return (InputKind.TICK, {"i": i}, T0 + i, None)


def hand(number: int) -> HandRecord:
    players = {1: "Ann", 4: "Bo", 7: "Cy"}
    return stored_hand(
        number,
        "NT",
        players,
        HAND,
        stakes=Stakes.blind_game(3, 5, 10),
        started_at=T0 + 100 * number,
    )


def rows(server: PostgresServer, database: str) -> tuple[list[int], int, list[int]]:
    """What ``server`` holds of the test's writes: t1's inputs, t1's lease epoch, the
    numbers of the hands stored."""
    with psycopg.connect(server.url(database), autocommit=True) as db:
        seqs = db.execute("SELECT seq FROM event_inputs WHERE table_id = 't1' ORDER BY seq")
        inputs = [int(s) for (s,) in seqs.fetchall()]
        lease = db.execute("SELECT epoch FROM table_leases WHERE table_id = 't1'").fetchone()
        numbers = db.execute("SELECT number FROM hands ORDER BY number").fetchall()
    return inputs, 0 if lease is None else int(lease[0]), [int(n) for (n,) in numbers]


def test_each_connection_finds_the_primary_and_after_a_promotion_the_new_one(
    servers: tuple[PostgresServer, PostgresServer],
) -> None:
    primary, standby = servers
    database = primary.new_database().rsplit("/", 1)[1]
    # listed first: a host nobody listens on, then the standby (read-only): neither is taken
    dead = f"127.0.0.1:{free_port()}"
    hosts = f"{dead},127.0.0.1:{standby.port},127.0.0.1:{primary.port}"
    url = f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"

    leases = TableLeases(url, "hub-a")
    lease = leases.take("t1")
    assert lease is not None
    log = PgEventLog(url, "t1", epoch=lease.epoch)
    store = HandStore.open(url)
    try:
        log.append_many([tick(1), tick(2)])
        assert store.write(hand(1))
        assert rows(primary, database) == ([1, 2], 1, [1])
        assert standby.in_recovery()

        primary.kill()
        # nothing takes writes: each refuses, nothing written anywhere
        with pytest.raises(EventLogWriteError, match="not written"):
            log.append_many([tick(3)])
        with pytest.raises(EventLogError):
            leases.heartbeat([lease], "http://hub-a")
        with pytest.raises(HandStoreError):
            store.write(hand(2))

        standby.promote()
        # the same objects, not reopened: the next write of each lands on the new primary
        log.append_many([tick(3)])
        kept = leases.heartbeat([lease], "http://hub-a")
        assert kept["t1"].epoch == lease.epoch  # the lease itself was replicated
        assert store.write(hand(2))
        with store.connect() as conn:  # the store reads there too
            assert conn.execute(text("SELECT inet_server_port()")).scalar() == standby.port
        # every write each was told of is on the promoted server, once, and nothing else
        assert rows(standby, database) == ([1, 2, 3], 1, [1, 2])
        assert log.last_seq == 3
    finally:
        log.close()
        leases.close()
        store.close()


def test_a_urls_own_connect_timeout_is_each_hosts(
    servers: tuple[PostgresServer, PostgresServer],
) -> None:
    """``connect_timeout`` in the URL is kept (the hub's default of 10 s otherwise): with
    several hosts it bounds each one's try — a host that is gone without refusing (a
    dead machine, a network that drops packets) costs that much per connection."""
    primary, standby = servers
    database = primary.new_database().rsplit("/", 1)[1]
    hosts = f"127.0.0.1:{primary.port},127.0.0.1:{standby.port}"
    url = f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"
    own = f"{url}&connect_timeout=3"

    with connect(own, "test") as db:
        assert db.info.get_parameters()["connect_timeout"] == "3"
    with connect(url, "test") as db:
        assert db.info.get_parameters()["connect_timeout"] == "10"
    for given, expected in ((own, "3"), (url, "10")):
        store = HandStore.open(given)
        try:
            with store.connect() as conn:
                raw = conn.connection.dbapi_connection
                assert raw is not None
                assert raw.info.get_parameters()["connect_timeout"] == expected
        finally:
            store.close()


def test_a_lost_synchronous_standby_holds_every_commit_until_the_primary_stops_waiting(
    servers: tuple[PostgresServer, PostgresServer],
) -> None:
    """The other side of a synchronous standby: with it gone, the primary waits for it
    at every commit — the append neither fails nor returns (no ``statement_timeout``
    ends a commit's wait for its standby) — until the standby is back or an operator
    drops it from ``synchronous_standby_names``; then the append returns, written."""
    primary, standby = servers
    url = primary.hosts_url(primary.new_database().rsplit("/", 1)[1], standby)
    log = PgEventLog(url, "t1")
    try:
        log.append_many([tick(1)])
        standby.kill()
        done = threading.Event()
        failed: list[BaseException] = []

        def append() -> None:
            try:
                log.append_many([tick(2)])
            except BaseException as exc:  # told to the test
                failed.append(exc)
            done.set()

        threading.Thread(target=append, daemon=True).start()
        assert not done.wait(3), failed  # held: the commit waits for the standby
        with psycopg.connect(primary.url(), autocommit=True) as admin:
            admin.execute("ALTER SYSTEM SET synchronous_standby_names = ''")
            admin.execute("SELECT pg_reload_conf()")
        assert done.wait(30) and not failed, failed
        assert log.last_seq == 2
    finally:
        log.close()


def test_the_casino_url_of_the_docs_is_one_the_hub_takes() -> None:
    """docs/scaling.md's URL of every server validates as ``event_log_url`` and is read
    by libpq as its hosts, each with the read-write check and the timeout."""
    from psycopg.conninfo import conninfo_to_dict

    from feltwire.config import parse_config
    from hub.adapters.eventlog.pg_schema import connect_params, safe_url
    from hub.config import HubConfig

    docs = (Path(__file__).resolve().parents[3] / "docs" / "scaling.md").read_text()
    found = re.search(r"\*\*One URL of every server\*\*.*?```toml\n(.*?)```", docs, re.S)
    assert found, "no URL example in docs/scaling.md's casino section"
    config = parse_config(HubConfig, tomllib.loads(found.group(1)), source="docs/scaling.md")
    url = config.event_log_url
    assert url is not None
    params = conninfo_to_dict(url)
    assert (params["host"], params["port"]) == ("db1.club,db2.club", "5432,5432")
    assert params["target_session_attrs"] == "read-write"
    assert connect_params(url)["options"] and "connect_timeout" not in connect_params(url)
    assert safe_url(url) == url  # no password in it to hide
