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

>>> import socket
>>> a, b = socket.socketpair()
>>> b.sendall(b"\\x30\\x03abc\\x30\\x01z")
>>> s = ChunkedSocket(a)
>>> s.recv(1), s.pending(), s.recv(1), s.recv(3), s.pending()
(b'0', 7, b'\\x03', b'abc', 3)
>>> a.close(); b.close()
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Callable
from typing import Any

__all__ = ["CHUNK", "ChunkedSocket", "chunked"]

CHUNK = 65536
"""Bytes asked of the socket at a time."""


class ChunkedSocket:
    """A connected socket (plain or TLS) whose reads come from a buffer filled
    :data:`CHUNK` bytes at a time; everything else is the socket's own."""

    def __init__(self, sock: socket.socket | ssl.SSLSocket) -> None:
        self._sock = sock
        self._buffer = b""
        self._at = 0

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
