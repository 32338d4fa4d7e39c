"""The hub's feeds: the public one never names a hidden card; the overlay waits its delay."""

from __future__ import annotations

import json

from feltwire.deck import simulated_uid
from hub.app.table_app import TableApp
from tests.support.clocks import FakeClock
from tests.support.service import hub_service

AS, KD, QH = simulated_uid(51), simulated_uid(45), simulated_uid(42)


def inv(reader: str, seq: int, uids: list[str]) -> tuple[str, bytes]:
    body = {"v": 1, "node": "n1", "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    return f"feltwire/v1/t1/node/n1/reader/{reader}/tags", json.dumps(body).encode()


def make(delay: float, clock: FakeClock) -> TableApp:
    return hub_service(clock, overlay_delay_s=delay, live_equity=True)


def test_public_feed_shows_board_cards_but_only_counts_hole_cards() -> None:
    svc = make(0, FakeClock())
    with svc.public.subscribe() as pub:
        svc.handle_message(*inv("seat3", 1, [AS, KD]))
        svc.handle_message(*inv("board", 2, [QH]))
        seat_ev = pub.queue.get_nowait()
        board_ev = pub.queue.get_nowait()
    assert seat_ev["count"] == 2 and "cards" not in seat_ev
    assert "As" not in json.dumps(seat_ev) and "Kd" not in json.dumps(seat_ev)
    assert board_ev["cards"] == ["Qh"]
    snap = json.dumps(svc.public_snapshot())
    assert "As" not in snap and "Kd" not in snap and "Qh" in snap


def test_overlay_holds_cards_back_for_the_delay() -> None:
    clock = FakeClock()
    svc = make(1800, clock)
    with svc.overlay.subscribe() as ov:
        svc.handle_message(*inv("seat3", 1, [AS]))
        clock.now += 1799
        assert svc.feeds.release_due() == 0 and ov.queue.empty()
        assert "As" not in json.dumps(svc.overlay_snapshot())
        clock.now += 1
        assert svc.feeds.release_due() == 2  # the read, and the overlay's picture with it
        ev = ov.queue.get_nowait()
        picture = ov.queue.get_nowait()
    assert ev["cards"] == ["As"] and ev["reader"] == "seat3"
    assert picture["type"] == "state" and picture["state"]["players"][0]["cards"] == ["As"]
    assert "As" in json.dumps(svc.overlay_snapshot())


def test_a_button_press_naming_another_node_is_refused() -> None:
    """pi-south's credential may publish on pi-south's button topic only (the ACL); a
    press there that says it is pi-north's is a forgery: refused, not taken (issue 12)."""
    svc = make(0, FakeClock())
    with svc.public.subscribe() as pub:
        forged = {"v": 1, "node": "pi-north", "button": "misdeal", "ts": 0}
        svc.handle_message("feltwire/v1/t1/node/pi-south/button", json.dumps(forged).encode())
        own = {"v": 1, "node": "pi-south", "button": "undo", "ts": 0}
        svc.handle_message("feltwire/v1/t1/node/pi-south/button", json.dumps(own).encode())
        frames = [pub.queue.get_nowait() for _ in range(pub.queue.qsize())]
    assert svc.counters["rejected.node_mismatch"] == 1
    assert [(f["node"], f["button"]) for f in frames if f["type"] == "button"] == [
        ("pi-south", "undo")
    ]
    assert "button.misdeal" not in svc.counters
