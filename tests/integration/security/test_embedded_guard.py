"""Issue 12, item 4: the embedded broker is open only on loopback.

Off loopback (the README's node setup: ``embedded_host = "0.0.0.0"``) the config, and
``--check-config``, refuse an embedded broker without passwords, ACL and TLS. Guarded with
the files ``feltwire certs`` and ``feltwire credentials`` make, the real hub
(``start_hub``) runs it on a TLS listener: an anonymous client gets nothing while a hand
is dealt and cannot inject a card or a light; a node with its credential reaches the hub
and gets its lights; the hub itself connects with no password in its config, through a
loopback listener that admits nothing but the hub's in-process credential.

The spies and injectors speak raw MQTT 3.1.1 over a socket: they send CONNECT and then at
once, without waiting for the CONNACK, a SUBSCRIBE to ``#`` or a PUBLISH — the most a
client can try. A control test runs the same spy and injector against the open loopback
broker the demo uses, where both work, so the guarded tests' "nothing" is meaningful.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from feltwire.config import MqttClientSettings, parse_config
from feltwire.deck import simulated_deck
from feltwire.errors import ConfigError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import (
    LightCommand,
    LightPattern,
    ReaderInventory,
    encode,
    hub_client_id,
    reader_tags_filter,
)
from feltwire.publisher import InventoryPublisher
from hub.adapters.broker import HUB_USERNAME, EmbeddedBroker, hub_acl
from hub.bootstrap import HubRuntime
from hub.cli import deck as decks
from hub.config import HubConfig, HubMqttSettings
from hub.security.acl import rules_for_role
from tests.support.guarded_brokers import Credential, TableSecrets
from tests.support.guarded_hub import running, wait_until

DECK = simulated_deck()
TABLE = "table1"
DEALT = {"seat1": ("As", "Kd"), "seat2": ("7c", "7h"), "board": ("2s", "3s", "4s")}
INJECTED_CARD = "Ah"  # not dealt: if it shows on the board, the injection got through
QUIET = 1.5  # seconds a message that must not arrive is waited for
ROOT = Path(__file__).resolve().parents[3]


# --- raw MQTT 3.1.1 -------------------------------------------------------------------


def _string(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(2, "big") + data


def _packet(first_byte: int, body: bytes) -> bytes:
    length, out = len(body), bytearray()
    while True:
        byte, length = length % 128, length // 128
        out.append(byte | (0x80 if length else 0))
        if not length:
            break
    return bytes([first_byte]) + bytes(out) + body


def connect_packet(client_id: str, cred: Credential | None = None, *, clean: bool = True) -> bytes:
    flags = (0x02 if clean else 0) | (0xC0 if cred is not None else 0)  # username + password
    body = _string("MQTT") + bytes([4, flags]) + (60).to_bytes(2, "big") + _string(client_id)
    if cred is not None:
        body += _string(cred.username) + _string(cred.password)
    return _packet(0x10, body)


def subscribe_packet(topic_filter: str) -> bytes:
    return _packet(0x82, (1).to_bytes(2, "big") + _string(topic_filter) + b"\x00")


def publish_packet(topic: str, payload: bytes, *, retain: bool = True) -> bytes:
    return _packet(0x30 | (1 if retain else 0), _string(topic) + payload)


def packets(data: bytes) -> list[tuple[int, bytes]]:
    """The (type, body) of each whole packet in ``data``."""
    out, i = [], 0
    while i < len(data):
        kind, length, shift, j = data[i] >> 4, 0, 0, i + 1
        while j < len(data):
            length |= (data[j] & 0x7F) << shift
            shift += 7
            j += 1
            if not data[j - 1] & 0x80:
                break
        if j + length > len(data):
            break
        out.append((kind, data[j : j + length]))
        i = j + length
    return out


@dataclass
class RawClient:
    """One raw MQTT connection that sent its packets and keeps what the broker answers."""

    sock: socket.socket | None
    error: str = ""
    received: bytearray = field(default_factory=bytearray)
    closed: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def open(
        cls,
        port: int,
        *,
        ca: Path | None,
        cred: Credential | None = None,
        then: tuple[bytes, ...] = (),
        client_id: str = "intruder",
        clean: bool = True,
    ) -> RawClient:
        """Connect (over TLS when ``ca`` is given), send CONNECT and ``then`` at once."""
        try:
            sock: socket.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
            if ca is not None:
                context = ssl.create_default_context(cafile=str(ca))
                sock = context.wrap_socket(sock, server_hostname="127.0.0.1")
            sock.sendall(connect_packet(client_id, cred, clean=clean) + b"".join(then))
        except (OSError, ssl.SSLError) as exc:
            client = cls(None, error=repr(exc))
            client.closed.set()
            return client
        client = cls(sock)
        threading.Thread(target=client._read, daemon=True).start()
        return client

    def _read(self) -> None:
        assert self.sock is not None
        self.sock.settimeout(0.2)
        try:
            while True:
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    break
                self.received += chunk
        except (OSError, ssl.SSLError):
            pass
        finally:
            self.closed.set()

    @property
    def connack(self) -> int | None:
        """The CONNACK's return code (0 = accepted, 5 = not authorized), None if none came."""
        for kind, body in packets(bytes(self.received)):
            if kind == 2 and len(body) >= 2:
                return body[1]
        return None

    @property
    def published_topics(self) -> list[str]:
        """The topic of every PUBLISH the broker sent this client."""
        out = []
        for kind, body in packets(bytes(self.received)):
            if kind == 3 and len(body) >= 2:
                n = int.from_bytes(body[:2], "big")
                out.append(body[2 : 2 + n].decode(errors="replace"))
        return out

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()


# --- the table ------------------------------------------------------------------------


def guarded_mqtt(secrets: TableSecrets, host: str = "0.0.0.0") -> dict[str, Any]:
    """``[mqtt]`` of a hub.toml that embeds a guarded broker on ``host`` (a free port)."""
    return {
        "embedded_host": host,
        "embedded_port": 0,
        "embedded_password_file": str(secrets.passwords),
        "embedded_acl_file": str(secrets.acl),
        "embedded_cert_file": str(secrets.server_cert),
        "embedded_key_file": str(secrets.server_key),
        "embedded_ca_file": str(secrets.ca),
    }


def hub_config(mqtt: dict[str, Any]) -> HubConfig:
    """A presence-only hub for table1, parsed like hub.toml (no broker URL, no password)."""
    return parse_config(
        HubConfig,
        {"table": TABLE, "live_equity": False, "mqtt": mqtt, "web": {"port": 0}},
        source="test hub.toml",
    )


class Node:
    """The real node code (PahoTransport + InventoryPublisher) as node ``pi1``, keeping
    every light command it is sent."""

    def __init__(self, url: str, ca: Path | None) -> None:
        settings = MqttClientSettings(url=url, ca_file=str(ca) if ca is not None else None)
        self.transport = PahoTransport(settings, table=TABLE, node="pi1")
        self.publisher = InventoryPublisher(table=TABLE, node="pi1", transport=self.transport)
        self.lights: dict[int, list[LightPattern]] = {}
        lock = threading.Lock()

        def on_light(topic: str, payload: bytes) -> None:
            with lock:
                seat = int(topic.split("/")[-3])
                pattern = LightCommand.model_validate_json(payload).pattern
                self.lights.setdefault(seat, []).append(pattern)

        self.transport.subscribe(f"feltwire/v1/{TABLE}/seat/+/light/set", on_light)

    def close(self) -> None:
        self.transport.close()


def dealt_uids() -> set[str]:
    return {DECK.uid_for(card) for cards in DEALT.values() for card in cards}


async def deal(hub: HubRuntime, node: Node) -> None:
    """Lay the hand's cards one by one, as a dealer does, and wait until the hub has them."""
    assert await asyncio.to_thread(node.transport.wait_connected, 10)
    await asyncio.wait_for(hub.service.subscribed.wait(), 15)
    for reader, cards in DEALT.items():
        for n in range(1, len(cards) + 1):
            node.publisher.update(reader, frozenset(DECK.uid_for(c) for c in cards[:n]))
            await asyncio.sleep(0.05)
    for reader, cards in DEALT.items():
        await wait_until(
            lambda r=reader, c=cards: sorted(hub.service.intake.presence.cards_on(r)) == sorted(c)
        )


def injections() -> tuple[bytes, ...]:
    """A board card and a light command, as an intruder would publish them (retained), on
    the reader topic of today's protocol and of the node-scoped one."""
    inventory = ReaderInventory(
        v=1,
        node="intruder",
        seq=1,
        ts=time.time(),
        reader="board",
        uids=[DECK.uid_for(INJECTED_CARD)],
    )
    light = encode(LightCommand(v=1, pattern=LightPattern.ERROR))
    return (
        publish_packet(f"feltwire/v1/{TABLE}/reader/board/tags", encode(inventory)),
        publish_packet(f"feltwire/v1/{TABLE}/node/intruder/reader/board/tags", encode(inventory)),
        publish_packet(f"feltwire/v1/{TABLE}/seat/1/light/set", light),
    )


def leaked(spy: RawClient) -> list[str]:
    """What a spy learned: every topic it was sent, and every dealt uid in its bytes."""
    text = bytes(spy.received).decode("latin-1")
    return spy.published_topics + [uid for uid in dealt_uids() if uid in text]


# --- the config -----------------------------------------------------------------------


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "hub.local"])
def test_an_open_embedded_broker_off_loopback_is_refused(host: str) -> None:
    with pytest.raises(ConfigError) as err:
        hub_config({"embedded_host": host})
    message = str(err.value)
    for needed in (
        "embedded_password_file",
        "embedded_acl_file",
        "embedded_cert_file",
        "embedded_key_file",
        "feltwire certs server",
        "feltwire credentials add",
    ):
        assert needed in message, message


def test_a_half_guarded_broker_is_refused_naming_what_is_missing(
    table_secrets: TableSecrets,
) -> None:
    tls_only = guarded_mqtt(table_secrets)
    del tls_only["embedded_password_file"], tls_only["embedded_acl_file"]
    with pytest.raises(ConfigError, match="Add embedded_password_file, embedded_acl_file;"):
        hub_config(tls_only)
    passwords_only = guarded_mqtt(table_secrets)
    del passwords_only["embedded_cert_file"], passwords_only["embedded_key_file"]
    with pytest.raises(ConfigError, match="Add embedded_cert_file, embedded_key_file;"):
        hub_config(passwords_only)
    no_acl = guarded_mqtt(table_secrets, host="127.0.0.1")
    del no_acl["embedded_acl_file"]
    with pytest.raises(ConfigError, match="embedded_password_file and embedded_acl_file go"):
        hub_config(no_acl)
    with_url = {**guarded_mqtt(table_secrets), "url": "mqtts://h:8883"}
    with pytest.raises(ConfigError, match="does not run when url is set"):
        hub_config(with_url)
    mutual = {**guarded_mqtt(table_secrets), "embedded_require_certificate": True}
    del mutual["embedded_ca_file"]
    with pytest.raises(ConfigError, match="embedded_require_certificate needs"):
        hub_config(mutual)


def test_loopback_may_stay_open_and_the_broker_refuses_an_open_network_listener() -> None:
    assert hub_config({"embedded_host": "127.0.0.1"}).mqtt.embedded_password_file is None
    with pytest.raises(ValueError, match="anonymous is for loopback only"):
        EmbeddedBroker("0.0.0.0", 0)


def test_the_settings_reach_the_broker(table_secrets: TableSecrets) -> None:
    mqtt = {**guarded_mqtt(table_secrets), "embedded_require_certificate": True}
    broker = EmbeddedBroker.from_settings(hub_config(mqtt).mqtt, tables=["t1", "t2"])
    assert (broker.host, broker.password_file, broker.acl_file) == (
        "0.0.0.0",
        table_secrets.passwords,
        table_secrets.acl,
    )
    assert (broker.certfile, broker.keyfile, broker.cafile, broker.require_certificate) == (
        table_secrets.server_cert,
        table_secrets.server_key,
        table_secrets.ca,
        True,
    )
    address = broker.hub_address
    assert (address.host, address.tls, address.username) == ("127.0.0.1", False, HUB_USERNAME)
    assert address.port == broker.hub_port and address.password
    assert address.password not in repr(address) and address.password not in repr(broker)
    # the hub's in-process rules are a hub credential's of every table it serves
    acl = hub_acl(["t1", "t2"])
    for table in ("t1", "t2"):
        for rule in rules_for_role("hub", table=table, node=None, username=HUB_USERNAME):
            probe = rule.topic.replace("+", "seat1")
            allowed = acl.may_receive if rule.access == "read" else acl.may_publish
            assert allowed(HUB_USERNAME, probe), rule
    assert acl.may_subscribe(HUB_USERNAME, reader_tags_filter("t2"))
    assert not acl.may_subscribe(HUB_USERNAME, reader_tags_filter("t3"))
    assert not acl.may_subscribe(HUB_USERNAME, "#")
    # an open loopback broker: the hub connects to its one listener, anonymously
    open_broker = EmbeddedBroker.from_settings(HubMqttSettings(embedded_port=0), tables=["t1"])
    assert open_broker.hub_port is None and open_broker.hub_address.username is None


def run_check(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "feltwire", "hub", "--config", str(config), "--check-config"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_check_config_refuses_an_open_network_broker_and_passes_a_guarded_one(
    tmp_path: Path, table_secrets: TableSecrets
) -> None:
    hub_toml = tmp_path / "hub.toml"
    hub_toml.write_text('[mqtt]\nembedded_host = "0.0.0.0"\n')
    out = run_check(hub_toml)
    assert out.returncode != 0, out.stdout
    assert "embedded_password_file" in out.stdout and "feltwire certs" in out.stdout
    lines = "".join(
        f'{k} = "{v}"\n' for k, v in guarded_mqtt(table_secrets).items() if k != "embedded_port"
    )
    hub_toml.write_text(f"[mqtt]\n{lines}")
    out = run_check(hub_toml)
    assert out.returncode == 0, out.stdout + out.stderr
    for checked in (
        f"embedded_cert_file {table_secrets.server_cert} with its key",
        f"embedded_ca_file {table_secrets.ca}",
        f"embedded_password_file {table_secrets.passwords}: 4 credentials",
        f"embedded_acl_file {table_secrets.acl}: 4 users",
        "passwords, ACL; the hub connects in-process",
    ):
        assert checked in out.stdout, out.stdout


def test_the_deck_tool_asks_for_a_credential_for_a_guarded_embedded_broker(
    tmp_path: Path, table_secrets: TableSecrets, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "".join(
        f'{k} = "{v}"\n' for k, v in guarded_mqtt(table_secrets).items() if k != "embedded_port"
    )
    hub_toml = tmp_path / "hub.toml"
    hub_toml.write_text(f"[mqtt]\n{lines}")
    deck = tmp_path / "deck.toml"
    deck.write_text('[tags]\n"045EED00C0DE80" = "2c"\n')
    capsys.readouterr()
    assert decks.main(["check", str(deck), "--scan", "--config", str(hub_toml)]) == 2
    err = capsys.readouterr().err
    assert "asks every client for a password" in err and "--role hub" in err, err


# --- the guarded broker, run by the real hub ------------------------------------------


async def raw(port: int, **how: Any) -> RawClient:
    """:meth:`RawClient.open` off the event loop (the broker runs in it: a TLS handshake
    made from the loop itself would wait for an answer that cannot come)."""
    return await asyncio.to_thread(RawClient.open, port, **how)


async def wait_closed(client: RawClient) -> None:
    assert await asyncio.to_thread(client.closed.wait, 5), "the broker kept the connection"


PLAIN_TO_TLS = None
"""The CONNACK of a plain client at the TLS port: none (the TLS handshake fails first)."""
REFUSED = 5
"""CONNACK return code "not authorized"."""


def intruders(secrets: TableSecrets, port: int, hub_port: int) -> dict[str, dict[str, Any]]:
    """Every way in a client without the right credential can try: each with the CONNACK
    it must get."""
    node = secrets.users["node1"]
    return {
        "anonymous over TLS": {"port": port, "ca": secrets.ca, "expect": REFUSED},
        "anonymous plain TCP": {"port": port, "ca": None, "expect": PLAIN_TO_TLS},
        "anonymous on the hub's listener": {"port": hub_port, "ca": None, "expect": REFUSED},
        "a node's credential on the hub's listener": {
            "port": hub_port,
            "ca": None,
            "cred": node,
            "expect": REFUSED,
        },
        "the hub's username with a guess, off its listener": {
            "port": port,
            "ca": secrets.ca,
            "cred": Credential(HUB_USERNAME, "guess"),
            "expect": REFUSED,
        },
        "a node using the hub's client id": {
            "port": port,
            "ca": secrets.ca,
            "cred": node,
            "client_id": hub_client_id(TABLE, alone=True),
            "expect": REFUSED,
        },
    }


async def open_all(
    ways: dict[str, dict[str, Any]], then: tuple[bytes, ...]
) -> dict[str, tuple[RawClient, int | None]]:
    out = {}
    for name, how in ways.items():
        how = dict(how)
        expect = how.pop("expect")
        out[name] = (await raw(how.pop("port"), then=then, **how), expect)
    return out


async def test_anonymous_clients_learn_nothing_while_a_hand_is_dealt(
    table_secrets: TableSecrets,
) -> None:
    config = hub_config(guarded_mqtt(table_secrets))
    assert config.mqtt.url is None  # the hub's own connection needs no password in hub.toml
    async with running(config) as hub:
        assert hub.embedded is not None and hub.embedded.hub_port is not None
        port, hub_port = hub.embedded.port, hub.embedded.hub_port
        spies = await open_all(intruders(table_secrets, port, hub_port), (subscribe_packet("#"),))
        node_cred = table_secrets.users["node1"]
        url = f"mqtts://{node_cred.username}:{node_cred.password}@127.0.0.1:{port}"
        node = Node(url, table_secrets.ca)
        try:
            await deal(hub, node)
            await asyncio.sleep(QUIET)
            for name, (spy, expect) in spies.items():
                assert not spy.error, (name, spy.error)
                await wait_closed(spy)
                assert spy.connack == expect, (name, spy.connack)
                assert leaked(spy) == [], (name, leaked(spy))
            # the node's credential did all the work: its reads reached the hub (deal()
            # waited for them), and the hub's lights reached the node (a seat with cards
            # shows idle)
            await wait_until(lambda: LightPattern.IDLE in node.lights.get(1, []))
        finally:
            node.close()
            for spy, _ in spies.values():
                spy.close()


async def test_anonymous_clients_cannot_inject_a_card_or_a_light(
    table_secrets: TableSecrets,
) -> None:
    async with running(hub_config(guarded_mqtt(table_secrets))) as hub:
        assert hub.embedded is not None and hub.embedded.hub_port is not None
        port, hub_port = hub.embedded.port, hub.embedded.hub_port
        node_cred = table_secrets.users["node1"]
        url = f"mqtts://{node_cred.username}:{node_cred.password}@127.0.0.1:{port}"
        node = Node(url, table_secrets.ca)
        try:
            await deal(hub, node)
            await wait_until(lambda: LightPattern.IDLE in node.lights.get(1, []))
            received = hub.service.counters.get("received", 0)
            lights_before = {seat: list(p) for seat, p in node.lights.items()}
            tries = await open_all(intruders(table_secrets, port, hub_port), injections())
            # and with the node's own credential the broker's ACL drops the light command
            insider = await raw(
                port,
                ca=table_secrets.ca,
                cred=node_cred,
                then=injections()[2:],
                client_id="pi1-insider",
            )
            await asyncio.sleep(QUIET)
            for name, (intruder, expect) in tries.items():
                assert not intruder.error, (name, intruder.error)
                await wait_closed(intruder)
                assert intruder.connack == expect, (name, intruder.connack)
                intruder.close()
            assert insider.connack == 0, insider.error
            insider.close()
            assert hub.service.counters.get("received", 0) == received
            assert INJECTED_CARD not in hub.service.intake.presence.cards_on("board")
            assert node.lights == lights_before
            # nor did the broker keep either as retained state for a later subscriber
            late = Node(url, table_secrets.ca)
            try:
                assert await asyncio.to_thread(late.transport.wait_connected, 10)
                await wait_until(lambda: 1 in late.lights)
                await asyncio.sleep(QUIET)
                assert LightPattern.ERROR not in late.lights[1]
            finally:
                late.close()
        finally:
            node.close()


async def test_naming_the_hubs_client_id_does_not_silence_the_hub(
    table_secrets: TableSecrets, caplog: pytest.LogCaptureFixture
) -> None:
    """amqtt drops (clean session) or takes over (resumed session) the session of the
    client id a CONNECT names before it authenticates: without the door's early check
    anyone reaching the port could wipe the hub's subscriptions, and the hub would hear
    nothing until its keep-alive ran out."""
    caplog.set_level(logging.WARNING)
    async with running(hub_config(guarded_mqtt(table_secrets))) as hub:
        assert hub.embedded is not None
        port = hub.embedded.port
        node_cred = table_secrets.users["node1"]
        url = f"mqtts://{node_cred.username}:{node_cred.password}@127.0.0.1:{port}"
        node = Node(url, table_secrets.ca)
        try:
            await deal(hub, node)
            # the session the hub is on (a hub alone), and a table's own (a card room's)
            for hub_id in (hub_client_id(TABLE, alone=True), hub_client_id(TABLE)):
                for cred in (None, node_cred):
                    for clean in (True, False):
                        intruder = await raw(
                            port, ca=table_secrets.ca, cred=cred, client_id=hub_id, clean=clean
                        )
                        await wait_closed(intruder)
                        assert intruder.connack == REFUSED, (hub_id, cred, clean, intruder.error)
            assert hub.embedded.refused >= 8
            # the hub is still subscribed: the next card reaches it, with no reconnection
            node.publisher.update("seat3", frozenset({DECK.uid_for("Qc")}))
            await wait_until(lambda: hub.service.intake.presence.cards_on("seat3") == ("Qc",), 8)
            assert not [r for r in caplog.records if "connection lost" in r.getMessage()]
        finally:
            node.close()


async def test_control_on_the_open_loopback_broker_the_spy_and_the_injector_work() -> None:
    """The demo's broker (open, loopback only): the same raw clients see the deal and
    reach the hub — so where the guarded tests see nothing, the guard stopped it."""
    async with running(hub_config({"embedded_port": 0})) as hub:
        assert hub.embedded is not None and not hub.embedded.guarded
        port = hub.embedded.port
        spy = await raw(port, ca=None, then=(subscribe_packet("#"),))
        node = Node(f"mqtt://127.0.0.1:{port}", None)
        try:
            await deal(hub, node)
            await wait_until(lambda: set(leaked(spy)) >= dealt_uids())
            assert spy.connack == 0
            received = hub.service.counters.get("received", 0)
            injector = await raw(port, ca=None, then=injections())
            await wait_until(lambda: hub.service.counters.get("received", 0) > received)
            await wait_until(lambda: LightPattern.ERROR in node.lights.get(1, []))
            injector.close()
        finally:
            node.close()
            spy.close()
