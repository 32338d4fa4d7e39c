"""A real hub on a guarded broker (:mod:`tests.support.guarded_brokers`): its config with
the table's credential and CA, running it, the real node client with a credential, and
the cards and sequence numbers the hub-side security tests lay and forge."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from feltwire.config import MqttClientSettings
from feltwire.deck import simulated_deck
from feltwire.mqtt import PahoTransport
from hub.bootstrap import HubRuntime, start_hub
from hub.config import HubConfig, HubMqttSettings, TlsFiles, WebSettings
from tests.support.guarded_brokers import Credential, Guarded, TableSecrets

DECK = simulated_deck()
AS, KD = DECK.uid_for("As"), DECK.uid_for("Kd")
TOP_SEQ = 2**63 - 1  # the highest seq the protocol allows: every later real read is "stale"


def url(broker: Guarded, cred: Credential, *, password: str | None = None) -> str:
    """The ``mqtts://`` URL of ``broker`` with ``cred`` (or another ``password``)."""
    return f"mqtts://{cred.username}:{password or cred.password}@127.0.0.1:{broker.port}"


def hub_config(broker_url: str, tls: TlsFiles) -> HubConfig:
    """Table ``table1``'s hub on the broker at ``broker_url`` with the ``tls`` files."""
    return HubConfig(
        table="table1",
        live_equity=False,
        mqtt=HubMqttSettings(
            url=broker_url, ca_file=tls.ca_file, cert_file=tls.cert_file, key_file=tls.key_file
        ),
        web=WebSettings(port=0),
    )


@asynccontextmanager
async def running(config: HubConfig) -> AsyncIterator[HubRuntime]:
    """The hub of ``config``, started; stopped afterwards."""
    hub = await start_hub(config)
    try:
        yield hub
    finally:
        await hub.stop()


async def wait_until(cond: Callable[[], bool], limit: float = 15) -> None:
    """Poll ``cond`` until it holds; ``TimeoutError`` after ``limit`` seconds."""
    async with asyncio.timeout(limit):
        while not cond():
            await asyncio.sleep(0.02)


def node_transport(broker: Guarded, secrets: TableSecrets, who: str, node: str) -> PahoTransport:
    """The real node client with the credential ``who``, announcing itself as ``node``."""
    settings = MqttClientSettings(url=url(broker, secrets.users[who]), ca_file=str(secrets.ca))
    return PahoTransport(settings, table="table1", node=node)
