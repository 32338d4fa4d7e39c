"""The event log's snapshots (issue #15): a table's state as of one input, stored beside
the inputs in the log's file, used by a start only when it verifies against the log.

A snapshot changed behind the hub's back, of another format, or left over from another
history of the log is never loaded (a log line says why, the start replays every input);
an older log without the table gains it and stays readable. Every test but the last
(an older SQLite file) runs on both backends (``log_place``: SQLite, then PostgreSQL).
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from hub.adapters.eventlog import EventLogWriteError, check_log
from hub.adapters.eventlog.backend import TableLog
from hub.adapters.eventlog.snapshots import SNAPSHOTS_KEPT, Snapshot, snapshot_digest
from hub.adapters.eventlog.store import EventLog
from hub.app.records import InputKind
from tests.support.eventlogs import LogPlace

FORMAT = 1


def logged(place: LogPlace, n: int) -> TableLog:
    log = place.open()
    log.append_many([(InputKind.TICK, {}, float(i), None) for i in range(1, n + 1)])
    return log


def edit(path: Path, sql: str, *args: object) -> None:
    """Change the file behind the hub's back (the log closed), as the sqlite3 shell does."""
    db = sqlite3.connect(str(path))
    try:
        db.execute(sql, args)
        db.commit()
    finally:
        db.close()


# On both backends (``log_place``: a SQLite file, a PostgreSQL database).


def test_a_snapshot_is_found_again_after_a_reopen(log_place: LogPlace) -> None:
    log = logged(log_place, 5)
    log.save_snapshot(3, FORMAT, {"hand": 2, "stacks": [[1, 990], [2, 1010]]}, wall=1.5)
    log.close()
    log = log_place.open()
    found = log.latest_snapshot(FORMAT)
    assert isinstance(found, Snapshot)
    assert (found.seq, found.state, found.wall) == (
        3,
        {"hand": 2, "stacks": [[1, 990], [2, 1010]]},
        1.5,
    )
    assert [r.seq for r in log.records(after=found.seq)] == [4, 5]
    log.close()
    if log_place.path is not None:
        assert check_log(log_place.path, "t1").damage is None
    else:  # the snapshot is no input: the log verifies when it opens again
        log_place.open().close()


def test_only_the_newest_are_kept(log_place: LogPlace) -> None:
    log = logged(log_place, 6)
    for seq in range(1, 7):
        log.save_snapshot(seq, FORMAT, {"seq": seq})
    found = log.latest_snapshot(FORMAT)
    assert found is not None and found.state == {"seq": 6}
    log.close()
    rows = log_place.rows("SELECT seq FROM {snapshots} ORDER BY seq")
    assert [r[0] for r in rows] == list(range(7 - SNAPSHOTS_KEPT, 7))


def test_a_damaged_snapshot_is_skipped_for_the_one_before(
    log_place: LogPlace, caplog: pytest.LogCaptureFixture
) -> None:
    log = logged(log_place, 4)
    log.save_snapshot(2, FORMAT, {"hand": 1})
    log.save_snapshot(4, FORMAT, {"hand": 2})
    log.close()
    log_place.edit("UPDATE {snapshots} SET state = ? WHERE seq = 4", '{"hand": 9}')
    log = log_place.open()
    with caplog.at_level(logging.WARNING, logger="hub.adapters.eventlog"):
        found = log.latest_snapshot(FORMAT)
    assert found is not None and (found.seq, found.state) == (2, {"hand": 1})
    assert "the snapshot as of input 4 is not used: it does not verify (damaged)" in caplog.text
    log.close()

    log_place.edit("UPDATE {snapshots} SET digest = ? WHERE seq = 2", "0" * 64)
    log = log_place.open()
    assert log.latest_snapshot(FORMAT) is None  # the start replays every input
    log.close()


def test_a_snapshot_of_another_format_is_not_read(
    log_place: LogPlace, caplog: pytest.LogCaptureFixture
) -> None:
    log = logged(log_place, 2)
    log.save_snapshot(2, FORMAT, {"hand": 1})
    with caplog.at_level(logging.WARNING, logger="hub.adapters.eventlog"):
        assert log.latest_snapshot(FORMAT + 1) is None
    assert f"it is of format {FORMAT}, this hub reads {FORMAT + 1}" in caplog.text
    log.close()


def test_a_snapshot_of_another_history_is_not_read(
    log_place: LogPlace, caplog: pytest.LogCaptureFixture
) -> None:
    """A snapshot whose own digest verifies but whose input is not the log's input at
    that seq (a log cut and written on, a file pasted in) is not loaded."""
    logged(log_place, 3).close()
    other = "ab" * 32
    text = '{"hand":5}'
    for seq in (3, 9):
        log_place.edit(
            "INSERT INTO {snapshots} (table_id, seq, format, state, wall, chain, digest) "
            "VALUES ('t1', ?, ?, ?, NULL, ?, ?)",
            seq,
            FORMAT,
            text,
            other,
            snapshot_digest(other, "t1", seq, FORMAT, text),
        )
    log = log_place.open()
    with caplog.at_level(logging.WARNING, logger="hub.adapters.eventlog"):
        assert log.latest_snapshot(FORMAT) is None
    assert "input 9 is not used: the log holds no input 9" in caplog.text
    assert "input 3 is not used: it was taken on another history of the log" in caplog.text
    log.close()


def test_no_snapshot_of_an_input_not_logged(log_place: LogPlace) -> None:
    log = log_place.open()
    with pytest.raises(ValueError, match="no input 1"):
        log.save_snapshot(1, FORMAT, {})
    log.append(InputKind.TICK, {}, 1.0)
    log.save_snapshot(1, FORMAT, {"ok": True})
    found = log.latest_snapshot(FORMAT)
    assert found is not None and found.state == {"ok": True}
    log.close()


def test_a_state_that_is_not_json_is_refused_before_it_is_written(log_place: LogPlace) -> None:
    log = log_place.open()
    log.append(InputKind.TICK, {}, 1.0)
    with pytest.raises(ValueError):
        log.save_snapshot(1, FORMAT, {"stack": float("nan")})
    with pytest.raises(TypeError):
        log.save_snapshot(1, FORMAT, {"cards": {"As"}})
    assert log.latest_snapshot(FORMAT) is None
    log.close()


def test_a_failed_write_leaves_the_inputs(log_place: LogPlace) -> None:
    log = logged(log_place, 2)
    if isinstance(log, EventLog):  # the file is the open log's alone (its lock)
        log._db.execute("DROP TABLE snapshots")
    else:
        log_place.edit("DROP TABLE {snapshots}")
    with pytest.raises(EventLogWriteError, match=r"snapshot .*as of input 2 not written"):
        log.save_snapshot(2, FORMAT, {})
    assert log.append(InputKind.TICK, {}, 3.0).seq == 3
    log.close()


# A SQLite file of an older hub: SQLite's only.


def test_a_log_from_before_snapshots_gains_the_table(tmp_path: Path) -> None:
    """A state dir of a hub before snapshots keeps working: the log opens, its inputs are
    all there, and snapshots can be saved in it."""
    path = tmp_path / "events.sqlite"
    logged(LogPlace("sqlite", path=path), 3).close()
    edit(path, "DROP TABLE snapshots")
    log = EventLog(path, "t1")
    assert [r.seq for r in log.records()] == [1, 2, 3]
    assert log.latest_snapshot(FORMAT) is None
    log.save_snapshot(3, FORMAT, {"hand": 1})
    log.close()
    assert check_log(path, "t1").damage is None
    log = EventLog(path, "t1")
    assert log.latest_snapshot(FORMAT) is not None
    log.close()
