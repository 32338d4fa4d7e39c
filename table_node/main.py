"""``feltwire node``: run a table node from its TOML config."""

from __future__ import annotations

import argparse
import logging
import random
import signal
import threading
from pathlib import Path

from feltwire.config import load_config
from feltwire.deck import simulated_deck
from feltwire.errors import ConfigError, ProtocolError
from feltwire.mqtt import PahoTransport
from feltwire.outbox import Outbox
from feltwire.protocol import TOPIC_PREFIX, TopicKind, parse_topic
from feltwire.publisher import InventoryPublisher, SeqCounter
from table_node.buttons import DealerButtons
from table_node.config import NodeConfig
from table_node.dealer import SimulatedDealer, apply_step
from table_node.lights import SeatLight, SeatLights
from table_node.node import Node
from table_node.reader import Reader
from table_node.simulated import SimulatedTable

log = logging.getLogger("feltwire.node")


def build_lights(config: NodeConfig) -> SeatLights:
    """The seat lights the config describes (gpiozero picks the pin factory)."""
    made = {}
    for seat, pins in config.lights.items():
        if pins.rgb is not None:
            made[seat] = SeatLight.rgb(*pins.rgb)
        elif pins.pwm is not None:
            made[seat] = SeatLight.pwm(pins.pwm)
    return SeatLights(made)


def attach_lights(transport: PahoTransport, table: str, lights: SeatLights) -> None:
    """Drive ``lights`` from the hub's retained light commands for this table."""

    def on_light(topic: str, payload: bytes) -> None:
        try:
            parsed = parse_topic(topic)
        except ProtocolError as exc:
            log.warning("ignored light message: %s", exc)
            return
        if parsed.kind is TopicKind.LIGHT_SET and parsed.target is not None:
            lights.handle(int(parsed.target), payload)

    transport.subscribe(f"{TOPIC_PREFIX}/{table}/seat/+/light/set", on_light)


def build_readers(config: NodeConfig) -> list[Reader]:
    """The hardware readers of an 'rc522' or 'mfrc522' node (none for a light node)."""
    if config.backend == "rc522":
        from table_node.rc522_reader import RC522Wiring, build_rc522_readers

        return list(
            build_rc522_readers(
                [
                    RC522Wiring(w.reader, w.bus, w.device, w.cs_pin, w.reset_pin, w.speed_hz)
                    for w in config.rc522
                ],
                misses_before_gone=config.misses_before_gone,
            )
        )
    if config.backend == "mfrc522":
        from table_node.mfrc522_backend import Mfrc522Reader

        return [
            Mfrc522Reader(
                w.reader,
                bus=w.bus,
                device=w.device,
                pin_rst=w.pin_rst,
                misses_before_gone=config.misses_before_gone,
            )
            for w in config.mfrc522
        ]
    return []


def _run_readers(config: NodeConfig) -> int:
    """Sweep real RC522 readers (none for a light node) until SIGTERM/Ctrl-C."""
    readers = build_readers(config)
    seq_file = config.state_dir / "seq" if config.state_dir else None
    outbox = Outbox(config.state_dir / "outbox.sqlite" if config.state_dir else None)
    transport = PahoTransport(config.mqtt, table=config.table, node=config.node_id, outbox=outbox)
    publisher = InventoryPublisher(
        table=config.table, node=config.node_id, transport=transport, seq=SeqCounter(seq_file)
    )
    node = Node(list(readers), publisher)
    lights = build_lights(config)
    if lights.lights:
        attach_lights(transport, config.table, lights)
    buttons = DealerButtons(
        config.buttons, table=config.table, node=config.node_id, transport=transport
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    log.info("node %s sweeping %d RC522 readers", config.node_id, len(readers))
    try:
        node.run(stop, config.poll_interval_ms / 1000)
    except KeyboardInterrupt:
        pass
    finally:
        buttons.close()
        transport.close()
        node.close()
        lights.close()
    return 0


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire node``."""
    parser = argparse.ArgumentParser(prog="feltwire node", description=__doc__)
    parser.add_argument("--config", type=Path, help="node TOML config (default: built-in defaults)")
    parser.add_argument("--check-config", action="store_true", help="validate the config and exit")
    args = parser.parse_args(argv)
    try:
        config = load_config(NodeConfig, args.config)
    except ConfigError as exc:
        print(f"feltwire node: {exc}")
        return 2
    if args.check_config:
        print(f"{args.config or 'defaults'}: configuration is valid")
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    if config.backend in ("rc522", "mfrc522", "none"):
        return _run_readers(config)
    table = SimulatedTable(config.readers)
    seq_file = config.state_dir / "seq" if config.state_dir else None
    outbox = Outbox(config.state_dir / "outbox.sqlite" if config.state_dir else None)
    transport = PahoTransport(config.mqtt, table=config.table, node=config.node_id, outbox=outbox)
    publisher = InventoryPublisher(
        table=config.table, node=config.node_id, transport=transport, seq=SeqCounter(seq_file)
    )
    node = Node(list(table.readers.values()), publisher)
    lights = build_lights(config)
    if lights.lights:
        attach_lights(transport, config.table, lights)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    poller = threading.Thread(
        target=node.run, args=(stop, config.poll_interval_ms / 1000), daemon=True
    )
    poller.start()
    sim = config.simulator
    dealer = SimulatedDealer(sim.seats, random.Random(sim.seed))
    deck = simulated_deck()
    log.info(
        "simulated node %s dealing to seats %s at %s", config.node_id, sim.seats, config.mqtt.url
    )
    try:
        while not stop.is_set():
            for step in dealer.deal_hand():
                apply_step(table, step, deck)
                if stop.wait(sim.step_seconds):
                    break
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        poller.join(timeout=2)
        transport.close()
        node.close()
        lights.close()
    return 0
