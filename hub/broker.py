"""The embedded MQTT broker (amqtt), for a hub that has no Mosquitto to talk to.

It listens on loopback by default and on port 18830, so it never collides with a
Mosquitto already serving 1883 on the same machine.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

from amqtt.broker import Broker

log = logging.getLogger(__name__)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


class EmbeddedBroker:
    """An in-process MQTT 3.1.1 broker; ``start()`` / ``stop()`` inside the event loop."""

    def __init__(self, host: str = "127.0.0.1", port: int = 18830) -> None:
        self.host = host
        self.port = port or free_port(host)
        self._broker: Any = None

    async def start(self) -> None:
        """Open the listener; raises OSError when the port is taken."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((self.host, self.port))
            except OSError as exc:
                raise OSError(
                    f"embedded broker cannot listen on {self.host}:{self.port} ({exc.strerror}); "
                    "set mqtt.embedded_port to a free port, or mqtt.url to use a running broker"
                ) from None
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
        self._broker = Broker(
            {
                "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
                "plugins": {
                    "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
                },
            }
        )
        await self._broker.start()
        log.info("embedded broker listening on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        """Close every connection and the listener."""
        if self._broker is not None:
            await self._broker.shutdown()
            self._broker = None

    @property
    def url(self) -> str:
        """The broker's URL, for nodes on this machine."""
        return f"mqtt://{self.host}:{self.port}"
