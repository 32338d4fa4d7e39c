"""Brokers guarded like a real table: the shipped Mosquitto template and the embedded
broker, both given certificates and credentials made at test time (no secret is stored
in the repository). The fixtures that start them (``table_secrets`` in
``tests/conftest.py``; ``guarded``, ``guarded_mutual`` in
``tests/integration/security/conftest.py``) are built from these parts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from hub.adapters.broker import EmbeddedBroker
from hub.cli import certs, credentials
from tests.support.commands import run_cli
from tests.support.loop_thread import LoopThread
from tests.support.mosquitto import Mosquitto
from tests.support.ports import free_port, wait_port

TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto" / "feltwire.conf"


@dataclass
class Credential:
    """A username and the password ``feltwire credentials add`` printed for it."""

    username: str
    password: str


@dataclass
class TableSecrets:
    """Everything ``feltwire certs`` and ``feltwire credentials`` made for the tests."""

    dir: Path
    ca: Path
    server_cert: Path
    server_key: Path
    node_cert: Path
    node_key: Path
    passwords: Path
    acl: Path
    users: dict[str, Credential] = field(default_factory=dict)


def add_credential(secrets: TableSecrets, key: str, *args: str) -> Credential:
    """``feltwire credentials add …``; remembers the printed username and password."""
    text = run_cli(
        credentials.main,
        ["add", "--file", str(secrets.passwords), "--acl", str(secrets.acl), *args],
    )
    user = re.search(r"username: (\S+)", text)
    password = re.search(r"password: (\S+)", text)
    assert user and password, text
    secrets.users[key] = Credential(user.group(1), password.group(1))
    return secrets.users[key]


def make_table_secrets(d: Path) -> TableSecrets:
    """In ``d``: a CA, a server certificate for 127.0.0.1/localhost, a node's client
    certificate, and credentials: the hub and node ``pi1`` of table1, the hub and node
    ``pi9`` of table2."""
    ca_dir = d / "ca"
    run_cli(certs.main, ["init", "--out", str(ca_dir)])
    run_cli(certs.main, ["server", "--ca", str(ca_dir), "--host", "localhost", "--ip", "127.0.0.1"])
    run_cli(certs.main, ["client", "--ca", str(ca_dir), "--name", "table1-pi1"])
    s = TableSecrets(
        dir=d,
        ca=ca_dir / "ca.crt",
        server_cert=ca_dir / "server.crt",
        server_key=ca_dir / "server.key",
        node_cert=ca_dir / "table1-pi1.crt",
        node_key=ca_dir / "table1-pi1.key",
        passwords=d / "passwords",
        acl=d / "acl",
    )
    add_credential(s, "hub1", "--table", "table1", "--role", "hub")
    add_credential(s, "node1", "--table", "table1", "--node", "pi1")
    add_credential(s, "hub2", "--table", "table2", "--role", "hub")
    add_credential(s, "node2", "--table", "table2", "--node", "pi9", "--role", "bridge")
    return s


def render_template(secrets: TableSecrets, workdir: Path, port: int, *, mutual: bool) -> str:
    """The shipped template with the test's files, port and (optionally) mutual TLS."""
    text = TEMPLATE.read_text()
    files = {
        "/etc/mosquitto/feltwire/passwords": secrets.passwords,
        "/etc/mosquitto/feltwire/acl": secrets.acl,
        "/etc/mosquitto/feltwire/ca.crt": secrets.ca,
        "/etc/mosquitto/feltwire/server.crt": secrets.server_cert,
        "/etc/mosquitto/feltwire/server.key": secrets.server_key,
        "/var/lib/mosquitto/": f"{workdir}/",
    }
    for path, real in files.items():
        assert path in text, f"the template no longer names {path}"
        text = text.replace(path, str(real))
    assert "\nlistener 8883\n" in text
    text = text.replace("\nlistener 8883\n", f"\nlistener {port} 127.0.0.1\n")
    if mutual:
        assert "\nrequire_certificate false\n" in text
        text = text.replace("\nrequire_certificate false\n", "\nrequire_certificate true\n")
    return text


class GuardedMosquitto(Mosquitto):
    """A real Mosquitto running the shipped template."""

    kind = "mosquitto"

    def __init__(self, secrets: TableSecrets, workdir: Path, *, mutual: bool) -> None:
        port = free_port()
        super().__init__(workdir, port, render_template(secrets, workdir, port, mutual=mutual))


class GuardedEmbedded:
    """The hub's embedded broker with the same files, in a thread of its own."""

    kind = "embedded"

    def __init__(self, secrets: TableSecrets, *, mutual: bool) -> None:
        self.broker = EmbeddedBroker(
            "127.0.0.1",
            0,
            password_file=secrets.passwords,
            acl_file=secrets.acl,
            certfile=secrets.server_cert,
            keyfile=secrets.server_key,
            cafile=secrets.ca,
            require_certificate=mutual,
        )
        self.port = self.broker.port

        async def up() -> EmbeddedBroker:
            await self.broker.start()
            return self.broker

        async def down(broker: EmbeddedBroker) -> None:
            await broker.stop()

        self._runner = LoopThread(up, down, name="embedded-broker", stop_timeout=10)

    def start(self) -> None:
        self._runner.start()
        wait_port(self.port)

    def stop(self) -> None:
        self._runner.stop()


Guarded = GuardedMosquitto | GuardedEmbedded


def start_guarded(kind: str, secrets: TableSecrets, workdir: Path, *, mutual: bool) -> Guarded:
    """A started guarded broker: ``kind`` is ``"mosquitto"`` or ``"embedded"``."""
    broker: Guarded = (
        GuardedMosquitto(secrets, workdir, mutual=mutual)
        if kind == "mosquitto"
        else GuardedEmbedded(secrets, mutual=mutual)
    )
    broker.start()
    return broker
