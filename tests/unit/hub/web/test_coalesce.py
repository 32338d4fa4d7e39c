"""A connection's writes of one turn of the event loop go out as one write, in order; closing
sends what is held; aborting drops it. Real TCP connections on loopback."""

from __future__ import annotations

import asyncio

from hub.web.coalesce import CoalescingTransport, coalescing


class Collect(asyncio.Protocol):
    def __init__(self, done: asyncio.Future[bytes]) -> None:
        self.data = b""
        self.done = done

    def data_received(self, data: bytes) -> None:
        self.data += data

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(self.data)


class Client(asyncio.Protocol):
    """The writing side (reads nothing)."""


async def _connect() -> tuple[asyncio.Transport, asyncio.Future[bytes], asyncio.Server]:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bytes] = loop.create_future()
    server = await loop.create_server(lambda: Collect(done), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport, _ = await loop.create_connection(Client, "127.0.0.1", port)
    assert isinstance(transport, asyncio.Transport)
    return transport, done, server


def test_a_turns_writes_become_one_write_and_arrive_in_order() -> None:
    async def run() -> tuple[list[int], bytes]:
        transport, done, server = await _connect()
        writes: list[int] = []
        real_write = transport.write

        def counted(data: bytes | bytearray | memoryview) -> None:
            writes.append(len(data))
            real_write(data)

        transport.write = counted  # type: ignore[method-assign]
        t = coalescing(transport)
        for turn in range(3):
            for i in range(10):
                t.write(b"%d.%d;" % (turn, i))
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        t.close()
        got = await asyncio.wait_for(done, 5)
        server.close()
        return writes, got

    writes, got = asyncio.run(run())
    assert len(writes) == 3  # one write a turn, not thirty
    assert got == b"".join(b"%d.%d;" % (turn, i) for turn in range(3) for i in range(10))


def test_closing_sends_what_is_held() -> None:
    async def run() -> bytes:
        transport, done, server = await _connect()
        t = coalescing(transport)
        t.write(b"last frame")
        t.close()  # in the same turn
        got = await asyncio.wait_for(done, 5)
        server.close()
        return got

    assert asyncio.run(run()) == b"last frame"


def test_aborting_drops_what_is_held() -> None:
    async def run() -> bytes:
        transport, done, server = await _connect()
        t = coalescing(transport)
        t.write(b"sent")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        t.write(b"dropped")
        assert t.get_write_buffer_size() >= len(b"dropped")
        t.abort()
        got = await asyncio.wait_for(done, 5)
        server.close()
        return got

    assert asyncio.run(run()) == b"sent"


def test_an_upgraded_connection_keeps_its_wrapper() -> None:
    async def run() -> None:
        transport, _, server = await _connect()
        t = coalescing(transport)
        assert coalescing(t) is t
        assert isinstance(t, CoalescingTransport)
        assert t.get_extra_info("peername") == transport.get_extra_info("peername")
        t.close()
        server.close()

    asyncio.run(run())
