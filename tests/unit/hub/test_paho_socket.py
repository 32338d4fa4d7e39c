"""The hub's MQTT socket sends what one turn of the event loop wrote in one system call,
in order, holding back — and telling paho to wait — while the peer does not read.

Real sockets (a socketpair); the inner socket counted by a thin wrapper."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from hub.adapters.paho_socket import RETRY_S, ChunkedSocket


class Counted:
    """A socket whose ``send`` calls are counted."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sends = 0

    def send(self, data: bytes) -> int:
        self.sends += 1
        return self.sock.send(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def _pair() -> tuple[socket.socket, socket.socket]:
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    return a, b


def _drain(b: socket.socket) -> bytes:
    got = b""
    while True:
        try:
            chunk = b.recv(1 << 20)
        except BlockingIOError:
            return got
        if not chunk:
            return got
        got += chunk


def test_a_turns_packets_go_out_in_one_send_in_order() -> None:
    a, b = _pair()
    counted = Counted(a)
    s = ChunkedSocket(counted)  # type: ignore[arg-type]

    async def turn() -> tuple[int, int]:
        for i in range(100):
            assert s.send(b"%03d;" % i) == 4
        before = counted.sends
        await asyncio.sleep(0)  # the next turn: the flush
        return before, counted.sends

    before, after = asyncio.run(turn())
    assert (before, after) == (0, 1)
    assert _drain(b) == b"".join(b"%03d;" % i for i in range(100))
    a.close()
    b.close()


def test_off_the_loop_a_send_goes_straight_out() -> None:
    a, b = _pair()
    counted = Counted(a)
    s = ChunkedSocket(counted)  # type: ignore[arg-type]
    assert s.send(b"CONNECT") == 7
    assert counted.sends == 1
    assert _drain(b) == b"CONNECT"
    a.close()
    b.close()


def test_a_full_socket_holds_the_rest_and_tells_paho_to_wait_then_sends_it_all() -> None:
    a, b = _pair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s = ChunkedSocket(a)
    chunk = bytes(range(256)) * 16  # 4 KiB
    sent: list[bytes] = []

    async def fill() -> bytes:
        refused = False
        for _ in range(1000):  # far more than the two buffers hold
            try:
                s.send(chunk)
            except BlockingIOError:
                refused = True
                break
            sent.append(chunk)
            await asyncio.sleep(0)
        assert refused, "the socket never filled"
        got = b""
        for _ in range(2000):  # the peer reads: the held bytes follow by themselves
            got += _drain(b)
            if len(got) == len(sent) * len(chunk):
                break
            await asyncio.sleep(RETRY_S)
        return got

    got = asyncio.run(fill())
    assert got == b"".join(sent)
    a.close()
    b.close()


def test_closing_sends_what_is_held_first() -> None:
    a, b = _pair()
    s = ChunkedSocket(a)

    async def disconnect() -> None:
        s.send(b"\xe0\x00")  # paho's DISCONNECT, queued on the loop
        s.close()

    asyncio.run(disconnect())
    assert _drain(b) == b"\xe0\x00"
    b.close()


@pytest.mark.parametrize("size", [1, 4, 1000])
def test_reads_are_unchanged(size: int) -> None:
    a, b = socket.socketpair()
    b.sendall(b"x" * size)
    s = ChunkedSocket(a)
    assert s.recv(size) == b"x" * size
    a.close()
    b.close()
