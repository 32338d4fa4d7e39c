"""A hub on a Mosquitto runs without amqtt (the ``broker`` extra); one that asks for the
embedded broker without it is told which extra to install.

``feltwire hub`` runs as a real subprocess in which ``import amqtt`` fails (its
``sys.modules`` entry is ``None`` before anything is imported, as if the package were not
installed), against a real Mosquitto the test starts; a node publishes a card through
that Mosquitto and the hub's public view shows it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from feltwire.publisher import InventoryPublisher
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.table_procs import get_json

WITHOUT_AMQTT = (
    "import sys\n"
    "sys.modules['amqtt'] = None  # as if the broker extra were not installed\n"
    "from feltwire.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)
READERS = ["seat1", "seat2", "board", "burn", "muck"]
WAIT = 20.0
"""Generous upper bound for the hub to reach a state (not a timing assertion)."""


def hub_without_amqtt(config: Path, *, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-c", WITHOUT_AMQTT, "hub", "--config", str(config)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def write_config(tmp_path: Path, mqtt: str, web_port: int) -> Path:
    config = tmp_path / "hub.toml"
    config.write_text(
        f"""
table = "t1"
readers = {READERS!r}
live_equity = false
state_dir = "state"

{mqtt}

[web]
port = {web_port}
producer_token = "no-amqtt-test-token"
""".replace("'", '"')
    )
    return config


def public(url: str) -> dict[str, Any] | None:
    return get_json(f"{url}/api/public")


def seat1_count(snap: dict[str, Any] | None) -> int | None:
    if snap is None:
        return None
    return {a["reader"]: a["count"] for a in snap["antennas"]}.get("seat1")


def test_a_hub_on_mosquitto_starts_and_ingests_without_amqtt(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    web_port = free_port()
    config = write_config(tmp_path, f'[mqtt]\nurl = "{mosquitto.url}"', web_port)
    log = tmp_path / "hub.log"
    proc = hub_without_amqtt(config, log=log)
    url = f"http://127.0.0.1:{web_port}"
    transport = PahoTransport(MqttClientSettings(url=mosquitto.url), table="t1", node="n1")
    try:
        assert transport.wait_connected(10)
        publisher = InventoryPublisher(table="t1", node="n1", transport=transport)
        publisher.update("seat1", frozenset({simulated_deck().uid_for("As")}))  # retained
        deadline = time.monotonic() + WAIT
        snap = None
        while time.monotonic() < deadline and seat1_count(snap) != 1:
            if proc.poll() is not None:
                pytest.fail(f"the hub exited ({proc.returncode}):\n{log.read_text()}")
            time.sleep(0.2)
            snap = public(url)
        assert seat1_count(snap) == 1, log.read_text()
        assert f"broker        : mqtt://127.0.0.1:{mosquitto.port}" in log.read_text()
    finally:
        transport.close()
        proc.terminate()
        proc.wait(timeout=10)
    assert "amqtt" not in log.read_text()


def test_the_embedded_broker_without_amqtt_names_the_extra(tmp_path: Path) -> None:
    config = write_config(tmp_path, f"[mqtt]\nembedded_port = {free_port()}", free_port())
    log = tmp_path / "hub.log"
    proc = hub_without_amqtt(config, log=log)
    assert proc.wait(timeout=30) == 2
    said = log.read_text()
    assert "the embedded broker (no [mqtt] url in the config) needs amqtt" in said, said
    assert "pip install 'feltwire[broker]'" in said
    assert "Traceback" not in said
