"""A hub on PostgreSQL rides out a lost database without a restart (issue 19).

``feltwire hub`` runs as a real process with its event log in a PostgreSQL server of this
test's own (it is stopped and started again), a Mosquitto and the simulated node of
``test_restart.py``. Mid-hand the server stops: the dealer's action is refused with the
reason (503), counted and alerted, and the hub keeps running; the server starts again and
the next action is taken — no restart of the hub. Then the hub's database session is
terminated by an administrator: the next action is taken too. Restarted at last, the hub
replays the log to exactly the hand it held: every input it took is there, once.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import psycopg

from tests.integration.test_restart import PLAYERS, Dealer, counts, rules
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.postgres import postgres_server
from tests.support.table_procs import HubProc, write_hub_config


def terminate_hub_sessions(url: str) -> int:
    """End every other session on ``url``'s database (the hub's log); how many."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def test_a_hub_on_postgresql_goes_on_after_the_server_restarts_without_a_restart(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    with postgres_server() as server:  # its own: the test stops it
        url = server.new_database()
        port = free_port()
        config = write_hub_config(
            tmp_path, mosquitto.url, port, players=PLAYERS, top=f'event_log_url = "{url}"\n'
        )
        hub = HubProc(config, port, tmp_path / "hub.log")
        hub.start()
        dealer = Dealer(mosquitto.url)
        try:
            first = hub.until(lambda s: rules(s)["in_hand"], what="hand 1 to start")
            sb, bb, button = rules(first)["seats"]
            hole = iter(["As", "Kd", "7c", "Ah", "Kc", "2d"])
            for _ in range(2):
                for seat in (sb, bb, button):
                    dealer.put(f"seat{seat}", next(hole))
            hub.until(lambda s: all(counts(s)[f"seat{n}"] == 2 for n in (1, 2, 3)), what="cards")
            assert hub.act(button, "call")["accepted"]

            server.halt()
            refused = hub.console_post("action", {"seat": sb, "act": "call", "to": 0})
            assert refused.status_code == 503, refused.text
            detail = refused.json()["detail"]
            assert "event log cannot be written" in detail and "cannot be reached" in detail
            assert "not taken" in detail
            alerts = [a for a in hub.console_state()["alerts"] if a["code"] == "event_log_failed"]
            assert alerts, hub.console_state()["alerts"]
            assert hub.stats()["counters"]["log_failed"] >= 1
            hub.check_alive()
            assert rules(hub.public() or {})["acting"] == sb  # the refused call not applied
            down = httpx.get(f"{hub.url}/readyz", timeout=10).json()["event_log"]["t1"]
            assert down == {"ok": False, "problem": "the last write to the event log failed"}

            server.resume()  # the same hub process: the next input connects again
            assert hub.act(sb, "call")["accepted"]
            assert terminate_hub_sessions(url) >= 1
            assert hub.act(bb, "check")["accepted"]
            dealer.put("burn", "3h")
            for card in ("Qs", "Jh", "4c"):
                dealer.put("board", card)
            before = hub.until(lambda s: rules(s)["acting"] == sb, what="the flop")
            assert rules(before)["pot"] == 30
            ready = httpx.get(f"{hub.url}/readyz", timeout=10).json()
            assert ready["event_log"] == {"t1": {"ok": True}}, ready  # writable again

            hub.stop()  # the log holds each input the hub took, once: the same hand
            hub.start()
            after = hub.until(lambda s: rules(s)["in_hand"], what="the replayed hand")
            for key in ("hand", "acting", "pot", "button", "seats", "folded", "players"):
                assert rules(after)[key] == rules(before)[key], key
            assert counts(after) == counts(before)
            assert hub.stats()["counters"].get("replay_failed", 0) == 0
        finally:
            dealer.close()
            hub.stop()
