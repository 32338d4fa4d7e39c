"""The request-body cap: the first thing every HTTP request meets, before any access rule.

FastAPI reads a request's whole body before it resolves the route's dependencies — the
access rule among them — so without a cap anyone could make the hub hold any amount of
memory with one unauthenticated POST. :class:`BodyLimit` is a pure ASGI middleware in
front of the app:

* a request whose ``Content-Length`` is over the cap is answered ``413`` at once — the
  app is never called and nothing of the body is read;
* a body without a length (``Transfer-Encoding: chunked``) is counted as it streams in;
  the moment it passes the cap the client gets ``413`` and the app is told the client
  has gone (``http.disconnect``) — so at most the cap is ever buffered per request;
* either way the answer carries ``Connection: close``: the server stops reading and the
  connection ends, instead of swallowing the rest.

WebSocket messages are capped by the server (``ws_max_size``, :mod:`hub.web.server`).
Every refusal is counted in ``counts["body_too_large"]`` and logged, throttled.

>>> import asyncio
>>> async def app(scope, receive, send):
...     raise AssertionError("never called")
>>> sent = []
>>> async def send(message): sent.append(message)
>>> async def receive(): return {"type": "http.request", "body": b"", "more_body": False}
>>> scope = {"type": "http", "method": "POST", "path": "/x",
...          "headers": [(b"content-length", b"99999999")]}
>>> asyncio.run(BodyLimit(app, max_bytes=1024)(scope, receive, send))
>>> sent[0]["status"]
413
"""

from __future__ import annotations

import json
import logging
from collections import Counter

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub.app.throttle import ThrottledLog

log = logging.getLogger(__name__)

COUNTER = "body_too_large"
"""The key of ``counts`` that counts refused bodies."""


def _declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length`` (None: none given, or not a number — the HTTP
    parser refuses the latter before the app is called)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` before the app reads them (see the module
    docstring); ``counts`` (shared with the server's other refusals) counts them."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, counts: Counter[str] | None = None) -> None:
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        self.app = app
        self.max_bytes = max_bytes
        self.counts: Counter[str] = counts if counts is not None else Counter()
        self._said = ThrottledLog(log, limit=5, window=60.0)

    def _body(self) -> bytes:
        return json.dumps(
            {"detail": f"the request body is larger than {self.max_bytes} bytes"}
        ).encode()

    async def _refuse(self, scope: Scope, send: Send, how: str) -> None:
        self.counts[COUNTER] += 1
        client = scope.get("client")
        self._said.warning(
            "refused a request body %s over %d bytes: %s %s from %s (%d refused so far)",
            how,
            self.max_bytes,
            scope.get("method", "?"),
            scope.get("path", "?"),
            client[0] if client else "?",
            self.counts[COUNTER],
        )
        body = self._body()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, send, "declared")
            return

        received = 0
        refused = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused = True
                    if not started:
                        await self._refuse(scope, send, "streamed")
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 went out; what the app says after it goes nowhere
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not refused:
                raise
            # the app failed on the body it was denied (a disconnect mid-read): expected


__all__ = ["COUNTER", "BodyLimit"]
