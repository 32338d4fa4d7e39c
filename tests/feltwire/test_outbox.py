from __future__ import annotations

from pathlib import Path

from feltwire.outbox import Outbox


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
