"""Sign-in sessions of the hub's web side: random ids, idle and absolute expiry.

A session is created when a user signs in (:mod:`hub.web.session`) and named by a random
256-bit id that only the browser holds, in an ``HttpOnly`` cookie. The store keeps
sessions **in memory**, keyed by the SHA-256 of the id:

* nothing that could sign someone in is ever written to disk (no session file to steal
  from a backup or an SD card) — the price is that a restart of the hub signs everyone
  out, which a club can live with (the hub restarts rarely, signing in again is quick);
* a memory dump, a log line or a debugger showing the store's keys shows hashes, which
  cannot be turned back into a cookie, and the lookup is a dict lookup by hash, so the
  time it takes says nothing about how much of a guessed id was right.

Each session has an absolute lifetime (from sign-in) and an idle timeout (from its last
use); whichever comes first ends it. Both are measured on a **monotonic** clock: a
wall-clock jump (NTP stepping the clock, ``date -s``, a Pi without a real-time clock
setting itself at boot) neither ends a session early nor keeps one alive longer. Each
also carries its CSRF token, which the pages send back in ``X-CSRF-Token`` with every
state-changing request.

Pure apart from the randomness: the clock is passed in.

>>> now = [0.0]
>>> store = SessionStore(monotonic=lambda: now[0], absolute=3600, idle=600)
>>> sid, s = store.create("ann", "dealer", source="10.0.0.4")
>>> store.get(sid).name
'ann'
>>> now[0] = 601; store.get(sid) is None
True
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

SESSION_ID_BYTES = 32
"""Random bytes in a session id (256 bits)."""

MAX_SESSIONS = 1000
"""Sessions kept at most; signing in beyond that ends the least recently used one."""


def _key(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


@dataclass
class Session:
    """One signed-in user: who, the CSRF token, when it started and was last used."""

    name: str
    role: str
    csrf: str
    created: float
    """When it was made (the store's monotonic clock)."""
    last_seen: float
    """When it was last used (the store's monotonic clock)."""
    source: str
    key: str
    """The SHA-256 of the session id (the id itself is not kept)."""


class SessionStore:
    """Sessions in memory, keyed by the hash of their id (see the module docstring)."""

    def __init__(
        self,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        absolute: float = 12 * 3600,
        idle: float = 2 * 3600,
        max_sessions: int = MAX_SESSIONS,
    ) -> None:
        if absolute <= 0 or idle <= 0:
            raise ValueError("session lifetimes must be positive")
        self.monotonic = monotonic
        self.absolute = absolute
        self.idle = idle
        self.max_sessions = max_sessions
        self._sessions: dict[str, Session] = {}

    def create(self, name: str, role: str, *, source: str = "") -> tuple[str, Session]:
        """A new session for ``name`` in ``role``: its id (for the cookie) and itself."""
        now = self.monotonic()
        self._purge(now)
        while len(self._sessions) >= self.max_sessions:
            oldest = min(self._sessions.values(), key=lambda s: s.last_seen)
            del self._sessions[oldest.key]
        session_id = secrets.token_urlsafe(SESSION_ID_BYTES)
        session = Session(
            name=name,
            role=role,
            csrf=secrets.token_urlsafe(32),
            created=now,
            last_seen=now,
            source=source,
            key=_key(session_id),
        )
        self._sessions[session.key] = session
        return session_id, session

    def expires_at(self, session: Session) -> float:
        """When ``session`` ends unless it is used again (the earlier of both limits), on
        the store's monotonic clock."""
        return min(session.created + self.absolute, session.last_seen + self.idle)

    def remaining(self, session: Session) -> float:
        """Seconds until ``session`` ends unless it is used again (0: it has ended)."""
        return max(0.0, self.expires_at(session) - self.monotonic())

    def get(self, session_id: str, *, touch: bool = True) -> Session | None:
        """The live session with this id (its idle timer restarted), or None when there
        is none or it has expired (then it is gone for good)."""
        if not session_id or len(session_id) > 128:
            return None
        key = _key(session_id)
        session = self._sessions.get(key)
        if session is None:
            return None
        now = self.monotonic()
        if now >= self.expires_at(session):
            del self._sessions[key]
            return None
        if touch:
            session.last_seen = now
        return session

    def revoke(self, session_id: str) -> bool:
        """End the session with this id; False when there was none."""
        return self._sessions.pop(_key(session_id), None) is not None

    def revoke_user(self, name: str) -> int:
        """End every session of ``name``; returns how many."""
        keys = [k for k, s in self._sessions.items() if s.name == name]
        for key in keys:
            del self._sessions[key]
        return len(keys)

    def _purge(self, now: float) -> None:
        for key in [k for k, s in self._sessions.items() if now >= self.expires_at(s)]:
            del self._sessions[key]

    def __len__(self) -> int:
        self._purge(self.monotonic())
        return len(self._sessions)


__all__ = ["MAX_SESSIONS", "SESSION_ID_BYTES", "Session", "SessionStore"]
