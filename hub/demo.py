"""``feltwire demo``: a whole table on one machine — embedded broker, hub, simulated node.

With no options it deals hold'em hands at a steady pace onto simulated antennas, prints
the page URLs and runs until Ctrl-C. ``--hands N`` plays N hands as fast as the pipeline
allows, waits until the hub has taken every read, prints one JSON summary line and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import signal
import socket
import sys
import threading
import time

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from hub.config import HubConfig, HubMqttSettings, WebSettings
from hub.runtime import HubRuntime, start_hub
from table_node.config import default_readers
from table_node.dealer import SimulatedDealer, apply_step
from table_node.node import Node
from table_node.simulated import SimulatedTable

log = logging.getLogger("feltwire.demo")
TABLE = "demo"


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


class DemoTable:
    """The simulated side of the demo: antennas, a node publishing them, a dealer."""

    def __init__(self, runtime: HubRuntime, seats: list[int], seed: int | None) -> None:
        self.table = SimulatedTable(default_readers())
        self.transport = PahoTransport(
            MqttClientSettings(url=f"mqtt://{runtime.broker.host}:{runtime.broker.port}"),
            table=TABLE,
            node="demo-node",
        )
        self.publisher = InventoryPublisher(table=TABLE, node="demo-node", transport=self.transport)
        self.node = Node(list(self.table.readers.values()), self.publisher)
        self.dealer = SimulatedDealer(seats, random.Random(seed))
        self.deck = simulated_deck()
        self.steps = 0

    def play_fast(self, hands: int) -> None:
        """Deal ``hands`` hands, publishing after every motion of the dealer."""
        for _ in range(hands):
            for step in self.dealer.deal_hand():
                apply_step(self.table, step, self.deck)
                self.node.poll_once()
                self.steps += 1

    def play_paced(self, stop: threading.Event, step_seconds: float) -> None:
        """Deal at a steady pace until ``stop`` is set (the node sweeps on its own)."""
        poller = threading.Thread(target=self.node.run, args=(stop, 0.01), daemon=True)
        poller.start()
        while not stop.is_set():
            for step in self.dealer.deal_hand():
                apply_step(self.table, step, self.deck)
                self.steps += 1
                if stop.wait(step_seconds):
                    break
        poller.join(timeout=2)

    def close(self) -> None:
        """Disconnect the node."""
        self.transport.close()


async def _wait_drained(runtime: HubRuntime, published: int, limit_s: float) -> bool:
    """Wait until the hub has handled every message the node published."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        c = runtime.service.ingest.counters
        if c["accepted"] + c["rejected"] + c["duplicate"] + c["stale"] >= published:
            return True
        await asyncio.sleep(0.01)
    return False


async def _run(args: argparse.Namespace) -> int:
    fast = args.hands is not None
    web_port = args.port
    if not fast and not _port_free(args.host, web_port):
        print(f"port {web_port} is taken; serving the demo on a free port instead", file=sys.stderr)
        web_port = 0
    config = HubConfig(
        table=TABLE,
        mqtt=HubMqttSettings(embedded_port=0),
        web=WebSettings(
            host=args.host,
            port=0 if fast else web_port,
            overlay_delay_minutes=0,
            allow_live_hole_cards=True,
        ),
    )
    runtime = await start_hub(config)
    demo = DemoTable(runtime, args.seats, args.seed)
    try:
        if not await asyncio.to_thread(demo.transport.wait_connected, 10):
            print("feltwire demo: the simulated node could not reach the broker", file=sys.stderr)
            return 1
        if fast:
            t0 = time.perf_counter()
            await asyncio.to_thread(demo.play_fast, args.hands)
            drained = await _wait_drained(runtime, demo.publisher.published, limit_s=60)
            seconds = time.perf_counter() - t0
            c = runtime.service.ingest.counters
            summary = {
                "hands": demo.dealer.hands_dealt,
                "reads": c["accepted"],
                "rejected": c["rejected"],
                "published": demo.publisher.published,
                "duplicates": c["duplicate"] + c["stale"],
                "unknown_tags": c["unknown_tag"],
                "changes": runtime.service.changes,
                "seconds": round(seconds, 3),
                "reads_per_s": round(c["accepted"] / seconds, 1) if seconds else None,
                "complete": drained,
            }
            print(json.dumps(summary), flush=True)
            return 0 if drained and c["rejected"] == 0 else 1
        print("feltwire demo: a simulated table is dealing hold'em (Ctrl-C stops it)")
        print(f"  public view : {runtime.web_url}/")
        print(f"  overlay     : {runtime.overlay_url}")
        print("  (the demo shows hole cards live on the overlay; a real table delays them)")
        print(f"  broker      : mqtt://{runtime.broker.host}:{runtime.broker.port}", flush=True)
        stop = threading.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await asyncio.to_thread(demo.play_paced, stop, args.step_seconds)
        return 0
    finally:
        demo.close()
        await runtime.stop()


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire demo``."""
    parser = argparse.ArgumentParser(prog="feltwire demo", description=__doc__)
    parser.add_argument("--hands", type=int, help="play N hands as fast as possible, then exit")
    parser.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    parser.add_argument(
        "--seats",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 2, 3, 4, 5, 6],
        help="occupied seats, comma-separated (default 1,2,3,4,5,6)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="web server address (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8080, help="web server port (default 8080)")
    parser.add_argument(
        "--step-seconds", type=float, default=0.5, help="pause between dealer motions (default 0.5)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the hub does")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.ERROR,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        return 0
