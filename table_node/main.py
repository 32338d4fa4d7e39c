"""``feltwire node``: run a table node from its TOML config."""

from __future__ import annotations

import logging
import random
import signal
import threading

from feltwire.config import broker_name, config_for_command
from feltwire.counters import CounterExport
from feltwire.deck import simulated_deck
from feltwire.errors import ProtocolError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import TOPIC_PREFIX, TopicKind, parse_topic
from feltwire.publisher import InventoryPublisher, durable_state
from feltwire.sdnotify import Watchdog, notify
from table_node.buttons import DealerButtons
from table_node.config import NodeConfig
from table_node.dealer import AntennaDealer, apply_step
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


def _simulated_dealing(config: NodeConfig, table: SimulatedTable, stop: threading.Event) -> None:
    """The simulated backend's dealer: hold'em hands at a steady pace until ``stop``."""
    sim = config.simulator
    dealer = AntennaDealer(sim.seats, random.Random(sim.seed))
    deck = simulated_deck()
    log.info("simulated dealer dealing to seats %s", sim.seats)
    while not stop.is_set():
        for step in dealer.deal_hand():
            apply_step(table, step, deck)
            if stop.wait(sim.step_seconds):
                break


def node_counters(node: Node, transport: PahoTransport) -> dict[str, int]:
    """The node's counters (``[counters]``: /metrics, the log): sweeps, reader errors,
    inventories published, messages the broker has not acknowledged yet, connected, and
    connections to a broker refused, unreachable or lost (``broker_failures``)."""
    return {
        "sweeps": node.sweeps,
        "read_errors": node.read_errors,
        "published": node.publisher.published,
        "unacknowledged": transport.unacknowledged,
        "connected": int(transport.wait_connected(0)),
        "broker_failures": transport.broker_failures,
    }


def run_node(config: NodeConfig) -> int:
    """Run a node until SIGTERM or Ctrl-C: sweep its readers, publish, drive its lights
    and buttons. The simulated backend also runs its dealer on the virtual antennas."""
    simulated = SimulatedTable(config.readers) if config.backend == "simulated" else None
    readers: list[Reader] = (
        list(simulated.readers.values()) if simulated is not None else build_readers(config)
    )
    seq, outbox = durable_state(config.state_dir)
    transport = PahoTransport(config.mqtt, table=config.table, node=config.node_id, outbox=outbox)
    publisher = InventoryPublisher(
        table=config.table,
        node=config.node_id,
        transport=transport,
        seq=seq,
        refresh_s=config.inventory_refresh_s or None,
        keepalive_s=config.mqtt.keepalive,
    )
    node = Node(readers, publisher)
    lights = build_lights(config)
    if lights.lights:
        attach_lights(transport, config.table, lights)
    buttons = DealerButtons(
        config.buttons, table=config.table, node=config.node_id, transport=transport
    )
    counters = CounterExport(
        "node", lambda: node_counters(node, transport), config.counters
    ).start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    log.info(
        "node %s (%s, %d readers) publishing to %s",
        config.node_id,
        config.backend,
        len(readers),
        ", ".join(broker_name(b) for b in config.mqtt.addresses),  # never a password
    )
    interval = config.poll_interval_ms / 1000
    # systemd (Type=notify): ready once the readers and the MQTT client are set up (the
    # client connects, and reconnects, on its own); the watchdog is fed by the sweep loop
    watchdog = Watchdog()
    notify("READY=1")
    try:
        if simulated is None:
            node.run(stop, interval, watchdog.kick)
        else:
            poller = threading.Thread(
                target=node.run, args=(stop, interval, watchdog.kick), daemon=True
            )
            poller.start()
            _simulated_dealing(config, simulated, stop)
    except KeyboardInterrupt:
        pass
    finally:
        notify("STOPPING=1")
        stop.set()
        counters.close()  # logs them once more
        buttons.close()
        transport.close()
        node.close()
        lights.close()
    return 0


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire node``."""
    config = config_for_command(
        NodeConfig, "feltwire node", argv, __doc__ or "", check=lambda c: c.mqtt.broker_lines()
    )
    return config if isinstance(config, int) else run_node(config)
