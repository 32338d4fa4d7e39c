"""A real ``feltwire hub`` SIGKILLed at random moments while it deals hand after hand keeps
its hands store whole: after each restart the store holds every hand the event log
ended, each once — exactly what ``feltwire history import-log`` rebuilds from that log
into an empty store. On SQLite (the default store, in the state directory) and on
PostgreSQL (``[hands] url``).

``feltwire node`` (simulated backend) deals on a real Mosquitto (persistence on, so the
hub's queued reads survive its death); the test is the dealer at the console (the seat to
act checks or calls, a seat asked to show shows). The first kill falls while the store's hands
table is locked, so hands the log has ended wait in the store's writer (inside its
transaction on PostgreSQL): the next start must write them, once. The others fall
anywhere: in a read, in the event log's write, in the store's (one transaction a hand, in
its own thread), between a hand's last input and its write.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.cli import history
from tests.integration.hands.test_import_log import content
from tests.support.table_procs import (
    dealer_step,
    hub_and_node,
    persistent_broker,
    start_hand_then_node,
)

KILLS = int(os.environ.get("FELTWIRE_HANDS_KILLS", "3"))
pytestmark = pytest.mark.timeout(180 + 60 * KILLS)
SEED = int(os.environ.get("FELTWIRE_KILL_SEED", "18"))
UPTIME = (1.0, 6.0)
"""The hub lives this long (drawn uniformly) after it serves again, before the next kill."""


@contextlib.contextmanager
def store_locked(url: str) -> Iterator[None]:
    """The store's hands table locked against writers (readers go on): a hub writing a
    hand waits inside its transaction (PostgreSQL) or gives up and tries again later
    (SQLite's busy timeout) — until the lock is released."""
    if url.startswith("sqlite:///"):
        db = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        db.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            db.execute("ROLLBACK")
            db.close()
        return
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("LOCK TABLE hands IN EXCLUSIVE MODE")
        yield
        conn.rollback()


def test_a_hub_killed_mid_write_leaves_no_hand_missing_or_doubled(
    tmp_path: Path, store_url: str
) -> None:
    rng = random.Random(SEED)
    broker = persistent_broker(tmp_path)
    broker.start()
    hub, node = hub_and_node(tmp_path, broker.url, seed=SEED, step_seconds=0.05)
    config = hub.config
    config.write_text(config.read_text() + f'\n[hands]\nurl = "{store_url}"\n')
    rebuilt = tmp_path / "rebuilt"
    rebuilt.mkdir()
    check = rebuilt / "hub.toml"
    store_of_log = f"sqlite:///{rebuilt / 'hands.sqlite'}"
    check.write_text(config.read_text().replace(f'url = "{store_url}"', f'url = "{store_of_log}"'))

    def play(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            dealer_step(hub)
            hub.check_alive()
            time.sleep(0.02)

    try:
        start_hand_then_node(hub, node)
        # first, a kill in the middle of the store's writes, held there by a lock
        with store_locked(store_url):
            before = sum(hub.hands().values())
            deadline = time.monotonic() + 60
            while sum(hub.hands().values()) < before + 2:  # hands the store cannot take
                assert time.monotonic() < deadline, "no hand ended"
                play(0.5)
            hub.kill9()
        hub.start()
        for _ in range(KILLS):
            play(rng.uniform(*UPTIME))
            hub.kill9()
            hub.start()  # the store's missing hands are written as it starts
            play(1.0)
        ended = sum(hub.hands().values())
        node.stop()
        hub.stop()
        assert ended >= KILLS, f"only {ended} hands in {KILLS} kills: {hub.log.read_text()[-3000:]}"
        # what the log says happened, replayed into an empty store, is what the hub kept
        assert history.main(["import-log", "--config", str(check), "--json"]) == 0
        kept, replayed = content(store_url), content(store_of_log)
        assert [h["number"] for h in kept] == list(range(1, len(kept) + 1))  # none twice
        assert len(kept) >= ended
        assert kept == replayed
        assert "lacks hands the event log ended before its newest snapshot" in hub.log.read_text()
    finally:
        node.stop()
        hub.stop()
        broker.stop()
