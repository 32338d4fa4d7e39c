"""A TCP proxy between a PostgreSQL client and the tests' server that can cut a
connection exactly at a ``COMMIT`` — the one moment a client cannot tell what happened
to its transaction:

* ``"before"``: the client's ``COMMIT`` never reaches the server (the server sees the
  connection close and rolls the transaction back), and the client loses its connection;
* ``"after"``: the ``COMMIT`` reaches the server, the proxy waits for its answer (the
  transaction is committed), drops it and cuts the client off.

Either way the client sent its ``COMMIT`` and got no answer. ``then`` runs after the
server's side is cut and before the client's is (another writer's insert, say), so it
has happened before the client can look again. It reads the protocol's messages (a
startup packet, then a type byte and a length each way: PostgreSQL's frontend/backend
protocol 3), so its URLs turn off TLS and GSSAPI encryption, whose negotiation it does
not follow. psycopg sends ``COMMIT`` as a simple query (``Q``).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable
from typing import Literal

Cut = Literal["before", "after"]


class _Stream:
    """Whole protocol messages read from one socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""

    def _fill(self, n: int) -> bool:
        while len(self.buf) < n:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return False
            if not chunk:
                return False
            self.buf += chunk
        return True

    def startup(self) -> bytes | None:
        """The untyped startup packet (length, then the body)."""
        if not self._fill(4):
            return None
        (length,) = struct.unpack("!I", self.buf[:4])
        if not self._fill(length):
            return None
        packet, self.buf = self.buf[:length], self.buf[length:]
        return packet

    def message(self) -> tuple[bytes, bytes] | None:
        """One typed message: its type byte and its whole bytes (None: the socket ended)."""
        if not self._fill(5):
            return None
        (length,) = struct.unpack("!I", self.buf[1:5])
        if not self._fill(1 + length):
            return None
        raw, self.buf = self.buf[: 1 + length], self.buf[1 + length :]
        return raw[:1], raw


class PgProxy:
    """A proxy on a free loopback port to the server at ``port`` (see the module)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._lock = threading.Lock()
        self._cut: tuple[Cut, Callable[[], None] | None] | None = None
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self.cuts = 0
        """How many COMMITs were cut."""
        self.refusing = False
        """True: every new connection is closed at once (the server cannot be reached)."""
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def url(self, url: str) -> str:
        """``url`` (a database of the tests' server) through this proxy."""
        proxied = url.replace(f":{self.target}/", f":{self.port}/")
        assert proxied != url, url
        return proxied + "?sslmode=disable&gssencmode=disable"

    def cut_next_commit(self, when: Cut, then: Callable[[], None] | None = None) -> None:
        """Cut the connection that sends the next ``COMMIT`` (see the module)."""
        with self._lock:
            self._cut = (when, then)

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                _close(client)
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:  # the server is down: so is the connection through the proxy
                _close(client)
                continue
            with self._lock:
                self._pairs.append((client, server))
            swallow, done = threading.Event(), threading.Event()
            threading.Thread(
                target=self._upstream, args=(client, server, swallow, done), daemon=True
            ).start()
            threading.Thread(
                target=self._downstream, args=(client, server, swallow, done), daemon=True
            ).start()

    def _take_cut(self, kind: bytes, raw: bytes) -> tuple[Cut, Callable[[], None] | None] | None:
        if kind != b"Q" or raw[5:].rstrip(b"\0").strip().upper() != b"COMMIT":
            return None
        with self._lock:
            cut, self._cut = self._cut, None
            if cut is not None:
                self.cuts += 1
        return cut

    def _upstream(
        self,
        client: socket.socket,
        server: socket.socket,
        swallow: threading.Event,
        done: threading.Event,
    ) -> None:
        """Client → server, message by message, cutting at an armed COMMIT."""
        stream = _Stream(client)
        packet = stream.startup()
        if packet is None:
            _close(client, server)
            return
        server.sendall(packet)
        while True:
            got = stream.message()
            if got is None:
                _close(client, server)
                return
            kind, raw = got
            cut = self._take_cut(kind, raw)
            if cut is not None:  # the client is cut off by this side alone, after `then`
                swallow.set()
            if cut is not None and cut[0] == "before":
                _close(server)  # the server never sees the COMMIT: it rolls back
                if cut[1] is not None:
                    cut[1]()
                _close(client)
                return
            try:  # "after": the server commits, the client never hears
                server.sendall(raw)
            except OSError:
                _close(client, server)
                return
            if cut is not None:
                if cut[1] is not None:
                    cut[1]()
                done.set()

    def _downstream(
        self,
        client: socket.socket,
        server: socket.socket,
        swallow: threading.Event,
        done: threading.Event,
    ) -> None:
        """Server → client, message by message; after an armed COMMIT went up, nothing more:
        the connection is cut once the server said it is ready again (committed) and
        ``then`` ran — never sooner, or the client could look again before it had."""
        stream = _Stream(server)
        while True:
            got = stream.message()
            if got is None:
                if not swallow.is_set():  # a cut: the upstream side closes the client
                    _close(client, server)
                return
            kind, raw = got
            if swallow.is_set():
                if kind == b"Z":  # ReadyForQuery: the COMMIT is done
                    done.wait(10)
                    _close(server, client)
                    return
                continue
            try:
                client.sendall(raw)
            except OSError:
                _close(client, server)
                return


def _close(*socks: socket.socket) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()
