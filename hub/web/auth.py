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

* a **session** — a user signed in at ``/login`` (:mod:`hub.web.session`) and the
  browser sends the ``feltwire_session`` cookie (``HttpOnly``, ``SameSite=Strict``);
* an **issued token** — ``fwt1.<claims>.<mac>``, HMAC-SHA256 over the claims (role,
  name, expiry) with the hub's secret — as ``Authorization: Bearer …``, the
  ``X-Feltwire-Token`` header or ``?token=`` (an OBS browser source can only carry a URL);
* the configured **producer token** (``[web] producer_token``), a producer credential;
* or nothing: the ``public`` role.

A token that is forged, expired or garbled is refused outright (401), never downgraded to
public, so a client learns its credential is bad. A session cookie that no longer names a
live session (expired, signed out, the hub restarted) counts as no credential: the browser
sends it everywhere unasked, and the public view and the sign-in page must keep working;
a route that needs a role then answers 401 "sign in again".

The rule also guards what a cookie cannot: a state-changing request (POST, PUT, PATCH,
DELETE) authenticated by the session cookie must carry ``X-CSRF-Token`` equal to the
session's token (403 otherwise), and a WebSocket opened with the cookie must come from the
hub's own origin. Requests carrying a token are exempt — a token is never sent by the
browser on its own. A rule made with ``audit="…"`` (the routes that carry hole cards)
appends every open and every refusal to the audit trail (:mod:`hub.security.audit`).

Clocks: sessions' idle and absolute expiry and the sign-in limiter run on a monotonic
clock (``monotonic``), so a wall-clock jump neither ends nor extends them. The wall clock
(``clock``) is only for what must mean the same across restarts or to people: a token's
expiry ``e`` (seconds since the epoch — a token outlives the process that issued it, so a
wall-clock jump does move it), audit entry times, and the expiry times shown to clients.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from fastapi import WebSocketException, status
from starlette.requests import HTTPConnection

from hub.app.throttle import ThrottledLog
from hub.security.audit import (
    AUDIT_FILE,
    REFUSALS_PER_MINUTE,
    REFUSALS_PER_MINUTE_TOTAL,
    AuditError,
    AuditLog,
    Outcome,
)
from hub.security.limits import SignInLimiter
from hub.security.sessions import Session, SessionStore
from hub.security.users import UserDirectory, check_password
from hub.web.errors import AccessRefused, AuthError, SignInRefused, TooManySignIns

if TYPE_CHECKING:
    from hub.config import WebSettings

log = logging.getLogger(__name__)

REFUSAL_LINES_PER_MINUTE = 20
"""Refused sign-ins logged per minute (the rest are counted, see :class:`ThrottledLog`)."""

TOKEN_PREFIX = "fwt1"
SESSION_COOKIE = "feltwire_session"
"""The cookie that carries a signed-in browser's session id."""
CSRF_HEADER = "X-CSRF-Token"
"""The header a session-authenticated state-changing request must carry."""
ACCESS_HEADER = "X-Feltwire-Access"
"""Set to ``refused`` on a response refused by an access rule (not by the route itself),
so a client can tell "sign in" from, say, a wrong password at ``POST /api/session``."""
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that change state: CSRF-checked when the session cookie authenticates them."""


class Role(StrEnum):
    """What a user of the hub's web side is."""

    PUBLIC = "public"
    DEALER = "dealer"
    PRODUCER = "producer"
    ADMIN = "admin"


EVERYONE = frozenset(Role)
STAFF = frozenset({Role.DEALER, Role.PRODUCER, Role.ADMIN})


@dataclass(frozen=True)
class Principal:
    """Who is asking: a name, a role, how they proved it, and from where."""

    name: str
    role: Role
    via: Literal["anonymous", "token", "session"]
    source: str = ""
    csrf: str = field(default="", repr=False)
    """The session's CSRF token (sessions only)."""
    expires_at: float | None = None
    """When the session or token ends (None: anonymous)."""
    note: str = ""
    """Why an anonymous request is anonymous, when it sent a stale session cookie."""


current_principal: ContextVar[Principal | None] = ContextVar("current_principal", default=None)
"""The principal of the request being handled (set by every access rule), so a page
helper can put the CSRF token into a page served to a signed-in user."""

ANONYMOUS = "anonymous"
STALE_SESSION = "your session has ended (expired or signed out): sign in again"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Issues and checks ``fwt1`` tokens with one secret (HMAC-SHA256).

    The expiry ``e`` is wall time (seconds since the epoch): a token must mean the same to
    the hub after a restart, which a monotonic clock cannot promise. Keep tokens short.
    """

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

    def check(self, token: str) -> tuple[Role, str, float]:
        """The role, name and expiry a token proves (AuthError when it proves nothing)."""
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
        return role, name, expires


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class WebAuth:
    """The hub's credentials and what guards them: the token signer, the producer token,
    the users and their sessions, the sign-in rate limit, and the audit trail.

    ``clock`` is wall time (token expiry, audit times, expiry shown to clients);
    ``monotonic`` runs session expiry and every rate limit (see the module docstring)."""

    def __init__(
        self,
        *,
        secret: bytes | None = None,
        producer_token: str | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        users: UserDirectory | None = None,
        session_seconds: float = 12 * 3600,
        idle_seconds: float = 2 * 3600,
        secure_cookies: bool | Literal["auto"] = "auto",
        served_on_loopback: bool = True,
        audit: AuditLog | None = None,
        limiter: SignInLimiter | None = None,
    ) -> None:
        self.clock = clock
        self.monotonic = monotonic
        self.signer = TokenSigner(secret or secrets.token_bytes(32), clock=clock)
        self.producer_token = producer_token
        self.users = users if users is not None else UserDirectory()
        self.sessions = SessionStore(
            monotonic=monotonic, absolute=session_seconds, idle=idle_seconds
        )
        self.secure_cookies = secure_cookies
        self.served_on_loopback = served_on_loopback
        self.audit = (
            audit if audit is not None else AuditLog.memory(clock=clock, monotonic=monotonic)
        )
        self.limiter = limiter if limiter is not None else SignInLimiter()
        self.refusal_log = ThrottledLog(
            log, limit=REFUSAL_LINES_PER_MINUTE, window=60.0, monotonic=monotonic
        )
        """Where refused sign-ins are said: a guessing flood cannot fill the journal."""
        self._sign_in_turn = asyncio.Lock()
        """Sign-ins are checked one at a time: the limiter's count is exact, and at most
        one password hash (argon2id: 19 MiB) is being computed."""

    @classmethod
    def from_settings(
        cls,
        web: WebSettings,
        *,
        producer_token: str | None,
        state_dir: Path | None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> WebAuth:
        """The hub's credentials as ``[web]`` configures them; the audit trail in
        ``state_dir`` (in memory when there is none)."""
        secret = web.signing_secret
        return cls(
            secret=secret.get_secret_value().encode() if secret is not None else None,
            producer_token=producer_token,
            clock=clock,
            monotonic=monotonic,
            users=UserDirectory(web.users, web.users_file),
            session_seconds=web.session_hours * 3600,
            idle_seconds=web.session_idle_minutes * 60,
            secure_cookies=web.secure_cookies,
            served_on_loopback=is_loopback(web.host),
            audit=(
                AuditLog(state_dir / AUDIT_FILE, clock=clock, monotonic=monotonic)
                if state_dir is not None
                else AuditLog.memory(clock=clock, monotonic=monotonic)
            ),
        )

    def close(self) -> None:
        """Close the audit trail."""
        self.audit.close()

    def issue(self, role: Role, name: str, *, seconds: float = 12 * 3600) -> str:
        """A token for ``name`` in ``role`` (default: good for twelve hours)."""
        return self.signer.issue(role, name, seconds=seconds)

    # ---------------------------------------------------------------- sign-in

    async def sign_in(self, name: str, password: str, source: str) -> tuple[str, Session]:
        """A new session for ``name`` when ``password`` is theirs: the session id (for the
        cookie) and the session. TooManySignIns (before any check) when this name failed
        too often from this address, or this address did, recently; SignInRefused for a
        wrong name or password. The password hash is checked in a worker thread (the
        event loop keeps serving), one sign-in at a time."""
        async with self._sign_in_turn:
            wait = self.limiter.retry_after(name, source, self.monotonic())
            if wait > 0:
                raise TooManySignIns(wait)
            user = self.users.lookup(name)
            ok = await asyncio.to_thread(check_password, user, password)
            if not ok or user is None:
                self.limiter.failed(name, source, self.monotonic())
                raise SignInRefused("wrong name or password")
            self.limiter.succeeded(name, source)
            return self.sessions.create(user.name, user.role, source=source)

    def session_expires_at(self, session: Session) -> float:
        """When ``session`` ends unless used again, as wall time (for clients to show)."""
        return self.clock() + self.sessions.remaining(session)

    def sign_out(self, conn: HTTPConnection) -> bool:
        """End the session of this request's cookie; False when it had none."""
        session_id = conn.cookies.get(SESSION_COOKIE)
        return self.sessions.revoke(session_id) if session_id else False

    def cookie_secure(self, conn: HTTPConnection) -> bool:
        """Whether the session cookie gets ``Secure``: as configured, or (``auto``)
        always, except for a hub served on loopback over plain http."""
        if isinstance(self.secure_cookies, bool):
            return self.secure_cookies
        return conn.url.scheme in ("https", "wss") or not self.served_on_loopback

    # ---------------------------------------------------------------- identify

    def _token_of(self, conn: HTTPConnection) -> str | None:
        header = conn.headers.get("authorization")
        if header is not None:
            scheme, _, value = header.partition(" ")
            if scheme.lower() == "bearer" and value.strip():
                return value.strip()
        return conn.headers.get("x-feltwire-token") or conn.query_params.get("token") or None

    def identify(self, conn: HTTPConnection) -> Principal:
        """Who sent this request (AuthError when its token proves nothing)."""
        source = conn.client.host if conn.client is not None else ""
        token = self._token_of(conn)
        if token is not None:
            if self.producer_token is not None and hmac.compare_digest(
                token.encode(), self.producer_token.encode()
            ):
                return Principal("producer-token", Role.PRODUCER, "token", source)
            role, name, expires = self.signer.check(token)
            return Principal(name, role, "token", source, expires_at=expires)
        session_id = conn.cookies.get(SESSION_COOKIE)
        if not session_id:
            return Principal(ANONYMOUS, Role.PUBLIC, "anonymous", source)
        session = self.sessions.get(session_id)
        if session is not None:
            user = self.users.lookup(session.name)
            if user is None or user.role != session.role:  # removed or moved since
                self.sessions.revoke_user(session.name)
                session = None
        if session is None:
            return Principal(ANONYMOUS, Role.PUBLIC, "anonymous", source, note=STALE_SESSION)
        return Principal(
            session.name,
            Role(session.role),
            "session",
            source,
            csrf=session.csrf,
            expires_at=self.session_expires_at(session),
        )


def same_origin(conn: HTTPConnection) -> bool:
    """True unless the request names an ``Origin`` other than the host it was sent to."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


class Access:
    """The access rule of one route: the roles allowed (a FastAPI dependency).

    Over HTTP a refusal is 401 (no or a bad credential) or 403 (a good one, the wrong
    role, or a missing CSRF token); a WebSocket is closed with 1008 (policy violation)
    before it is accepted. ``audit`` names the feed of a route that carries hole cards:
    every open and every refusal of it goes to the audit trail.
    """

    def __init__(self, roles: Iterable[Role], *, audit: str | None = None) -> None:
        self.roles = frozenset(roles)
        self.audit = audit
        if not self.roles:
            raise ValueError("a route must allow at least one role")

    def __repr__(self) -> str:
        names = ", ".join(sorted(r.value for r in self.roles))
        return f"allow({names}{f', audit={self.audit!r}' if self.audit else ''})"

    def allows(self, role: Role) -> bool:
        """Whether ``role`` gets through (admin always does)."""
        return role is Role.ADMIN or role in self.roles

    def _refuse(self, conn: HTTPConnection, code: int, reason: str) -> Exception:
        if conn.scope["type"] == "websocket":
            return WebSocketException(code=status.WS_1008_POLICY_VIOLATION, reason=reason)
        headers = {ACCESS_HEADER: "refused"}
        if code == 401:
            headers["WWW-Authenticate"] = "Bearer"
        return AccessRefused(status_code=code, detail=reason, headers=headers)

    def _record(
        self,
        conn: HTTPConnection,
        auth: WebAuth,
        who: Principal | None,
        outcome: Outcome,
        detail: str = "",
    ) -> None:
        if self.audit is None:
            return
        table = conn.query_params.get("table")
        if table is None:
            tables = getattr(conn.app.state, "tables", None) or {}
            table = next(iter(tables), "")
        try:
            entry = auth.audit.record(
                outcome=outcome,
                feed=self.audit,
                route=conn.url.path,
                table=table,
                name=who.name if who is not None else "?",
                role=who.role.value if who is not None else "?",
                via=who.via if who is not None else "token",
                address=conn.client.host if conn.client is not None else "",
                user_agent=conn.headers.get("user-agent", ""),
                detail=detail,
            )
        except (sqlite3.Error, OSError, AuditError) as exc:
            auth.refusal_log.error(
                "audit trail: cannot be written (%s): %s at %s", exc, outcome, conn.url.path
            )
            if outcome == "open":  # fail closed: no card-bearing feed opens unaudited
                raise self._refuse(
                    conn, 503, f"the audit trail cannot be written ({exc}): try again later"
                ) from None
            return
        if entry is None:
            auth.refusal_log.warning(
                "audit trail: a refusal at %s not written, the throttle is on "
                "(%d per address, %d in all per minute; %d left out so far)",
                conn.url.path,
                REFUSALS_PER_MINUTE,
                REFUSALS_PER_MINUTE_TOTAL,
                auth.audit.suppressed,
            )

    def _session_problem(self, conn: HTTPConnection, who: Principal) -> str | None:
        """Why a request authenticated by the session cookie may not pass, or None."""
        if conn.scope["type"] == "websocket":
            return None if same_origin(conn) else "a WebSocket from another origin"
        if conn.scope["method"] not in UNSAFE_METHODS:
            return None
        sent = conn.headers.get(CSRF_HEADER, "")
        if not sent or not hmac.compare_digest(sent.encode(), who.csrf.encode()):
            return f"missing or wrong {CSRF_HEADER} header (reload the page)"
        return None

    async def __call__(self, conn: HTTPConnection) -> Principal:
        auth: WebAuth = conn.app.state.auth
        current_principal.set(None)
        try:
            who = auth.identify(conn)
        except AuthError as err:
            self._record(conn, auth, None, "refused", str(err))
            raise self._refuse(conn, 401, str(err)) from None
        if not self.allows(who.role):
            if who.role is Role.PUBLIC:
                code, reason = 401, who.note or f"sign in as {self._names()}"
            else:
                code = 403
                reason = f"the {who.role.value} role may not; needs {self._names()}"
            self._record(conn, auth, who, "refused", reason)
            raise self._refuse(conn, code, reason)
        if who.via == "session":
            problem = self._session_problem(conn, who)
            if problem is not None:
                self._record(conn, auth, who, "refused", problem)
                raise self._refuse(conn, 403, problem)
        current_principal.set(who)
        self._record(conn, auth, who, "open")
        return who

    def _names(self) -> str:
        return " or ".join(sorted(r.value for r in self.roles))


def allow(*roles: Role, audit: str | None = None) -> Access:
    """The access rule allowing ``roles`` (admin is always allowed too); ``audit`` names
    the feed when the route carries hole cards (every open and refusal is audited)."""
    return Access(roles, audit=audit)


__all__ = [
    "ACCESS_HEADER",
    "ANONYMOUS",
    "CSRF_HEADER",
    "EVERYONE",
    "REFUSAL_LINES_PER_MINUTE",
    "SESSION_COOKIE",
    "STAFF",
    "STALE_SESSION",
    "TOKEN_PREFIX",
    "UNSAFE_METHODS",
    "Access",
    "AccessRefused",
    "AuthError",
    "Principal",
    "Role",
    "SignInRefused",
    "TokenSigner",
    "TooManySignIns",
    "WebAuth",
    "allow",
    "current_principal",
    "is_loopback",
    "same_origin",
]
