"""The hub's feeds: the public one never names a hidden card; the overlay waits its delay."""

from __future__ import annotations

import json

from feltwire.deck import simulated_deck, simulated_uid
from hub.config import default_readers
from hub.service import HubService

AS, KD, QH = simulated_uid(51), simulated_uid(45), simulated_uid(42)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def inv(reader: str, seq: int, uids: list[str]) -> tuple[str, bytes]:
    body = {"v": 1, "node": "n1", "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    return f"feltwire/v1/t1/reader/{reader}/tags", json.dumps(body).encode()


def make(delay: float, clock: FakeClock) -> HubService:
    return HubService(
        table="t1",
        readers=default_readers(),
        deck=simulated_deck(),
        max_payload_bytes=4096,
        overlay_delay_s=delay,
        clock=clock,
    )


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
        assert svc.release_due() == 0 and ov.queue.empty()
        assert "As" not in json.dumps(svc.overlay_snapshot())
        clock.now += 1
        assert svc.release_due() == 1
        ev = ov.queue.get_nowait()
    assert ev["cards"] == ["As"] and ev["reader"] == "seat3"
    assert "As" in json.dumps(svc.overlay_snapshot())
