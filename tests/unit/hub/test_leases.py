"""Table leases and the event log's fencing on PostgreSQL
(:mod:`hub.adapters.eventlog.leases`): one hub at a time owns a table; a lease that
expires passes to the next hub with a higher epoch; and an append under an old epoch —
a paused hub that woke after its table was taken — is refused by the database itself,
whatever the hub believes, with nothing of it written. On the tests' own server
(:mod:`tests.support.postgres`)."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from hub.adapters.eventlog.leases import FENCED, LeaseLost, TableLeases
from hub.adapters.eventlog.pg import INSERT, PgEventLog
from hub.adapters.eventlog.pg_schema import PG_SCHEMA_VERSION
from hub.app.records import InputKind
from tests.support.postgres import PostgresServer

T0 = 1_700_000_000.0
SHORT = 0.4
"""A lease short enough to expire within a test."""


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A fresh database of the tests' own server."""
    return postgres.new_database()


def tick(i: int) -> tuple[InputKind, dict[str, int], float, None]:
    return (InputKind.TICK, {"i": i}, T0 + i, None)


def test_one_hub_at_a_time_and_a_lapsed_lease_passes_on_with_a_higher_epoch(url: str) -> None:
    a, b = TableLeases(url, "hub-a", lease_s=SHORT), TableLeases(url, "hub-b", lease_s=SHORT)
    first = a.take("t1")
    assert first is not None and first.epoch == 1 and 0 < first.left_s <= SHORT
    assert b.take("t1") is None  # hub-a holds it
    assert b.take("t2") is not None  # another table is free
    renewed = a.renew(first)
    assert renewed is not None and renewed.epoch == 1
    time.sleep(SHORT + 0.2)  # hub-a stops renewing: its lease lapses
    second = b.take("t1")
    assert second is not None and second.epoch == 2
    assert a.renew(first) is None  # hub-a lost the table: a renewal says so
    holders = {h.table: h for h in a.holders()}
    assert (holders["t1"].hub, holders["t1"].epoch, holders["t1"].live) == ("hub-b", 2, True)
    b.give_back(second)  # a clean stop: the table is free at once
    assert not {h.table: h for h in b.holders()}["t1"].live
    third = a.take("t1")
    assert third is not None and third.epoch == 3
    again = a.take("t1")  # the same hub restarted: a new epoch fences out its old process
    assert again is not None and again.epoch == 4
    a.close()
    b.close()


def test_an_append_under_a_lost_lease_is_refused_by_the_database(url: str) -> None:
    """Hub A is paused past its lease; hub B takes the table and writes; A wakes and
    appends — refused (LeaseLost), its log and the table's rows unchanged; and a raw
    INSERT under A's epoch, past every check in the hub, is refused by the trigger."""
    a_leases, b_leases = TableLeases(url, "hub-a", lease_s=SHORT), TableLeases(url, "hub-b")
    a_lease = a_leases.take("t1")
    assert a_lease is not None
    a_log = PgEventLog(url, "t1", epoch=a_lease.epoch)
    a_log.append_many([tick(0), tick(1)])
    time.sleep(SHORT + 0.2)  # hub A frozen (SIGSTOP) past its lease
    b_lease = b_leases.take("t1")
    assert b_lease is not None and b_lease.epoch == a_lease.epoch + 1
    b_log = PgEventLog(url, "t1", epoch=b_lease.epoch)  # B replays what A wrote
    assert [r.payload for r in b_log.records()] == [{"i": 0}, {"i": 1}]
    b_log.append(*tick(2)[:3])
    with pytest.raises(LeaseLost, match="expired or another hub took the table"):
        a_log.append_many([tick(100)])  # A wakes: its late write
    assert a_log.last_seq == 2
    with psycopg.connect(url, autocommit=True) as raw:
        row = ("t1", 4, T0, "tick", "{}", None, "forged", a_lease.epoch)
        with pytest.raises(psycopg.Error) as refused:
            raw.execute(INSERT, row)
        assert refused.value.sqlstate == FENCED
    b_log.append(*tick(3)[:3])
    assert [r.payload for r in b_log.records()] == [{"i": i} for i in range(4)]
    for closing in (a_log, b_log, a_leases, b_leases):
        closing.close()


def test_an_expired_lease_fences_its_own_hub_until_it_takes_the_table_again(url: str) -> None:
    """A hub whose renewals stopped (its loop stalled) and that nobody took over from
    may not write either: the lease is over; taking it again gives a new epoch."""
    leases = TableLeases(url, "hub-a", lease_s=SHORT)
    lease = leases.take("t1")
    assert lease is not None
    log = PgEventLog(url, "t1", epoch=lease.epoch)
    log.append(*tick(0)[:3])
    time.sleep(SHORT + 0.2)
    with pytest.raises(LeaseLost):
        log.append(*tick(1)[:3])
    log.close()
    again = leases.take("t1")
    assert again is not None and again.epoch == lease.epoch + 1
    log = PgEventLog(url, "t1", epoch=again.epoch)
    log.append(*tick(1)[:3])
    assert [r.payload for r in log.records()] == [{"i": 0}, {"i": 1}]
    log.close()
    leases.close()


def test_a_table_no_hub_leased_takes_any_epoch(url: str) -> None:
    """A single hub on PostgreSQL needs no leases (epoch 0); once a table is leased,
    epoch 0 is fenced out like any other stale epoch."""
    log = PgEventLog(url, "t1")
    log.append(*tick(0)[:3])
    leases = TableLeases(url, "hub-a")
    assert leases.take("t1") is not None
    with pytest.raises(LeaseLost):
        log.append(*tick(1)[:3])
    assert log.last_seq == 1
    log.close()
    leases.close()


def test_a_takeover_waits_for_the_append_under_way_and_the_new_owner_reads_it(
    url: str,
) -> None:
    """The race fencing must close: hub A's append is in its transaction when its lease
    lapses and hub B takes the table. B's takeover waits for A's commit (the trigger
    holds the lease row), so B's replay — after the takeover — holds A's input."""
    a_leases = TableLeases(url, "hub-a", lease_s=SHORT)
    lease = a_leases.take("t1")
    assert lease is not None
    b_leases = TableLeases(url, "hub-b")
    with psycopg.connect(url) as a:  # hub A's append, in a transaction not yet committed
        a.execute(INSERT, ("t1", 1, T0, "tick", '{"i":0}', None, "c", lease.epoch))
        time.sleep(SHORT + 0.2)  # the lease lapses while the append is open
        taken: list[object] = []
        taker = threading.Thread(target=lambda: taken.append(b_leases.take("t1")))
        taker.start()
        taker.join(0.5)
        assert taker.is_alive(), "the takeover did not wait for the append under way"
        a.commit()
    taker.join(10)
    assert not taker.is_alive() and taken and taken[0] is not None
    with psycopg.connect(url) as b:
        rows = b.execute("SELECT seq FROM event_inputs WHERE table_id = 't1'").fetchall()
    assert rows == [(1,)]
    a_leases.close()
    b_leases.close()


def test_a_version_1_log_database_is_brought_up_and_a_newer_one_refused(url: str) -> None:
    """A room's database written before the leases (schema 1) gains them when a hub of
    this version opens it, its inputs kept; one a newer feltwire wrote is refused."""
    from hub.adapters.eventlog import EventLogError
    from hub.adapters.eventlog.pg import SCHEMA

    with psycopg.connect(url, autocommit=True) as db:
        for statement in SCHEMA:
            db.execute(statement)
        db.execute("INSERT INTO event_log_meta (key, value) VALUES ('schema', '1')")
    old = PgEventLog(url, "t1")
    old.append(*tick(0)[:3])
    old.close()
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT value FROM event_log_meta").fetchall() == [
            (str(PG_SCHEMA_VERSION),)
        ]
        assert db.execute("SELECT count(*) FROM room_hubs").fetchone() == (0,)
    leases = TableLeases(url, "hub-a")
    lease = leases.take("t1")
    assert lease is not None
    log = PgEventLog(url, "t1", epoch=lease.epoch)
    log.append(*tick(1)[:3])
    assert [r.payload for r in log.records()] == [{"i": 0}, {"i": 1}]
    log.close()
    leases.close()
    newer = PG_SCHEMA_VERSION + 1
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE event_log_meta SET value = %s", (str(newer),))
    with pytest.raises(EventLogError, match=f"schema {newer}; this hub reads up to {newer - 1}"):
        PgEventLog(url, "t1")


def test_a_heartbeat_renews_every_lease_held_and_names_the_hub_alive(url: str) -> None:
    """One heartbeat renews all of a hub's leases and says where the hub is; a lease
    taken over meanwhile is missing from its answer (lost); the room read back says who
    holds what and which hubs are alive; a clean leave frees the tables at once."""
    a = TableLeases(url, "hub-a", lease_s=SHORT)
    b = TableLeases(url, "hub-b", lease_s=30)
    held = [lease for t in ("t1", "t2", "t3") if (lease := a.take(t)) is not None]
    assert len(held) == 3
    kept = a.heartbeat(held, "http://a.local:8080")
    assert sorted(kept) == ["t1", "t2", "t3"] and all(x.left_s > 0 for x in kept.values())
    b.heartbeat([], "http://b.local:8080")
    view = b.room()
    assert view.live_hubs() == ["hub-a", "hub-b"]
    owner = view.owner("t2")
    assert owner is not None and (owner.hub, owner.web_url) == ("hub-a", "http://a.local:8080")
    time.sleep(SHORT + 0.2)  # hub-a falls silent: its leases and its name lapse
    taken = b.take("t2")
    assert taken is not None and taken.epoch == 2
    kept = a.heartbeat(list(kept.values()), "http://a.local:8080")
    assert sorted(kept) == []  # every lease lapsed; t2 is hub-b's besides
    view = b.room()
    owner = view.owner("t2")
    assert owner is not None and owner.hub == "hub-b"
    assert view.owner("t1") is None  # expired, nobody took it
    b.leave([taken])
    view = a.room()
    assert view.owner("t2") is None and view.live_hubs() == ["hub-a"]  # hub-b gone
    assert a.take("t2") is not None  # free at once, not a lease's time later
    a.close()
    b.close()
