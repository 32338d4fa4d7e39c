"""A service running on an event loop in a thread of its own, for tests that drive it
from synchronous code (schemathesis, hypothesis, paho clients).

>>> import asyncio
>>> async def up() -> str:
...     return "running"
>>> async def down(value: str) -> None:
...     await asyncio.sleep(0)
>>> service = LoopThread(up, down, name="doc")
>>> service.start()
'running'
>>> service.stop()
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class LoopThread(Generic[T]):
    """``start()`` runs ``up()`` on a new event loop in a daemon thread and returns what
    it made (or raises what it raised); the loop then waits until ``stop()``, which runs
    ``down(made)`` there and joins the thread."""

    def __init__(
        self,
        up: Callable[[], Awaitable[T]],
        down: Callable[[T], Awaitable[None]],
        *,
        name: str,
        start_timeout: float = 60.0,
        stop_timeout: float = 30.0,
    ) -> None:
        self._up, self._down = up, down
        self._timeouts = (start_timeout, stop_timeout)
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._made: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            try:
                self._made = made = await self._up()
            except BaseException as exc:
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            try:
                await self._stop.wait()
            finally:
                await self._down(made)

        asyncio.run(main())

    def start(self) -> T:
        self._thread.start()
        assert self._ready.wait(self._timeouts[0]), f"{self._thread.name} did not start"
        if self._error is not None:
            raise self._error
        assert self._made is not None
        return self._made

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(self._timeouts[1])
