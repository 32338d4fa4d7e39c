"""The embedded MQTT broker (amqtt), for a hub that has no Mosquitto to talk to.

It listens on loopback by default and on port 18830, so it never collides with a
Mosquitto already serving 1883 on the same machine. With no security options it is open
(anonymous, plain TCP) — what the demo and a single-machine setup need.

Given the files ``feltwire certs`` and ``feltwire credentials`` make, it protects the
table like the shipped Mosquitto template (``systemd/mosquitto/feltwire.conf``):

- ``certfile`` + ``keyfile``: the listener speaks TLS only (``cafile`` names the CA that
  signs client certificates; ``require_certificate`` makes one mandatory);
- ``password_file``: every client needs a username and its password — no anonymous access;
- ``acl_file``: each credential publishes and reads only what its ACL block grants;
- ``local_port``: an extra plain listener on 127.0.0.1 only (same passwords and ACL), for
  the hub in this process and tools on this machine.
"""

from __future__ import annotations

import logging
import socket
import ssl
from pathlib import Path
from typing import Any

from amqtt.broker import Broker

log = logging.getLogger(__name__)

_AUTH_PLUGIN = "hub.security.amqtt_plugins.PasswordFileAuth"
_ACL_PLUGIN = "hub.security.amqtt_plugins.AclTopicCheck"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


class _Broker(Broker):  # type: ignore[misc]
    """amqtt's broker with TLS 1.2+ and, when asked, mandatory client certificates
    (amqtt itself only ever asks for an optional one)."""

    def __init__(self, config: dict[str, Any], *, require_certificate: bool) -> None:
        super().__init__(config)
        self._require_certificate = require_certificate

    def _create_ssl_context(self, listener: Any) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=listener.get("cafile"))
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(listener["certfile"], listener["keyfile"])
        if self._require_certificate:
            context.verify_mode = ssl.CERT_REQUIRED
        elif listener.get("cafile"):
            context.verify_mode = ssl.CERT_OPTIONAL
        else:
            context.verify_mode = ssl.CERT_NONE
        return context


def _readable(kind: str, path: Path | str | None) -> str | None:
    if path is None:
        return None
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"embedded broker: {kind} {p} does not exist")
    return str(p)


class EmbeddedBroker:
    """An in-process MQTT 3.1.1 broker; ``start()`` / ``stop()`` inside the event loop."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 18830,
        *,
        password_file: Path | str | None = None,
        acl_file: Path | str | None = None,
        certfile: Path | str | None = None,
        keyfile: Path | str | None = None,
        cafile: Path | str | None = None,
        require_certificate: bool = False,
        local_port: int | None = None,
    ) -> None:
        """Open (anonymous, plain) by default; see the module docstring for the options.

        ``port`` 0 picks a free port (so does ``local_port`` 0). Raises ValueError for an
        inconsistent combination (a key without a certificate, a required client
        certificate without a CA or without TLS).
        """
        if (certfile is None) != (keyfile is None):
            raise ValueError("embedded broker: certfile and keyfile go together")
        if require_certificate and (certfile is None or cafile is None):
            raise ValueError("embedded broker: require_certificate needs TLS and a cafile")
        self.host = host
        self.port = port or free_port(host)
        self.password_file = password_file
        self.acl_file = acl_file
        self.certfile = certfile
        self.keyfile = keyfile
        self.cafile = cafile
        self.require_certificate = require_certificate
        self.local_port = None if local_port is None else (local_port or free_port())
        self._broker: Any = None

    @property
    def tls(self) -> bool:
        """True when the main listener speaks TLS."""
        return self.certfile is not None

    def _config(self) -> dict[str, Any]:
        listener: dict[str, Any] = {"type": "tcp", "bind": f"{self.host}:{self.port}"}
        if self.tls:
            listener.update(
                ssl=True,
                certfile=_readable("certfile", self.certfile),
                keyfile=_readable("keyfile", self.keyfile),
            )
            if self.cafile is not None:
                listener["cafile"] = _readable("cafile", self.cafile)
        listeners: dict[str, Any] = {"default": listener}
        if self.local_port is not None:
            listeners["local"] = {"type": "tcp", "bind": f"127.0.0.1:{self.local_port}"}
        plugins: dict[str, Any] = {}
        if self.password_file is not None:
            plugins[_AUTH_PLUGIN] = {
                "password_file": _readable("password_file", self.password_file)
            }
        else:
            plugins["amqtt.plugins.authentication.AnonymousAuthPlugin"] = {"allow_anonymous": True}
        if self.acl_file is not None:
            plugins[_ACL_PLUGIN] = {"acl_file": _readable("acl_file", self.acl_file)}
        return {"listeners": listeners, "plugins": plugins}

    async def start(self) -> None:
        """Open the listeners; raises OSError when a port is taken, FileNotFoundError when
        a configured file is missing."""
        ports = [(self.host, self.port)]
        if self.local_port is not None:
            ports.append(("127.0.0.1", self.local_port))
        for host, port in ports:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                try:
                    probe.bind((host, port))
                except OSError as exc:
                    raise OSError(
                        f"embedded broker cannot listen on {host}:{port} ({exc.strerror}); "
                        "set mqtt.embedded_port to a free port, or mqtt.url to use a running "
                        "broker"
                    ) from None
        config = self._config()
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
        self._broker = _Broker(config, require_certificate=self.require_certificate)
        await self._broker.start()
        log.info(
            "embedded broker listening on %s:%d (%s%s%s)",
            self.host,
            self.port,
            "TLS" if self.tls else "plain TCP",
            ", passwords" if self.password_file is not None else ", anonymous",
            ", ACL" if self.acl_file is not None else "",
        )

    async def stop(self) -> None:
        """Close every connection and the listener."""
        if self._broker is not None:
            await self._broker.shutdown()
            self._broker = None

    @property
    def url(self) -> str:
        """The main listener's URL (``mqtts://`` with TLS), for nodes on this machine."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @property
    def local_url(self) -> str | None:
        """The loopback plain listener's URL, when there is one."""
        return None if self.local_port is None else f"mqtt://127.0.0.1:{self.local_port}"
