"""``feltwire node`` as a process: config checks, and a simulated node publishing to a
real Mosquitto until SIGTERM."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.deck import simulated_deck
from tests.support.mosquitto import MosquittoProcess


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "feltwire", "node", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_config_accepts_good_and_names_the_bad_key(tmp_path: Path) -> None:
    assert run("--check-config").returncode == 0
    bad = tmp_path / "node.toml"
    bad.write_text('node_id = "a"\nbackend = "rc522"\n')
    out = run("--config", str(bad), "--check-config")
    assert out.returncode == 2 and "[[rc522]]" in out.stdout


def test_simulated_node_deals_onto_the_broker_and_stops_on_sigterm(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    cfg = tmp_path / "node.toml"
    cfg.write_text(
        f'node_id = "sim"\ntable = "t9"\nstate_dir = "{tmp_path / "state"}"\n'
        f'[mqtt]\nurl = "{mosquitto.url}"\n[simulator]\nstep_seconds = 0.01\nseed = 4\n'
    )
    cards: list[str] = []
    got_some = threading.Event()
    deck = simulated_deck()

    def on_message(c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        body = json.loads(msg.payload)
        cards.extend(deck.card_for(uid) or "?" for uid in body["uids"])
        if len(cards) >= 10:
            got_some.set()

    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    client.on_message = on_message
    client.connect("127.0.0.1", mosquitto.port)
    client.subscribe("feltwire/v1/t9/node/+/reader/+/tags", qos=1)
    client.loop_start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwire", "node", "--config", str(cfg)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert got_some.wait(30), proc.stderr.read() if proc.poll() is not None else "no reads"
    finally:
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=20)
        client.loop_stop()
        client.disconnect()
    assert rc == 0
    assert "?" not in cards  # every tag the simulated node sends is in its deck
    assert (tmp_path / "state" / "outbox.sqlite").exists() and (tmp_path / "state" / "seq").exists()
