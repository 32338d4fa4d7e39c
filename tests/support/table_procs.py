"""A table as real processes, for the fault tests (``tests/integration/faults/``):
``python -m feltwire hub`` with rules and an event log, ``python -m feltwire node`` with the
simulated backend dealing a seeded hand, both on a broker the test started; and what the
tests read back (the public snapshot, the console's hand, ``/api/stats``, the log's reads).

The node's dealer (:class:`~table_node.dealer.AntennaDealer`) is seeded, so the test knows
every card it will deal (:func:`planned_hand`); :func:`seed_without_folds` finds a seed
whose first hand is dealt to the river with no player mucking early — a hand the dealer
can play all-in preflop at the console, so the hub needs no more actions once the hole
cards are in, however late the rest of the cards arrive.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from pokerkit import Card, Hand, StandardHighHand
from prometheus_client.parser import text_string_to_metric_families

from feltwire.deck import simulated_deck
from hub.web.auth import Role, TokenSigner
from table_node.dealer import AntennaDealer, DealStep, DealStepKind
from tests.support.mosquitto import Mosquitto, MosquittoProcess
from tests.support.ports import free_port
from tests.support.retained import retained_messages

log = logging.getLogger(__name__)

TOKEN = "fault-test-token"
SECRET = "fault-test-secret-0123456789abcdef"
DEALER = TokenSigner(SECRET.encode()).issue(Role.DEALER, "dealer", seconds=3600)
ADMIN = TokenSigner(SECRET.encode()).issue(Role.ADMIN, "admin", seconds=3600)
SEATS = [1, 2]
READERS = ["seat1", "seat2", "seat3", "board", "burn", "muck"]
BUY_IN = 1000
WAIT = 30.0
"""Generous upper bound for a process to reach a state (not a timing assertion)."""


def planned_hand(seed: int) -> list[DealStep]:
    """The steps of the first hand ``feltwire node`` deals with ``simulator.seed = seed``."""
    return AntennaDealer(SEATS, random.Random(seed)).deal_hand()


def seed_without_folds(start: int = 0) -> int:
    """The first seed from ``start`` whose first hand has no early fold (the board runs out
    to the river with every seat still holding its cards)."""
    seed = start
    while True:
        steps = planned_hand(seed)
        boards = [i for i, s in enumerate(steps) if s.kind is DealStepKind.BOARD]
        if len(boards) == 5 and not any(s.kind is DealStepKind.FOLD for s in steps[: boards[-1]]):
            return seed
        seed += 1


def hole_cards(steps: list[DealStep]) -> dict[int, list[str]]:
    """Each seat's hole cards in a planned hand."""
    held: dict[int, list[str]] = {s: [] for s in SEATS}
    for step in steps:
        if step.kind is DealStepKind.HOLE and step.seat is not None:
            held[step.seat].append(step.moves[0].card)
    return held


def board_cards(steps: list[DealStep]) -> list[str]:
    """The board of a planned hand, in the order dealt."""
    return [s.moves[0].card for s in steps if s.kind is DealStepKind.BOARD]


def toml_urls(broker_url: str | list[str]) -> str:
    """``[mqtt] url``'s value in TOML: one URL, or an array of them (a broker cluster)."""
    if isinstance(broker_url, str):
        return json.dumps(broker_url)
    return "[" + ", ".join(json.dumps(url) for url in broker_url) + "]"


def write_hub_config(
    workdir: Path,
    broker_url: str | list[str],
    web_port: int,
    *,
    state_dir: Path | None = None,
    top: str = "",
    reader_silent_s: float | None = None,
    players: Sequence[tuple[int, str]] | None = None,
) -> Path:
    """A hub config on the broker at ``broker_url`` (a list: the brokers of a cluster,
    :func:`toml_urls`): table ``t1`` with :data:`READERS`, players of :data:`BUY_IN` (by
    default ``P1`` and ``P2`` in :data:`SEATS`; ``players``: (seat, name) pairs), blinds
    5/10, live equity off, the event log in ``state_dir`` (``workdir/state``); ``top``:
    more top-level lines (``event_log_torn = "stop"``); ``[health] reader_silent_s``
    (None: the default, 15 s)."""
    config = workdir / "hub.toml"
    state = state_dir or workdir / "state"
    seated = players if players is not None else [(s, f"P{s}") for s in SEATS]
    players_toml = ", ".join(
        f'{{ seat = {s}, name = "{name}", buy_in = {BUY_IN} }}' for s, name in seated
    )
    health = "" if reader_silent_s is None else f"\n[health]\nreader_silent_s = {reader_silent_s}\n"
    config.write_text(
        f'table = "t1"\nreaders = {json.dumps(READERS)}\nlive_equity = false\n{top}'
        f'state_dir = "{state}"\n\n[mqtt]\nurl = {toml_urls(broker_url)}\n\n'
        f'[web]\nport = {web_port}\nproducer_token = "{TOKEN}"\ntoken_secret = "{SECRET}"\n\n'
        f"[rules]\nsmall_blind = 5\nbig_blind = 10\nplayers = [{players_toml}]\n{health}"
    )
    return config


def write_node_config(
    workdir: Path,
    broker_url: str | list[str],
    *,
    seed: int,
    step_seconds: float,
    node: str = "n1",
    keepalive: int | None = None,
) -> Path:
    """A node config: simulated backend, :data:`READERS`, dealing to :data:`SEATS` with
    ``seed``, its sequence number and outbox in ``workdir/node-state``; its MQTT
    ``keepalive`` (None: the default, 15 s)."""
    config = workdir / "node.toml"
    mqtt = f"url = {toml_urls(broker_url)}" + (f"\nkeepalive = {keepalive}" if keepalive else "")
    config.write_text(
        f'node_id = "{node}"\ntable = "t1"\nreaders = {json.dumps(READERS)}\n'
        f'state_dir = "{workdir / "node-state"}"\n\n[mqtt]\n{mqtt}\n\n'
        f"[simulator]\nseats = {SEATS}\nstep_seconds = {step_seconds}\nseed = {seed}\n"
    )
    return config


class Proc:
    """``python -m feltwire COMMAND --config …`` as a child process, its output in ``log``."""

    def __init__(self, command: str, config: Path, log: Path) -> None:
        self.command = command
        self.config = config
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "feltwire", self.command, "--config", str(self.config)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=10) == -signal.SIGKILL
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            pytest.fail(
                f"feltwire {self.command} exited ({self.proc.returncode}):\n"
                f"{self.log.read_text()[-4000:]}"
            )


def get_json(url: str, token: str | None = None) -> dict[str, Any] | None:
    """``GET url`` (with ``token`` as the bearer) as JSON; None when nothing answers or the
    answer is not a 200 — the hub is not up yet, or gone."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    try:
        response = httpx.get(url, headers=headers, timeout=10)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    data: dict[str, Any] = response.json()
    return data


BANNER = b"\nsign in       : "
"""A line of the banner ``feltwire hub`` prints once its web server listens."""


class HubProc(Proc):
    """``feltwire hub`` and what a test reads of it over HTTP."""

    def __init__(self, config: Path, web_port: int, log: Path) -> None:
        super().__init__("hub", config, log)
        self.port = web_port
        self.url = f"http://127.0.0.1:{web_port}"

    def start(self) -> None:
        """Start the hub; return once it serves: its banner in its output (printed once
        its web server listens) and ``/api/public`` answering.

        A web port another process took since it was drawn — :func:`free_port` is free
        when drawn, not when the hub binds it, and other tests run beside these — is
        drawn again (the config's ``[web] port`` rewritten) and the hub started again;
        any other exit fails with the hub's output."""
        for _ in range(5):
            offset = self.log.stat().st_size if self.log.exists() else 0
            super().start()
            if self._serving(offset):
                return
            said = self.log.read_bytes()[offset:].decode(errors="replace")
            if f"bind on address ('127.0.0.1', {self.port}): address already in use" not in said:
                self.check_alive()  # fails with the output
            self.proc = None
            self._move_to(free_port())
        pytest.fail(f"no web port the hub could bind in 5 tries:\n{self.log.read_text()[-4000:]}")

    def _serving(self, offset: int) -> bool:
        """Whether the hub started at log size ``offset`` serves (False: it exited)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                return False
            if BANNER in self.log.read_bytes()[offset:] and self.answers():
                return True
            time.sleep(0.05)
        pytest.fail(f"waited for the hub's web server:\n{self.log.read_text()[-4000:]}")

    def answers(self) -> bool:
        """Whether the started hub serves its pages (``/api/public`` answers)."""
        return self.public() is not None

    def _move_to(self, port: int) -> None:
        """Serve on ``port`` from the next start (the config's ``[web] port``)."""
        text = self.config.read_text()
        moved = re.sub(r"^(\[web\]\s*\nport = )\d+$", rf"\g<1>{port}", text, flags=re.MULTILINE)
        assert moved != text, f"no [web] port in {self.config}"
        self.config.write_text(moved)
        self.port, self.url = port, f"http://127.0.0.1:{port}"

    def get(self, path: str, *, dealer: bool = False) -> dict[str, Any] | None:
        return get_json(f"{self.url}{path}", DEALER if dealer else None)

    def public(self) -> dict[str, Any] | None:
        return self.get("/api/public")

    def stats(self) -> dict[str, Any]:
        data = self.get("/api/stats")
        assert data is not None
        return data

    def console_state(self) -> dict[str, Any]:
        """The dealer console's picture of the table (``GET /api/console/state``)."""
        data = self.get("/api/console/state", dealer=True)
        assert data is not None
        return data

    def until(
        self, pred: Callable[[dict[str, Any]], bool], *, what: str, wait: float = WAIT
    ) -> dict[str, Any]:
        """Poll the public snapshot until ``pred`` holds, for at most ``wait`` seconds
        (fails with the log if never)."""
        deadline = time.monotonic() + wait
        snap: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            self.check_alive()
            snap = self.public()
            if snap is not None and pred(snap):
                return snap
            time.sleep(0.05)
        pytest.fail(f"waited for {what}; last snapshot {snap}\n{self.log.read_text()[-4000:]}")

    def act(self, seat: int, act: str, to: int = 0) -> dict[str, Any]:
        return self.console("action", {"seat": seat, "act": act, "to": to})

    def console(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/console/ROUTE`` as the dealer; its answer (anything but a 200
        fails)."""
        response = self.console_post(route, body)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def console_post(self, route: str, body: dict[str, Any]) -> httpx.Response:
        """``POST /api/console/ROUTE`` as the dealer, whatever it answers."""
        return httpx.post(
            f"{self.url}/api/console/{route}",
            json=body,
            headers={"Authorization": f"Bearer {DEALER}"},
            timeout=WAIT,
        )

    def hands(self) -> dict[str, int]:
        """Hands played since the event log began, by outcome (``finished``: its pots
        awarded; ``voided``: a misdeal), as ``/metrics`` serves them to an admin."""
        response = httpx.get(
            f"{self.url}/metrics", headers={"Authorization": f"Bearer {ADMIN}"}, timeout=WAIT
        )
        assert response.status_code == 200, response.text
        found = re.findall(
            r'^feltwire_hands_total\{[^}]*outcome="(\w+)"[^}]*\} ([0-9.e+]+)$',
            response.text,
            re.MULTILINE,
        )
        return {outcome: int(float(n)) for outcome, n in found}


def rules(snap: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = snap["rules"]
    return out


def counts(snap: dict[str, Any]) -> dict[str, int]:
    """Cards per antenna in a public snapshot."""
    return {a["reader"]: a["count"] for a in snap["antennas"]}


def logged_reads(log_file: Path) -> list[tuple[str, str, int]]:
    """(node, reader, seq) of every read input in the event log at ``log_file``, in log
    order (opened read-only; the hub must be stopped or the log's WAL readable)."""
    out: list[tuple[str, str, int]] = []
    # closed here: ``with connect()`` only ends a transaction, and the connection is in a
    # reference cycle (its statement cache) — its three files stayed open until the next
    # collection (the room bench's process ran out of select()-able descriptors)
    with contextlib.closing(sqlite3.connect(f"file:{log_file}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT kind, payload FROM events ORDER BY seq").fetchall()
    for kind, payload in rows:
        if kind != "inventory":
            continue
        body = json.loads(payload)
        out.append((body["node"], body["reader"], int(body["seq"])))
    return out


def kill9_broker(broker: Mosquitto) -> None:
    """SIGKILL the broker (no goodbye, no last save of its persistence)."""
    assert broker.proc is not None
    broker.proc.send_signal(signal.SIGKILL)
    broker.proc.communicate(timeout=10)
    broker.proc = None


def persistent_broker(workdir: Path) -> MosquittoProcess:
    """A Mosquitto as a club runs it (``systemd/mosquitto/feltwire.conf``: persistence on,
    so the hub's session and its queued messages survive a restart), saving every second."""
    return MosquittoProcess(
        workdir,
        extra_config=(f"persistence true\npersistence_location {workdir}/\nautosave_interval 1\n"),
    )


def retained_inventories(
    port: int, seconds: float = 1.0, *, per_topic: bool = False
) -> dict[str, list[str]]:
    """What the broker keeps as each antenna's last inventory (the node's last word per
    reader): reader → its cards, sorted. ``per_topic``: one subscription per reader of
    node ``n1`` instead of a wildcard — RabbitMQ 3.x sends a retained message only to a
    subscription to its exact topic — and every reader's message waited for; without it,
    until none came for ``seconds`` (:func:`~tests.support.retained.retained_messages`)."""
    deck = simulated_deck()
    if per_topic:
        topics = [f"feltwire/v1/t1/node/n1/reader/{r}/tags" for r in READERS]
        got = retained_messages(port, topics, expect=len(READERS))
    else:
        got = retained_messages(port, ["feltwire/v1/t1/node/+/reader/+/tags"], quiet=seconds)
    out: dict[str, list[str]] = {}
    for _topic, payload in got:
        body = json.loads(payload)
        out[body["reader"]] = sorted(str(deck.card_for(uid)) for uid in body["uids"])
    return out


def last_logged_cards(log_file: Path) -> dict[str, list[str]]:
    """Each reader's cards as the hub's event log last recorded them."""
    out: dict[str, list[str]] = {}
    with sqlite3.connect(f"file:{log_file}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT payload FROM events WHERE kind = 'inventory' ORDER BY seq")
        for (payload,) in rows:
            body = json.loads(payload)
            out[body["reader"]] = sorted(body["cards"])
    return out


def pending_in_outbox(state_dir: Path) -> int:
    """Messages the node's outbox holds unacknowledged (``node-state/outbox.sqlite``)."""
    with sqlite3.connect(f"file:{state_dir / 'outbox.sqlite'}?mode=ro", uri=True) as db:
        (n,) = db.execute("SELECT COUNT(*) FROM outbox").fetchone()
    return int(n)


LOG_FILES = ("events.sqlite", "events.sqlite-wal", "events.sqlite.seal")
"""The event log's files in a state directory (the ``-shm`` index is rebuilt by SQLite)."""


def copy_state(src: Path, dst: Path) -> Path:
    """A copy of the hub's event log files in ``src`` — what a crash leaves, when the hub
    is dead or idle — into a new state directory ``dst`` (0700, as the hub makes it)."""
    dst.mkdir(mode=0o700, parents=True)
    for name in LOG_FILES:
        if (src / name).exists():
            shutil.copy2(src / name, dst / name)
    return dst


def log_rows(log_file: Path) -> list[tuple[Any, ...]]:
    """Every row of the event log at ``log_file``: (seq, t, kind, payload, wall, chain),
    read from a copy (a read-only look at the original would still need its WAL index)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_state(log_file.parent, Path(tmp) / "s") / log_file.name
        with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as db:
            return db.execute(
                "SELECT seq, t, kind, payload, wall, chain FROM events ORDER BY seq"
            ).fetchall()


def feltwire(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m feltwire ARGS`` run to its end; its exit code and output."""
    return subprocess.run(
        [sys.executable, "-m", "feltwire", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def dealer_move(state: dict[str, Any]) -> tuple[str, dict[str, Any], str] | None:
    """What a patient dealer enters next on the console showing ``state``: the seat to act
    checks or calls, a seat asked to show at showdown shows — (route, body, what) — or
    None when the console asks for nothing."""
    legal, showdown = state.get("legal"), state.get("showdown")
    if legal:
        act = "check" if legal["check"] else "call" if legal["call"] is not None else None
        if act is not None:
            body = {"seat": legal["seat"], "act": act, "to": 0}
            return "action", body, f"{act} {legal['seat']}"
    if showdown and showdown.get("show"):
        seat = showdown["show"][0]
        return "show", {"seat": seat}, f"show {seat}"
    return None


def dealer_step(hub: HubProc) -> str | None:
    """Play the dealer's part once (:func:`dealer_move`); what was done (None: nothing to
    do, or the table moved on between the look and the input).

    The node deals at its own pace, so the hand may end (its last card swept, a seat's
    cards mucked) between reading the console and entering what it asked for: the hub
    then answers 409 "no hand is running", or refuses the input. That is a retry — the
    next step looks again; so is a show refused because the seat's cards are not read
    (after a restart the antennas are unknown until the node's next inventory). A refusal
    while the console, read again, still shows the same hand running and asks for the same
    input is the hub's fault, and fails."""
    state = hub.console_state()
    move = dealer_move(state)
    if move is None:
        return None
    route, body, what = move
    response = hub.console_post(route, body)
    if response.status_code == 200 and response.json()["accepted"]:
        return what
    assert response.status_code in (200, 409), response.text  # 409: no hand, or refused
    refused = response.json().get("text", {}).get("key") if response.status_code == 409 else None
    if refused == "refusal.console.cards_not_read":
        return None  # a restarted hub knows the cards again at the node's next sweep
    after = hub.console_state()
    if after["in_hand"] and after["hand"] == state["hand"] and dealer_move(after) == move:
        pytest.fail(
            f"hand {state['hand']}: the console asks for {what!r} and refuses it "
            f"({response.status_code} {response.text})"
        )
    log.info(
        "hand %s: %r not taken (%s %s), the table moved on: hand %s, in_hand %s, now %s",
        state["hand"],
        what,
        response.status_code,
        response.json().get("refused") or response.json().get("detail"),
        after["hand"],
        after["in_hand"],
        dealer_move(after),
    )
    return None


VOLATILE = {"t", "id", "at", "since", "age", "updated", "last_seen", "server_time"}
"""Fields of the public and console pictures that differ between two hubs holding the
same table (wall times, ages, the running alert number)."""


def scrub(value: Any, drop: frozenset[str] = frozenset(VOLATILE)) -> Any:
    """``value`` without the :data:`VOLATILE` fields, at any depth."""
    if isinstance(value, dict):
        return {k: scrub(v, drop) for k, v in value.items() if k not in drop}
    if isinstance(value, list):
        return [scrub(v, drop) for v in value]
    return value


class AlertsTopic:
    """A paho client on the table's alerts topic (``feltwire/v1/t1/alerts``), keeping
    every alert the hub publishes there."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as paho
        from paho.mqtt.enums import CallbackAPIVersion

        self.payloads: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, *_: c.subscribe("feltwire/v1/t1/alerts", qos=1)
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(10), "no SUBACK from the broker"

    def _message(self, _c: object, _u: object, message: Any) -> None:
        with self._lock:
            self.payloads.append(json.loads(message.payload))

    def codes(self) -> list[str]:
        with self._lock:
            return [str(p["code"]) for p in self.payloads]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def winner(hole: dict[int, list[str]], board: list[str]) -> int:
    """The seat whose hand is best (PokerKit, not the hub's evaluator); a tie fails."""

    def strength(seat: int) -> Hand:
        return StandardHighHand.from_game(
            tuple(Card.parse("".join(hole[seat]))), tuple(Card.parse("".join(board)))
        )

    best = max(SEATS, key=strength)
    assert all(strength(s) < strength(best) for s in SEATS if s != best), "a tie"
    return best


def hub_and_node(
    workdir: Path,
    broker_url: str | list[str],
    *,
    seed: int,
    step_seconds: float,
    keepalive: int | None = None,
    reader_silent_s: float | None = None,
) -> tuple[HubProc, Proc]:
    """A hub (:func:`write_hub_config`, its web server on a free port) and a simulated node
    dealing with ``seed`` (:func:`write_node_config`, its MQTT ``keepalive``) on the broker
    at ``broker_url``, their output in ``workdir/hub.log`` and ``workdir/node.log``; neither
    started."""
    web_port = free_port()
    hub_config = write_hub_config(workdir, broker_url, web_port, reader_silent_s=reader_silent_s)
    hub = HubProc(hub_config, web_port, workdir / "hub.log")
    node_config = write_node_config(
        workdir, broker_url, seed=seed, step_seconds=step_seconds, keepalive=keepalive
    )
    return hub, Proc("node", node_config, workdir / "node.log")


def start_hand_then_node(hub: HubProc, node: Proc) -> None:
    """Start the hub, wait for its first hand, let the broker save the hub's subscription
    (a persistent Mosquitto saves every second: ``autosave_interval 1``), start the node."""
    hub.start()
    hub.until(lambda s: rules(s)["in_hand"], what="hand 1 to start")
    time.sleep(1.5)
    node.start()


def hub_gauge(url: str, name: str) -> float:
    """The gauge ``name`` of the hub at ``url`` as Prometheus reads it from ``/metrics``
    (the admin's token), summed over the hub's tables."""
    text = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)
    family = next((f for f in text_string_to_metric_families(text.text) if f.name == name), None)
    assert family is not None, f"no {name} in /metrics"
    return sum(sample.value for sample in family.samples)


def show_down(hub: HubProc, node: Proc | None = None) -> list[dict[str, Any]]:
    """Every seat the console asks to show at the showdown shows (each accepted): the
    pots awarded (``PotAwarded`` events), in order. ``node``, the simulated dealer, is
    stopped (SIGSTOP) meanwhile and continued after: it deals on its own clock, and its
    next step after the river slides the hands to the muck — on a loaded machine before
    the console's inputs reached the hub, and the rules rightly said a winning hand was
    mucked (``winning_hand_mucked``; a CI run of ``test_broker_cluster.py``)."""
    if node is not None and node.proc is not None:
        node.proc.send_signal(signal.SIGSTOP)
    try:
        awards: list[dict[str, Any]] = []
        for seat in hub.console_state()["showdown"]["show"]:
            shown = hub.console("show", {"seat": seat})
            assert shown["accepted"], shown
            awards += [e for e in shown["events"] if e["event"] == "PotAwarded"]
        return awards
    finally:
        if node is not None and node.proc is not None:
            node.proc.send_signal(signal.SIGCONT)
