"""A hub stopped inside its process lets go of its web port at once: nothing answers
there any more and another hub can listen on it. Before, the stopped hub's listening
socket stayed open — taking connections into a backlog nobody served — until the
collector happened to free it: a hub started again in the same process (as the tests
start and stop theirs) could find its port held."""

from __future__ import annotations

import asyncio
import socket
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.web_hub import running_hub


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
