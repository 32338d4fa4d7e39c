"""The card-room bench's tables spread over bench processes (:mod:`bench.room`): a shard
is a process of its own (started with ``spawn``: the main process has threads) holding at
most ``--tables-per-process`` of the room's tables — for each, the :class:`RoomWatch` of
its overlay and console feed (one :func:`~bench.table_rig.watch_overlays` thread for the
shard's tables), its simulated node (:class:`RoomSurface`: a paho client and an HTTP
client) and its dealer's thread. One process held them all before: at 400 tables it had
more than 1,023 descriptors open, and paho, which waits on its socket with ``select()``,
cannot serve one numbered 1,024 or more (the node never reached the broker); and ~800
threads under one GIL stamped their own frames late.

The main process tells each shard what to do over a pipe of its own, one word at a time,
and each shard answers ``(word, body)`` — ``("error", traceback)`` if it raised:

* set-up (unasked): the overlays open and every node connected → ``ready``;
* ``deal``: the dealers start (no answer);
* ``mark``: the measured window starts (no answer);
* ``collect``: the window's figures taken, the dealers stopped, the frames still awaited
  waited for → ``collected`` (a :class:`ShardWindow`);
* ``stop``: the watchers stopped, the nodes closed → ``stopped`` (the reads published),
  and the shard exits.

Latencies are taken in the shard from its own ``perf_counter`` stamps (a read's publish
and its frame are both the shard's): no clock crosses a process. A shard ignores Ctrl-C
(the main process ends the run and terminates the shards) and exits when the main
process's end of its pipe closes.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import signal
import threading
import time
import traceback
from collections import Counter, deque
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import httpx

from bench.overlay_latency import cpu_seconds
from bench.table_rig import (
    CONNECT_S,
    JITTER,
    RULES,
    WAIT,
    Played,
    SoakSurface,
    Stopped,
    Watch,
    deal,
    quiet_collector,
    watch_overlays,
)
from hub.app.records import ConsoleInput
from hub.config import table_config
from simulator.dealer import Mistake
from simulator.demo import ConsoleAnswer

READY_S = 600.0
"""How long the main process waits for every shard's ``ready`` (a backstop: each shard
bounds its own steps — the overlays 120 s, each node :data:`~bench.table_rig.CONNECT_S`)."""
COLLECT_S = 2 * WAIT + 300.0
"""How long it waits for ``collected``: the dealers stopping (each at most :data:`WAIT`)
and each table's frames still awaited (5 s at most)."""
BOARD_STREET = {3: "flop", 4: "turn", 5: "river"}


# ------------------------------------------------------------------ what the pages show


def feed_key(hand: object, ev: dict[str, Any]) -> str:
    """A public event's identity: its hand and its fields but ``hand`` and ``t``."""
    return json.dumps(
        [hand, {k: v for k, v in ev.items() if k not in ("hand", "t")}], sort_keys=True
    )


@dataclass
class Probe:
    """One street's last card, awaiting its equity frames."""

    hand: int
    street: str
    board: frozenset[str]
    t0: float
    first_ms: float | None = None
    frames: int = 0


@dataclass(frozen=True)
class EquitySample:
    street: str
    first_ms: float
    final_ms: float
    exact: bool
    at: float


class RoomWatch(Watch):
    """:class:`Watch` plus the equity frames of each street's last card and the console
    feed's frames of the actions entered (thread-safe, on :attr:`cond`)."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.probe: Probe | None = None
        self.equity: list[EquitySample] = []
        self.superseded: Counter[str] = Counter()
        self.recent: deque[tuple[float, str]] = deque(maxlen=256)
        self.waiting: dict[str, float] = {}
        self.feed: list[tuple[float, float]] = []
        """(arrival, ms) of each action's frame on the console feed."""
        self.stamps: list[float] = []
        """When each overlay latency was taken (parallel to :attr:`latencies`)."""

    def open_probe(self, hand: int, street: str, board: frozenset[str]) -> None:
        with self.cond:
            self.probe = Probe(hand, street, board, time.perf_counter())

    def close_probe(self) -> None:
        """The cards changed: an open measurement is superseded."""
        with self.cond:
            if self.probe is not None:
                self.superseded[self.probe.street] += 1
                self.probe = None

    def frame(self, ev: dict[str, Any], at: float) -> None:
        if ev.get("type") != "equity":
            before = len(self.latencies)
            super().frame(ev, at)
            with self.cond:
                self.stamps += [at] * (len(self.latencies) - before)
            return
        with self.cond:
            p = self.probe
            if p is None or ev.get("hand") != p.hand or frozenset(ev["board"]) != p.board:
                return
            if len(ev["players"]) < 2:
                return
            ms = (at - p.t0) * 1000
            p.frames += 1
            if p.first_ms is None:
                p.first_ms = ms
            if ev["exact"] or p.frames >= 2:  # exact, or the final estimate after the quick
                self.equity.append(EquitySample(p.street, p.first_ms, ms, bool(ev["exact"]), at))
                self.probe = None

    def console_frame(self, ev: dict[str, Any], at: float) -> None:
        if ev.get("type") in ("console", "snapshot"):
            return
        key = feed_key(ev.get("hand"), ev)
        with self.cond:
            sent = self.waiting.pop(key, None)
            if sent is not None:
                self.feed.append((at, (at - sent) * 1000))
            else:
                self.recent.append((at, key))

    def answered(self, key: str, sent: float) -> None:
        """An action sent at ``sent`` was answered with the public event ``key``."""
        with self.cond:
            for i, (at, k) in enumerate(self.recent):
                if k == key and at >= sent:
                    self.feed.append((at, (at - sent) * 1000))
                    del self.recent[i]
                    return
            self.waiting[key] = sent


class RoomSurface(SoakSurface):
    """A :class:`SoakSurface` that marks each street's last card for the equity figure,
    matches its actions' answers to the console feed, and stops at once when told."""

    def __init__(
        self,
        table: str,
        broker_port: int,
        url: str,
        watch: RoomWatch,
        pace: float,
        game: str,
        equity: bool = True,
        *,
        jitter: float = JITTER,
        seed: int = 0,
    ) -> None:
        super().__init__(table, broker_port, url, watch, pace, game, jitter=jitter, seed=seed)
        self.room = watch
        self.equity = equity
        self.need = len(table_config(RULES, game).game.streets[0].hole_up)
        self.stopping = threading.Event()
        self._cards: dict[str, frozenset[str]] = {}
        self._hole_hand: int | None = None
        self._body: dict[str, Any] | None = None
        self.api.client.event_hooks["response"] = [self._keep_answer]

    def _keep_answer(self, response: httpx.Response) -> None:
        self._body = None
        if response.request.url.path == "/api/console/action" and response.status_code == 200:
            response.read()
            self._body = response.json()

    def _pace(self) -> None:
        if self.stopping.is_set():
            raise Stopped
        super()._pace()

    def sending(self, reader: str, cards: frozenset[str], changed: bool) -> None:
        if not changed:
            return
        self._cards[reader] = cards
        self.room.close_probe()
        if self.monitor is None or self.mistake is not Mistake.NONE or not self.equity:
            return
        setup = self.monitor.setup
        dealt = all(len(self._cards.get(f"seat{t}", ())) == self.need for t in setup.seats)
        if reader == "board" and len(cards) in BOARD_STREET:
            self.room.open_probe(setup.number, BOARD_STREET[len(cards)], cards)
        elif reader.startswith("seat") and self._hole_hand != setup.number and dealt:
            self._hole_hand = setup.number
            self.room.open_probe(setup.number, "hole", frozenset())

    def entered(self, inp: ConsoleInput, sent: float, answer: object) -> None:
        body, self._body = self._body, None
        if isinstance(answer, ConsoleAnswer) and answer.accepted and body and body["events"]:
            self.room.answered(feed_key(body["hand"], body["events"][0]), sent)


# ------------------------------------------------------------------ a shard


@dataclass(frozen=True)
class ShardSpec:
    """What a shard runs: its tables (and their dealers' seeds) against the room's hub."""

    index: int
    tables: list[str]
    dealer_seeds: list[float]
    broker_port: int
    broker_log: Path
    url: str
    pace: float
    game: str
    equity: bool
    jitter: float
    seed: int
    mistakes: float
    console_feed: bool


@dataclass
class ShardWindow:
    """A shard's figures of the measured window (the equity samples as dicts)."""

    latencies: list[float]
    equity: list[dict[str, Any]]
    feed: list[float]
    answered: list[float]
    wakes: list[float]
    hands: int
    superseded: dict[str, int]
    errors: list[str]
    lost_frames: int = 0


def split(names: list[str], most: int) -> list[list[str]]:
    """``names`` in as few runs of consecutive tables as hold at most ``most`` each, as
    even as can be (4 tables at most 3: 2 + 2)."""
    count = -(-len(names) // max(1, most))
    size, extra = divmod(len(names), count)
    out, at = [], 0
    for k in range(count):
        end = at + size + (k < extra)
        out.append(names[at:end])
        at = end
    return out


# ------------------------------------------------------------------ in the shard


def _not_connected(table: str, surface: RoomSurface, broker_log: Path) -> str:
    """Why ``table``'s simulated node is said not to have reached the broker: its failed
    tries and what the broker's log says of its client."""
    client = surface.transport.client_id
    said = [line for line in broker_log.read_text().splitlines() if client in line]
    return (
        f"table {table}'s node did not reach the broker in {CONNECT_S:.0f} s "
        f"({surface.transport.broker_failures} failed tries; this process has "
        f"{len(os.listdir('/proc/self/fd'))} descriptors open); the broker's log of it: "
        + (" | ".join(said[-6:]) or "nothing")
    )


def shard_main(conn: Connection[tuple[str, Any], str], spec: ShardSpec) -> None:
    """A shard process's body: its tables served until ``stop``; whatever it raises goes
    to the main process as ``("error", traceback)`` before the tables close."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the main process ends the run
    shard = _Shard(spec)
    try:
        shard.serve(conn)
        conn.send(("stopped", shard.close()))
    except BaseException:
        with contextlib.suppress(OSError):  # OSError: the main process is gone
            conn.send(("error", traceback.format_exc()))
        shard.close()
    finally:
        conn.close()


def _expect(conn: Connection[tuple[str, Any], str], word: str) -> None:
    said = conn.recv()  # EOFError: the main process is gone
    if said != word:
        raise RuntimeError(f"the main process said {said!r}, not {word!r}")


class _Shard:
    """A shard's tables: what :func:`bench.room.run_room` ran for each in one process."""

    def __init__(self, spec: ShardSpec) -> None:
        self.spec = spec
        self.stop_watching, self.stop_dealing = threading.Event(), threading.Event()
        self.watches = [RoomWatch(t) for t in spec.tables]
        self.surfaces: list[RoomSurface] = []
        self.played = [Played() for _ in spec.tables]
        self._closed = False

    def _open(self) -> None:
        """The tables' overlays (and console feeds) open, then their nodes connected."""
        spec, opened, failed = self.spec, threading.Event(), list[BaseException]()

        def view() -> None:
            try:
                seen: list[Watch] = [*self.watches]
                watch_overlays(
                    spec.url, seen, opened, self.stop_watching, console=spec.console_feed
                )
            except BaseException as err:
                failed.append(err)
                opened.set()

        threading.Thread(target=view, daemon=True).start()
        if not opened.wait(120):
            raise TimeoutError("the overlays did not open")
        if failed:
            raise RuntimeError(f"a WebSocket failed: {failed[0]!r}") from failed[0]
        for t, w in zip(spec.tables, self.watches, strict=True):
            s = RoomSurface(
                t, spec.broker_port, spec.url, w, spec.pace, spec.game, spec.equity,
                jitter=spec.jitter, seed=spec.seed,
            )  # fmt: skip
            self.surfaces.append(s)  # closed by close() whatever happens
            if not s.transport.wait_connected(CONNECT_S):
                raise TimeoutError(_not_connected(t, s, spec.broker_log))

    def serve(self, conn: Connection[tuple[str, Any], str]) -> None:
        """Set up, then each word of the main process done in turn, up to ``stop``."""
        self._open()
        quiet_collector()
        conn.send(("ready", None))
        _expect(conn, "deal")
        threads = []
        for s, p, x in zip(self.surfaces, self.played, self.spec.dealer_seeds, strict=True):
            th = threading.Thread(
                target=deal,
                args=(s, random.Random(x), self.spec.mistakes, self.stop_dealing, p),
                daemon=True,
            )
            th.start()
            threads.append(th)
        _expect(conn, "mark")
        marks = _Marks(self.watches, self.surfaces, self.played)
        _expect(conn, "collect")
        out = marks.taken()
        self._stop_dealing()
        for th in threads:
            th.join(WAIT)
        for w in self.watches:
            w.shown(5)
        out.lost_frames = sum(w.awaited for w in self.watches)
        conn.send(("collected", out))
        _expect(conn, "stop")

    def _stop_dealing(self) -> None:
        self.stop_dealing.set()
        for s in self.surfaces:
            s.stopping.set()

    def close(self) -> int:
        """The dealers and watchers stopped, the nodes closed (once) → the reads the
        nodes published."""
        self._stop_dealing()
        self.stop_watching.set()
        if not self._closed:
            self._closed = True
            time.sleep(0.5)
            for s in self.surfaces:
                s.close()
        return sum(s.publisher.published for s in self.surfaces)


class _Marks:
    """Where each table's records stood when the measured window started."""

    def __init__(
        self, watches: list[RoomWatch], surfaces: list[RoomSurface], played: list[Played]
    ) -> None:
        self.watches, self.surfaces, self.played = watches, surfaces, played
        self.w = [(len(w.latencies), len(w.equity), len(w.feed)) for w in watches]
        self.s = [(len(s.answered), len(s.wakes)) for s in surfaces]
        self.hands = sum(len(p.hands) for p in played)

    def taken(self) -> ShardWindow:
        """The window's figures, from the marks to now."""
        ws = list(zip(self.watches, self.w, strict=True))
        ss = list(zip(self.surfaces, self.s, strict=True))
        return ShardWindow(
            latencies=[x for w, m in ws for x in w.latencies[m[0] :]],
            equity=[asdict(e) for w, m in ws for e in w.equity[m[1] :]],
            feed=[x for w, m in ws for _, x in w.feed[m[2] :]],
            answered=[x for s, m in ss for x in s.answered[m[0] :]],
            wakes=[x for s, m in ss for x in s.wakes[m[1] :]],
            hands=sum(len(p.hands) for p in self.played) - self.hands,
            superseded=dict(sum((w.superseded for w in self.watches), Counter[str]())),
            errors=[e for p in self.played for e in p.errors],
        )


# ------------------------------------------------------------------ in the main process


class ShardFailed(RuntimeError):
    """A shard raised, died or kept silent."""


class Shards:
    """The shard processes of one run, seen from the main process: started at once, each
    told the same word in turn, their answers awaited together; a failure names its shard
    and its cause. :meth:`close` (always) ends every shard still running."""

    def __init__(self, specs: list[ShardSpec]) -> None:
        ctx = multiprocessing.get_context("spawn")  # not fork: this process has threads
        self.specs = specs
        self.conns: list[Connection[str, tuple[str, Any]]] = []
        self.procs: list[BaseProcess] = []
        try:
            for spec in specs:
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(
                    target=shard_main,
                    args=(theirs, spec),
                    name=f"room-shard-{spec.index + 1}",
                    daemon=True,  # multiprocessing's exit ends it if all else fails
                )
                self.conns.append(mine)
                self.procs.append(proc)
                proc.start()  # spawned: its affinity is this thread's (--hub-cpus)
                theirs.close()  # the shard's EOF when this process's end closes
        except BaseException:
            self.close()
            raise

    def name(self, i: int) -> str:
        spec = self.specs[i]
        return (
            f"shard {i + 1} of {len(self.specs)} (tables {spec.tables[0]}–{spec.tables[-1]}, "
            f"pid {self.procs[i].pid})"
        )

    def tell(self, word: str) -> None:
        """Every shard told ``word``, one after the other at once."""
        for i, conn in enumerate(self.conns):
            try:
                conn.send(word)
            except OSError as err:
                raise self._failure(i, f"when told {word!r}") from err

    def hear(self, word: str, timeout: float) -> list[Any]:
        """Every shard's answer ``word`` (its body, in shard order) within ``timeout`` s."""
        got: dict[int, Any] = {}
        deadline = time.monotonic() + timeout
        while len(got) < len(self.conns):
            todo = [i for i in range(len(self.conns)) if i not in got]
            ready = wait(
                [self.conns[i] for i in todo] + [self.procs[i].sentinel for i in todo],
                max(0.0, deadline - time.monotonic()),
            )
            if not ready:
                silent = ", ".join(self.name(i) for i in todo)
                raise ShardFailed(f"{silent}: no {word!r} in {timeout:.0f} s")
            for i in todo:
                if self.conns[i] in ready or self.procs[i].sentinel in ready:
                    got[i] = self._answer(i, word)
        return [got[i] for i in range(len(self.conns))]

    def pause(self, seconds: float, during: str) -> None:
        """Sleep ``seconds``, but raise at once if a shard fails or dies meanwhile."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready = wait([*self.conns, *(p.sentinel for p in self.procs)], left)
            for i in range(len(self.conns)):
                if self.conns[i] in ready or self.procs[i].sentinel in ready:
                    self._answer(i, "", during)

    def cpu(self) -> float:
        """The shards' CPU seconds so far (``/proc``)."""
        return sum(cpu_seconds(p.pid) for p in self.procs if p.pid is not None)

    def stop(self) -> list[int]:
        """Each shard's reads published, once it has closed its tables; the shards joined."""
        self.tell("stop")
        published = self.hear("stopped", 60 + 5 * max(len(s.tables) for s in self.specs))
        for p in self.procs:
            p.join(30)
        return [int(x) for x in published]

    def close(self) -> None:
        """Every shard still running terminated (then killed), the pipes closed."""
        for p in self.procs:
            if p.pid is not None and p.exitcode is None:
                p.terminate()
        for p in self.procs:
            if p.pid is None:
                continue
            p.join(10)
            if p.exitcode is None:
                p.kill()
                p.join()
            p.close()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []

    def _answer(self, i: int, word: str, during: str = "") -> Any:
        conn = self.conns[i]
        try:
            said, body = conn.recv() if conn.poll() else (None, None)
        except (EOFError, OSError):
            said, body = None, None
        if said == "error":
            cause = str(body).strip().splitlines()[-1]
            raise ShardFailed(f"{self.name(i)} failed{during and ' ' + during}: {cause}\n{body}")
        if said is None:
            raise self._failure(i, during or f"before its {word!r}")
        if said != word:
            raise ShardFailed(f"{self.name(i)} said {said!r}, not {word!r}")
        return body

    def _failure(self, i: int, during: str) -> ShardFailed:
        """What became of a shard that no longer answers."""
        p = self.procs[i]
        p.join(5)
        code = p.exitcode
        if code is None:
            how = "closed its pipe but runs on"
        elif code < 0:
            how = f"was killed by {signal.Signals(-code).name}"
        else:
            how = f"exited with code {code}"
        return ShardFailed(f"{self.name(i)} {how} {during}")
