"""A hub stopped inside its process lets go of what it held, at once.

Its web port: nothing answers there any more and another hub can listen on it. Before,
the stopped hub's listening socket stayed open — taking connections into a backlog
nobody served — until the collector happened to free it: a hub started again in the
same process (as the tests start and stop theirs) could find its port held.

Its broker connection: the stop returns once the hub's MQTT client has disconnected.
Before, the stop cancelled the connection and returned without waiting for it, so the
client's socket and tasks outlived the stop; a process that then closed its event loop
(as each test does) left them to the collector, whose clean-up then called into the
closed loop.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from hub.bootstrap import start_hub
from hub.config import HubMqttSettings
from tests.support.mosquitto import MosquittoProcess
from tests.support.web_hub import hub_config, running_hub


async def test_a_stopped_hub_refuses_connections_on_its_web_port_and_frees_it() -> None:
    async with running_hub() as hub:
        port = urlsplit(hub.web_url).port
        assert port is not None
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            assert (await http.get("/healthz")).status_code == 200
    with pytest.raises(ConnectionRefusedError):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.close()  # connected: the stopped hub's socket still listens
        await writer.wait_closed()
    with socket.socket() as again:  # and the port can be listened on again
        again.bind(("127.0.0.1", port))
        again.listen()


async def test_a_stopped_hub_has_closed_its_broker_connection(tmp_path: Path) -> None:
    """On a broker of its own (Mosquitto): when the stop returns, nothing the hub started
    runs on — neither its connection nor its MQTT client's tasks."""
    mosquitto = MosquittoProcess(tmp_path)
    mosquitto.start()
    try:
        before = asyncio.all_tasks()
        config = hub_config(tmp_path).model_copy(
            update={"mqtt": HubMqttSettings(url=mosquitto.url)}
        )
        hub = await start_hub(config)
        try:
            await asyncio.wait_for(hub.service.subscribed.wait(), 10)
        finally:
            await hub.stop()
        running = [t for t in asyncio.all_tasks() - before if not t.done()]
        assert [(t.get_name(), t.get_coro().__qualname__) for t in running] == []
    finally:
        mosquitto.stop()
