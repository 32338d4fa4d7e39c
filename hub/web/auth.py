"""Who may use which page, feed and API of the hub: roles, credentials, the access rule.

Four roles (docs/security.md):

* ``public`` — anyone: the public table view and its feed (never a hole card);
* ``dealer`` — the dealer console: actions, undo, misdeal, seats (never a hole card
  before showdown);
* ``producer`` — the broadcast overlay with every card, delayed as configured;
* ``admin`` — everything the others may, plus the audit trail.

Every route of the app declares who may use it with a dependency made by :func:`allow`
(``Depends(allow(Role.DEALER, Role.ADMIN))``); the access test walks the app's route
table and fails on a route without one. A request proves its role with

* an **issued token** — ``fwt1.<claims>.<mac>``, HMAC-SHA256 over the claims (role,
  name, expiry) with the hub's secret — as ``Authorization: Bearer …``, the
  ``X-Feltwire-Token`` header or ``?token=`` (an OBS browser source can only carry a URL);
* the configured **producer token** (``[web] producer_token``), a producer credential;
* or nothing: the ``public`` role.

A token that is forged, expired or garbled is refused outright (401), never downgraded to
public, so a client learns its credential is bad.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from fastapi import HTTPException, WebSocketException, status
from starlette.requests import HTTPConnection

TOKEN_PREFIX = "fwt1"


class Role(StrEnum):
    """What a user of the hub's web side is."""

    PUBLIC = "public"
    DEALER = "dealer"
    PRODUCER = "producer"
    ADMIN = "admin"


EVERYONE = frozenset(Role)
STAFF = frozenset({Role.DEALER, Role.PRODUCER, Role.ADMIN})


class AuthError(Exception):
    """A credential that proves nothing: forged, expired or garbled."""


@dataclass(frozen=True)
class Principal:
    """Who is asking: a name, a role, how they proved it, and from where."""

    name: str
    role: Role
    via: Literal["anonymous", "token", "session"]
    source: str = ""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Issues and checks ``fwt1`` tokens with one secret (HMAC-SHA256)."""

    def __init__(self, secret: bytes, *, clock: Callable[[], float] = time.time) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret needs at least 16 bytes")
        self._secret = secret
        self._clock = clock

    def _mac(self, claims: str) -> str:
        digest = hmac.new(self._secret, f"{TOKEN_PREFIX}.{claims}".encode(), hashlib.sha256)
        return _b64(digest.digest())

    def issue(self, role: Role, name: str, *, seconds: float) -> str:
        """A token for ``name`` in ``role``, good for ``seconds`` from now."""
        claims = _b64(
            json.dumps(
                {"r": role.value, "n": name, "e": int(self._clock() + seconds)},
                separators=(",", ":"),
            ).encode()
        )
        return f"{TOKEN_PREFIX}.{claims}.{self._mac(claims)}"

    def check(self, token: str) -> tuple[Role, str]:
        """The role and name a token proves (AuthError when it proves nothing)."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != TOKEN_PREFIX:
            raise AuthError("not a feltwire token")
        claims, mac = parts[1], parts[2]
        if not hmac.compare_digest(mac.encode(), self._mac(claims).encode()):
            raise AuthError("token signature does not match (forged or from another hub)")
        try:
            data = json.loads(_unb64(claims))
            role = Role(data["r"])
            name = str(data["n"])
            expires = float(data["e"])
        except (ValueError, KeyError, TypeError) as err:
            raise AuthError(f"token claims unreadable: {err}") from None
        if expires <= self._clock():
            raise AuthError("token expired")
        return role, name


class WebAuth:
    """The hub's credentials: the token signer and the configured producer token."""

    def __init__(
        self,
        *,
        secret: bytes | None = None,
        producer_token: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.clock = clock
        self.signer = TokenSigner(secret or secrets.token_bytes(32), clock=clock)
        self.producer_token = producer_token

    def issue(self, role: Role, name: str, *, seconds: float = 12 * 3600) -> str:
        """A token for ``name`` in ``role`` (default: good for twelve hours)."""
        return self.signer.issue(role, name, seconds=seconds)

    def _token_of(self, conn: HTTPConnection) -> str | None:
        header = conn.headers.get("authorization")
        if header is not None:
            scheme, _, value = header.partition(" ")
            if scheme.lower() == "bearer" and value:
                return value.strip()
        return conn.headers.get("x-feltwire-token") or conn.query_params.get("token")

    def identify(self, conn: HTTPConnection) -> Principal:
        """Who sent this request (AuthError when its credential proves nothing)."""
        source = conn.client.host if conn.client is not None else ""
        token = self._token_of(conn)
        if token is None:
            return Principal("anonymous", Role.PUBLIC, "anonymous", source)
        if self.producer_token is not None and hmac.compare_digest(
            token.encode(), self.producer_token.encode()
        ):
            return Principal("producer-token", Role.PRODUCER, "token", source)
        role, name = self.signer.check(token)
        return Principal(name, role, "token", source)


class Access:
    """The access rule of one route: the roles allowed (a FastAPI dependency).

    Over HTTP a refusal is 401 (no or a bad credential) or 403 (a good one, the wrong
    role); a WebSocket is closed with 1008 (policy violation) before it is accepted.
    """

    def __init__(self, roles: Iterable[Role]) -> None:
        self.roles = frozenset(roles)
        if not self.roles:
            raise ValueError("a route must allow at least one role")

    def __repr__(self) -> str:
        return f"allow({', '.join(sorted(r.value for r in self.roles))})"

    def _refuse(self, conn: HTTPConnection, code: int, reason: str) -> Exception:
        if conn.scope["type"] == "websocket":
            return WebSocketException(code=status.WS_1008_POLICY_VIOLATION, reason=reason)
        headers = {"WWW-Authenticate": "Bearer"} if code == 401 else None
        return HTTPException(status_code=code, detail=reason, headers=headers)

    async def __call__(self, conn: HTTPConnection) -> Principal:
        auth: WebAuth = conn.app.state.auth
        try:
            who = auth.identify(conn)
        except AuthError as err:
            raise self._refuse(conn, 401, str(err)) from None
        if who.role is Role.ADMIN or who.role in self.roles:
            return who
        if who.role is Role.PUBLIC:
            raise self._refuse(conn, 401, f"sign in as {self._names()}")
        raise self._refuse(conn, 403, f"the {who.role.value} role may not; needs {self._names()}")

    def _names(self) -> str:
        return " or ".join(sorted(r.value for r in self.roles))


def allow(*roles: Role) -> Access:
    """The access rule allowing ``roles`` (admin is always allowed too)."""
    return Access(roles)
