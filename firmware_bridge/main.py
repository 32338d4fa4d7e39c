"""``feltwire bridge``: connect a serial reader board to MQTT, from its TOML config."""

from __future__ import annotations

import logging
import signal
import threading

from feltwire.config import broker_name, config_for_command
from feltwire.counters import CounterExport
from feltwire.errors import ProtocolError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import TOPIC_PREFIX, TopicKind, decode_light_command, parse_topic
from feltwire.publisher import InventoryPublisher, durable_state
from feltwire.sdnotify import Watchdog, notify
from firmware_bridge.bridge import Bridge
from firmware_bridge.config import BridgeConfig

log = logging.getLogger("feltwire.bridge")


def forward_light(bridge: Bridge, topic: str, payload: bytes) -> bool:
    """Pass a hub light command on to the board; a bad one is logged and ignored."""
    try:
        parsed = parse_topic(topic)
        command = decode_light_command(payload)
    except ProtocolError as exc:
        log.warning("ignored light command on %s: %s (%s)", topic, exc, exc.reason)
        return False
    if parsed.kind is not TopicKind.LIGHT_SET or parsed.target is None:
        return False
    bridge.set_light(int(parsed.target), command.pattern)
    return True


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire bridge``; returns the exit code."""
    config = config_for_command(
        BridgeConfig, "feltwire bridge", argv, __doc__ or "", check=lambda c: c.mqtt.broker_lines()
    )
    if isinstance(config, int):
        return config
    seq, outbox = durable_state(config.state_dir)
    transport = PahoTransport(
        config.mqtt,
        table=config.table,
        node=config.bridge_id,
        outbox=outbox,
        client_id=f"feltwire-bridge-{config.bridge_id}",
        online_on_connect=False,
    )
    publisher = InventoryPublisher(
        table=config.table,
        node=config.bridge_id,
        transport=transport,
        seq=seq,
        refresh_s=config.inventory_refresh_s or None,
        keepalive_s=config.mqtt.keepalive,
    )
    bridge = Bridge(config, transport=transport, publisher=publisher)

    def on_light(topic: str, payload: bytes) -> None:
        forward_light(bridge, topic, payload)

    transport.subscribe(f"{TOPIC_PREFIX}/{config.table}/seat/+/light/set", on_light)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    brokers = ", ".join(broker_name(b) for b in config.mqtt.addresses)  # never a password
    log.info("bridge %s: board on %s → %s", config.bridge_id, config.port, brokers)
    # systemd (Type=notify): ready once the bridge runs (it opens the port and connects
    # on its own, again and again); the watchdog is fed by the bridge's loop, not this one
    watchdog = Watchdog()
    runner = threading.Thread(
        target=bridge.run, args=(stop, watchdog.kick), name="bridge", daemon=True
    )
    notify("READY=1")  # before the loop's first WATCHDOG=1
    runner.start()
    counters = CounterExport(
        "bridge",
        lambda: bridge.stats() | {"broker_failures": transport.broker_failures},
        config.counters,
    ).start()
    try:
        while runner.is_alive() and not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        notify("STOPPING=1")
        stop.set()
        runner.join(timeout=5)
        counters.close()  # logs them once more
        transport.close()
    return 0


__all__ = ["main"]
