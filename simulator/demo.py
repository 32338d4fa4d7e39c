"""``feltwire demo``: a whole table on one machine — embedded broker, hub, simulated node.

A simulated dealer (:mod:`simulator.dealer`) deals no-limit hold'em by the rules to six
players (seats 1–6, 1,000 chips each at 5/10) at a six-seat table (its antennas: seats
1–6, board, burn and muck; ``--seats`` up to 10 makes it larger) onto the simulated
node's antennas; every
read travels node → MQTT → hub, whose table service checks the deal and raises alerts.
With ``--mistakes RATE`` (default 0.03) the dealer makes one dealing error in that share
of hands (chosen at random among the kinds the table can see: out of order, wrong count,
a card to an empty seat, missing or extra burn, premature board card, duplicate card,
unknown tag, cards leaving a seat, fold or action out of turn, a folded card coming
back, a winning hand mucked).

The players (:mod:`simulator.players`) play a believable mix — most hands folded before
the flop, raises of 2½–3 big blinds, bets of half the pot or so, an all-in only with a
very strong hand — and buy chips as players do, within the table's buy-in rules: one who
busted buys in again (R-BUY-2: 40 to 100 big blinds, mostly the maximum), one left with
less than the minimum buy-in often tops up to the maximum (R-BUY-4), between hands, at
the console (``POST /api/console/seat``, ``top_up``).

The players act through the hub's dealer console API, as a dealer's console page does:
each betting action is ``POST /api/console/action`` with a dealer token (one keep-alive
HTTP connection); the dealer's own inputs (show at showdown, a misdeal) go to their
console routes the same way (:class:`HttpConsole`). A refused action (an action out of
turn is one of the mistakes) is answered, and alerted, by the hub; the dealer carries on.

With no options it deals at a steady pace, prints the three pages' URLs — the public
view, the dealer console (with a dealer token) and the producer's overlay (with the
producer token) — and runs until Ctrl-C. The demo's own hub config shows hole cards live
(``overlay_delay_minutes = 0`` with ``allow_live_hole_cards = true``): the overlay shows
them at once and the console warns of it; a real table delays them. ``--hands N`` plays N
hands as fast as the pipeline allows and prints one JSON summary line: the pipeline's
counters, ``console_api`` / ``console_refused`` / ``console_in_process`` (console inputs
sent to the API, refused by the hub, entered in-process), and ``mistakes`` (injected),
``alerts`` (raised), ``missed`` (injected but not caught: the expected alert did not come
in that hand) and ``false_alerts`` (raised in a hand without a mistake, or of another
kind than the mistake's); ``hands_all_in`` and ``hands_folded`` (hands in which someone
went all in, or folded), ``big_blind`` and ``buys`` (every rebuy and top-up: hand, seat,
kind, amount, the stack before, whether the hub took it). The exit status is 1 when the
pipeline lost a read or the alerts did not match the mistakes.

With ``--host 0.0.0.0`` (every interface) the printed URLs name this machine's LAN
addresses, which a phone on the club's network can open, not 127.0.0.1.

Time in the demo: the hub's time (:class:`~hub.app.table_time.TableTime`) moves with a
:class:`~simulator.antennas.MotionClock` instead of the monotonic clock: one second per motion
of the dealer, so the rules' debounce (0.5 s) sees a real dealer's
timing however fast the pipeline runs, and a seed replays a run exactly. The dealer waits
until the hub has handled each motion's reads before the next motion.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import signal
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from feltwire.cards import card_code
from feltwire.config import MqttClientSettings
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.app.records import ConsoleInput
from hub.app.table_console import TableConsole
from hub.bootstrap import HubRuntime, start_hub
from hub.config import HubConfig, HubMqttSettings, PlayerSettings, RulesSettings, WebSettings
from hub.rules import procedure
from hub.rules.betting import Action, ActionKind
from hub.web.auth import Role
from simulator.antennas import AntennaSurface, MotionClock, wait_event
from simulator.dealer import EXPECTED, Mistake, SimulatedDealer, choose_mistake
from simulator.errors import ConsoleApiError, Stopped
from simulator.lan import page_bases
from simulator.players import TablePlayers
from table_node.config import default_readers
from table_node.node import Node
from table_node.simulated import SimulatedTable

log = logging.getLogger("feltwire.demo")
TABLE = "demo"
BUY_IN = 1000
BLINDS = (5, 10)
SHORT = 40 * BLINDS[1]
"""A stack under this (the minimum buy-in, R-BUY-2) is often topped up to the maximum."""
TOKEN_SECONDS = 7 * 24 * 3600
"""Lifetime of the demo's dealer tokens (their expiry is on the wall clock). A token dies
with the demo anyway: its signing secret is drawn anew at each start."""


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


@dataclass
class Tally:
    """Mistakes made and alerts raised, hand by hand."""

    hands: int = 0
    mistakes: int = 0
    caught: int = 0
    missed: int = 0
    alerts: int = 0
    false_alerts: int = 0
    unfinished: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    missed_kinds: Counter[str] = field(default_factory=Counter)
    false_kinds: Counter[str] = field(default_factory=Counter)
    all_in: int = 0
    """Hands in which a player went all in."""
    folded: int = 0
    """Hands in which a player folded."""
    buys: list[dict[str, Any]] = field(default_factory=list)
    """Every rebuy and top-up the players asked for, and whether the hub took it."""

    def play(self, log: Sequence[object]) -> None:
        """One hand's actions (its :attr:`~hub.rules.hand.Hand.log`): an all-in, a fold?"""
        actions = [r for r in log if isinstance(r, Action)]
        self.all_in += any(a.all_in for a in actions)
        self.folded += any(a.kind is ActionKind.FOLD for a in actions)

    def record(self, mistake: Mistake, injected: bool, codes: list[str]) -> None:
        """One hand: the mistake made (if ``injected``) and the alert codes raised."""
        self.hands += 1
        expected = EXPECTED[mistake].value if injected and mistake is not Mistake.NONE else None
        if expected is not None:
            self.mistakes += 1
            if expected in codes:
                self.caught += 1
            else:
                self.missed += 1
                self.missed_kinds[mistake.value] += 1
        for code in codes:
            self.alerts += 1
            self.by_code[code] += 1
            if code != expected:
                self.false_alerts += 1
                self.false_kinds[code] += 1


@dataclass(frozen=True, slots=True)
class ConsoleAnswer:
    """What the console API answered to one input: accepted, or the hub's refusal."""

    accepted: bool
    refused: str | None = None


def _detail(response: httpx.Response) -> str:
    try:
        body: Any = response.json()
    except ValueError:
        return response.text[:200]
    detail = body.get("detail") if isinstance(body, dict) else None
    return str(detail if detail is not None else body)[:200]


IDLE_S = 3.0
"""How long the console client keeps an idle connection: less than the hub's web server
keeps one (``hub.web.server.KEEP_ALIVE_SECONDS``, 5 s). With the same 5 s on both sides a
request sent as the server closed the connection got no answer ("Connection reset by
peer", "Server disconnected without sending a response") and stopped the dealer — in
the room bench's 200-table runs about once a run; a POST is not sent again."""


class HttpConsole:
    """The hub's dealer console API, as the demo's simulated players and dealer use it.

    Every console input goes to its route — betting actions to ``POST
    /api/console/action`` (``{"seat", "act", "to"}``), show and muck to
    ``/api/console/show`` and ``/api/console/muck`` (``{"seat"}``), a misdeal to
    ``/api/console/misdeal``, undo to ``/api/console/undo``, a card entered by hand to
    ``/api/console/card`` — with ``Authorization: Bearer <dealer token>``, over one
    keep-alive connection, as the dealer's console page sends them. The hub answers once
    it has applied the input; a refusal — ``"accepted": false``, or HTTP 409 with the
    hub's reason — is counted and returned, and the dealer carries on as at a real table
    (the hub has raised its alert). Any other error raises :class:`ConsoleApiError`.
    """

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        self.client = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            trust_env=False,  # the hub is local: no proxy from the environment
            limits=httpx.Limits(keepalive_expiry=IDLE_S),
        )
        self.sent = 0
        self.refused = 0

    def state(self) -> dict[str, Any]:
        """The console's state (``GET /api/console/state``)."""
        try:
            response = self.client.get("/api/console/state")
        except httpx.HTTPError as err:
            raise ConsoleApiError(f"the hub's console API did not answer: {err}") from err
        if response.status_code != 200:
            raise ConsoleApiError(f"the console state: {response.status_code} {_detail(response)}")
        state: dict[str, Any] = response.json()
        return state

    def top_up(self, seat: int, amount: int) -> ConsoleAnswer:
        """Chips bought for ``seat`` (``POST /api/console/seat``, ``top_up``)."""
        body = {"op": "top_up", "seat": seat, "amount": amount}
        try:
            response = self.client.post("/api/console/seat", json=body)
        except httpx.HTTPError as err:
            raise ConsoleApiError(f"the hub's console API did not answer: {err}") from err
        self.sent += 1
        if response.status_code == 409:
            self.refused += 1
            return ConsoleAnswer(False, _detail(response))
        if response.status_code != 200:
            raise ConsoleApiError(f"top up {body}: {response.status_code} {_detail(response)}")
        return ConsoleAnswer(True)

    @staticmethod
    def route(inp: ConsoleInput) -> tuple[str, dict[str, Any]] | None:
        """The route and JSON body for ``inp`` (None: the API has no route for it)."""
        match inp:
            case procedure.ConsoleAction(seat=seat, act=act, to=to):
                return "/api/console/action", {"seat": seat, "act": act.value, "to": to}
            case procedure.ShowHand(seat=seat):
                return "/api/console/show", {"seat": seat}
            case procedure.MuckHand(seat=seat):
                return "/api/console/muck", {"seat": seat}
            case procedure.DeclareMisdeal():
                return "/api/console/misdeal", {}
            case procedure.UndoAction():
                return "/api/console/undo", {}
            case procedure.ManualCard(reader=reader, card=card):
                code = None if card is None else card_code(card)
                return "/api/console/card", {"reader": reader, "card": code}
        return None

    def takes(self, inp: ConsoleInput) -> bool:
        """True when the console API has a route for ``inp``."""
        return self.route(inp) is not None

    def enter(self, inp: ConsoleInput) -> ConsoleAnswer:
        """Post one console input; the hub's answer."""
        found = self.route(inp)
        if found is None:
            raise TypeError(f"the console API has no route for {type(inp).__name__}")
        path, body = found
        try:
            response = self.client.post(path, json=body)
        except httpx.HTTPError as err:
            raise ConsoleApiError(f"the hub's console API did not answer: {err}") from err
        self.sent += 1
        if response.status_code == 409:
            self.refused += 1
            return ConsoleAnswer(False, _detail(response))
        if response.status_code != 200:
            raise ConsoleApiError(
                f"the hub's console API answered {response.status_code} to {path} {body}: "
                f"{_detail(response)}"
            )
        answer = response.json()
        if not answer.get("accepted", False):
            self.refused += 1
            return ConsoleAnswer(False, answer.get("refused"))
        return ConsoleAnswer(True)

    def close(self) -> None:
        """Close the connection."""
        self.client.close()


class DemoTable:
    """The simulated side of the demo: antennas, a node publishing them, a dealer."""

    def __init__(
        self,
        runtime: HubRuntime,
        clock: MotionClock,
        loop: asyncio.AbstractEventLoop,
        *,
        seed: int,
        mistakes: float,
    ) -> None:
        assert runtime.rules is not None
        self.rules: TableConsole = runtime.rules
        self.antennas = SimulatedTable(list(runtime.config.readers))
        self.transport = PahoTransport(
            MqttClientSettings(url=f"mqtt://{runtime.broker.host}:{runtime.broker.port}"),
            table=TABLE,
            node="demo-node",
        )
        self.publisher = InventoryPublisher(table=TABLE, node="demo-node", transport=self.transport)
        self.node = Node(list(self.antennas.readers.values()), self.publisher)
        self.api = HttpConsole(
            runtime.web_url, runtime.token(Role.DEALER, "demo players", seconds=TOKEN_SECONDS)
        )
        self.surface = AntennaSurface(
            antennas=self.antennas,
            node=self.node,
            published=lambda: self.publisher.published,
            hub=runtime.service,
            rules=self.rules,
            clock=clock,
            loop=loop,
            api=self.api,
        )
        self.seed = seed
        self.rng = random.Random(seed)
        self.rate = mistakes
        self.tally = Tally()
        self.players = TablePlayers(self.rng, unit=BLINDS[0])

    def play(self, hands: int | None) -> None:
        """Deal ``hands`` hands (None: until the surface's pause raises Stopped)."""
        while hands is None or self.tally.hands < hands:
            setup = self.rules.desk.setup
            if setup is None or not self.rules.in_hand:
                raise RuntimeError("the hub started no hand (are two players seated?)")
            profile = self.rules.desk.profile
            mistake = choose_mistake(self.rng, self.rate, setup.game, profile)
            dealer = SimulatedDealer(
                self.rng, setup, profile, self.surface, mistake, players=self.players
            )
            dealt = dealer.play()
            if self.rules.in_hand and self.rules.hand_number == setup.number:
                # the hand did not end (it should not happen): void it before the next
                self.tally.unfinished += 1
                log.error("hand %d did not end; declaring a misdeal", setup.number)
                self.surface.console(procedure.DeclareMisdeal(0.0))
            if self.rules.desk.monitor is not None:
                self.tally.play(self.rules.desk.monitor.hand.log)
            self.buy_chips(setup.number)
            dealer.collect()
            codes = [a.code.value for a in self.rules.desk.alerts_by_hand.get(setup.number, [])]
            self.tally.record(dealt.mistake, dealt.injected, codes)

    def buy_chips(self, hand: int) -> None:
        """Between hands, the players who want chips buy them at the console: a player
        who busted buys in again (from the minimum to the maximum the console offers,
        mostly the maximum), one under the minimum buy-in often tops up to the maximum."""
        state = self.api.state()
        if state["in_hand"]:
            return  # a winner uncontested still to show: chips bought now would wait
        for p in state["players"]:
            have, limits = p["stack"] + p["pending"], p["top_up"]
            low, high = limits["min"], limits["max"]
            if have == 0:
                sizes = list(range(low, (high or low) + 1, 100)) or [low]
                amount = sizes[-1] if self.rng.random() < 0.6 else self.rng.choice(sizes)
                kind = "rebuy"
            elif have < SHORT and high and self.rng.random() < 0.5:
                amount, kind = high - high % BLINDS[0], "top_up"  # whole small chips
            else:
                continue
            answer = self.api.top_up(p["seat"], amount)
            self.tally.buys.append(
                {
                    "hand": hand,
                    "seat": p["seat"],
                    "kind": kind,
                    "amount": amount,
                    "stack_before": have,
                    "accepted": answer.accepted,
                }
            )

    def close(self) -> None:
        """Disconnect the node and the console client."""
        self.api.close()
        self.transport.close()


def demo_readers(seats: Sequence[int]) -> list[str]:
    """The demo table's antennas: a six-seat table (seats 1–6), or as many seats as the
    highest one taken (``--seats``), and the board, burn and muck."""
    size = max(6, *seats)
    return [r for r in default_readers() if not r.startswith("seat") or int(r[4:]) <= size]


def _demo_config(args: argparse.Namespace, web_port: int, fast: bool) -> HubConfig:
    return HubConfig(
        table=TABLE,
        readers=demo_readers(args.seats),
        live_equity=not fast,  # nobody watches the overlay of a --hands run
        mqtt=HubMqttSettings(embedded_port=0),
        state_dir=args.state_dir,  # None: nothing kept (no event log, no hands store)
        web=WebSettings(
            host=args.host,
            port=0 if fast else web_port,
            overlay_delay_minutes=0,
            allow_live_hole_cards=True,
        ),
        rules=RulesSettings(
            small_blind=BLINDS[0],
            big_blind=BLINDS[1],
            players=[PlayerSettings(seat=s, name=f"Player {s}", buy_in=BUY_IN) for s in args.seats],
            rebuy=False,  # the players buy chips themselves, at the console (DemoTable.buy_chips)
            tick_seconds=0,  # the demo's clock moves with the dealer, who ticks when he waits
        ),
    )


def _summary(
    runtime: HubRuntime, demo: DemoTable, seconds: float, drained: bool
) -> dict[str, object]:
    c = runtime.service.intake.ingest.counters
    t = demo.tally
    return {
        "hands": t.hands,
        "reads": c["accepted"],
        "rejected": c["rejected"],
        "published": demo.publisher.published,
        "duplicates": c["duplicate"] + c["stale"],
        "unknown_tags": c["unknown_tag"],
        "changes": runtime.service.changes,
        "seconds": round(seconds, 3),
        "reads_per_s": round(c["accepted"] / seconds, 1) if seconds else None,
        "complete": drained,
        "mistakes": t.mistakes,
        "alerts": t.alerts,
        "missed": t.missed,
        "false_alerts": t.false_alerts,
        "alerts_by_code": dict(sorted(t.by_code.items())),
        "unfinished": t.unfinished,
        "console_api": demo.api.sent,
        "console_refused": demo.api.refused,
        "console_in_process": demo.surface.entered["in_process"],
        "hands_all_in": t.all_in,
        "hands_folded": t.folded,
        "big_blind": BLINDS[1],
        "buys": t.buys,
        "seed": demo.seed,
    }


async def _run(args: argparse.Namespace) -> int:
    fast = args.hands is not None
    web_port = args.port
    if not fast and not _port_free(args.host, web_port):
        print(f"port {web_port} is taken; serving the demo on a free port instead", file=sys.stderr)
        web_port = 0
    clock = MotionClock(time.time())
    runtime = await start_hub(_demo_config(args, web_port, fast), monotonic=clock, freeze_gc=True)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    demo = DemoTable(runtime, clock, asyncio.get_running_loop(), seed=seed, mistakes=args.mistakes)
    try:
        connected = await asyncio.to_thread(demo.transport.wait_connected, 10)
        if connected:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(runtime.service.subscribed.wait(), 10)
        if not connected or not runtime.service.subscribed.is_set():
            print("feltwire demo: the simulated node could not reach the broker", file=sys.stderr)
            return 1
        if fast:
            t0 = time.perf_counter()
            try:
                await asyncio.to_thread(demo.play, args.hands)
            except ConsoleApiError as err:
                print(f"feltwire demo: {err}", file=sys.stderr)
                return 1
            drained = await asyncio.to_thread(
                runtime.service.wait_handled, demo.publisher.published, 60
            )
            summary = _summary(runtime, demo, time.perf_counter() - t0, drained)
            print(json.dumps(summary), flush=True)
            if demo.tally.missed or demo.tally.false_alerts:
                print(
                    f"feltwire demo: missed {dict(demo.tally.missed_kinds)}, "
                    f"false alerts {dict(demo.tally.false_kinds)}",
                    file=sys.stderr,
                )
            ok = drained and summary["rejected"] == 0 and not demo.tally.unfinished
            return 0 if ok and not demo.tally.missed and not demo.tally.false_alerts else 1
        dealer = runtime.token(Role.DEALER, "demo dealer", seconds=TOKEN_SECONDS)
        print("feltwire demo: a simulated table is dealing hold'em (Ctrl-C stops it)")
        base, *others = page_bases(args.host, runtime.web_url)
        print(f"  public view    : {base}/")
        print(f"  dealer console : {base}/console?token={dealer}")
        print(f"  overlay        : {base}/overlay?token={runtime.producer_token}")
        for other in others:
            print(f"  also at        : {other}/ (this machine's other addresses)")
        print("  hole cards are live on the overlay (the console warns of it) because this is")
        print("  a demo; a real table holds them back (web.overlay_delay_minutes, 30 by default)")
        print(f"  broker         : mqtt://{runtime.broker.host}:{runtime.broker.port}")
        print(f"  mistakes       : {args.mistakes:.0%} of hands (seed {seed})", flush=True)
        stop = threading.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        demo.surface.pause = lambda: wait_event(stop, args.step_seconds)
        try:
            with contextlib.suppress(Stopped):
                await asyncio.to_thread(demo.play, None)
        except ConsoleApiError as err:
            print(f"feltwire demo: {err}", file=sys.stderr)
            return 1
        return 0
    finally:
        demo.close()
        await runtime.stop()


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("the mistake rate is a share of hands, 0 to 1")
    return value


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire demo``."""
    parser = argparse.ArgumentParser(
        prog="feltwire demo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--hands", type=int, help="play N hands as fast as possible, then exit")
    parser.add_argument(
        "--seed", type=int, help="seed of shuffles, actions, mistakes (default: random)"
    )
    parser.add_argument(
        "--mistakes",
        type=_rate,
        default=0.03,
        help="share of hands with one dealing error (default 0.03; 0 for none)",
    )
    parser.add_argument(
        "--seats",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 2, 3, 4, 5, 6],
        help="occupied seats, comma-separated (default 1,2,3,4,5,6)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="web server address (default 127.0.0.1; 0.0.0.0: every interface, the URLs "
        "printed are this machine's LAN addresses)",
    )
    parser.add_argument("--port", type=int, default=8080, help="web server port (default 8080)")
    parser.add_argument(
        "--step-seconds", type=float, default=0.5, help="pause between dealer motions (default 0.5)"
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="keep the table's event log and hands store here (hands.sqlite; `feltwire "
        "history export --state-dir DIR` writes them out afterwards); default: nothing kept",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the hub does")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if len(set(args.seats)) < 2 or not all(1 <= s <= 10 for s in args.seats):
        parser.error("--seats needs at least two different seats from 1 to 10")
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.ERROR,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        return 0
