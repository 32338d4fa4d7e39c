"""A damaged event log is never accepted silently.

Each kind of damage a security review tried — bytes overwritten in the WAL, a damaged
WAL header, a deleted WAL, a truncated database — and the others a log can suffer (a
row edited, a torn final write, a lost seal, a lost log file) is made on a real log: a
writer process appends with ``sync = "full"`` and is killed with SIGKILL (as a power cut
or ``kill -9`` would leave it: the inputs in the WAL), then the test damages the files.
Opening the log must then refuse with a message that names the file, what was lost
(sequence numbers, how many inputs, the time of the last good one) and what to do — and
leave the damaged files as they were, for forensics. A log ahead of its seal (the hub
died between a commit and the seal's write) and a torn write of the seal itself are not
damage. A full disk refuses the input and leaves the log as it was.

Those are a SQLite file's damages (its WAL, its seal, its pages) and run on SQLite only;
the last tests — a row changed behind the hub's back, a batch all or none — run on both
backends (``log_place``: SQLite, then PostgreSQL; the PostgreSQL log's own damages are in
test_eventlog_pg.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import hub.adapters.eventlog as eventlog
from hub.adapters.eventlog.store import EventLog
from hub.app.errors import EventLogError
from hub.app.records import InputKind
from tests.support.eventlog_damage import T0, N, killed_writer, overwrite, seal_of, wal_of
from tests.support.eventlogs import LogPlace

FRAME = 24 + 4096
"""A WAL frame: its header and one page."""


def when(seq: int) -> str:
    """How a message names the time of input ``seq`` of the writer."""
    t = T0 + seq - 1
    return datetime.fromtimestamp(t, UTC).astimezone().isoformat(sep=" ", timespec="seconds")


def digest(*paths: Path) -> list[str | None]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else None for p in paths]


def refused(path: Path) -> Any:
    """Open the log; it must refuse as damaged. Returns the damage report."""
    before = digest(path, wal_of(path), seal_of(path))
    with pytest.raises(EventLogError) as caught:
        EventLog(path, "t1").close()
    message = str(caught.value)
    assert str(path) in message and "is damaged" in message and "lost:" in message
    assert "feltwire event-log accept-loss" in message and "--table t1" in message
    assert isinstance(caught.value, eventlog.EventLogDamaged)
    assert digest(path, wal_of(path), seal_of(path)) == before  # left as found
    return caught.value.report


# ------------------------------------------------------------- the four kinds of the review


def test_random_bytes_in_the_wal_are_named_as_the_inputs_lost(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    sizes = killed_writer(path)
    # 64 random bytes inside the first frame that input 13 wrote
    overwrite(path.with_name("events.sqlite-wal"), sizes[11] + 24 + 500, random.randbytes(64))
    report = refused(path)
    assert report.inputs == 12 and report.lost == (13, N)
    message = report.message()
    assert f"inputs 13..{N} ({N - 12} inputs)" in message
    assert f"the last of {when(12)}" in message
    assert f"its seal says {N} inputs were committed" in message


def test_a_damaged_wal_header_is_named_and_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    overwrite(wal_of(path), 16, b"\x55" * 8)  # the salts: the header checksum fails
    report = refused(path)
    assert report.inputs == 0 and report.lost == (1, N)
    assert "the log is empty" in report.damage
    assert "found: the header of events.sqlite-wal is damaged" in report.message()
    assert f"inputs 1..{N} ({N} inputs)" in report.message()


def test_a_deleted_wal_is_named_and_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    wal_of(path).unlink()
    report = refused(path)
    assert report.lost == (1, N) and "found: events.sqlite-wal is missing" in report.message()


@pytest.mark.parametrize("keep", [0.0, 0.5])
def test_a_truncated_database_is_refused_never_a_fresh_table(tmp_path: Path, keep: float) -> None:
    path = tmp_path / "events.sqlite"
    log = EventLog(path, "t1")
    for i in range(300):
        log.append(InputKind.TICK, {"i": i, "pad": "x" * 300}, T0 + i)
    log.close()  # a clean close: everything is in the database file, no WAL
    assert not wal_of(path).exists()
    os.truncate(path, int(path.stat().st_size * keep))
    report = refused(path)
    if keep == 0:
        assert "the log file is empty" in report.damage and report.lost == (1, 300)
    else:
        assert "cannot be read" in report.damage and "malformed" in report.damage
        assert report.lost is not None and report.lost[1] == 300


# ------------------------------------------------------------------- the other damages


def test_a_changed_row_is_named_by_its_sequence_number(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_update")
    db.execute("""UPDATE events SET payload = '{"i":5,"pad":"y"}' WHERE seq = 5""")
    db.commit()
    db.close()
    report = refused(path)
    assert "input 5 was changed" in report.damage
    assert report.inputs == 4 and report.lost == (5, N)


@pytest.mark.parametrize("batch", [1, 5])
def test_a_torn_final_write_loses_that_write_only_and_says_so(tmp_path: Path, batch: int) -> None:
    path = tmp_path / "events.sqlite"
    sizes = killed_writer(path, last_batch=batch)
    # the final commit's frames half on disk: SQLite drops that whole transaction
    os.truncate(wal_of(path), sizes[-2] + FRAME // 2)
    report = refused(path)
    assert report.torn and report.inputs == N - batch and report.lost == (N - batch + 1, N)
    lost = f"input {N}" if batch == 1 else f"inputs {N - batch + 1}..{N} ({batch} inputs)"
    assert f"the last write, {lost}, was torn" in report.message()


def test_a_missing_seal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    seal_of(path).unlink(missing_ok=True)
    report = refused(path)
    assert "events.sqlite.seal is missing" in report.damage
    assert report.inputs == N and report.lost == (N + 1, None)


def test_a_missing_log_file_is_refused_while_its_seal_exists(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    path.unlink()
    wal_of(path).unlink()
    report = refused(path)
    assert "the log file is missing" in report.damage and report.lost == (1, N)
    assert not path.exists()  # never a fresh table in its place


def test_a_log_of_other_inputs_than_the_sealed_ones_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    other = tmp_path / "other" / "events.sqlite"
    log = EventLog(other, "t1")
    for i in range(N):
        log.append(InputKind.TICK, {"i": -i}, T0 + i)
    log.close()
    seal = seal_of(path).read_bytes()
    path.unlink()
    wal_of(path).unlink()
    other.rename(path)
    seal_of(path).write_bytes(seal)
    report = refused(path)
    assert "does not match its seal" in report.damage


def test_an_unreadable_file_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    wal_of(path).unlink()
    path.write_bytes(random.randbytes(8192))
    report = refused(path)
    assert "cannot be read" in report.damage and "not a database" in report.damage


# ------------------------------------------------------------------------ not damage


def test_a_log_ahead_of_its_seal_verifies_and_is_resealed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "events.sqlite"
    log = EventLog(path, "t1")
    for i in range(10):
        log.append(InputKind.TICK, {"i": i}, T0 + i)
    old_seal = seal_of(path).read_bytes()
    for i in range(10, 15):
        log.append(InputKind.TICK, {"i": i}, T0 + i)
    log.close()
    seal_of(path).write_bytes(old_seal)  # as if the hub died before the seal's writes
    with caplog.at_level(logging.INFO, logger="hub.adapters.eventlog"):
        again = EventLog(path, "t1")
    assert again.last_seq == 15 and again.last_t == T0 + 14
    assert "inputs 11..15 (5 inputs) committed after the seal's last write" in caplog.text
    again.close()
    seal = eventlog.read_seal(seal_of(path))
    assert seal is not None and seal.seq == 15


def test_a_torn_write_of_the_seal_itself_falls_back_to_its_other_slot(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path)
    seal = seal_of(path)
    raw = seal.read_bytes()
    newer = max((0, eventlog.SEAL_SLOT), key=lambda at: json.loads(raw[at:].split(b"\n")[1])["n"])
    overwrite(seal, newer + 40, b"torn")
    log = EventLog(path, "t1")  # the older slot names input 19: the log is ahead by one
    assert log.last_seq == N
    log.append(InputKind.TICK, {}, T0 + N)
    log.close()
    assert EventLog(path, "t1").last_seq == N + 1


def test_a_sound_killed_log_opens_with_every_input(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    killed_writer(path, last_batch=5)
    log = EventLog(path, "t1")
    got = [(r.seq, r.t, r.payload["i"], r.wall) for r in log.records()]
    assert got[:15] == [(i, T0 + i - 1, i, None) for i in range(1, 16)]
    assert got[15:] == [(i, T0 + i - 1, i, T0 + i - 1) for i in range(16, N + 1)]
    log.close()


# --------------------------------------------------------------- writes that fail


def test_a_full_disk_refuses_the_input_and_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    log = EventLog(path, "t1")
    log.append(InputKind.TICK, {"i": 0}, T0)
    (pages,) = log._db.execute("PRAGMA page_count").fetchone()
    log._db.execute(f"PRAGMA max_page_count = {pages}")  # a genuine SQLITE_FULL from here on
    written = 1
    with pytest.raises(EventLogError) as caught:
        for i in range(1, 100):
            log.append(InputKind.TICK, {"i": i, "pad": "x" * 1000}, T0 + i)
            written += 1
    assert isinstance(caught.value, eventlog.EventLogWriteError)
    assert "full" in str(caught.value) and str(path) in str(caught.value)
    assert f"input {written + 1} not written" in str(caught.value)
    assert log.last_seq == written and [r.seq for r in log.records()] == list(range(1, written + 1))
    log._db.execute(f"PRAGMA max_page_count = {pages + 100}")  # space again: the hub goes on
    assert log.append(InputKind.TICK, {"i": "next"}, T0 + 200).seq == written + 1
    log.close()
    again = EventLog(path, "t1")
    assert [r.seq for r in again.records()] == list(range(1, written + 2))
    again.close()


def test_append_many_is_one_transaction_all_or_none(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    log = EventLog(path, "t1")
    log.append_many([(InputKind.TICK, {"i": i}, T0 + i, T0 + 0.5 + i) for i in range(3)])
    (pages,) = log._db.execute("PRAGMA page_count").fetchone()
    log._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    big = [(InputKind.TICK, {"pad": "x" * 3000}, T0 + 10, None)] * 50
    with pytest.raises(
        eventlog.EventLogWriteError, match=r"inputs 4\.\.53 \(50 inputs\) not written"
    ):
        log.append_many(big)
    assert log.last_seq == 3 and len(list(log.records())) == 3
    log._db.execute("PRAGMA max_page_count = 1000000")
    assert [r.seq for r in log.append_many(big)] == list(range(4, 54))
    assert log.last_t == T0 + 10
    log.close()
    assert EventLog(path, "t1").last_seq == 53


# ------------------------------------------------------------------- schema 1 logs

V1_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
INSERT INTO meta (key, value) VALUES ('schema', '1');
"""
"""The schema feltwire wrote before chains and seals (real users have such files)."""


def test_a_schema_1_log_is_migrated_in_place_and_sealed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "events.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(V1_SCHEMA)
    rows = [("t1", i, T0 + i, "tick", json.dumps({"i": i})) for i in range(1, 31)]
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    with caplog.at_level(logging.INFO, logger="hub.adapters.eventlog"):
        log = EventLog(path, "t1")
    assert "migrated from schema 1 to 2 (30 inputs chained" in caplog.text
    got = [(r.seq, r.t, r.kind.value, r.payload, r.wall) for r in log.records()]
    assert got == [(i, T0 + i, "tick", {"i": i}, None) for i in range(1, 31)]
    assert log.last_seq == 30 and log.last_t == T0 + 30
    assert log.append(InputKind.TICK, {"i": 31}, T0 + 31, wall=T0 + 31.5).seq == 31
    log.close()
    assert os.stat(seal_of(path)).st_mode & 0o777 == 0o600
    report = eventlog.check_log(path, "t1")
    assert report.damage is None and report.schema == 2 and report.inputs == 31
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(events)")]
    assert columns == ["table_id", "seq", "t", "kind", "payload", "wall", "chain"]
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET payload = '{}' WHERE seq = 3")
    db.close()
    # and the migrated chain catches an edit like any other
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_update")
    db.execute("UPDATE events SET t = t + 1 WHERE seq = 7")
    db.commit()
    db.close()
    assert "input 7 was changed" in refused(path).damage


# ------------------------------------------------------------------ how the hub opens


def test_the_hub_drops_a_torn_final_write_says_so_and_keeps_everything_before(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "events.sqlite"
    sizes = killed_writer(path)
    os.truncate(wal_of(path), sizes[-2] + FRAME // 2)
    with pytest.raises(eventlog.EventLogDamaged):  # the operator's choice: stop
        eventlog.open_log(path, "t1", torn="stop").close()
    with caplog.at_level(logging.WARNING, logger="hub.adapters.eventlog"):
        log = eventlog.open_log(path, "t1")
    try:
        assert log.last_seq == N - 1 and [r.payload["i"] for r in log.records()] == list(
            range(1, N)
        )
        (loss,) = log.accepted_losses
        assert f"dropped input {N}" in loss.description
    finally:
        log.close()
    assert "was torn" in caplog.text and f"dropped input {N}" in caplog.text
    assert list(tmp_path.glob("events.sqlite.damaged-*")), "the torn files are set aside"


def test_the_hub_still_refuses_damage_deeper_than_the_last_write(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite"
    sizes = killed_writer(path)
    os.truncate(wal_of(path), sizes[-3] + FRAME // 2)  # two commits short
    with pytest.raises(eventlog.EventLogDamaged) as caught:
        eventlog.open_log(path, "t1").close()
    assert not caught.value.report.torn
    assert not list(tmp_path.glob("events.sqlite.damaged-*"))


# ------------------------------------------------------------------- on both backends


def test_a_row_changed_behind_the_hubs_back_is_refused_on_either_backend(
    log_place: LogPlace,
) -> None:
    """A row edited by someone with the shell (SQLite) or the database's rights
    (PostgreSQL) breaks the chain: the log is refused, naming the input."""
    log = log_place.open()
    log.append_many([(InputKind.TICK, {"i": i}, T0 + i, None) for i in range(1, 9)])
    log.close()
    log_place.edit("""UPDATE {inputs} SET payload = '{{"i":9}}' WHERE seq = 5""")
    with pytest.raises(eventlog.EventLogDamaged) as caught:
        log_place.open().close()
    message = str(caught.value)
    assert log_place.where in message and "table t1" in message
    assert "input 5 was changed after it was written" in message
    assert "lost: inputs 5..8 (4 inputs); inputs 1..4 verify" in message
    assert caught.value.report.inputs == 4


def test_a_batch_is_all_or_none_on_either_backend(log_place: LogPlace) -> None:
    log = log_place.open()
    first = log.append_many([(InputKind.TICK, {"i": i}, T0 + i, T0 + 0.5 + i) for i in range(3)])
    assert [(r.seq, r.t, r.wall) for r in first] == [
        (i + 1, T0 + i, T0 + 0.5 + i) for i in range(3)
    ]
    assert log.append_many([]) == []
    with pytest.raises(TypeError):  # a payload that is not JSON: nothing of the batch
        log.append_many(
            [(InputKind.TICK, {"i": 3}, T0, None), (InputKind.TICK, {"x": {1, 2}}, T0, None)]
        )
    with pytest.raises(ValueError, match="finite"):
        log.append_many([(InputKind.TICK, {}, T0, None), (InputKind.TICK, {}, math.nan, None)])
    assert log.last_seq == 3 and [r.seq for r in log.records()] == [1, 2, 3]
    log.close()
    again = log_place.open()
    assert [(r.seq, r.wall) for r in again.records()] == [(i + 1, T0 + 0.5 + i) for i in range(3)]
    again.close()
