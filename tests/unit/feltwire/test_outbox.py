from __future__ import annotations

import os
import stat
from pathlib import Path

from feltwire.outbox import Outbox
from feltwire.publisher import durable_state


def test_unacknowledged_messages_survive_a_restart_in_order(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite")
    rows = [box.add(f"t/{i}", str(i).encode(), qos=1, retain=True) for i in range(5)]
    box.ack(rows[1])
    assert len(box) == 4
    box.close()
    again = Outbox(tmp_path / "outbox.sqlite")
    pending = again.pending()
    assert [m.topic for m in pending] == ["t/0", "t/2", "t/3", "t/4"]
    assert pending[0].payload == b"0" and pending[0].retain and pending[0].qos == 1
    # new messages go after the old ones
    again.add("t/5", b"5", qos=1, retain=False)
    assert again.pending()[-1].topic == "t/5"


def test_an_empty_outbox_is_still_an_outbox(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    assert len(box) == 0 and box.pending() == []


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_state_dir_and_outbox_are_the_owners_only(tmp_path: Path) -> None:
    """The outbox holds the tags read on every antenna: 0700 dir, 0600 files (-wal and
    -shm included), whatever the umask — and looser ones left by an older version are
    tightened."""
    old = os.umask(0o022)
    try:
        state = tmp_path / "state"
        seq, box = durable_state(state)
        box.add("t/a", b"1", qos=1, retain=True)  # the WAL and its index exist now
        seq.take()
        files = [state / "outbox.sqlite", state / "outbox.sqlite-wal", state / "outbox.sqlite-shm"]
        assert all(f.exists() for f in files), list(state.iterdir())
        assert _mode(state) == 0o700
        assert {f.name: _mode(f) for f in [*files, state / "seq"]} == {
            f.name: 0o600 for f in [*files, state / "seq"]
        }
        # what an older node left behind (it died with its WAL open): readable by all
        for path in (state, *files, state / "seq"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        seq, again = durable_state(state)
        assert _mode(state) == 0o700
        assert [_mode(f) for f in [*files, state / "seq"]] == [0o600] * 4
        seq.take()
        assert _mode(state / "seq") == 0o600 and not (state / "seq.tmp").exists()
        assert [m.topic for m in again.pending()] == ["t/a"]
        again.close()
        box.close()
    finally:
        os.umask(old)
