"""The embedded broker stops whenever it is asked to, even while a client is connecting.

A hub is stopped (SIGTERM, systemd, a test's teardown) at any moment; a node or the hub's
own client may be half-way through connecting. amqtt (0.12) waited forever in its
shutdown for the reader of a connection whose reader task had been created but had not
yet run (CI saw a hub's stop hang 300 s): the broker here stops at every step of a
client's connection, real broker, real sockets."""

from __future__ import annotations

import asyncio
import struct

from hub.adapters.broker import EmbeddedBroker

STEPS = 60
"""Loop steps swept between the client's CONNECT and the broker's stop (the connection's
setup takes about ten; the hang was at one of them)."""

STOP_BOUND = 10.0
"""Long enough for any stop on a loaded machine; a stop that hangs never ends."""


def connect_packet(client_id: str) -> bytes:
    """An MQTT 3.1.1 CONNECT: clean session, keep-alive 60 s, no credentials."""
    body = (
        struct.pack("!H", 4)
        + b"MQTT"
        + bytes([4, 0x02])
        + struct.pack("!H", 60)
        + struct.pack("!H", len(client_id))
        + client_id.encode()
    )
    return bytes([0x10, len(body)]) + body


async def stop_at_step(steps: int) -> str:
    """Start a broker, connect a client, let the loop run ``steps`` steps, stop the
    broker: ``"stopped"`` (the stop ended and the client's connection was closed),
    ``"hung"`` (the stop never ended) or ``"left open"`` (it ended, the client's
    connection did not)."""
    broker = EmbeddedBroker(port=0)
    await broker.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", broker.port)
    try:
        writer.write(connect_packet(f"node-{steps}"))
        await writer.drain()
        for _ in range(steps):
            await asyncio.sleep(0)
        try:
            await asyncio.wait_for(broker.stop(), STOP_BOUND)
        except TimeoutError:
            return "hung"
        try:  # its CONNACK, if the connection got that far, then the end
            await asyncio.wait_for(reader.read(), STOP_BOUND)
        except TimeoutError:
            return "left open"
        return "stopped"
    finally:
        writer.close()


async def test_the_broker_stops_at_every_step_of_a_clients_connection() -> None:
    outcomes = {steps: await stop_at_step(steps) for steps in range(STEPS)}
    wrong = {steps: outcome for steps, outcome in outcomes.items() if outcome != "stopped"}
    assert wrong == {}, f"the stop went wrong with a client connecting, at steps: {wrong}"
