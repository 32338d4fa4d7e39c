"""Soak: one hub carrying N tables that play hold'em by the rules at a multiple of live
pace for minutes on end, through one Mosquitto (issue #15, acceptance 5).

    .venv/bin/python bench/soak.py                          # 50 tables, 10 minutes, 10x
    .venv/bin/python bench/soak.py --quick                  # 3 tables, 1 minute: a check
    .venv/bin/python bench/soak.py --tables 20 --minutes 30 --pace 5 --json soak.json

What runs: a Mosquitto of its own on a free port (the latency bench's), and ``python -m
feltwire hub --config hub.toml`` in a process of its own, the config generated here: N
``[[tables]]`` with the standard antennas (ten seats, board, burn, muck), live equity on,
``[rules]`` seating six players of 1,000 chips at 5/10 with rebuys, the event log in a
temporary ``state_dir`` with ``event_log_sync = "full"``, the overlay without delay.

Each table has, in this process, what a real table has: a simulated node (the node's own
:class:`~table_node.node.Node`, :class:`~feltwire.publisher.InventoryPublisher` and
:class:`~feltwire.mqtt.PahoTransport`, one MQTT connection per table) under the demo's
simulated dealer (:class:`~simulator.dealer.SimulatedDealer`), who deals legal hands card
by card, plays the players' random legal actions through the dealer console's HTTP API
(:class:`~simulator.demo.HttpConsole`, one keep-alive connection per table) and makes one
dealing mistake in ``--mistakes`` of the hands (the demo's kinds: a card to an empty seat,
out of order, a missing or extra burn, a duplicate, a card leaving a seat …). The hub is in
another process, so the dealer keeps his own picture of the hand: a
:class:`~hub.rules.procedure.DealingMonitor` fed the very inventories the node publishes
and the console inputs he enters, from the hand's setup the hub announces (its ``hand``
frame); an answer of the hub's console that differs from his picture is a *divergence*.
Before each console input the dealer waits until the overlay has shown every card he
laid (as a dealer glances at the console before pressing a button).

Pace: a live dealer makes one motion a second (:data:`~simulator.monitor_table.MOTION`);
at ``--pace 10`` each table makes one every 0.1 s. The hub's debounce (0.5 s live) is
divided by the pace so a card flickering or laid on the wrong place reads as it would at
live pace; the rules' tick stays the hub's default (0.25 s).

What is measured, over the whole run after the tables' first hand:

* lost events: the inventories the nodes published against the hub's
  ``feltwire_reads_accepted`` (``/metrics``) and against the inventory rows in each
  table's event log (read after the hub stopped), and card frames that never reached the
  overlay;
* read → overlay latency: from just before the node publishes an inventory to its
  antenna frame on the table's ``/ws/overlay`` WebSocket in this process (p50/p99/max);
  the hub's own ``feltwire_read_to_frame_seconds`` histogram (receipt → frame, bucketed)
  beside it;
* alerts: each alert frame on the overlay, by hand, against the mistake injected in that
  hand (the demo's tally: ``missed``, ``false_alerts``);
* the hub's resident memory each ``--sample-seconds`` (a least-squares slope, in MB per
  10 minutes), its CPU seconds per table per minute; Mosquitto's and this process's CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import tomli_w
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.overlay_latency import cpu_seconds, machine, percentile, start_mosquitto  # noqa: E402
from feltwire.cards import card_index  # noqa: E402
from feltwire.config import MqttClientSettings  # noqa: E402
from feltwire.mqtt import PahoTransport  # noqa: E402
from feltwire.publisher import InventoryPublisher  # noqa: E402
from hub.app.records import ConsoleInput  # noqa: E402
from hub.app.rules_desk import profile_for  # noqa: E402
from hub.config import PlayerSettings, RulesSettings, table_config  # noqa: E402
from hub.rules.errors import TableSeat  # noqa: E402
from hub.rules.games import Stakes  # noqa: E402
from hub.rules.hand import Hand, Phase  # noqa: E402
from hub.rules.procedure import (  # noqa: E402
    DealingMonitor,
    DeclareMisdeal,
    Input,
    Inventory,
    Step,
    Tick,
    UnknownTag,
)
from hub.rules.setup import HandSetup  # noqa: E402
from simulator.antennas import MotionClock, NodeSurface  # noqa: E402
from simulator.dealer import EXPECTED, SimulatedDealer, choose_mistake  # noqa: E402
from simulator.demo import HttpConsole, Tally  # noqa: E402
from simulator.errors import ConsoleApiError  # noqa: E402
from simulator.monitor_table import MOTION  # noqa: E402
from table_node.config import default_readers  # noqa: E402
from table_node.node import Node  # noqa: E402
from table_node.simulated import SimulatedTable  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.table_procs import DEALER, SECRET, Proc, logged_reads  # noqa: E402

READERS = default_readers()
PRODUCER = "soak-producer-token"
METRICS = "soak-metrics-token"
RULES = RulesSettings(
    small_blind=5,
    big_blind=10,
    players=[PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in range(1, 7)],
    rebuy=True,
)
PROFILE = profile_for(READERS)
OPTIONS = table_config(RULES, "NT").hand_options()
WAIT = 30.0
"""Upper bound for the hub to show a card or start a hand before the bench moves on."""


# ------------------------------------------------------------------ the hub's side


def hub_config(
    tables: Sequence[str], mqtt_port: int, web_port: int, state: Path, pace: float
) -> str:
    """The hub's TOML: ``tables`` with :data:`RULES` (debounce divided by ``pace``), live
    equity, the fsync'd event log in ``state``, the overlay live."""
    rules = RULES.model_dump(mode="json", exclude_none=True)
    rules["debounce_seconds"] = RULES.debounce_seconds / pace
    doc = {
        "readers": READERS,
        "live_equity": True,
        "event_log_sync": "full",
        "state_dir": str(state),
        "mqtt": {"url": f"mqtt://127.0.0.1:{mqtt_port}"},
        "web": {
            "port": web_port,
            "producer_token": PRODUCER,
            "token_secret": SECRET,
            "metrics_token": METRICS,
            "overlay_delay_minutes": 0,
            "allow_live_hole_cards": True,
            # an overlay WebSocket and a console connection per table, all from here
            "max_connections_per_address": 2 * len(tables) + 32,
            "max_connections": max(1000, 2 * len(tables) + 64),
        },
        "rules": rules,
        "tables": [{"table": t} for t in tables],
    }
    return tomli_w.dumps(doc)


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


@dataclass
class Scrape:
    """What one ``/metrics`` scrape says, summed over the tables."""

    accepted: dict[str, float] = field(default_factory=dict)
    refused: float = 0.0
    lost: float = 0.0
    buckets: dict[float, float] = field(default_factory=dict)
    """read→frame histogram: upper bound (s) → cumulative count, all tables."""
    frame_sum: float = 0.0

    def quantile(self, q: float) -> float:
        """The bucket bound (ms) that holds the ``q`` quantile of read→frame."""
        total = self.buckets.get(float("inf"), 0.0)
        for le in sorted(self.buckets):
            if total and self.buckets[le] >= q * total:
                return le * 1000
        return float("nan")


def scrape(url: str) -> Scrape:
    """``GET /metrics`` (the metrics token) parsed with prometheus_client's parser."""
    text = httpx.get(
        f"{url}/metrics", headers={"Authorization": f"Bearer {METRICS}"}, timeout=30
    ).text
    out = Scrape()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "feltwire_reads_accepted_total":
                out.accepted[s.labels["table"]] = s.value
            elif s.name == "feltwire_messages_refused_total":
                out.refused += s.value
            elif s.name == "feltwire_reads_lost_total":
                out.lost += s.value
            elif s.name == "feltwire_read_to_frame_seconds_bucket":
                le = float(s.labels["le"])
                out.buckets[le] = out.buckets.get(le, 0.0) + s.value
            elif s.name == "feltwire_read_to_frame_seconds_sum":
                out.frame_sum += s.value
    return out


# ------------------------------------------------------------------ what the overlay shows


class Watch:
    """One table's overlay as this process sees it: the cards still awaited, the
    latencies, the hands the hub announced and the alerts it raised (thread-safe)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.cond = threading.Condition()
        self.pending: dict[tuple[str, frozenset[str]], deque[float]] = defaultdict(deque)
        self.awaited = 0
        self.latencies: list[float] = []
        self.hands: dict[int, dict[str, Any]] = {}
        self.alerts: dict[int | None, list[str]] = defaultdict(list)
        self.frames = 0

    def expect(self, reader: str, cards: frozenset[str]) -> None:
        """An inventory is about to be published: its frame is awaited from now."""
        with self.cond:
            self.pending[(reader, cards)].append(time.perf_counter())
            self.awaited += 1

    def frame(self, ev: dict[str, Any], at: float) -> None:
        """One overlay frame, received at ``at`` (perf_counter)."""
        kind = ev.get("type")
        with self.cond:
            self.frames += 1
            if kind == "antenna":
                waiting = self.pending.get((ev["reader"], frozenset(ev["cards"])))
                if waiting:
                    self.latencies.append((at - waiting.popleft()) * 1000)
                    self.awaited -= 1
            elif kind == "hand":
                self.hands[int(ev["hand"])] = ev
            elif kind == "alert":
                self.alerts[ev.get("hand")].append(str(ev["code"]))
            else:
                return
            self.cond.notify_all()

    def shown(self, timeout: float) -> bool:
        """Wait until every awaited frame has come (False: not within ``timeout``)."""
        with self.cond:
            return self.cond.wait_for(lambda: self.awaited == 0, timeout)

    def hand_after(self, number: int, timeout: float) -> dict[str, Any] | None:
        """The first hand the hub announced after hand ``number`` (None: none came)."""
        with self.cond:
            self.cond.wait_for(lambda: any(n > number for n in self.hands), timeout)
            later = [n for n in self.hands if n > number]
            return self.hands[min(later)] if later else None


def watch_overlays(
    url: str, watches: list[Watch], ready: threading.Event, stop: threading.Event
) -> None:
    """Every table's ``/ws/overlay`` read on one event loop, in this thread."""

    async def follow(w: Watch) -> None:
        base = url.replace("http://", "ws://")
        async with connect(
            f"{base}/ws/overlay?table={w.table}&token={PRODUCER}", max_queue=None
        ) as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "snapshot", first
            opened.append(w.table)
            if len(opened) == len(watches):
                ready.set()
            async for raw in ws:
                w.frame(json.loads(raw), time.perf_counter())

    async def main() -> None:
        tasks = [asyncio.create_task(follow(w)) for w in watches]
        while not stop.is_set():
            await asyncio.sleep(0.2)
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    opened: list[str] = []
    asyncio.run(main())


# ------------------------------------------------------------------ a table in this process


class SeenTransport:
    """The node's MQTT transport with the dealer's eyes on it: each inventory published
    is awaited on the overlay (when its cards changed) and fed to the dealer's picture."""

    def __init__(self, inner: PahoTransport, surface: SoakSurface) -> None:
        self.inner = inner
        self.surface = surface
        self.cards: dict[str, frozenset[str]] = {}

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        body = json.loads(payload)
        reader, deck = body["reader"], self.surface.deck
        known = frozenset(c for u in body["uids"] if (c := deck.card_for(u)) is not None)
        unknown = frozenset(u for u in body["uids"] if deck.card_for(u) is None)
        changed = known != self.cards.get(reader, frozenset())
        if changed:
            self.surface.watch.expect(reader, known)
        self.cards[reader] = known
        self.surface.heard(reader, known, unknown, changed=changed)
        self.inner.publish(topic, payload, qos=qos, retain=retain)


class SoakSurface(NodeSurface):
    """A table whose hub is another process: the node publishes over MQTT, console inputs
    go to the hub's HTTP API, and the hand the dealer plays by is his own picture of it
    (a :class:`DealingMonitor` on :attr:`clock`, fed what the node published)."""

    def __init__(self, table: str, broker_port: int, url: str, watch: Watch, pace: float) -> None:
        antennas = SimulatedTable(READERS)
        self.transport = PahoTransport(
            MqttClientSettings(url=f"mqtt://127.0.0.1:{broker_port}"), table=table, node="soak"
        )
        self.publisher = InventoryPublisher(
            table=table, node="soak", transport=SeenTransport(self.transport, self)
        )
        node = Node(list(antennas.readers.values()), self.publisher)
        super().__init__(antennas=antennas, node=node, clock=MotionClock(0.0), pause=self._pace)
        self.table = table
        self.watch = watch
        self.api = HttpConsole(url, DEALER)
        self.api.client.params = httpx.QueryParams({"table": table})
        self.monitor: DealingMonitor | None = None
        self._unknown: dict[str, frozenset[str]] = {}
        self.interval = MOTION / pace
        self._due = time.monotonic()
        self.divergences: list[str] = []
        self.answered: list[float] = []
        """Milliseconds from each console input sent to the hub's answer."""
        self.late = 0
        """Console inputs entered before the overlay had shown every card (after WAIT)."""

    @property
    def hand(self) -> Hand:
        assert self.monitor is not None
        return self.monitor.hand

    def _pace(self) -> None:
        """One motion's time at the bench's pace (no catching up after a stall)."""
        self._due = max(self._due + self.interval, time.monotonic())
        time.sleep(max(0.0, self._due - time.monotonic()))

    def heard(
        self, reader: str, cards: frozenset[str], unknown: frozenset[str], changed: bool
    ) -> None:
        """What the node published, as the hub's rules desk takes it (``on_read``)."""
        fresh = unknown - self._unknown.get(reader, frozenset())
        self._unknown[reader] = unknown
        if self.monitor is None:
            return
        if fresh:
            self.monitor.apply(UnknownTag(reader, self.now))
        if changed:
            self.monitor.apply(Inventory(reader, frozenset(card_index(c) for c in cards), self.now))

    def _sweep(self) -> None:
        self.node.poll_once()
        self.motions += 1
        self.pause()

    def console(self, inp: Input) -> object:
        if not isinstance(inp, ConsoleInput) or not self.api.takes(inp):
            raise TypeError(f"the console API takes no {type(inp).__name__}")
        self.clock.advance()
        if not self.watch.shown(WAIT):
            self.late += 1
        mine: Step | None = None
        if self.monitor is not None:
            mine = self.monitor.apply(dataclasses.replace(inp, now=self.now))
        sent = time.perf_counter()
        answer = self.api.enter(inp)
        self.answered.append((time.perf_counter() - sent) * 1000)
        if mine is not None and (mine.refused is None) != answer.accepted:
            self.divergences.append(f"{inp}: hub {answer}, dealer's picture {mine.refused}")
        self.pause()
        return answer

    def tick(self) -> Step | None:
        self.clock.advance()
        step = self.monitor.apply(Tick(self.now)) if self.monitor is not None else None
        self.pause()  # the hub ticks on its own clock meanwhile
        return step

    def misdeal(self) -> None:
        """Void the hub's hand (the bench's own: not a dealer's mistake)."""
        self.api.enter(DeclareMisdeal(0.0))
        self.monitor = None

    def close(self) -> None:
        self.api.close()
        self.transport.close()


def setup_of(frame: dict[str, Any]) -> HandSetup:
    """The hand the hub announced (its ``hand`` frame) as the dealer's setup: seats in
    hand order, the button, blinds and stacks (:func:`hub.rules.table.blinds.hand_stakes`
    for a table with no dead blinds)."""
    seats = tuple(TableSeat(s) for s in frame["seats"])
    sb, bb = frame["small_blind"], frame["big_blind"]
    blinds = tuple(
        RULES.small_blind if s == sb else RULES.big_blind if s == bb else 0 for s in seats
    )
    stakes = Stakes(
        antes=(0,) * len(seats),
        blinds=blinds,
        small_bet=RULES.big_blind,
        big_bet=2 * RULES.big_blind,
        min_bet=RULES.big_blind,
        big_blind_seat=seats.index(bb) if bb is not None else None,
    )
    stacks = tuple(c for _, c in frame["stacks"])
    return HandSetup(
        int(frame["hand"]),
        table_config(RULES, "NT").game,
        seats,
        frame["button"],
        stakes,
        stacks,
        OPTIONS,
    )


@dataclass
class Played:
    """What one table's dealer did."""

    hands: list[tuple[int, Any, bool]] = field(default_factory=list)
    """(hand number, mistake, injected) of every hand dealt."""
    stuck: int = 0
    """Hands the hub did not close or start in time (voided by the bench)."""
    setup_mismatch: int = 0
    errors: list[str] = field(default_factory=list)


def deal(
    surface: SoakSurface, rng: random.Random, rate: float, stop: threading.Event, played: Played
) -> None:
    """One table's dealer: the hub's hand 1 voided (its setup came before the bench
    watched), then hand after hand until ``stop``."""
    try:
        state = surface.api.client.get("/api/console/state").json()
        last = int(state["hand"])
        if state["in_hand"]:
            surface.misdeal()
        surface.node.poll_once()  # the node's first sweep: the hub hears the table is clear
        while not stop.is_set():
            frame = surface.watch.hand_after(last, WAIT)
            if frame is None:
                played.stuck += 1
                surface.misdeal()
                continue
            setup = setup_of(frame)
            last = setup.number
            surface.monitor = DealingMonitor(
                setup, profile=PROFILE, debounce=RULES.debounce_seconds
            )
            posts = [[setup.seats[p.seat], p.kind.value, p.amount] for p in surface.hand.posts]
            if posts != frame["posts"]:
                played.setup_mismatch += 1
                surface.misdeal()
                continue
            mistake = choose_mistake(rng, rate, setup.game, PROFILE)
            dealer = SimulatedDealer(rng, setup, PROFILE, surface, mistake)
            dealt = dealer.play()
            stuck = surface.hand.phase is not Phase.COMPLETE
            if stuck:  # the bench's misdeal: the hand's alerts are not counted
                played.stuck += 1
                surface.misdeal()
            dealer.collect()
            surface.watch.shown(WAIT)
            if not stuck:
                played.hands.append((setup.number, dealt.mistake, dealt.injected))
    except (ConsoleApiError, httpx.HTTPError, TimeoutError, RuntimeError, AssertionError) as err:
        played.errors.append(f"{type(err).__name__}: {err}")


# ------------------------------------------------------------------ the run


@dataclass
class Sample:
    """One look at the hub, each ``--sample-seconds``."""

    minute: float
    rss_mb: float
    hub_cpu_s: float
    published: int
    accepted: float
    hands: int
    p99_ms: float
    load1: float


def slope_per_10_min(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of ``ys`` over ``xs`` (minutes), times ten."""
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return 10 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def run(args: argparse.Namespace) -> dict[str, Any]:
    names = [f"s{i:03d}" for i in range(1, args.tables + 1)]
    workdir = Path(tempfile.mkdtemp(prefix="feltwire-soak-"))
    broker = start_mosquitto(workdir, nodelay=True)
    web_port = free_port()
    url = f"http://127.0.0.1:{web_port}"
    config = workdir / "hub.toml"
    config.write_text(hub_config(names, broker.port, web_port, workdir / "state", args.pace))
    hub = Proc("hub", config, workdir / "hub.log")
    stop_watching, stop_dealing, opened = threading.Event(), threading.Event(), threading.Event()
    watches = [Watch(t) for t in names]
    surfaces: list[SoakSurface] = []
    threads: list[threading.Thread] = []
    played = [Played() for _ in names]
    samples: list[Sample] = []
    try:
        hub.start()
        assert hub.proc is not None
        pid = hub.proc.pid
        deadline = time.monotonic() + 120
        while True:
            hub.check_alive()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise TimeoutError("the hub did not start")
            time.sleep(0.2)
        viewer = threading.Thread(
            target=watch_overlays, args=(url, watches, opened, stop_watching), daemon=True
        )
        viewer.start()
        if not opened.wait(60):
            raise TimeoutError("the overlays did not open")
        for t, w in zip(names, watches, strict=True):
            s = SoakSurface(t, broker.port, url, w, args.pace)
            if not s.transport.wait_connected(10):
                raise TimeoutError(f"table {t}'s node did not reach the broker")
            surfaces.append(s)
        rng = random.Random(args.seed)
        for s, p in zip(surfaces, played, strict=True):
            th = threading.Thread(
                target=deal,
                args=(s, random.Random(rng.random()), args.mistakes, stop_dealing, p),
                daemon=True,
            )
            th.start()
            threads.append(th)
        t0 = time.monotonic()
        assert broker.proc is not None
        mosquitto = broker.proc.pid
        cpu0 = (cpu_seconds(pid), cpu_seconds(mosquitto), time.process_time())

        def look() -> Sample:
            m = scrape(url)
            lat = sorted(x for w in watches for x in w.latencies[-2000:])
            return Sample(
                minute=round((time.monotonic() - t0) / 60, 2),
                rss_mb=round(rss_mb(pid), 1),
                hub_cpu_s=round(cpu_seconds(pid) - cpu0[0], 1),
                published=sum(s.publisher.published for s in surfaces),
                accepted=sum(m.accepted.values()),
                hands=sum(len(p.hands) for p in played),
                p99_ms=round(percentile(lat, 99), 1),
                load1=round(os.getloadavg()[0], 2),
            )

        print(
            f"{'min':>5} {'RSS MB':>7} {'hub CPU s':>9} {'published':>9} {'accepted':>9} "
            f"{'hands':>6} {'p99 ms*':>8} {'load':>5}",
            flush=True,
        )
        end = t0 + args.minutes * 60
        while True:
            now = look()
            samples.append(now)
            print(
                f"{now.minute:>5.1f} {now.rss_mb:>7.1f} {now.hub_cpu_s:>9.1f} {now.published:>9} "
                f"{now.accepted:>9.0f} {now.hands:>6} {now.p99_ms:>8.1f} {now.load1:>5.2f}",
                flush=True,
            )
            if time.monotonic() >= end - 1:
                break
            time.sleep(max(0.0, min(args.sample_seconds, end - time.monotonic())))
        wall = time.monotonic() - t0
        hub_cpu = cpu_seconds(pid) - cpu0[0]
        broker_cpu = cpu_seconds(mosquitto) - cpu0[1]
        bench_cpu = time.process_time() - cpu0[2]
        stop_dealing.set()
        for th in threads:
            th.join(WAIT * 4)
        for w in watches:
            w.shown(5)
        final = scrape(url)
    finally:
        stop_dealing.set()
        stop_watching.set()  # before the nodes leave: their node_offline is not the run's
        time.sleep(0.5)
        for s in surfaces:
            s.close()
        hub.stop()
        broker.stop()
    published = {s.table: s.publisher.published for s in surfaces}
    logged = {t: len(logged_reads(workdir / "state" / t / "events.sqlite")) for t in names}
    rows = Counter[str]()  # every input the logs hold, by kind (ticks, console inputs …)
    for t in names:
        with sqlite3.connect(
            f"file:{workdir / 'state' / t / 'events.sqlite'}?mode=ro", uri=True
        ) as db:
            rows.update(dict(db.execute("SELECT kind, COUNT(*) FROM events GROUP BY kind")))
    shutil.rmtree(workdir, ignore_errors=True)
    tally, unasked, clean = Tally(), Counter[str](), 0
    for w, p in zip(watches, played, strict=True):
        for number, mistake, injected in p.hands:
            codes = w.alerts.get(number, [])
            tally.record(mistake, injected, codes)
            expected = EXPECTED.get(mistake) if injected else None
            clean += len(codes) if expected is None else 0
            for code in codes:
                if expected is None or code != expected.value:
                    unasked[f"{code} (hand's mistake: {mistake.value})"] += 1
    answered = sorted(x for s in surfaces for x in s.answered)
    steady = [x for x in samples if x.minute >= args.warmup_minutes]
    lat = sorted(x for w in watches for x in w.latencies)
    motions = sum(s.motions for s in surfaces)
    return {
        "machine": machine(),
        "tables": args.tables,
        "minutes": round(wall / 60, 2),
        "pace": args.pace,
        "seed": args.seed,
        "mistake_rate": args.mistakes,
        "motions_per_table_s": round(motions / args.tables / wall, 2),
        "hands": tally.hands,
        "published": sum(published.values()),
        "accepted": int(sum(final.accepted.values())),
        "logged": sum(logged.values()),
        "lost": sum(published.values()) - sum(logged.values()),
        "log_rows_by_kind": dict(sorted(rows.items())),
        "hub_lost_counter": final.lost,
        "refused": final.refused,
        "frames_missing": sum(w.awaited for w in watches),
        "samples": len(lat),
        "p50_ms": round(percentile(lat, 50), 1),
        "p99_ms": round(percentile(lat, 99), 1),
        "max_ms": round(lat[-1], 1) if lat else None,
        "hub_p50_ms_bucket": final.quantile(0.5),
        "hub_p99_ms_bucket": final.quantile(0.99),
        "hub_mean_ms": round(
            1000 * final.frame_sum / max(1.0, final.buckets.get(float("inf"), 1.0)), 1
        ),
        "mistakes": tally.mistakes,
        "caught": tally.caught,
        "missed": tally.missed,
        "missed_kinds": dict(tally.missed_kinds),
        "false_alerts": tally.false_alerts,
        "false_kinds": dict(tally.false_kinds),
        "false_by_mistake": dict(unasked),
        "alerts_in_clean_hands": clean,
        "console_inputs": len(answered),
        "console_p50_ms": round(percentile(answered, 50), 1),
        "console_p99_ms": round(percentile(answered, 99), 1),
        "hub_alerts": sum(len(w.alerts.get(None, [])) for w in watches),
        "alerts_by_code": dict(sorted(tally.by_code.items())),
        "divergences": sum(len(s.divergences) for s in surfaces),
        "divergence_examples": [d for s in surfaces for d in s.divergences][:5],
        "late_console_inputs": sum(s.late for s in surfaces),
        "stuck_hands": sum(p.stuck for p in played),
        "setup_mismatch": sum(p.setup_mismatch for p in played),
        "errors": [e for p in played for e in p.errors][:5],
        "rss_mb": [s.rss_mb for s in samples],
        "rss_minutes": [s.minute for s in samples],
        "rss_slope_mb_per_10_min": round(
            slope_per_10_min([s.minute for s in steady], [s.rss_mb for s in steady]), 2
        ),
        "rss_slope_from_start": round(
            slope_per_10_min([s.minute for s in samples], [s.rss_mb for s in samples]), 2
        ),
        "warmup_minutes": args.warmup_minutes,
        "hub_cpu_s_per_table_min": round(hub_cpu / args.tables / (wall / 60), 2),
        "hub_cores": round(hub_cpu / wall, 2),
        "broker_cores": round(broker_cpu / wall, 2),
        "bench_cores": round(bench_cpu / wall, 2),
        "load_during": [s.load1 for s in samples],
    }


def summary(r: dict[str, Any]) -> list[tuple[str, str]]:
    """The final table: (figure, value) rows of a run's result."""
    return [
        ("tables × minutes at pace", f"{r['tables']} × {r['minutes']} min at {r['pace']:g}×"),
        ("motions a second per table", f"{r['motions_per_table_s']} (target {r['pace']:g})"),
        ("hands dealt", f"{r['hands']}"),
        (
            "reads published / accepted / logged",
            f"{r['published']} / {r['accepted']} / {r['logged']}",
        ),
        ("lost (published − logged)", f"{r['lost']}"),
        ("event-log inputs by kind", f"{r['log_rows_by_kind']}"),
        ("hub reads_lost; refused", f"{r['hub_lost_counter']:.0f}; {r['refused']:.0f}"),
        ("card frames missing on the overlay", f"{r['frames_missing']}"),
        (
            "read → overlay WS p50 / p99 / max ms",
            f"{r['p50_ms']} / {r['p99_ms']} / {r['max_ms']} ({r['samples']} reads)",
        ),
        (
            "hub read → frame p50 / p99 (bucket ≤ ms)",
            f"{r['hub_p50_ms_bucket']:g} / {r['hub_p99_ms_bucket']:g}, mean {r['hub_mean_ms']}",
        ),
        (
            "console input → answer p50 / p99 ms",
            f"{r['console_p50_ms']} / {r['console_p99_ms']} ({r['console_inputs']} inputs)",
        ),
        (
            "mistakes injected / caught / missed",
            f"{r['mistakes']} / {r['caught']} / {r['missed']} {r['missed_kinds'] or ''}",
        ),
        ("alerts in hands with no mistake", f"{r['alerts_in_clean_hands']}"),
        (
            "other alerts (any hand); hub's own",
            f"{r['false_alerts']} {r['false_kinds'] or ''}; {r['hub_alerts']}",
        ),
        (
            "divergences; late inputs; stuck hands",
            f"{r['divergences']}; {r['late_console_inputs']}; {r['stuck_hands']}",
        ),
        ("hub RSS MB, first → last", f"{r['rss_mb'][0]} → {r['rss_mb'][-1]}"),
        (
            "RSS slope MB / 10 min",
            f"{r['rss_slope_mb_per_10_min']} from minute {r['warmup_minutes']:g} "
            f"({r['rss_slope_from_start']} from 0)",
        ),
        (
            "hub CPU s per table per minute",
            f"{r['hub_cpu_s_per_table_min']} ({r['hub_cores']} cores)",
        ),
        ("broker / bench cores", f"{r['broker_cores']} / {r['bench_cores']}"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables in the hub (default 50)")
    parser.add_argument("--minutes", type=float, default=10, help="how long (default 10)")
    parser.add_argument("--pace", type=float, default=10, help="× live pace (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="shuffles, actions, mistakes")
    parser.add_argument("--mistakes", type=float, default=0.03, help="share of hands with one")
    parser.add_argument("--sample-seconds", type=float, default=60, help="memory etc. (60)")
    parser.add_argument(
        "--warmup-minutes",
        type=float,
        default=1,
        help="RSS samples before this are not in the slope (1)",
    )
    parser.add_argument("--quick", action="store_true", help="3 tables, 1 minute, 15-s samples")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument(
        "--hub-env",
        action="append",
        metavar="KEY=VALUE",
        help="the hub's environment (default: MALLOC_ARENA_MAX=2, as its systemd unit sets; "
        "give 'MALLOC_ARENA_MAX=' for glibc's default)",
    )
    args = parser.parse_args()
    hub_env = dict(kv.split("=", 1) for kv in (args.hub_env or ["MALLOC_ARENA_MAX=2"]))
    for key, value in hub_env.items():  # the hub's process inherits them (not this one's
        if value:  # allocator: glibc read its settings when this process started)
            os.environ[key] = value
        else:
            os.environ.pop(key, None)
    if args.quick:
        args.tables, args.minutes, args.sample_seconds = 3, 1.0, 15.0
    print(f"machine: {machine()}")
    print(
        f"soak: {args.tables} tables, {args.minutes:g} min at {args.pace:g}× live pace, "
        f"mistakes in {args.mistakes:.0%} of hands, seed {args.seed}; rules, live equity, "
        f"event_log_sync full; hub environment {hub_env}; * p99 of the last 2,000 reads "
        "per table so far",
        flush=True,
    )
    result = run(args)
    print()
    for label, value in summary(result):
        print(f"{label:<42} {value}")
    if result["false_by_mistake"]:
        print(f"alerts not asked for: {result['false_by_mistake']}")
    if result["errors"] or result["divergence_examples"]:
        print(f"errors: {result['errors']}\ndivergences: {result['divergence_examples']}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    ok = result["lost"] == 0 and result["missed"] == 0 and result["alerts_in_clean_hands"] == 0
    return 0 if ok and not result["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
