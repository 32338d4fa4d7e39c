"""The hub's MQTT socket, read a chunk at a time.

paho reads a packet in three or more ``recv`` calls (its first byte, its length a byte at
a time, then the rest), and aiomqtt's reader takes one packet each time the event loop
finds the socket readable (paho's ``loop_read`` reads one packet unless QoS 1/2 messages
are in flight; its ``max_packets`` argument is overwritten). The hub takes every table's
reads on one connection: with one packet per turn of the loop, its intake was bounded by
how often the loop went round, and under load the reads waited in the socket's buffer —
seconds at 150 tables.

:class:`ChunkedSocket` reads up to :data:`CHUNK` bytes a ``recv`` and hands paho what it
asks for from them; its ``pending()`` says how many bytes are held, which aiomqtt's reader
already asks of a socket (for TLS, whose socket holds decrypted bytes the same way) to
go on reading packets in the same callback. So every packet that came in one read is
taken in one turn of the loop, with one system call.

It writes the same way: paho sends each queued packet with a ``send`` of its own (its
``loop_write`` writes every packet queued: the acknowledgements of the reads taken, the
seat lights, the public frames — eight a call at 200 tables, a quarter of the hub's
sends). On the event loop, :meth:`ChunkedSocket.send` takes the bytes and sends what one
turn of the loop wrote in one system call at the start of the next (``call_soon``). While
the socket's buffer is full, what did not fit is held, ``send`` says so to paho
(``BlockingIOError``: paho keeps its packets and waits for the socket), and the held bytes
are tried again every :data:`RETRY_S` and before anything newer. Closing the socket sends
what is held first (paho's DISCONNECT among it). Off the event loop (the CONNECT, sent
from aiomqtt's connecting thread) a send goes straight to the socket.

>>> import socket
>>> a, b = socket.socketpair()
>>> b.sendall(b"\\x30\\x03abc\\x30\\x01z")
>>> s = ChunkedSocket(a)
>>> s.recv(1), s.pending(), s.recv(1), s.recv(3), s.pending()
(b'0', 7, b'\\x03', b'abc', 3)
>>> a.close(); b.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import Callable
from typing import Any

__all__ = ["CHUNK", "RETRY_S", "ChunkedSocket", "chunked"]

CHUNK = 65536
"""Bytes asked of the socket at a time."""

RETRY_S = 0.005
"""How soon held bytes the socket did not take are tried again."""

_FULL = (BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError)


class ChunkedSocket:
    """A connected socket (plain or TLS) whose reads come from a buffer filled
    :data:`CHUNK` bytes at a time; everything else is the socket's own."""

    def __init__(self, sock: socket.socket | ssl.SSLSocket) -> None:
        self._sock = sock
        self._buffer = b""
        self._at = 0
        self._out: list[bytes] = []
        """Bytes taken from paho and not yet sent (in order)."""
        self._flush: asyncio.Handle | None = None
        self._stalled = False
        """The socket's buffer was full at the last try: paho is told to wait."""

    def recv(self, size: int) -> bytes:
        """Up to ``size`` bytes: from the buffer, or from one read of the socket when it is
        empty (b"": the peer closed; BlockingIOError / ssl.SSLWantReadError: nothing came,
        as the socket itself raises)."""
        if self._at >= len(self._buffer):
            data = self._sock.recv(max(size, CHUNK))
            if len(data) <= size:
                return data
            self._buffer, self._at = data, 0
        start = self._at
        self._at = min(start + size, len(self._buffer))
        return self._buffer[start : self._at]

    def pending(self) -> int:
        """Bytes received and not yet taken (with a TLS socket's decrypted ones)."""
        inner = self._sock.pending() if isinstance(self._sock, ssl.SSLSocket) else 0
        return len(self._buffer) - self._at + inner

    def send(self, data: bytes | bytearray | memoryview) -> int:
        """Take ``data`` whole, to be sent with the rest of this turn's (see the module
        docstring); raises ``BlockingIOError`` while bytes held earlier do not fit."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the event loop: straight to the socket
            if not self._out:
                return self._sock.send(data)
            loop = None
        if self._stalled:
            self.flush()
            if self._stalled:
                raise BlockingIOError("the socket's send buffer is full")
        self._out.append(bytes(data))
        if self._flush is None and loop is not None:
            self._flush = loop.call_soon(self.flush)
        elif loop is None:
            self.flush()
        return len(data)

    def flush(self) -> None:
        """Send what is held: as much as the socket takes; the rest is tried again in
        :data:`RETRY_S` (a broken connection drops it: paho's next read says so)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if not self._out:
            self._stalled = False
            return
        data = self._out[0] if len(self._out) == 1 else b"".join(self._out)
        try:
            sent = self._sock.send(data)
        except _FULL:
            sent = 0
        except OSError:
            self._out.clear()
            self._stalled = False
            return
        rest = data[sent:]
        self._out[:] = [rest] if rest else []
        self._stalled = bool(rest)
        if rest:
            with contextlib.suppress(RuntimeError):  # no loop: the next send tries
                self._flush = asyncio.get_running_loop().call_later(RETRY_S, self.flush)

    def close(self) -> None:
        """Send what is held (as much as the socket takes now), then close."""
        with contextlib.suppress(OSError):
            self.flush()
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        self._out.clear()
        self._sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def chunked(create: Callable[[], Any]) -> Callable[[], Any]:
    """``create`` (paho's ``Client._create_socket``) with its socket wrapped in a
    :class:`ChunkedSocket` — set on a client's instance before it connects. paho's
    websocket transport is left as it is (its wrapper buffers frames itself)."""

    def _create_socket() -> Any:
        sock = create()
        if isinstance(sock, socket.socket):  # plain TCP, unix, or TLS (SSLSocket)
            return ChunkedSocket(sock)
        return sock

    return _create_socket
