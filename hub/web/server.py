"""The hub's web server: uvicorn, set up so that no client can hold what others need.

:func:`server_config` turns ``[web]`` into uvicorn's config. Next to the address and
port it sets:

* **a request deadline** (``header_timeout_seconds``, 10 s) — :class:`GuardedH11Protocol`,
  uvicorn's h11 protocol with a timer that starts when a connection opens and again after
  each response, and stops only when a whole request (headers and body) has arrived. A
  connection that sends nothing, trickles its headers a byte at a time, or stops
  half-way (half-open: the client vanished) is closed when it runs out. uvicorn's own
  keep-alive timer (5 s after a response) stays; it restarts on every byte, the deadline
  does not;
* **connection limits** (:class:`ConnectionGuard`) — at most ``max_connections_per_address``
  open connections per client address (not for ``trusted_proxies``) and
  ``max_connections`` in all, WebSockets included (an upgraded connection keeps its
  place until it closes). One past a limit is closed at once, counted and logged
  (throttled);
* **proxy headers only from trusted proxies** — uvicorn believes ``X-Forwarded-For``
  from loopback by default; here only from ``[web] trusted_proxies`` (none by default),
  so a client cannot choose the address the sign-in limiter and the audit trail see;
* **WebSocket limits** — messages over ``max_body_bytes`` close the socket (1009); a
  ping every 20 s, and no pong within 20 s closes it (a half-open WebSocket lasts < 45 s);
* **writes gathered** — what a connection is sent in one turn of the event loop (a
  burst of frames, an answer's head and body) goes out in one system call
  (:mod:`hub.web.coalesce`);
* **uvicorn's own lines throttled** — a few a minute of each kind (:class:`LogThrottle`:
  ``Invalid HTTP request received.`` for every garbled request, and the like);
* **accept errors throttled** — when the process is out of file descriptors asyncio logs
  ``socket.accept() out of system resource`` with a traceback up to ``backlog`` times a
  second; :class:`AcceptErrorThrottle` counts them and lets a few lines a minute through.
  The open-file limit is raised towards what ``max_connections`` needs (within the hard
  limit; the systemd unit sets ``LimitNOFILE=``) and a warning says when it falls short.

Refusals are counted in the app's ``web_refusals`` counter (:data:`REFUSAL_COUNTERS`),
shared with the body cap (:mod:`hub.web.guard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import h11
from starlette.applications import Starlette
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from hub.app.throttle import ThrottledLog
from hub.security.limits import SlidingWindow
from hub.web.coalesce import coalescing

if TYPE_CHECKING:
    from hub.config import WebSettings

log = logging.getLogger(__name__)

BACKLOG = 256
"""The listening socket's queue, and so the most connections asyncio accepts in one go
(each holds a file descriptor until the guard has looked at it)."""

RESERVED_FILES = 1024
"""File descriptors kept for everything but web connections: event logs (three per
table), the audit trail, the MQTT connection, the embedded broker's clients."""

KEEP_ALIVE_SECONDS = 5
"""uvicorn's idle timeout after a response (restarts on any byte; the deadline does not)."""

WS_PING_SECONDS = 20.0
"""Ping interval of WebSockets, and how long a pong may take before the socket closes."""

ACCEPT_FAILED = "socket.accept() out of system resource"
"""The message asyncio's event loop reports when ``accept()`` fails for want of file
descriptors (or memory)."""
ACCEPT_RETRIES_FAILED = "accept_retries_failed"
"""Counter: asyncio's retries of accept() after EMFILE that failed (a listener closed)."""

OVER_ADDRESS = "connections_over_address_limit"
OVER_TOTAL = "connections_over_total_limit"
TIMED_OUT = "request_deadline_missed"
ACCEPTS_FAILED = "accepts_failed"
REFUSAL_COUNTERS = (
    OVER_ADDRESS,
    OVER_TOTAL,
    TIMED_OUT,
    ACCEPTS_FAILED,
    "body_too_large",
    "ws_client_message_ignored",  # hub.web.dependencies.FEED_MESSAGE_IGNORED
)
"""The keys of ``app.state.web_refusals``."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ConnectionGuard:
    """Counts the server's open connections per client address and in all; says whether
    another may open (see the module docstring). Pure bookkeeping: the protocols call it.

    >>> guard = ConnectionGuard(max_per_address=1, max_total=2, header_timeout=10)
    >>> guard.admit("10.0.0.1"), guard.admit("10.0.0.1"), guard.admit("10.0.0.2")
    (True, False, True)
    >>> guard.admit("10.0.0.3"), guard.open, dict(guard.counts)
    (False, 2, {'connections_over_address_limit': 1, 'connections_over_total_limit': 1})
    """

    def __init__(
        self,
        *,
        max_per_address: int,
        max_total: int,
        header_timeout: float,
        trusted_proxies: Iterable[str] = (),
        counts: Counter[str] | None = None,
    ) -> None:
        self.max_per_address = max_per_address
        self.max_total = max_total
        self.header_timeout = header_timeout
        self.trusted: tuple[Network, ...] = tuple(
            ipaddress.ip_network(p, strict=False) for p in trusted_proxies
        )
        self.counts: Counter[str] = counts if counts is not None else Counter()
        """Refusals by kind (:data:`REFUSAL_COUNTERS`)."""
        self.open = 0
        """Connections open now (admitted, not yet closed)."""
        self.open_by_address: Counter[str] = Counter()
        self._said = ThrottledLog(log, limit=5, window=60.0)
        self._said_timeouts = ThrottledLog(log, limit=5, window=60.0)

    def is_trusted(self, host: str) -> bool:
        """Whether ``host`` is one of ``trusted_proxies`` (exempt from the per-address limit:
        every client behind the proxy shares its address)."""
        if not self.trusted:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        mapped = getattr(address, "ipv4_mapped", None)
        if mapped is not None:
            address = mapped
        return any(address in network for network in self.trusted)

    def admit(self, host: str) -> bool:
        """Count a new connection from ``host``; False (counted as a refusal) when it is one
        too many — the caller closes it."""
        if self.open >= self.max_total:
            return self._refuse(OVER_TOTAL, host, f"max_connections ({self.max_total})")
        if self.open_by_address[host] >= self.max_per_address and not self.is_trusted(host):
            limit = f"max_connections_per_address ({self.max_per_address})"
            return self._refuse(OVER_ADDRESS, host, limit)
        self.open += 1
        self.open_by_address[host] += 1
        return True

    def _refuse(self, counter: str, host: str, limit: str) -> bool:
        self.counts[counter] += 1
        self._said.warning(
            "web: closed a connection from %s at once: %s reached (%d refused so far)",
            host or "?",
            limit,
            self.counts[OVER_ADDRESS] + self.counts[OVER_TOTAL],
        )
        return False

    def release(self, host: str) -> None:
        """A connection admitted for ``host`` has closed."""
        self.open -= 1
        self.open_by_address[host] -= 1
        if self.open_by_address[host] <= 0:
            del self.open_by_address[host]

    def timed_out(self, host: str) -> None:
        """A connection from ``host`` missed its request deadline and is being closed."""
        self.counts[TIMED_OUT] += 1
        self._said_timeouts.log(
            logging.INFO,
            "web: closed a connection from %s that sent no whole request within %g s (%d so far)",
            host or "?",
            self.header_timeout,
            self.counts[TIMED_OUT],
        )


class HubServerConfig(Config):
    """uvicorn's config, carrying the :class:`ConnectionGuard` its protocols share."""

    def __init__(self, app: Any, *, guard: ConnectionGuard, **kwargs: Any) -> None:
        self.guard = guard
        super().__init__(app, **kwargs)


def _guard_of(config: Config) -> ConnectionGuard:
    if not isinstance(config, HubServerConfig):
        raise TypeError("the hub's protocols need a HubServerConfig (hub.web.server)")
    return config.guard


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the request deadline and the connection limits."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = _guard_of(config)
        self._slot: str | None = None
        """The address this connection is counted under (None: not counted)."""
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(  # type: ignore[override]
        self, transport: asyncio.Transport
    ) -> None:
        super().connection_made(coalescing(transport))
        host = self.client[0] if self.client else ""
        if not self.guard.admit(host):
            self.transport.close()
            return
        self._slot = host
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._settle()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._arm()  # the next request has its own deadline
        super().on_response_complete()
        self._settle()  # a pipelined request may have come in whole already

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)
        upgraded = self.transport.get_protocol()
        if isinstance(upgraded, GuardedWebSocketProtocol):
            upgraded.hold_slot(self._slot)
            self._slot = None
        else:  # pragma: no cover - server_config always pairs the two
            self._release()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.guard.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _settle(self) -> None:
        """Stop the deadline once the current request is in whole (the handler's turn)."""
        cycle = self.cycle
        if (
            self._deadline is not None
            and cycle is not None
            and not cycle.more_body
            and not cycle.response_complete
        ):
            self._disarm()

    def _release(self) -> None:
        if self._slot is not None:
            self.guard.release(self._slot)
            self._slot = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        self.guard.timed_out(self._slot or "")
        self.transport.close()


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving back the upgraded connection's place in the
    :class:`ConnectionGuard` when it closes."""

    _slot: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(coalescing(transport))

    def hold_slot(self, slot: str | None) -> None:
        """Take over the place the HTTP connection held."""
        self._slot = slot

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            if self._slot is not None:
                _guard_of(self.config).release(self._slot)
                self._slot = None


class AcceptErrorThrottle:
    """An event-loop exception handler that counts and throttles asyncio's
    :data:`ACCEPT_FAILED` reports and hands every other report to the handler it replaced
    (or the loop's default)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, counts: Counter[str]) -> None:
        self.previous = loop.get_exception_handler()
        self.counts = counts
        self._said = ThrottledLog(log, limit=3, window=60.0)
        self._said_retries = ThrottledLog(log, limit=3, window=60.0)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_FAILED:
            self.counts[ACCEPTS_FAILED] += 1
            self._said.error(
                "web: cannot accept connections (%s): the hub is out of file descriptors; "
                "raise LimitNOFILE= in its systemd unit or lower [web] max_connections "
                "(%d accepts failed so far)",
                context.get("exception"),
                self.counts[ACCEPTS_FAILED],
            )
            return
        if _accept_retry_failed(context):
            # asyncio retries accept() a second after EMFILE, once per failed accept (up to
            # the backlog); a retry for a listener closed meanwhile fails again: one report
            # each, a traceback apiece — counted and throttled like the accept errors
            self.counts[ACCEPT_RETRIES_FAILED] += 1
            self._said_retries.error(
                "web: a retried accept failed (%s; %d so far): a listener closed while the "
                "hub was out of file descriptors",
                context.get("exception"),
                self.counts[ACCEPT_RETRIES_FAILED],
            )
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)


def _accept_retry_failed(context: dict[str, Any]) -> bool:
    """True for asyncio's report of a failed accept retry (``_start_serving``)."""
    handle = context.get("handle")
    callback = getattr(handle, "_callback", None)
    return getattr(callback, "__name__", "") == "_start_serving" and isinstance(
        context.get("exception"), OSError | ValueError
    )


class LogThrottle(logging.Filter):
    """A filter for uvicorn's own logger: at most a few records a minute of each kind
    (``Invalid HTTP request received.``, ``Unsupported upgrade request.``, an error of
    the app…), so garbage sent over many connections cannot flood the journal; the
    records left out are counted in :attr:`suppressed`."""

    def __init__(self, *, limit: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self._windows = SlidingWindow(limit, window, max_keys=256)
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if self._windows.hit(str(record.msg), time.monotonic()):
            return True
        self.suppressed += 1
        return False


def throttle_uvicorn_log() -> LogThrottle:
    """Put a :class:`LogThrottle` on uvicorn's ``uvicorn.error`` logger (once)."""
    logger = logging.getLogger("uvicorn.error")
    for existing in logger.filters:
        if isinstance(existing, LogThrottle):
            return existing
    throttle = LogThrottle()
    logger.addFilter(throttle)
    return throttle


def throttle_accept_errors(loop: asyncio.AbstractEventLoop, counts: Counter[str]) -> None:
    """Install :class:`AcceptErrorThrottle` on ``loop`` (once; a second call keeps the first)."""
    if not isinstance(loop.get_exception_handler(), AcceptErrorThrottle):
        loop.set_exception_handler(AcceptErrorThrottle(loop, counts))


def ensure_open_file_limit(needed: int) -> int:
    """Raise this process's soft open-file limit towards ``needed`` (never past the hard
    limit, never lower); returns the soft limit now, with a warning when it is short."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not Unix
        return needed
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return needed if soft == resource.RLIM_INFINITY else soft
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if target > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    if soft < needed:
        log.warning(
            "web: the open-file limit is %d but max_connections needs about %d: raise "
            "LimitNOFILE= (systemd) or ulimit -n, or lower [web] max_connections",
            soft,
            needed,
        )
    return soft


def server_config(app: Starlette, web: WebSettings, *, access_log: bool = False) -> HubServerConfig:
    """uvicorn's config for the hub's ``app`` as ``[web]`` says (see the module docstring).

    uvicorn installs no log handler of its own: its records go to the process's logging
    (:mod:`feltwire.logs`: one line each, JSON with ``--log-json``). It logs warnings and
    errors only, unless ``access_log``: then every request too (its access log, at info).

    Call it from the event loop the server will run on: the accept-error throttle is
    installed on that loop."""
    counts = getattr(app.state, "web_refusals", None)
    if not isinstance(counts, Counter):
        counts = Counter()
    guard = ConnectionGuard(
        max_per_address=web.max_connections_per_address,
        max_total=web.max_connections,
        header_timeout=web.header_timeout_seconds,
        trusted_proxies=web.trusted_proxies,
        counts=counts,
    )
    with contextlib.suppress(RuntimeError):  # no running loop: nothing to install on
        throttle_accept_errors(asyncio.get_running_loop(), counts)
    ensure_open_file_limit(web.max_connections + BACKLOG + RESERVED_FILES)
    config = HubServerConfig(
        app,
        guard=guard,
        host=web.host,
        port=web.port,
        log_config=None,
        log_level="info" if access_log else "warning",
        access_log=access_log,
        lifespan="off",
        http=GuardedH11Protocol,
        ws=GuardedWebSocketProtocol,
        ws_max_size=web.max_body_bytes,
        # frames are small JSON on a LAN: compressing each one for each client cost the
        # event loop more than any other part of sending it (issue 16's profile)
        ws_per_message_deflate=False,
        ws_ping_interval=WS_PING_SECONDS,
        ws_ping_timeout=WS_PING_SECONDS,
        proxy_headers=bool(web.trusted_proxies),
        forwarded_allow_ips=list(web.trusted_proxies) or None,
        backlog=BACKLOG,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    throttle_uvicorn_log()  # after the config: it (re)configures uvicorn's loggers
    if access_log:  # an earlier config in this process may have turned it off
        logging.getLogger("uvicorn.access").propagate = True
    return config


__all__ = [
    "ACCEPT_FAILED",
    "BACKLOG",
    "REFUSAL_COUNTERS",
    "AcceptErrorThrottle",
    "ConnectionGuard",
    "GuardedH11Protocol",
    "GuardedWebSocketProtocol",
    "HubServerConfig",
    "LogThrottle",
    "ensure_open_file_limit",
    "server_config",
    "throttle_accept_errors",
    "throttle_uvicorn_log",
]
