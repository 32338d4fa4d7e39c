"""A node that dies is said at once, and its cards are not taken for gone (issue 15, 1).

Real processes through a real Mosquitto the test starts: ``feltwire hub`` (rules on, an
event log) and ``feltwire node`` with the simulated backend, whose dealer lays one hole
card on a seat and then waits. The node is killed (SIGKILL: its socket drops and the
broker publishes its last will, ``offline``): within 10 s the dealer's console and the
table's alerts topic say ``node_offline``, ``/readyz`` answers 503 naming the node, the
public view shows the node's antennas as unknown — and no alert says a card left the
seat. The node started again clears the alert (``node_online``) and ``/readyz`` is 200.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hub.web.auth import Role, TokenSigner
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.table_procs import (
    READERS,
    SECRET,
    AlertsTopic,
    Proc,
    hub_gauge,
    write_hub_config,
)

DEALER = TokenSigner(SECRET.encode()).issue(Role.DEALER, "dealer", seconds=3600)
PLAYERS = [(1, "Ann"), (2, "Bob"), (3, "Cat")]
NODE = "pi-north"
SAID_WITHIN = 10.0
"""The acceptance bound: node_offline on the console and the topic this soon."""
WAIT = 30.0
"""Generous bound for a process to come up (not a timing assertion)."""
CARD_REMOVED = {"cards_left_seat", "wrong_card_count"}
"""Alerts that would say the node's cards left their seat."""


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[MosquittoProcess]:
    mosq = MosquittoProcess(tmp_path)
    mosq.start()
    yield mosq
    mosq.stop()


def _node_config(tmp_path: Path, broker_url: str) -> Path:
    config = tmp_path / "node.toml"
    config.write_text(
        f"""
node_id = "{NODE}"
table = "t1"
backend = "simulated"
readers = {json.dumps(READERS)}
inventory_refresh_s = 2

[mqtt]
url = "{broker_url}"

[simulator]
seats = [1, 2, 3]
step_seconds = 3600
seed = 7
"""
    )
    return config


def _until(what: str, probe: Callable[[], Any], timeout: float, logs: list[Path]) -> Any:
    """Poll ``probe`` until it returns something truthy; fail with the processes' logs."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = probe()
        except httpx.HTTPError as exc:
            last = exc
        else:
            if last:
                return last
        time.sleep(0.1)
    tails = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in logs if p.exists())
    pytest.fail(f"waited {timeout:.0f} s for {what}; last: {last!r}\n{tails}")


def test_a_killed_node_is_said_offline_and_its_cards_are_not_taken_for_gone(
    tmp_path: Path, broker: MosquittoProcess
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    hub = Proc(
        "hub",
        write_hub_config(tmp_path, broker.url, port, reader_silent_s=10, players=PLAYERS),
        tmp_path / "hub.log",
    )
    node = Proc("node", _node_config(tmp_path, broker.url), tmp_path / "node.log")
    logs = [hub.log, node.log]
    auth = {"Authorization": f"Bearer {DEALER}"}

    def console_alerts() -> list[dict[str, Any]]:
        r = httpx.get(f"{url}/api/console/state", headers=auth, timeout=2)
        r.raise_for_status()
        return list(r.json()["alerts"])

    def readyz() -> tuple[int, dict[str, Any]]:
        r = httpx.get(f"{url}/readyz", timeout=2)
        return r.status_code, r.json()

    def nodes_online() -> float:
        """The ``feltwire_nodes_online`` gauge of ``/metrics``, as Prometheus reads it."""
        return hub_gauge(url, "feltwire_nodes_online")

    def seat_counts() -> dict[str, Any]:
        snap = httpx.get(f"{url}/api/public", timeout=2).json()
        return {a["reader"]: a for a in snap["antennas"] if a["kind"] == "seat"}

    hub.start()
    alerts = AlertsTopic(broker.port)
    try:
        _until("the hub's web server", lambda: httpx.get(f"{url}/healthz").is_success, WAIT, logs)
        node.start()

        def one_card() -> dict[str, Any] | None:
            s = seat_counts()
            return s if sum(a["count"] for a in s.values()) == 1 else None

        def ready() -> tuple[int, dict[str, Any]] | None:
            r = readyz()
            return r if r[0] == 200 and f"t1/{NODE}" in r[1]["nodes"] else None

        seats = _until("a hole card on a seat", one_card, WAIT, logs)
        seat = next(r for r, a in seats.items() if a["count"] == 1)
        status, body = _until("the node online in /readyz", ready, WAIT, logs)
        assert body["nodes"][f"t1/{NODE}"] == {"ok": True, "state": "online"}
        assert body["broker"] == {"ok": True} and body["event_log"] == {"t1": {"ok": True}}
        assert nodes_online() == 1

        node.kill9()
        killed = time.monotonic()
        offline = _until(
            "node_offline on the console",
            lambda: [a for a in console_alerts() if a["code"] == "node_offline"],
            SAID_WITHIN,
            logs,
        )
        _until("node_offline on the alerts topic", lambda: "node_offline" in alerts.codes(),
               SAID_WITHIN - (time.monotonic() - killed), logs)  # fmt: skip
        assert time.monotonic() - killed < SAID_WITHIN
        assert offline[0]["node"] == NODE and seat in offline[0]["readers"]
        assert offline[0]["message"].startswith(f"node {NODE} is offline")
        status, body = readyz()
        assert status == 503 and body["ready"] is False
        assert body["nodes"][f"t1/{NODE}"] == {"ok": False, "state": "offline"}
        assert body["broker"] == {"ok": True}
        assert nodes_online() == 0
        # the public view shows the node's antennas as unknown, not holding the card
        assert seat_counts()[seat] == {
            "reader": seat,
            "kind": "seat",
            "count": 0,
            "unknown": True,
        }

        time.sleep(3.0)  # nothing about the card may follow
        said = {a["code"] for a in console_alerts()} | set(alerts.codes())
        assert not said & CARD_REMOVED, said
        assert "reader_silent" not in said  # the node's alert says it all

        node.start()
        _until(
            "node_offline cleared on the console",
            lambda: (
                (c := [a["code"] for a in console_alerts()])
                and "node_offline" not in c
                and "node_online" in c
            ),
            WAIT,
            logs,
        )
        _until("node_online on the alerts topic", lambda: "node_online" in alerts.codes(), 5, logs)
        online = next(p for p in alerts.payloads if p["code"] == "node_online")
        assert online["clears"] == "node_offline" and online["node"] == NODE
        status, body = _until("/readyz ready again", ready, WAIT, logs)
        assert body["ready"] is True
        assert body["nodes"][f"t1/{NODE}"] == {"ok": True, "state": "online"}
        assert "unknown" not in seat_counts()[seat]
        assert nodes_online() == 1
    finally:
        node.stop()
        alerts.close()
        hub.stop()
