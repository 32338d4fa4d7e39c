"""The hub's composition root: one validated config in, a running hub out.

:func:`start_hub` builds the deck, the service, the embedded broker (when no broker URL
is configured), the MQTT ingest task and the web server, and returns a
:class:`HubRuntime` to stop them again. ``feltwire hub``, the demo and the integration
tests all start the hub this way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import uvicorn

from feltwire.config import MqttUrl, parse_mqtt_url
from feltwire.deck import Deck, load_deck, simulated_deck
from hub.broker import EmbeddedBroker
from hub.config import HubConfig
from hub.eventlog import EVENT_LOG_FILE, EventLog
from hub.service import HubService, run_mqtt
from hub.table_service import TableService
from hub.web.app import create_app
from hub.web.auth import Role, WebAuth

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    """uvicorn without its own signal handlers: the process's entry point owns signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@dataclass
class HubRuntime:
    """A running hub: its service, where it listens, and how to stop it."""

    config: HubConfig
    service: HubService
    broker: MqttUrl
    web_url: str
    producer_token: str
    auth: WebAuth
    embedded: EmbeddedBroker | None
    _server: _Server
    rules: TableService | None = None
    """The table's rules (when the config has a ``[rules]`` section)."""
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    log: EventLog | None = None
    """The event log (when the config has a ``state_dir``)."""

    @property
    def overlay_url(self) -> str:
        """The producer's overlay page, token included."""
        return f"{self.web_url}/overlay?token={self.producer_token}"

    def token(self, role: Role, name: str | None = None, *, seconds: float = 12 * 3600) -> str:
        """An access token for ``role`` on this hub (see :mod:`hub.web.auth`)."""
        return self.auth.issue(role, name or role.value, seconds=seconds)

    async def stop(self) -> None:
        """Stop the web server, the ingest and the embedded broker."""
        self._server.should_exit = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.embedded is not None:
            await self.embedded.stop()
        if self.log is not None:
            self.log.close()


async def start_hub(
    config: HubConfig,
    *,
    deck: Deck | None = None,
    clock: Callable[[], float] = time.time,
) -> HubRuntime:
    """Start every part of the hub described by ``config``.

    With a ``state_dir`` the event log there is replayed first (the table, the hand, the
    lights and the feeds' snapshots are as they were), then the hub goes live.
    """
    if deck is None:
        deck = load_deck(config.deck) if config.deck else simulated_deck()
    event_log = (
        EventLog(config.state_dir / EVENT_LOG_FILE, config.table, sync=config.event_log_sync)
        if config.state_dir is not None
        else None
    )
    service = HubService(
        table=config.table,
        readers=list(config.readers),
        deck=deck,
        max_payload_bytes=config.max_payload_bytes,
        overlay_delay_s=config.web.overlay_delay_minutes * 60,
        clock=clock,
        game=config.game,
        live_equity=config.live_equity,
        log=event_log,
    )
    try:
        rules = (
            TableService(service, config.rules, game_code=config.game)
            if config.rules is not None
            else None
        )
        service.replay()
    except BaseException:
        if event_log is not None:
            event_log.close()
        raise
    embedded: EmbeddedBroker | None = None
    if config.mqtt.url is None:
        embedded = EmbeddedBroker(config.mqtt.embedded_host, config.mqtt.embedded_port)
        await embedded.start()
        broker = parse_mqtt_url(embedded.url)
    else:
        broker = parse_mqtt_url(config.mqtt.url)

    token = (
        config.web.producer_token.get_secret_value()
        if config.web.producer_token
        else secrets.token_urlsafe(16)
    )
    secret = config.web.token_secret
    auth = WebAuth(
        secret=secret.get_secret_value().encode() if secret is not None else None,
        producer_token=token,
        clock=clock,
    )
    app = create_app(service, auth=auth)
    server = _Server(
        uvicorn.Config(
            app,
            host=config.web.host,
            port=config.web.port,
            log_level="warning",
            lifespan="off",
            ws_ping_interval=20,
        )
    )
    tasks: list[asyncio.Task[None]] = [
        asyncio.create_task(server.serve(), name="web"),
        asyncio.create_task(
            run_mqtt(service, broker, keepalive=config.mqtt.keepalive), name="mqtt"
        ),
        asyncio.create_task(service.run_release(), name="overlay-release"),
        asyncio.create_task(service.run_equity(), name="equity"),
    ]
    if rules is not None and config.rules is not None and config.rules.tick_seconds > 0:
        tasks.append(
            asyncio.create_task(rules.run_ticks(config.rules.tick_seconds), name="rules-tick")
        )
    while not server.started:
        if tasks[0].done():
            tasks[0].result()
            raise RuntimeError(f"web server could not start on {config.web.host}:{config.web.port}")
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    host = config.web.host if config.web.host not in ("0.0.0.0", "::") else "127.0.0.1"
    runtime = HubRuntime(
        config=config,
        service=service,
        broker=broker,
        web_url=f"http://{host}:{port}",
        producer_token=token,
        auth=auth,
        embedded=embedded,
        _server=server,
        _tasks=tasks,
        rules=rules,
        log=event_log,
    )
    log.info(
        "hub for table %s: page %s, broker %s:%d, event log %s (%d inputs replayed)",
        config.table,
        runtime.web_url,
        broker.host,
        broker.port,
        event_log.path if event_log is not None else "none",
        service.replayed,
    )
    return runtime
