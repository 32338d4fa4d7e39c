"""A card room of several hubs as real processes, for the failover and fencing tests
(``tests/integration/faults/test_failover.py``): ``python -m feltwire hub`` with
``[cluster]``, every hub listing the room's tables and sharing one PostgreSQL database
(its event logs, leases and hands); ``python -m feltwire node`` with the simulated backend
dealing at each table; and what the tests read back — which hub serves which table
(``/tables``), each table as its hub shows it, the tables' logs in PostgreSQL, the reads a
witness saw published.
"""

from __future__ import annotations

import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as paho
import psycopg
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.support.ports import free_port
from tests.support.table_procs import (
    BUY_IN,
    DEALER,
    READERS,
    SEATS,
    SECRET,
    TOKEN,
    WAIT,
    HubProc,
    Proc,
    dealer_move,
    get_json,
)


def write_room_hub_config(
    workdir: Path,
    name: str,
    *,
    broker_url: str,
    pg_url: str,
    tables: Sequence[str],
    lease_s: float = 6.0,
    settle_s: float | None = None,
    overlay_delay_minutes: float | None = None,
) -> tuple[Path, int]:
    """Hub ``name``'s config in ``workdir``: the room's ``tables`` (each :data:`READERS`,
    players ``P1``/``P2`` of :data:`BUY_IN` in :data:`SEATS`, blinds 5/10, live equity
    off), the event logs, leases and hands in ``pg_url``, ``[cluster]`` with its web
    address on a free port, the overlay held back ``overlay_delay_minutes`` (None: the
    default); the config and the port."""
    port = free_port()
    players = ", ".join(f'{{ seat = {s}, name = "P{s}", buy_in = {BUY_IN} }}' for s in SEATS)
    entries = "".join(f'\n[[tables]]\ntable = "{t}"\n' for t in tables)
    settle = "" if settle_s is None else f"settle_seconds = {settle_s}\n"
    delay = (
        ""
        if overlay_delay_minutes is None
        else f"overlay_delay_minutes = {overlay_delay_minutes}\n"
    )
    config = workdir / "hub.toml"
    config.write_text(
        f"readers = {json.dumps(READERS)}\nlive_equity = false\n"
        f'state_dir = "{workdir / "state"}"\nevent_log_url = "{pg_url}"\n\n'
        f'[mqtt]\nurl = "{broker_url}"\n\n'
        f'[web]\nport = {port}\nproducer_token = "{TOKEN}"\ntoken_secret = "{SECRET}"\n{delay}\n'
        f'[hands]\nurl = "{pg_url}"\n\n'
        f"[rules]\nsmall_blind = 5\nbig_blind = 10\nplayers = [{players}]\n\n"
        f'[cluster]\nhub = "{name}"\nweb_url = "http://127.0.0.1:{port}"\n'
        f"lease_seconds = {lease_s}\n{settle}"
        f"{entries}"
    )
    return config, port


def write_table_node_config(
    workdir: Path, broker_url: str, *, table: str, seed: int, step_seconds: float
) -> Path:
    """Table ``table``'s node (``n-<table>``): simulated backend, :data:`READERS`, dealing
    to :data:`SEATS` with ``seed`` every ``step_seconds``."""
    config = workdir / "node.toml"
    config.write_text(
        f'node_id = "n-{table}"\ntable = "{table}"\nreaders = {json.dumps(READERS)}\n'
        f'state_dir = "{workdir / "node-state"}"\n\n[mqtt]\nurl = "{broker_url}"\n\n'
        f"[simulator]\nseats = {list(SEATS)}\nstep_seconds = {step_seconds}\nseed = {seed}\n"
    )
    return config


class RoomHub(HubProc):
    """``feltwire hub`` of a room: it serves once ``/healthz`` answers (a hub of a room
    may serve no table yet)."""

    def __init__(self, name: str, config: Path, port: int, log: Path) -> None:
        super().__init__(config, port, log)
        self.name = name

    def answers(self) -> bool:
        return get_json(f"{self.url}/healthz") is not None

    def tables(self) -> list[dict[str, Any]] | None:
        """``/tables`` as this hub answers it (None: it does not answer)."""
        try:
            response = httpx.get(f"{self.url}/tables", timeout=5)
        except httpx.HTTPError:
            return None
        if response.status_code != 200:
            return None
        listed: list[dict[str, Any]] = response.json()
        return listed


@dataclass
class Seat:
    """A table as the room's dealer reaches it: the hub serving it now (its web address)."""

    table: str
    url: str

    def console_state(self) -> dict[str, Any]:
        response = httpx.get(
            f"{self.url}/api/console/state",
            params={"table": self.table},
            headers={"Authorization": f"Bearer {DEALER}"},
            timeout=10,
            follow_redirects=False,
        )
        if response.status_code != 200:
            raise Moved(f"{self.table} at {self.url}: {response.status_code}")
        data: dict[str, Any] = response.json()
        return data

    def console_post(self, route: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(
            f"{self.url}/api/console/{route}",
            params={"table": self.table},
            json=body,
            headers={"Authorization": f"Bearer {DEALER}"},
            timeout=10,
        )

    def public(self) -> dict[str, Any] | None:
        return get_json(f"{self.url}/api/public?table={self.table}")


class Moved(Exception):
    """The table is not (or no longer) served where the dealer looked."""


@dataclass
class RoomDealer:
    """The dealer of every table of the room at its console, wherever its hub is: the
    seat to act checks or calls, a seat asked to show shows (:func:`dealer_move`); a
    table whose hub does not answer, or sends him elsewhere, is looked up again on
    ``/tables`` of any hub alive."""

    hubs: Sequence[RoomHub]
    tables: Sequence[str]
    where: dict[str, str] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def locate(self) -> None:
        """Where each table is served now, as any hub alive says."""
        for hub in self.hubs:
            if hub.proc is None:
                continue
            listed = hub.tables()
            if listed is None:
                continue
            self.where = {t["table"]: t["url"] for t in listed if t["url"] is not None}
            return

    def step(self, table: str) -> str | None:
        """One look at ``table``'s console and what it asks for, entered."""
        url = self.where.get(table)
        if url is None:
            return None
        seat = Seat(table, url)
        try:
            state = seat.console_state()
            move = dealer_move(state)
            if move is None:
                return None
            route, body, what = move
            response = seat.console_post(route, body)
        except (httpx.HTTPError, Moved):
            self.where.pop(table, None)
            return None
        if response.status_code == 200 and response.json().get("accepted"):
            self.moves[table] = self.moves.get(table, 0) + 1
            return what
        if response.status_code not in (200, 409):
            self.where.pop(table, None)  # 421 / 503 / 307: moved, or moving
        return None

    def start(self) -> None:
        def run() -> None:
            while not self._stop.is_set():
                if len(self.where) < len(self.tables):
                    self.locate()
                moved = [self.step(table) for table in self.tables]
                if not any(moved):
                    time.sleep(0.05)  # nothing asked anywhere: look again soon

        self._thread = threading.Thread(target=run, name="room-dealer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)


class ReadsListener(ABC):
    """A paho client subscribed (QoS 1) to every table's reader topics on the broker at
    ``port`` — subscribed when the constructor returns, so before the nodes start — each
    message handed to :meth:`heard` (in paho's thread)."""

    def __init__(self, port: int, client_id: str) -> None:
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = paho.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id
        )
        self.client.on_connect = lambda c, *_: c.subscribe(
            "feltwire/v1/+/node/+/reader/+/tags", qos=1
        )
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.on_message = lambda _c, _u, message: self.heard(message)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(10), "no SUBACK from the broker"

    @abstractmethod
    def heard(self, message: paho.MQTTMessage) -> None:
        """One read published (paho's thread)."""

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Witness(ReadsListener):
    """Every read published, as (table, node, seq) — the node's retained repeats at
    connect excepted."""

    def __init__(self, port: int) -> None:
        self.seen: set[tuple[str, str, int]] = set()
        super().__init__(port, "witness")

    def heard(self, message: paho.MQTTMessage) -> None:
        if message.retain:
            return
        body = json.loads(message.payload)
        table = message.topic.split("/")[2]
        with self._lock:
            self.seen.add((table, str(body["node"]), int(body["seq"])))

    def reads(self, table: str) -> set[tuple[str, int]]:
        with self._lock:
            return {(n, s) for t, n, s in self.seen if t == table}


def logged(pg_url: str, table: str) -> list[tuple[int, str, dict[str, Any], int]]:
    """``table``'s inputs in the room's PostgreSQL log: (seq, kind, payload, epoch)."""
    with psycopg.connect(pg_url, autocommit=True) as db:
        rows = db.execute(
            "SELECT seq, kind, payload, epoch FROM event_inputs WHERE table_id = %s ORDER BY seq",
            (table,),
        ).fetchall()
    return [(int(s), str(k), json.loads(p), int(e)) for s, k, p, e in rows]


def logged_reads(pg_url: str, table: str) -> list[tuple[str, int]]:
    """(node, seq) of every read in ``table``'s log, in log order."""
    return [
        (str(p["node"]), int(p["seq"]))
        for _, kind, p, _ in logged(pg_url, table)
        if kind == "inventory"
    ]


def until(check: Callable[[], Any], *, what: str, wait: float = WAIT, every: float = 0.1) -> Any:
    """``check()``'s first truthy answer within ``wait`` seconds (fails, naming ``what``)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(every)
    pytest.fail(f"waited {wait:.0f} s for {what}")


def alive(hubs: Iterable[RoomHub]) -> list[RoomHub]:
    """The hubs whose process runs."""
    return [h for h in hubs if h.proc is not None and h.proc.poll() is None]


def nodes_for(
    workdir: Path, broker_url: str, tables: Sequence[str], *, step_seconds: float
) -> list[Proc]:
    """A simulated node per table, each dealing with a seed of its own (not started)."""
    nodes = []
    for i, table in enumerate(tables):
        d = workdir / f"node-{table}"
        d.mkdir()
        config = write_table_node_config(
            d, broker_url, table=table, seed=100 + i, step_seconds=step_seconds
        )
        nodes.append(Proc("node", config, d / "node.log"))
    return nodes
