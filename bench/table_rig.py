"""The pieces of a bench table shared by the soak (:mod:`bench.soak`) and the card-room
bench (:mod:`bench.room`): the hub's config for N tables with rules, live equity and the
fsync'd event log; ``/metrics`` scraped; each table's overlay (and, for the room, console)
WebSocket watched in one thread; and a table in this process — the node's own
:class:`~table_node.node.Node`, :class:`~feltwire.publisher.InventoryPublisher` and
:class:`~feltwire.mqtt.PahoTransport` under the demo's
:class:`~simulator.dealer.SimulatedDealer`, whose console inputs go through the hub's HTTP
console API (:class:`~simulator.demo.HttpConsole`). See :mod:`bench.soak` for how a
table's dealer keeps his own picture of the hand.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import random
import sys
import threading
import time
from collections import defaultdict, deque
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

from bench.overlay_latency import descendants, rss_mb  # noqa: E402
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
from simulator.dealer import Mistake, SimulatedDealer, choose_mistake  # noqa: E402
from simulator.demo import HttpConsole  # noqa: E402
from simulator.errors import ConsoleApiError  # noqa: E402
from simulator.monitor_table import MOTION  # noqa: E402
from table_node.config import default_readers  # noqa: E402
from table_node.node import Node  # noqa: E402
from table_node.simulated import SimulatedTable  # noqa: E402
from tests.support.table_procs import DEALER, SECRET  # noqa: E402

JITTER = 0.25
"""How much each motion's time varies, as a share of it (uniformly: 0.75–1.25 s a motion
at live pace, on average one a second). Dealers are not metronomes: with every pause
exactly one motion, a stall anywhere (the hub, this process) wakes every table's dealer
at once, and as nothing then spreads them again, every table moves in the same instant
from then on — a burst of N reads each second that no card room makes. 0: metronomes."""

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
WAIT = 30.0
"""Upper bound for the hub to show a card or start a hand before the bench moves on."""


# ------------------------------------------------------------------ the hub's side


def hub_config(
    tables: Sequence[str],
    mqtt_port: int,
    web_port: int,
    state: Path,
    pace: float,
    *,
    game: str = "NT",
    sockets_per_table: int = 2,
    equity: bool = True,
    equity_workers: int | None = None,
) -> str:
    """The hub's TOML: ``tables`` playing ``game`` with :data:`RULES` (debounce divided by
    ``pace``), live ``equity``, the fsync'd event log in ``state``, the overlay live; room
    for ``sockets_per_table`` connections of each table from this one address;
    ``equity_workers`` as the hub's setting (None: its default)."""
    rules = RULES.model_dump(mode="json", exclude_none=True)
    rules["debounce_seconds"] = RULES.debounce_seconds / pace
    doc = {
        "readers": READERS,
        "game": game,
        "live_equity": equity,
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
            # an overlay WebSocket and a console connection per table (the room bench:
            # and a console WebSocket), all from here
            "max_connections_per_address": sockets_per_table * len(tables) + 32,
            "max_connections": max(1000, sockets_per_table * len(tables) + 64),
        },
        "rules": rules,
        "tables": [{"table": t} for t in tables],
    }
    if equity_workers is not None:
        doc["equity_workers"] = equity_workers
    return tomli_w.dumps(doc)


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


CONNECT_S = 30.0
"""How long a simulated node may take to reach the broker when a run starts (200 of them
start one after the other in this process, beside a hub starting its tables)."""


def quiet_collector() -> None:
    """Keep this process's cyclic collector out of the figures: what the set-up built
    frozen (:func:`gc.freeze`), then the hub's thresholds (``GC_THRESHOLDS``). This
    process stamps every read and every frame; at 200 tables its full collections — up
    to 430 ms, its dealers' and watchers' threads stopped — were counted as the hub's
    latency (the frames that arrived meanwhile stamped late)."""
    from hub.bootstrap import settle_collector

    settle_collector()


def release_collector() -> None:
    """Give back what :func:`quiet_collector` froze once a run is over: its objects (the
    run's MQTT clients, each with a socket pair, in reference cycles) collected. Without
    it, a second 200-table run in the same process started with ~1,000 descriptors of the
    first still open, and the simulated node whose socket got descriptor 1,024 could not
    connect: paho waits on its socket with ``select()``, which takes none above 1,023
    (the node reconnected, closing before its CONNECT, every 1–5 s)."""
    gc.unfreeze()
    gc.collect()


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

    def console_frame(self, ev: dict[str, Any], at: float) -> None:
        """One frame of the table's ``/ws/console`` (only read by the room bench)."""

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
    url: str,
    watches: list[Watch],
    ready: threading.Event,
    stop: threading.Event,
    *,
    console: bool = False,
) -> None:
    """Every table's ``/ws/overlay`` read on one event loop, in this thread (with
    ``console``, its ``/ws/console`` too, as the dealer's console page reads it: each
    frame to :meth:`Watch.console_frame`)."""
    base = url.replace("http://", "ws://")

    async def follow(w: Watch) -> None:
        async with connect(
            f"{base}/ws/overlay?table={w.table}&token={PRODUCER}", max_queue=None
        ) as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "snapshot", first
            opened.append(w.table)
            if len(opened) == want:
                ready.set()
            async for raw in ws:
                w.frame(json.loads(raw), time.perf_counter())

    async def follow_console(w: Watch) -> None:
        async with connect(
            f"{base}/ws/console?table={w.table}",
            additional_headers={"Authorization": f"Bearer {DEALER}"},
            max_queue=None,
        ) as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "console", first
            opened.append(w.table)
            if len(opened) == want:
                ready.set()
            async for raw in ws:
                w.console_frame(json.loads(raw), time.perf_counter())

    async def main() -> None:
        tasks = [asyncio.create_task(follow(w)) for w in watches]
        if console:
            tasks += [asyncio.create_task(follow_console(w)) for w in watches]
        while not stop.is_set():
            await asyncio.sleep(0.2)
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()  # type: ignore[misc]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    opened: list[str] = []
    want = len(watches) * (2 if console else 1)
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
        self.surface.sending(reader, known, changed)
        self.inner.publish(topic, payload, qos=qos, retain=retain)


class SoakSurface(NodeSurface):
    """A table whose hub is another process: the node publishes over MQTT, console inputs
    go to the hub's HTTP API, and the hand the dealer plays by is his own picture of it
    (a :class:`DealingMonitor` on :attr:`clock`, fed what the node published)."""

    def __init__(
        self,
        table: str,
        broker_port: int,
        url: str,
        watch: Watch,
        pace: float,
        game: str = "NT",
        *,
        jitter: float = JITTER,
        seed: int = 0,
    ) -> None:
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
        self.game = game
        self.watch = watch
        self.mistake = Mistake.NONE
        """The mistake the dealer is to make in the hand being dealt."""
        self.api = HttpConsole(url, DEALER)
        self.api.client.params = httpx.QueryParams({"table": table})
        self.monitor: DealingMonitor | None = None
        self._unknown: dict[str, frozenset[str]] = {}
        self.interval = MOTION / pace
        self.jitter = jitter
        self._rng = random.Random(f"{seed}-{table}")
        self._due = time.monotonic()
        self.divergences: list[str] = []
        self.answered: list[float] = []
        """Milliseconds from each console input sent to the hub's answer."""
        self.late = 0
        """Console inputs entered before the overlay had shown every card (after WAIT)."""
        self.wakes: list[float] = []
        """Milliseconds each motion's pause woke after its due time (this process lagging)."""

    @property
    def hand(self) -> Hand:
        assert self.monitor is not None
        return self.monitor.hand

    def _pace(self) -> None:
        """One motion's time at the bench's pace, give or take :attr:`jitter` of it (no
        catching up after a stall)."""
        pause = self.interval * (1 + self._rng.uniform(-self.jitter, self.jitter))
        self._due = max(self._due + pause, time.monotonic())
        time.sleep(max(0.0, self._due - time.monotonic()))
        self.wakes.append((time.monotonic() - self._due) * 1000)

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

    def sending(self, reader: str, cards: frozenset[str], changed: bool) -> None:
        """The node is about to publish ``reader``'s inventory (a hook: nothing here)."""

    def entered(self, inp: ConsoleInput, sent: float, answer: object) -> None:
        """A console input sent at ``sent`` (perf_counter) was answered (a hook)."""

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
        self.entered(inp, sent, answer)
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


def setup_of(frame: dict[str, Any], game: str = "NT") -> HandSetup:
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
    config = table_config(RULES, game)
    return HandSetup(
        int(frame["hand"]),
        config.game,
        seats,
        frame["button"],
        stakes,
        stacks,
        config.hand_options(),
    )


class Stopped(Exception):
    """Raised in a dealer's pause when the bench stops the tables mid-hand."""


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
            setup = setup_of(frame, surface.game)
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
            surface.mistake = mistake
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
    except Stopped:
        return
    except (ConsoleApiError, httpx.HTTPError, TimeoutError, RuntimeError, AssertionError) as err:
        played.errors.append(f"{type(err).__name__}: {err}")


# ------------------------------------------------------------------ the hub's processes


def process_tree(pid: int) -> list[int]:
    """``pid`` and every live descendant of it (Linux /proc: each process's parent)."""
    return [pid, *descendants(pid)]


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, in MB."""
    total = 0.0
    for p in process_tree(pid):
        try:
            total += rss_mb(p)
        except (OSError, RuntimeError):
            continue
    return total
