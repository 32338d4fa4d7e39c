"""What the web security tests share: a real hub with users and a token secret, run on
clocks the test moves (:class:`~tests.support.clocks.MovableClock`, wall and monotonic),
and signing in over real HTTP."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from hub.bootstrap import HubRuntime, start_hub
from hub.config import (
    HandsSettings,
    HubConfig,
    HubMqttSettings,
    PlayerSettings,
    RulesSettings,
    WebSettings,
)
from hub.security.users import WebUser, hash_web_password
from hub.web.auth import CSRF_HEADER, SESSION_COOKIE
from hub.web.server import ConnectionGuard, HubServerConfig
from tests.support.clocks import MovableClock

SECRET = "test-token-secret-0123456789abcdef"
PASSWORD = "correct horse battery staple"
USER_ROLES = ("dealer", "producer", "admin")
PASSWORD_HASH = hash_web_password(PASSWORD)
USERS = [
    WebUser(name=f"{role}-user", role=role, password_hash=PASSWORD_HASH) for role in USER_ROLES
]


def user_name(role: str) -> str:
    """The test user who has ``role``."""
    return f"{role}-user"


def hub_config(
    state_dir: Path | None = None, *, hands: HandsSettings | None = None, **web: Any
) -> HubConfig:
    """A one-table hub with rules (two players seated), the test users and token secret,
    on free ports; ``hands`` its ``[hands]`` store (default: SQLite in ``state_dir``),
    ``web`` overrides ``[web]`` settings."""
    return HubConfig(
        table="t1",
        mqtt=HubMqttSettings(embedded_port=0),
        web=WebSettings(port=0, token_secret=SECRET, users=USERS, **web),
        rules=two_seated(),
        state_dir=state_dir,
        hands=hands or HandsSettings(),
    )


def two_seated() -> RulesSettings:
    """Rules with Ann and Bo seated at seats 1 and 2 (1000 each), no timed ticks."""
    return RulesSettings(
        players=[
            PlayerSettings(seat=1, name="Ann", buy_in=1000),
            PlayerSettings(seat=2, name="Bo", buy_in=1000),
        ],
        tick_seconds=0,
    )


@contextlib.asynccontextmanager
async def running_hub(
    state_dir: Path | None = None,
    *,
    clock: MovableClock | None = None,
    monotonic: MovableClock | None = None,
    hands: HandsSettings | None = None,
    **web: Any,
) -> AsyncIterator[HubRuntime]:
    """A hub of :func:`hub_config`, stopped afterwards; ``clock`` and ``monotonic`` are its
    wall and monotonic clocks (None: the system's)."""
    hub = await start_hub(
        hub_config(state_dir, hands=hands, **web),
        clock=clock or time.time,
        monotonic=monotonic or time.monotonic,
    )
    try:
        yield hub
    finally:
        await hub.stop()


def app_of(hub: HubRuntime) -> FastAPI:
    """The FastAPI app the running hub serves."""
    app = hub._server.config.app
    assert isinstance(app, FastAPI)
    return app


def guard_of(hub: HubRuntime) -> ConnectionGuard:
    """The connection guard of the running hub's web server."""
    config = hub._server.config
    assert isinstance(config, HubServerConfig)
    return config.guard


@dataclass(frozen=True)
class SignedIn:
    """A session: the cookie's value and the session's CSRF token."""

    session_id: str
    csrf: str

    def headers(self, *, csrf: bool = True) -> dict[str, str]:
        """Request headers that present this session (and its CSRF token)."""
        out = {"Cookie": f"{SESSION_COOKIE}={self.session_id}"}
        if csrf:
            out[CSRF_HEADER] = self.csrf
        return out


async def sign_in(http: httpx.AsyncClient, role: str) -> SignedIn:
    """Sign in as the test user of ``role`` at ``POST /api/session``."""
    r = await http.post("/api/session", json={"name": user_name(role), "password": PASSWORD})
    assert r.status_code == 200, r.text
    session_id = r.cookies.get(SESSION_COOKIE)
    assert session_id, r.headers
    return SignedIn(session_id, r.json()["csrf_token"])
