"""Writes to a client's connection gathered into one system call per turn of the event loop.

uvicorn's protocols write each WebSocket frame, and an HTTP answer's head and body, with a
``transport.write`` of their own, and asyncio's transport sends each at once: a ``send``
call for every frame. A change at a table goes out as a burst — its events, then the
console's fresh state; the overlay's antenna frame, its picture — and at 200 tables those
sends were a quarter of the event loop's time (issue 16's profile: 12 sends a motion, 48 µs
each on the VM, where a send on loopback runs the receiving side too).

:class:`CoalescingTransport` stands between a protocol and asyncio's transport: what is
written during one turn of the loop goes to the socket as one ``write`` at the start of
the next (``call_soon``), in the order written. Closing, or ending the writing side,
sends what is held first; aborting drops it, as the transport's own abort drops its
buffer. Everything else is the transport's own.

>>> import asyncio
>>> class Sink(asyncio.Transport):
...     def __init__(self): self.sent = []
...     def write(self, data): self.sent.append(bytes(data))
...     def is_closing(self): return False
>>> async def burst():
...     t = CoalescingTransport(Sink())
...     t.write(b"a"); t.write(b"b"); t.write(b"c")
...     held = list(t.transport.sent)
...     await asyncio.sleep(0)
...     return held, t.transport.sent
>>> asyncio.run(burst())
([], [b'abc'])
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

__all__ = ["CoalescingTransport", "coalescing"]


class CoalescingTransport(asyncio.Transport):
    """``transport`` with its writes of one turn of the loop sent together (see the
    module docstring)."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self.transport = transport
        self._held: list[bytes] = []
        self._flush: asyncio.Handle | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if self.transport.is_closing():
            self.transport.write(data)  # asyncio's transport counts and ignores it
            return
        self._held.append(bytes(data))
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_soon(self.flush)

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Send what is held now."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if not self._held:
            return
        data = self._held[0] if len(self._held) == 1 else b"".join(self._held)
        self._held.clear()
        if not self.transport.is_closing():
            self.transport.write(data)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def abort(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        self._held.clear()
        self.transport.abort()

    def can_write_eof(self) -> bool:
        return self.transport.can_write_eof()

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size() + sum(map(len, self._held))

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self.transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.transport.set_write_buffer_limits(high, low)

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def is_reading(self) -> bool:
        return self.transport.is_reading()

    def pause_reading(self) -> None:
        self.transport.pause_reading()

    def resume_reading(self) -> None:
        self.transport.resume_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.transport.get_protocol()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)


def coalescing(transport: asyncio.BaseTransport) -> CoalescingTransport:
    """``transport`` behind a :class:`CoalescingTransport` (itself when it is one already:
    an upgraded WebSocket keeps the HTTP connection's)."""
    if isinstance(transport, CoalescingTransport):
        return transport
    assert isinstance(transport, asyncio.Transport)
    return CoalescingTransport(transport)
