"""The embedded MQTT broker (amqtt), for a hub that has no Mosquitto to talk to.

It listens on loopback by default and on port 18830, so it never collides with a
Mosquitto already serving 1883 on the same machine. With no security options it is open
(anonymous, plain TCP) — what the demo and a single-machine setup need — and then it
listens on loopback only: an open broker on the network would hand every hole card's tag
to anyone who subscribes to ``#``, so the constructor refuses it.

Given the files ``feltwire certs`` and ``feltwire credentials`` make, it protects the
table like the shipped Mosquitto template (``systemd/mosquitto/feltwire.conf``):

- ``certfile`` + ``keyfile``: the listener speaks TLS only (``cafile`` names the CA that
  signs client certificates; ``require_certificate`` makes one mandatory);
- ``password_file``: every client needs a username and its password — no anonymous access;
- ``acl_file``: each credential publishes and reads only what its ACL block grants;
- ``local_port``: an extra plain listener on 127.0.0.1 only (same passwords and ACL), for
  tools on this machine.

The hub in the same process needs no password file entry of its own
(:meth:`EmbeddedBroker.from_settings`, ``hub_tables``): a guarded broker makes a
credential for it at construction — username :data:`HUB_USERNAME`, a random 256-bit
password that exists only in this process's memory (never written, logged or put in a
URL string) — and opens a second plain listener on 127.0.0.1 (:attr:`hub_port`) for it.
That listener admits that credential and nothing else, and the credential is refused on
every other listener, so neither a password nor a client certificate of a node can reach
the hub's door, and the hub's password could not be used from the network even if it
leaked. The credential may do what ``rules_for_role("hub", …)`` grants for each table the
hub serves. Client ids beginning ``feltwire-hub-`` belong to it too: another client that
uses one is refused before amqtt looks at the sessions (it can neither take over nor wipe
the hub's session, nor set a last will on it). Those refusals are counted
(:attr:`EmbeddedBroker.refused`) and logged at most once per ten seconds.
:attr:`hub_address` is what the hub's MQTT client connects to.

amqtt comes with the ``broker`` extra (``pip install 'feltwire[broker]'``): a hub on a
Mosquitto never imports this module, and importing it without amqtt raises an ImportError
that names the extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from amqtt.adapters import ReaderAdapter
    from amqtt.broker import Broker
    from amqtt.contexts import Action
    from amqtt.mqtt.connect import ConnectPacket
    from amqtt.session import Session
except ImportError as exc:  # a hub installed without the `broker` extra
    raise ModuleNotFoundError(
        f"the embedded broker (no [mqtt] url in the config) needs amqtt, which is not "
        f"installed ({exc.name} is missing): pip install 'feltwire[broker]', or set [mqtt] "
        "url to a running broker such as Mosquitto",
        name=exc.name,
    ) from exc

from feltwire.config import MqttUrl
from feltwire.protocol import HUB_CLIENT_ID_PREFIX
from hub.config import HubMqttSettings, is_loopback_host
from hub.security.acl import Acl, AclTable, rules_for_role

log = logging.getLogger(__name__)

_AUTH_PLUGIN = "hub.security.amqtt_plugins.PasswordFileAuth"
_ACL_PLUGIN = "hub.security.amqtt_plugins.AclTopicCheck"
_HUB_LISTENER = "hub"
"""The name of the hub's loopback listener in amqtt's config."""

HUB_USERNAME = "$feltwire-hub"
"""The username of the in-process hub's credential. ``feltwire credentials`` cannot make
it (``$`` is not allowed in its usernames); a password-file entry of that name is never
consulted."""

"""Client ids that belong to the in-process hub on a guarded embedded broker."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


_CONNACK_NOT_AUTHORIZED = bytes([0x20, 0x02, 0x00, 0x05])
"""CONNACK, no session present, return code 5 "not authorized" (MQTT 3.1.1)."""

_ADMITTED: ContextVar[bool] = ContextVar("feltwire_broker_admitted", default=False)
"""True in a connection's task once :meth:`_Broker._serve_connection` authenticated its
CONNECT (amqtt then asks again, on the session it picked; the answer is the same)."""

REFUSAL_LOG_SECONDS = 10.0
"""After a refusal is logged, further ones are only counted for this long, then summed up
in one line: a flood of connection attempts cannot fill the journal."""


class _Refusals:
    """Counts the door's refusals and logs them, throttled (monotonic clock)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = 0
        self._clock = clock
        self._quiet_until = float("-inf")
        self._unlogged = 0

    def note(self, why: str) -> None:
        self.count += 1
        now = self._clock()
        if now < self._quiet_until:
            self._unlogged += 1
            return
        more = (
            f" ({self._unlogged} more refused since the last such line)" if self._unlogged else ""
        )
        log.warning("embedded broker: refused %s%s", why, more)
        self._unlogged = 0
        self._quiet_until = now + REFUSAL_LOG_SECONDS


@dataclass
class _HubDoor:
    """The in-process hub's way into a guarded broker: its credential, its rules, the
    listener that admits it, and the client ids its connections used."""

    password: str = field(repr=False)
    acl: Acl = field(repr=False)
    bind: str = ""
    """The ``host:port`` of the hub's loopback listener: the only one that admits it."""
    client_ids: set[str] = field(default_factory=set)
    refusals: _Refusals = field(default_factory=_Refusals, repr=False)

    def admits(self, username: str | None, password: str | bytes | None) -> bool:
        """True for the hub's username with its password."""
        if username != HUB_USERNAME or password is None:
            return False
        given = password.encode("utf-8") if isinstance(password, str) else bytes(password)
        return hmac.compare_digest(given, self.password.encode("utf-8"))

    def owns(self, client_id: str | None) -> bool:
        """True for a client id that belongs to the hub."""
        return bool(client_id) and (
            client_id in self.client_ids or str(client_id).startswith(HUB_CLIENT_ID_PREFIX)
        )

    def verdict(
        self,
        bind: str | None,
        username: str | None,
        password: str | bytes | None,
        client_id: str | None,
    ) -> bool | None:
        """True: the hub, admitted; False: refused (noted); None: not the door's business
        (the password file and ACL decide)."""
        if bind == self.bind:
            if self.admits(username, password):
                return True
            self.refusals.note(
                f"{username!r} on the hub's loopback listener (it admits the in-process hub only)"
            )
            return False
        if username == HUB_USERNAME or self.owns(client_id):
            self.refusals.note(
                f"{username!r} with client id {client_id!r}: the hub's credential and client "
                "ids work on the hub's loopback listener only"
            )
            return False
        return None

    def allows(self, action: Any, topic: str, client_id: str | None) -> bool:
        """True when the hub's rules allow ``action`` on ``topic``."""
        if action == Action.PUBLISH:
            return self.acl.may_publish(HUB_USERNAME, topic, client_id)
        if action == Action.SUBSCRIBE:
            return self.acl.may_subscribe(HUB_USERNAME, topic, client_id)
        if action == Action.RECEIVE:
            return self.acl.may_receive(HUB_USERNAME, topic, client_id)
        return False


class _Recording(ReaderAdapter):  # type: ignore[misc]
    """A reader that keeps a copy of everything read through it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.data = bytearray()

    async def read(self, n: int = -1) -> bytes:
        data: bytes = await self.inner.read(n)
        self.data += data
        return data

    def feed_eof(self) -> None:
        self.inner.feed_eof()


class _Replay(ReaderAdapter):  # type: ignore[misc]
    """A reader that first gives back bytes already read, then reads on."""

    def __init__(self, inner: Any, head: bytes) -> None:
        self.inner = inner
        self.head = bytearray(head)

    async def read(self, n: int = -1) -> bytes:
        if not self.head:
            data: bytes = await self.inner.read(n)
            return data
        if n == -1:
            rest: bytes = await self.inner.read(-1)
            out, self.head = bytes(self.head) + rest, bytearray()
            return out
        out = bytes(self.head[:n])
        del self.head[:n]
        if len(out) < n:
            out += await self.inner.read(n - len(out))
        return out

    def feed_eof(self) -> None:
        self.inner.feed_eof()


class _Broker(Broker):  # type: ignore[misc]
    """amqtt's broker with TLS 1.2+ and, when asked, mandatory client certificates
    (amqtt itself only ever asks for an optional one), the in-process hub's door (its own
    loopback listener and credential, checked before any plugin), and every CONNECT
    authenticated before amqtt looks at the sessions.

    amqtt (0.12) deletes, or takes over, the session of the client id a connection names
    *before* it authenticates it, and a refused connection leaves that session marked
    connected to a handler that is gone: whatever comes for the session then is handed to
    that dead handler and lost, until its owner connects again. So anyone who can reach
    the port could wipe a node's subscriptions (its lights), make the hub's queued reads
    vanish, silence a client or set a last will on its session just by naming its client
    id with a wrong password. Here a connection is authenticated (the door, the password
    file, which binds a client id to the credential that first used it) on a session of
    its own first; one refused gets "not authorized" and touches nothing.
    """

    def __init__(
        self, config: dict[str, Any], *, require_certificate: bool, hub: _HubDoor | None
    ) -> None:
        super().__init__(config)
        self._require_certificate = require_certificate
        self._hub = hub
        self._connections: set[Any] = set()
        """The writers of the connections open now (each closed at the latest by
        :meth:`shutdown`)."""

    async def shutdown(self) -> None:
        """Stop the broker and close every connection: amqtt closes those of its sessions,
        and leaves open one whose CONNECT it has not taken yet (its client would wait on
        a broker that is gone)."""
        await super().shutdown()
        for writer in list(self._connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.close(), 1.0)

    async def _stop_handler(self, handler: Any) -> None:
        """Stop a connection's handler without hanging the broker's shutdown.

        amqtt (0.12) stops a handler by cancelling its reader task and waiting for the
        reader to say it stopped (``_reader_stopped``). A reader cancelled before its first
        step never runs, so never says so, and :meth:`shutdown` waited forever: a hub
        stopped while a client was connecting (its reader just created) never stopped. A
        reader that has ended has stopped, whether it said so or not."""
        stopping = asyncio.ensure_future(super()._stop_handler(handler))
        reader: asyncio.Task[None] | None = getattr(handler, "_reader_task", None)
        if reader is not None:
            await asyncio.wait({stopping, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader.done():
                handler._reader_stopped.set()
        await stopping

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

    async def _client_connected(self, listener_name: str, reader: Any, writer: Any) -> None:
        self._connections.add(writer)
        try:
            await self._serve_connection(listener_name, reader, writer)
        finally:
            self._connections.discard(writer)

    async def _serve_connection(self, listener_name: str, reader: Any, writer: Any) -> None:
        recording = _Recording(reader)
        try:
            connect = await ConnectPacket.from_stream(recording)
        except Exception:  # amqtt reads it again below, and refuses and logs it
            connect = None
        if connect is not None:
            if not await self._admits(connect, self.listeners_config[listener_name]):
                with contextlib.suppress(Exception):
                    writer.write(_CONNACK_NOT_AUTHORIZED)
                    await writer.drain()
                    await writer.close()
                return
            _ADMITTED.set(True)
        await super()._client_connected(
            listener_name, _Replay(reader, bytes(recording.data)), writer
        )

    async def _admits(self, connect: Any, listener: Any) -> bool:
        """Authenticate ``connect`` on a session of its own, none of amqtt's touched."""
        session = Session()
        session.client_id = connect.client_id
        session.username = connect.username
        session.password = connect.password
        return await self._check_credentials(session, listener)

    async def _authenticate(self, session: Any, listener: Any) -> bool:
        if _ADMITTED.get():
            return True
        return await self._check_credentials(session, listener)

    async def _check_credentials(self, session: Any, listener: Any) -> bool:
        hub = self._hub
        if hub is None:
            return bool(await super()._authenticate(session, listener))
        client_id: str | None = session.client_id
        verdict = hub.verdict(listener.get("bind"), session.username, session.password, client_id)
        if verdict is None:
            return bool(await super()._authenticate(session, listener))
        if verdict and client_id:
            hub.client_ids.add(client_id)
        return verdict

    async def _topic_filtering(self, session: Any, topic: str, action: Any) -> bool:
        hub = self._hub
        if hub is not None and session is not None and session.username == HUB_USERNAME:
            # only a session the hub's door let in carries the hub's name (see _authenticate)
            client_id: str | None = session.client_id
            if client_id in hub.client_ids and topic:
                allowed = hub.allows(action, topic, client_id)
                if not allowed:
                    log.info("refused %s of %r by the in-process hub", action, topic)
                return allowed
            return False
        return bool(await super()._topic_filtering(session, topic, action))


def hub_acl(tables: Sequence[str]) -> Acl:
    """The in-process hub's access rules: ``rules_for_role("hub", …)`` of every table."""
    acl = AclTable()
    own = acl.users.setdefault(HUB_USERNAME, [])
    for table in tables:
        for rule in rules_for_role("hub", table=table, node=None, username=HUB_USERNAME):
            (acl.patterns if rule.pattern else own).append(rule)
    return Acl(acl)


def _readable(kind: str, path: Path | str | None) -> str | None:
    if path is None:
        return None
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"embedded broker: {kind} {p} does not exist")
    return str(p)


class EmbeddedBroker:
    """An in-process MQTT 3.1.1 broker; ``start()`` / ``stop()`` inside the event loop.

    >>> EmbeddedBroker("127.0.0.1", 18830).url
    'mqtt://127.0.0.1:18830'
    >>> EmbeddedBroker("0.0.0.0", 18830)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: embedded broker on 0.0.0.0: off loopback it needs password_file, ...
    """

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
        hub_tables: Sequence[str] | None = None,
    ) -> None:
        """Open (anonymous, plain, loopback only) by default; see the module docstring.

        ``port`` 0 picks a free port (so does ``local_port`` 0). ``hub_tables``: the tables
        the hub in this process serves; with a ``password_file`` the broker then makes the
        hub's credential and loopback listener (:attr:`hub_address`). Raises ValueError for
        an inconsistent combination (a key without a certificate, a required client
        certificate without a CA or without TLS) and for a host off loopback without
        passwords, ACL and TLS.
        """
        if (certfile is None) != (keyfile is None):
            raise ValueError("embedded broker: certfile and keyfile go together")
        if require_certificate and (certfile is None or cafile is None):
            raise ValueError("embedded broker: require_certificate needs TLS and a cafile")
        if not is_loopback_host(host):
            guards = {
                "password_file": password_file,
                "acl_file": acl_file,
                "certfile": certfile,
                "keyfile": keyfile,
            }
            missing = [name for name, value in guards.items() if value is None]
            if missing:
                raise ValueError(
                    f"embedded broker on {host}: off loopback it needs {', '.join(missing)} "
                    "(anonymous is for loopback only)"
                )
        self.host = host
        self.port = port or free_port(host)
        self.password_file = password_file
        self.acl_file = acl_file
        self.certfile = certfile
        self.keyfile = keyfile
        self.cafile = cafile
        self.require_certificate = require_certificate
        self.local_port = None if local_port is None else (local_port or free_port())
        self._hub: _HubDoor | None = None
        self.hub_port: int | None = None
        """The port of the hub's loopback listener (None: the hub uses the main one)."""
        if hub_tables is not None and password_file is not None:
            if not hub_tables:
                raise ValueError("embedded broker: hub_tables needs at least one table")
            self.hub_port = free_port()
            self._hub = _HubDoor(
                password=secrets.token_urlsafe(32), acl=hub_acl(hub_tables), bind=self._hub_bind
            )
        self._broker: Any = None

    @classmethod
    def from_settings(cls, settings: HubMqttSettings, *, tables: Sequence[str]) -> EmbeddedBroker:
        """The broker ``[mqtt]`` of ``hub.toml`` describes, for a hub serving ``tables``;
        its :attr:`hub_address` is where (and as whom) that hub connects."""
        return cls(
            settings.embedded_host,
            settings.embedded_port,
            password_file=settings.embedded_password_file,
            acl_file=settings.embedded_acl_file,
            certfile=settings.embedded_cert_file,
            keyfile=settings.embedded_key_file,
            cafile=settings.embedded_ca_file,
            require_certificate=settings.embedded_require_certificate,
            hub_tables=list(tables),
        )

    @property
    def _hub_bind(self) -> str:
        return f"127.0.0.1:{self.hub_port}"

    @property
    def refused(self) -> int:
        """Connections the hub's door refused (the hub's credential or client id off its
        listener, anything else on it); the password file's refusals are not counted."""
        return 0 if self._hub is None else self._hub.refusals.count

    @property
    def guarded(self) -> bool:
        """True when every client needs a username and its password."""
        return self.password_file is not None

    @property
    def hub_address(self) -> MqttUrl:
        """Where the hub in this process connects: on a guarded broker its own loopback
        listener with its in-process credential; otherwise the main listener."""
        if self._hub is not None and self.hub_port is not None:
            return MqttUrl(
                host="127.0.0.1",
                port=self.hub_port,
                username=HUB_USERNAME,
                password=self._hub.password,
            )
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return MqttUrl(host=host, port=self.port, tls=self.tls)

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
        plain: dict[str, Any] = {}
        if self.local_port is not None:
            plain["local"] = {"type": "tcp", "bind": f"127.0.0.1:{self.local_port}"}
        if self.hub_port is not None:
            plain[_HUB_LISTENER] = {"type": "tcp", "bind": self._hub_bind}
        if self.tls and plain:
            # amqtt fills every setting a listener leaves at its default value (ssl,
            # certfile …) from the listener named "default": beside a TLS listener, a plain
            # one must itself be "default" or it would speak TLS too
            first = next(iter(plain))
            listeners: dict[str, Any] = {"default": plain.pop(first), "network": listener}
        else:
            listeners = {"default": listener}
        listeners.update(plain)
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
        if self.hub_port is not None:
            ports.append(("127.0.0.1", self.hub_port))
        for host, port in ports:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                # as the listener itself binds (asyncio sets SO_REUSEADDR): connections
                # of a hub just stopped, left in TIME_WAIT, do not hold the port
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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
        self._broker = _Broker(config, require_certificate=self.require_certificate, hub=self._hub)
        await self._broker.start()
        log.info(
            "embedded broker listening on %s:%d (%s%s%s%s)%s",
            self.host,
            self.port,
            "TLS" if self.tls else "plain TCP",
            ", client certificates" if self.require_certificate else "",
            ", passwords" if self.password_file is not None else ", anonymous",
            ", ACL" if self.acl_file is not None else "",
            f"; the hub's own listener 127.0.0.1:{self.hub_port}" if self.hub_port else "",
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
