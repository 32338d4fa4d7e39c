"""A casino's PostgreSQL: the primary dies mid-hand and its synchronous standby is
promoted; a card room of two hubs goes on on the promoted server without a change of its
config (issue 19, a casino; docs/scaling.md, "A casino: PostgreSQL with a replica").

A primary and a streaming standby of the test's own (:func:`replicated_postgres`:
``synchronous_standby_names`` names the standby, ``synchronous_commit = on``, fsync on);
two ``feltwire hub`` processes with ``[cluster]`` whose ``event_log_url`` (and so their
leases and hands store) is one URL of both hosts with ``target_session_attrs=read-write``;
Mosquitto; four tables, each with ``feltwire node`` dealing; the test is every table's
dealer at whichever hub serves it. With every table in a hand, the primary is killed
(SIGKILL of every process of its cluster) and, ``promote_after_s`` later, the standby is
promoted (``pg_ctl promote``, as an operator or Patroni does): at once, or after every
lease had lapsed (a promotion slower than the 6-s lease). Then:

* every table is served again — by the hub that had it, or, when its lease lapsed
  meanwhile, by whichever hub took it — and the hand in progress at each goes on to its
  award, and another after it;
* nothing committed is lost: every row the primary held just before the kill is on the
  promoted server, the same; each table's log there has its sequence numbers without a
  gap and its chain whole (``feltwire event-log check``, through the same URL) — an
  input a hub applied and the promoted server lacked would leave a gap before the hub's
  next append; and every read a witness saw a node publish is in its table's log, once
  — but for the reads published while no server took writes (from the kill to the
  table's first write on the promoted server), which a hub refuses as with any
  unreachable database (docs/scaling.md): counted and printed, not asserted;
* the hands store on the promoted server has every finished hand: ``feltwire history
  import-log`` replays every table's log there and finds each hand that ended already
  stored (none to write).

Printed, not asserted (``pytest -s``): the promotion's own time, and per table how long
it took no read — from the kill to the first read its log holds after it —, which hub
served it before and after, the tables the hubs lost meanwhile, and the reads refused.
"""

from __future__ import annotations

import datetime
import json
import re
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import paho.mqtt.client as paho
import psycopg
import pytest

from tests.integration.faults.test_failover import (
    hand_past,
    hand_running,
    owners,
    start_room,
)
from tests.support.cluster import (
    RoomDealer,
    RoomHub,
    Witness,
    logged,
    logged_reads,
    nodes_for,
    until,
)
from tests.support.postgres import PostgresServer, replicated_postgres
from tests.support.table_procs import feltwire, persistent_broker

pytestmark = pytest.mark.timeout(600)

TABLES = ["t1", "t2", "t3", "t4"]
HUBS = ["hub-a", "hub-b"]
STEP = 0.6
"""The nodes' dealers: seconds between two motions."""
IN_FLIGHT_S = 1.0
"""A read published this long before the kill may have been on its way to the log when
the primary died (refused, as the rest of the outage's)."""


class TimedWitness(Witness):
    """A :class:`Witness` that also notes when it saw each read first (wall clock)."""

    def __init__(self, port: int) -> None:
        self.at: dict[tuple[str, str, int], float] = {}
        self._times = threading.Lock()
        super().__init__(port)

    def heard(self, message: paho.MQTTMessage) -> None:
        seen = time.time()
        super().heard(message)
        if not message.retain:
            body = json.loads(message.payload)
            key = (message.topic.split("/")[2], str(body["node"]), int(body["seq"]))
            with self._times:
                self.at.setdefault(key, seen)

    def seen_at(self, table: str, node: str, seq: int) -> float:
        with self._times:
            return self.at[(table, node, seq)]


@pytest.fixture
def servers() -> Iterator[tuple[PostgresServer, PostgresServer]]:
    """A primary and its synchronous standby of the test's own (the test kills the
    primary), room for two hubs' connections."""
    with replicated_postgres(max_connections=80) as pair:
        yield pair


@pytest.mark.parametrize(
    "promote_after_s", [0.0, 8.0], ids=["promoted-at-once", "promoted-after-the-leases-lapsed"]
)
def test_the_primary_killed_mid_hand_the_standby_promoted_the_room_goes_on(
    tmp_path: Path, servers: tuple[PostgresServer, PostgresServer], promote_after_s: float
) -> None:
    primary, standby = servers
    database = primary.new_database().rsplit("/", 1)[1]
    url = primary.hosts_url(database, standby)  # the hubs' one URL, never changed
    broker = persistent_broker(tmp_path)
    broker.start()
    witness = TimedWitness(broker.port)
    hubs = start_room(tmp_path, url, broker, HUBS, TABLES)
    nodes = nodes_for(tmp_path, broker.url, TABLES, step_seconds=STEP)
    dealer = RoomDealer(hubs, TABLES)
    try:
        served = until(
            lambda: (o := owners(hubs)) and len(o) == len(TABLES) and o,
            what="every table served",
            wait=60,
        )
        for node in nodes:
            node.start()
        dealer.start()
        at = {t: next(h for h in hubs if h.name == served[t]) for t in TABLES}
        until(
            lambda: all(hand_past(at[t], t, 1) for t in TABLES),
            what="every table's first hand to end",
            wait=180,
            every=1.0,
        )
        # every table mid-hand, then the primary dies
        before = until(
            lambda: (
                (running := {t: hand_running(at[t], t) for t in TABLES})
                and all(running.values())
                and running
            ),
            what="every table in a hand",
            wait=60,
            every=0.05,
        )
        held = _chains(primary.url(database))  # what the primary committed, just before
        killed_wall, killed = time.time(), time.monotonic()
        primary.kill()
        time.sleep(promote_after_s)
        promoting_wall, promoting = time.time(), time.monotonic()
        standby.promote()
        promoted = time.monotonic()
        print(  # the figures, for the record (pytest -s)
            f"\npg failover ({promote_after_s:.0f} s to promote): primary killed; "
            f"pg_ctl promote took {promoted - promoting:.2f} s, done "
            f"{promoted - killed:.2f} s after the kill"
        )
        # every table served again (the same hub, or another) and its hand goes on
        until(
            lambda: len(owners(hubs)) == len(TABLES),
            what="every table served after the promotion",
            wait=60,
        )
        for table in TABLES:
            until(
                partial(_hand_past_wherever, hubs, table, int(before[table]) + 1),
                what=f"{table}'s hand {before[table]} to end and another after it",
                wait=120,
            )
        after = owners(hubs)
    finally:
        dealer.stop()
        for node in nodes:
            node.stop()
        for hub in hubs:
            hub.stop()
        witness.close()
        broker.stop()
    assert standby.in_recovery() is False
    on_standby = standby.url(database)
    # nothing committed lost: every row the primary held is there, the same
    there = _chains(on_standby)
    assert {k: there.get(k) for k in held} == held
    # what the tables went through: from the kill to each one's first write on the standby
    said = {h.name: h.log.read_text() for h in hubs}
    lost = {n: sorted(set(re.findall(r"lost table (\w+): (?!handed)", t))) for n, t in said.items()}
    handed = {n: sorted(set(re.findall(r"lost table (\w+): handed", t))) for n, t in said.items()}
    first = {t: _first_write_after(on_standby, t, promoting_wall) for t in TABLES}
    missing = {t: witness.reads(t) - set(logged_reads(on_standby, t)) for t in TABLES}
    print(
        "tables taking no read after the kill: "
        + ", ".join(
            f"{t} {first[t]['read'] - killed_wall:.1f} s ({served[t]}→{after.get(t)})"
            for t in TABLES
        )
        + f"; tables lost by a hub meanwhile: {lost}, handed over after: {handed}; "
        + "reads refused in the outage: "
        + str({t: len(m) for t, m in missing.items()})
    )
    for table in TABLES:
        rows = logged(on_standby, table)
        assert [seq for seq, *_ in rows] == list(range(1, len(rows) + 1)), table
        reads = logged_reads(on_standby, table)
        assert len(reads) == len(set(reads)), f"{table}: a read logged twice"
        # every read published is in the log — but for the outage's, which were refused
        outside = {
            (n, q)
            for n, q in missing[table]
            if not killed_wall - IN_FLIGHT_S
            <= witness.seen_at(table, n, q)
            <= first[table]["write"] + IN_FLIGHT_S
        }
        assert not outside, f"{table}: reads published but never logged: {sorted(outside)}"
    # every log whole (the chain), read through the hubs' own URL: the promoted server
    config = hubs[0].config
    checked = feltwire("event-log", "check", "--config", str(config))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # every hand that ended is in the store: a replay of each log finds none to write
    done = feltwire("history", "import-log", "--config", str(config), "--json", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    counts = {row["table"]: row for row in map(json.loads, done.stdout.splitlines())}
    for table in TABLES:
        row = counts[table]
        assert (row["written"], row["failed"]) == (0, 0), row
        assert row["already"] >= int(before[table]) + 1, row


def _hand_past_wherever(hubs: list[RoomHub], table: str, number: int) -> bool:
    """Whether ``table`` is past hand ``number`` at the hub serving it now."""
    name = owners(hubs).get(table)
    hub = next((h for h in hubs if h.name == name), None)
    return hub is not None and hand_past(hub, table, number)


def _chains(url: str) -> dict[tuple[str, int], str]:
    """Every table's rows in the log at ``url``: (table, seq) → chain."""
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute("SELECT table_id, seq, chain FROM event_inputs").fetchall()
    return {(str(t), int(q)): str(c) for t, q, c in rows}


def _first_write_after(url: str, table: str, promoting_wall: float) -> dict[str, float]:
    """When ``table``'s log first took an input (``write``) and a read (``read``) on the
    promoted server, in seconds since the epoch (the server's time of each append's
    transaction; rows of the primary's are older than the promotion, though one begun
    just before the kill may be younger than the kill's time)."""
    since = datetime.datetime.fromtimestamp(promoting_wall, datetime.UTC)
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute(
            "SELECT min(written), min(written) FILTER (WHERE kind = 'inventory') "
            "FROM event_inputs WHERE table_id = %s AND written > %s",
            (table, since),
        ).fetchone()
    assert row is not None and row[1] is not None, f"{table}: no read after the promotion"
    return {"write": row[0].timestamp(), "read": row[1].timestamp()}
