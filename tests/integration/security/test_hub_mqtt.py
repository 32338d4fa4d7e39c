"""The hub's own side of MQTT security (issue #8): the hub connects to a guarded broker —
a real Mosquitto running the shipped template, and the embedded broker with the same
files — with its ``<table>-hub`` credential and the table's CA from ``hub.toml``, takes a
node's read and lights the node's seat; a wrong password or a missing CA keeps it out.
The deck registration tool connects the same way."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from pathlib import Path

import pytest

from feltwire.config import MqttClientSettings, load_config, parse_config
from feltwire.errors import ConfigError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import LightCommand, LightPattern
from feltwire.publisher import InventoryPublisher
from hub.bootstrap import HubRuntime
from hub.cli import certs
from hub.cli import deck as decks
from hub.config import HubConfig, TlsFiles
from tests.support.commands import run_cli
from tests.support.guarded_brokers import Guarded, TableSecrets
from tests.support.guarded_hub import DECK, hub_config, running, url, wait_until


class TableNode:
    """The real node code (PahoTransport + InventoryPublisher) with node pi1's credential."""

    def __init__(self, broker: Guarded, secrets: TableSecrets, *, client_cert: bool) -> None:
        settings = MqttClientSettings(
            url=url(broker, secrets.users["node1"]),
            ca_file=str(secrets.ca),
            cert_file=str(secrets.node_cert) if client_cert else None,
            key_file=str(secrets.node_key) if client_cert else None,
        )
        self.transport = PahoTransport(settings, table="table1", node="pi1")
        self.publisher = InventoryPublisher(table="table1", node="pi1", transport=self.transport)
        self.lights: dict[str, LightPattern] = {}
        self.lit = threading.Event()

        def on_light(topic: str, payload: bytes) -> None:
            self.lights[topic] = LightCommand.model_validate_json(payload).pattern
            self.lit.set()

        self.transport.subscribe("feltwire/v1/table1/seat/+/light/set", on_light)

    def close(self) -> None:
        self.transport.close()


async def read_reaches_the_hub(
    config: HubConfig, broker: Guarded, secrets: TableSecrets, *, client_cert: bool
) -> None:
    """The hub of ``config`` takes node pi1's read (the node presents its client
    certificate or not) and its light command for that seat reaches the node."""
    node = TableNode(broker, secrets, client_cert=client_cert)
    try:
        async with running(config) as hub:
            assert await asyncio.to_thread(node.transport.wait_connected, 10)
            await asyncio.wait_for(hub.service.subscribed.wait(), 15)
            node.publisher.update("seat3", frozenset({DECK.uid_for("As")}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("As",))
            assert hub.service.counters["accepted"] == 1
            # and the light command for that seat reaches the node over the same guarded broker
            light = "feltwire/v1/table1/seat/3/light/set"
            await wait_until(lambda: light in node.lights)
            assert node.lights[light] is not LightPattern.OFF
    finally:
        node.close()


async def test_hub_takes_a_nodes_read_with_its_credential_and_the_table_ca(
    guarded: Guarded, table_secrets: TableSecrets
) -> None:
    config = hub_config(url(guarded, table_secrets.users["hub1"]), TlsFiles(table_secrets.ca))
    await read_reaches_the_hub(config, guarded, table_secrets, client_cert=False)


async def test_hub_with_its_certificate_passes_mutual_tls(
    guarded_mutual: Guarded, table_secrets: TableSecrets, tmp_path: Path
) -> None:
    ca_dir, out = str(table_secrets.ca.parent), str(tmp_path)
    run_cli(certs.main, ["client", "--ca", ca_dir, "--name", "table1-hub", "--out", out])
    tls = TlsFiles(table_secrets.ca, tmp_path / "table1-hub.crt", tmp_path / "table1-hub.key")
    config = hub_config(url(guarded_mutual, table_secrets.users["hub1"]), tls)
    await read_reaches_the_hub(config, guarded_mutual, table_secrets, client_cert=True)


async def refused(hub: HubRuntime, caplog: pytest.LogCaptureFixture, why: str) -> None:
    """Wait until the hub has been refused, then check it never got in: not subscribed,
    not a message taken, and the log says why (``why``, lower case)."""

    def refusals() -> list[logging.LogRecord]:
        return [
            r
            for r in caplog.records
            if r.name == "hub.adapters.mqtt" and "broker connection lost" in r.getMessage()
        ]

    await wait_until(lambda: len(refusals()) >= 1, 30)
    assert not hub.service.subscribed.is_set()
    assert hub.service.counters.get("received", 0) == 0
    assert any(why in r.getMessage().lower() for r in refusals()), [
        r.getMessage() for r in refusals()
    ]


async def test_hub_with_a_wrong_password_is_refused(
    guarded: Guarded, table_secrets: TableSecrets, caplog: pytest.LogCaptureFixture
) -> None:
    hub1 = table_secrets.users["hub1"]
    config = hub_config(
        url(guarded, hub1, password=hub1.password + "x"), TlsFiles(table_secrets.ca)
    )
    node = TableNode(guarded, table_secrets, client_cert=False)
    caplog.set_level(logging.WARNING, logger="hub.adapters.mqtt")
    try:
        assert await asyncio.to_thread(node.transport.wait_connected, 10)
        node.publisher.update("seat3", frozenset({DECK.uid_for("As")}))  # retained, waiting
        async with running(config) as hub:
            await refused(hub, caplog, "not authorized")
    finally:
        node.close()


async def test_hub_without_the_table_ca_does_not_trust_the_broker(
    guarded: Guarded, table_secrets: TableSecrets, caplog: pytest.LogCaptureFixture
) -> None:
    config = hub_config(url(guarded, table_secrets.users["hub1"]), TlsFiles())  # system CAs
    caplog.set_level(logging.WARNING, logger="hub.adapters.mqtt")
    async with running(config) as hub:
        await refused(hub, caplog, "certificate verify failed")


async def test_hub_without_its_certificate_is_refused_under_mutual_tls(
    guarded_mutual: Guarded, table_secrets: TableSecrets, caplog: pytest.LogCaptureFixture
) -> None:
    config = hub_config(
        url(guarded_mutual, table_secrets.users["hub1"]), TlsFiles(table_secrets.ca)
    )
    caplog.set_level(logging.WARNING, logger="hub.adapters.mqtt")
    async with running(config) as hub:
        await refused(hub, caplog, "")  # the broker drops the handshake: no reason given


def test_the_deck_tool_reads_the_register_pad_with_the_hubs_credential(
    guarded: Guarded,
    table_secrets: TableSecrets,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broker_url = url(guarded, table_secrets.users["hub1"])
    hub_toml = tmp_path / "hub.toml"
    hub_toml.write_text(f'[mqtt]\nurl = "{broker_url}"\nca_file = "{table_secrets.ca}"\n')
    config = load_config(HubConfig, hub_toml)
    inbox: queue.Queue[frozenset[str]] = queue.Queue()
    subscribed = threading.Event()
    client = decks.listen(broker_url, "table1", inbox, config.mqtt.tls_files)
    client.on_subscribe = lambda *_: subscribed.set()
    node = TableNode(guarded, table_secrets, client_cert=False)
    try:
        assert subscribed.wait(10) and node.transport.wait_connected(10)
        node.publisher.update("register", frozenset({DECK.uid_for("Qs")}))
        assert inbox.get(timeout=10) == frozenset({DECK.uid_for("Qs")})
    finally:
        client.loop_stop()
        client.disconnect()
        node.close()
    # without the CA the tool does not trust the broker, and says so instead of a traceback
    deck_file = tmp_path / "deck.toml"
    deck_file.write_text('name = "d"\n[tags]\n"045EED00C0DE80" = "2c"\n')
    no_ca = tmp_path / "no-ca.toml"
    no_ca.write_text(f'[mqtt]\nurl = "{broker_url}"\n')
    capsys.readouterr()
    assert decks.main(["check", str(deck_file), "--scan", "--config", str(no_ca)]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the broker" in err and "certificate verify failed" in err


@pytest.mark.parametrize(
    ("mqtt", "message"),
    [
        ({"url": "mqtt://h:1883", "ca_file": "ca.crt"}, "need an mqtts:// url"),
        ({"ca_file": "ca.crt"}, "need an mqtts:// url"),
        ({"url": "mqtts://h:8883", "cert_file": "hub.crt"}, "cert_file and key_file go together"),
    ],
)
def test_hub_tls_settings_are_checked(mqtt: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(HubConfig, {"mqtt": mqtt}, source="hub.toml")
