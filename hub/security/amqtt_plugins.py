"""The embedded broker's guards: amqtt plugins that enforce a Mosquitto password file
and ACL file, so the embedded broker and a Mosquitto give the same protection.

- :class:`PasswordFileAuth` refuses a client without a username, an unknown username and
  a wrong password (``$7$`` PBKDF2 hashes, see :mod:`hub.security.passwords`). It also
  binds each client id to the first username that logged in with it, so a node cannot
  take over the hub's persistent session (and the reads queued in it) by using the hub's
  client id.
- :class:`AclTopicCheck` allows a publish, a subscription and each delivered message only
  as the ACL file grants (:class:`hub.security.acl.Acl`); a refused publish is dropped, a
  refused subscription gets the failure return code 0x80.

Both files are read again when they change, so ``feltwire credentials add`` takes effect
on the next connection without a restart.

Only the embedded broker (:mod:`hub.adapters.broker`) loads this module, by name; amqtt
comes with the ``broker`` extra.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from amqtt.contexts import Action
    from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
except ImportError as exc:  # a hub installed without the `broker` extra
    raise ModuleNotFoundError(
        f"the embedded broker's guards need amqtt, which is not installed ({exc.name} is "
        "missing): pip install 'feltwire[broker]'",
        name=exc.name,
    ) from exc

from hub.security.acl import Acl, AclTable, read_acl_file
from hub.security.passwords import read_password_file, verify_password

log = logging.getLogger(__name__)


class _WatchedFile:
    """A file parsed again whenever its modification time or size changes."""

    def __init__(self, path: str, min_interval: float = 1.0) -> None:
        self.path = Path(path)
        self.min_interval = min_interval
        self._stamp: tuple[int, int] | None = None
        self._checked = 0.0

    @classmethod
    def named(cls, plugin: Any, key: str, min_interval: float = 1.0) -> _WatchedFile:
        """The file that ``plugin``'s config names under ``key`` (ValueError: none)."""
        path = str(getattr(plugin.config, key))
        if not path:
            raise ValueError(f"{type(plugin).__name__} needs {key!r}")
        return cls(path, min_interval)

    def changed(self) -> bool:
        """True on the first call and whenever the file changed since the last True."""
        now = time.monotonic()
        if self._stamp is not None and now - self._checked < self.min_interval:
            return False
        self._checked = now
        st = os.stat(self.path)
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        return True


class PasswordFileAuth(BaseAuthPlugin):  # type: ignore[misc]
    """Authenticates every client against a Mosquitto password file; no anonymous access."""

    @dataclass
    class Config:
        """``password_file``: the path of a ``username:$7$…`` file."""

        password_file: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._file = _WatchedFile.named(self, "password_file", min_interval=0.0)
        self._users: dict[str, str] = {}
        self._owners: dict[str, str] = {}  # client id -> username that first used it
        self._reload()

    def _reload(self) -> None:
        if self._file.changed():
            self._users = read_password_file(self._file.path)
            log.info("embedded broker: %d credentials from %s", len(self._users), self._file.path)

    async def authenticate(self, *, session: Any) -> bool:
        """True only for a known username with its password, on a client id it owns."""
        username: str | None = session.username
        password = session.password
        client_id: str | None = session.client_id
        owner = self._owners.get(client_id) if client_id else None
        ok = await self._check(username, password)
        if ok and owner is not None and owner != username:
            log.warning(
                "refused %r: client id %r belongs to another credential", username, client_id
            )
            ok = False
        if not ok:
            return False
        if client_id and owner is None:
            self._owners[client_id] = str(username)
        return True

    async def _check(self, username: str | None, password: str | bytes | None) -> bool:
        if not username or password is None:
            log.info("refused a client without username or password")
            return False
        try:
            self._reload()
        except (OSError, ValueError):
            log.exception("cannot read the password file; keeping the previous one")
        password_hash = self._users.get(username)
        if password_hash is None:
            log.info("refused unknown user %r", username)
            return False
        if isinstance(password, bytes):
            password = password.decode("utf-8", "replace")
        if not await asyncio.to_thread(verify_password, password, password_hash):
            log.info("refused user %r: wrong password", username)
            return False
        return True


class AclTopicCheck(BaseTopicPlugin):  # type: ignore[misc]
    """Allows publish, subscribe and delivery only as a Mosquitto ACL file grants."""

    @dataclass
    class Config:
        """``acl_file``: the path of a Mosquitto acl_file."""

        acl_file: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._file = _WatchedFile.named(self, "acl_file")
        self._acl = Acl(AclTable())
        self._reload()

    def _reload(self) -> None:
        try:
            if self._file.changed():
                self._acl = Acl(read_acl_file(self._file.path))
                log.info("embedded broker: access rules from %s", self._file.path)
        except (OSError, ValueError):
            log.exception("cannot read the ACL file; keeping the previous rules")

    async def topic_filtering(
        self, *, session: Any = None, topic: str | None = None, action: Any = None
    ) -> bool:
        """True when the session's user may do ``action`` on ``topic``."""
        if session is None or not topic:
            return False
        self._reload()
        username: str | None = session.username or None
        client_id: str | None = session.client_id
        if action == Action.PUBLISH:
            allowed = self._acl.may_publish(username, topic, client_id)
        elif action == Action.SUBSCRIBE:
            allowed = self._acl.may_subscribe(username, topic, client_id)
        elif action == Action.RECEIVE:
            allowed = self._acl.may_receive(username, topic, client_id)
        else:
            allowed = False
        if not allowed:
            log.info("refused %s of %r by %r", action, topic, username)
        return allowed


__all__ = ["AclTopicCheck", "PasswordFileAuth"]
