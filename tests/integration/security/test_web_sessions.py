"""Sign-in, sessions, CSRF, the sign-in rate limit and the audit trail, over real HTTP and
WebSocket connections to a running hub."""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from hub.bootstrap import HubRuntime
from hub.security.audit import AUDIT_FILE, AuditLog
from hub.web.auth import ACCESS_HEADER, CSRF_HEADER, SESSION_COOKIE, Role
from tests.support.clocks import MovableClock
from tests.support.web_hub import PASSWORD, SignedIn, app_of, running_hub, sign_in, user_name

ACTION = {"seat": 1, "act": "fold"}


@asynccontextmanager
async def hub_and_client(
    state_dir: Path | None = None, **options: Any
) -> AsyncIterator[tuple[HubRuntime, httpx.AsyncClient]]:
    """A hub of :func:`~tests.support.web_hub.running_hub` (``options`` are its keywords)
    and an HTTP client of its web server."""
    async with (
        running_hub(state_dir, **options) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        yield hub, http


async def signed_in(http: httpx.AsyncClient, role: str) -> SignedIn:
    """Sign in as the test user of ``role``, then empty the client's cookie jar: each
    request presents the session (or none) by the headers it is given."""
    user = await sign_in(http, role)
    http.cookies.clear()
    return user


async def test_sign_in_sets_a_guarded_cookie_and_answers_who_am_i() -> None:
    async with hub_and_client() as (_, http):
        r = await http.post("/api/session", json={"name": "dealer-user", "password": PASSWORD})
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE}=")
        attrs = {a.strip().split("=")[0].lower() for a in cookie.split(";")[1:]}
        assert {"httponly", "samesite", "path", "max-age"} <= attrs
        assert "samesite=strict" in cookie.lower() and "path=/" in cookie.lower()
        assert "secure" not in attrs  # served on loopback over http: auto leaves it off
        session_id = r.cookies[SESSION_COOKIE]
        assert len(session_id) >= 43  # 256 random bits, base64
        me = (await http.get("/api/session")).json()
        assert me["signed_in"] and me["name"] == "dealer-user" and me["role"] == "dealer"
        assert me["via"] == "session" and me["csrf_token"] == r.json()["csrf_token"]
        # the form a browser without scripts would post works as well
        http.cookies.clear()
        form = await http.post("/api/session", data={"name": "producer-user", "password": PASSWORD})
        assert form.status_code == 200 and form.json()["role"] == "producer"


async def test_secure_cookie_unless_loopback_http() -> None:
    async with hub_and_client(secure_cookies=True) as (_, http):
        r = await http.post("/api/session", json={"name": "dealer-user", "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert "; secure" in r.headers.get("set-cookie", "").lower(), r.headers


async def test_wrong_password_and_unknown_name_get_the_same_answer() -> None:
    async with hub_and_client() as (_, http):
        wrong = await http.post("/api/session", json={"name": "dealer-user", "password": "no"})
        nobody = await http.post("/api/session", json={"name": "nobody", "password": PASSWORD})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json() == {"detail": "wrong name or password"}
        assert SESSION_COOKIE not in wrong.cookies
        for bad in (b"{", b"[]", b'{"name": "x"}', b"name=x&password=y"):
            r = await http.post(
                "/api/session", content=bad, headers={"Content-Type": "application/json"}
            )
            assert r.status_code == 422, (bad, r.text)
        r = await http.post("/api/session", content=b"x", headers={"Content-Type": "text/plain"})
        assert r.status_code == 415
        foreign = await http.post(
            "/api/session",
            json={"name": "dealer-user", "password": PASSWORD},
            headers={"Origin": "https://evil.example"},
        )
        assert foreign.status_code == 403  # a login form on another site cannot sign us in


async def test_csrf_token_required_for_cookie_authenticated_changes() -> None:
    async with hub_and_client() as (hub, http):
        dealer = await signed_in(http, "dealer")
        cookie = dealer.headers(csrf=False)
        no_header = await http.post("/api/console/action", json=ACTION, headers=cookie)
        assert no_header.status_code == 403 and no_header.headers[ACCESS_HEADER] == "refused"
        assert CSRF_HEADER in no_header.json()["detail"]
        wrong = await http.post(
            "/api/console/action", json=ACTION, headers=cookie | {CSRF_HEADER: "guess"}
        )
        assert wrong.status_code == 403
        right = await http.post("/api/console/action", json=ACTION, headers=dealer.headers())
        assert right.headers.get(ACCESS_HEADER) != "refused" and right.status_code < 500
        # reading needs no CSRF token; a token-authenticated change needs none either
        assert (await http.get("/api/session", headers=cookie)).json()["role"] == "dealer"
        by_token = await http.post(
            "/api/console/action",
            json=ACTION,
            headers={"Authorization": f"Bearer {hub.token(Role.DEALER)}"},
        )
        assert by_token.headers.get(ACCESS_HEADER) != "refused" and by_token.status_code < 500
        # signing out is a change too
        out = await http.delete("/api/session", headers=cookie)
        assert out.status_code == 403
        out = await http.delete("/api/session", headers=dealer.headers())
        assert out.status_code == 204
        after = await http.get("/api/session", headers=cookie)
        assert after.json()["signed_in"] is False


async def test_session_websocket_only_from_the_hubs_own_origin() -> None:
    async with hub_and_client() as (hub, http):
        producer = await sign_in(http, "producer")
        url = hub.web_url.replace("http", "ws", 1) + "/ws/overlay"
        cookie = producer.headers(csrf=False)
        async with connect(url, additional_headers=cookie, origin=hub.web_url) as ws:
            assert '"snapshot"' in str(await ws.recv())
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, additional_headers=cookie, origin="https://evil.example"):
                pass
        assert refused.value.response.status_code == 403


async def test_pages_for_a_signed_in_user_carry_the_csrf_token() -> None:
    async with hub_and_client() as (hub, http):
        producer = await signed_in(http, "producer")
        meta = f'<meta name="csrf-token" content="{producer.csrf}">'
        assert meta in (await http.get("/overlay", headers=producer.headers(csrf=False))).text
        assert meta in (await http.get("/login", headers=producer.headers(csrf=False))).text
        dealer = await signed_in(http, "dealer")
        console = (await http.get("/console", headers=dealer.headers(csrf=False))).text
        assert f'<meta name="csrf-token" content="{dealer.csrf}">' in console
        anonymous = (await http.get("/login")).text
        by_token = (await http.get("/overlay", params={"token": hub.producer_token})).text
        assert "csrf-token" not in anonymous and "csrf-token" not in by_token


async def test_sessions_expire_when_idle_and_after_their_lifetime() -> None:
    clock = MovableClock(time.monotonic())
    expiring = hub_and_client(monotonic=clock, session_hours=3, session_idle_minutes=60)
    async with expiring as (_, http):
        dealer = await signed_in(http, "dealer")
        cookie = dealer.headers(csrf=False)

        async def console_state() -> httpx.Response:
            return await http.get("/api/console/state", headers=cookie)

        for _ in range(3):  # used every 50 minutes: never idle, alive for 150 minutes
            clock.now += 50 * 60
            assert (await console_state()).status_code == 200
        clock.now += 50 * 60  # 200 minutes after sign-in: past the 3 hours
        expired = await console_state()
        assert expired.status_code == 401 and "sign in again" in expired.json()["detail"]
        # an ended session is no credential: the public view and /login keep working
        assert (await http.get("/", headers=cookie)).status_code == 200
        assert (await http.get("/login", headers=cookie)).status_code == 200

        idle = await signed_in(http, "dealer")
        clock.now += 61 * 60
        r = await http.get("/api/console/state", headers=idle.headers(csrf=False))
        assert r.status_code == 401


async def test_sign_in_is_rate_limited_per_name_and_per_address() -> None:
    clock = MovableClock(time.monotonic())
    async with hub_and_client(monotonic=clock) as (_, http):

        async def attempt(name: str, password: str = "wrong") -> httpx.Response:
            r = await http.post("/api/session", json={"name": name, "password": password})
            http.cookies.clear()
            return r

        for _ in range(5):
            assert (await attempt("dealer-user")).status_code == 401
        locked = await attempt("dealer-user", PASSWORD)  # even the right password now
        assert locked.status_code == 429
        assert 0 < int(locked.headers["Retry-After"]) <= 300
        assert (await attempt("producer-user", PASSWORD)).status_code == 200  # others may

        for n in range(14):  # 5 + 14 = 19 failures from this address
            assert (await attempt(f"guess{n}")).status_code == 401
        assert (await attempt("admin-user", PASSWORD)).status_code == 200
        assert (await attempt("guess-last")).status_code == 401  # the 20th
        # a success did not reset the address's budget: now every name is refused
        assert (await attempt("admin-user", PASSWORD)).status_code == 429

        clock.now += 301
        assert (await attempt("dealer-user", PASSWORD)).status_code == 200


async def test_overlay_opens_and_refusals_are_audited(tmp_path: Path) -> None:
    state = tmp_path / "state"
    async with (
        running_hub(state) as hub,
        httpx.AsyncClient(base_url=hub.web_url, headers={"User-Agent": "OBS/30"}) as http,
    ):
        assert (await http.get("/overlay", params={"token": hub.producer_token})).status_code == 200
        producer = await signed_in(http, "producer")
        url = hub.web_url.replace("http", "ws", 1) + "/ws/overlay"
        async with connect(
            url, additional_headers=producer.headers(csrf=False) | {"User-Agent": "Chromium"}
        ) as ws:
            await ws.recv()
        dealer = hub.token(Role.DEALER, "dana")
        assert (await http.get("/overlay", params={"token": dealer})).status_code == 403
        assert (await http.get("/api/public")).status_code == 200  # no cards: not audited

        assert (await http.get("/api/admin/audit", params={"token": dealer})).status_code == 403
        admin = hub.token(Role.ADMIN, "boss")
        page = (await http.get("/api/admin/audit", params={"token": admin})).json()
        rows = page["entries"]
        assert [(e["outcome"], e["route"], e["name"], e["role"], e["via"]) for e in rows[:3]] == [
            ("refused", "/overlay", "dana", "dealer", "token"),
            ("open", "/ws/overlay", "producer-user", "producer", "session"),
            ("open", "/overlay", "producer-token", "producer", "token"),
        ]
        assert all(e["address"] == "127.0.0.1" and e["table_id"] == "t1" for e in rows[:3])
        assert rows[2]["user_agent"] == "OBS/30" and rows[1]["user_agent"] == "Chromium"
        assert rows[0]["detail"].startswith("the dealer role may not")
        assert rows[0]["t"] >= rows[1]["t"] >= rows[2]["t"]
        # paging: one at a time, newest first, back to the start
        seen, before = [], None
        while True:
            params = {"token": admin, "limit": 1} | ({"before": before} if before else {})
            one = (await http.get("/api/admin/audit", params=params)).json()
            seen += [e["id"] for e in one["entries"]]
            before = one["next_before"]
            if before is None:
                break
        assert seen == sorted(seen, reverse=True) and len(seen) == page["total"]

    path = state / AUDIT_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with sqlite3.connect(path) as db:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE audit SET name = 'someone else'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("DELETE FROM audit")
    reopened = AuditLog(path)
    try:
        assert reopened.verify() == page["total"] == len(rows)
    finally:
        reopened.close()


async def test_removed_user_loses_their_session(tmp_path: Path) -> None:
    from hub.security.users import WebUser, hash_web_password, write_users_file

    users_file = tmp_path / "web-users.toml"
    write_users_file(
        users_file, [WebUser(name="temp", role="dealer", password_hash=hash_web_password("pw"))]
    )
    async with hub_and_client(users_file=users_file) as (hub, http):
        r = await http.post("/api/session", json={"name": "temp", "password": "pw"})
        assert r.status_code == 200
        assert (await http.get("/api/console/state")).status_code == 200
        write_users_file(users_file, [])
        os.utime(users_file, ns=(1, 1))  # a different mtime even within one clock tick
        assert (await http.get("/api/console/state")).status_code == 401
        assert app_of(hub).state.auth.users.lookup(user_name("dealer")) is not None


async def test_a_browser_without_the_role_is_sent_to_sign_in() -> None:
    async with hub_and_client() as (_, http):
        page = await http.get("/overlay", params={"table": "t1"}, headers={"Accept": "text/html"})
        assert page.status_code == 401 and page.headers[ACCESS_HEADER] == "refused"
        assert 'url=/login?next=%2Foverlay%3Ftable%3Dt1"' in page.text
        api = await http.get("/overlay")
        assert api.status_code == 401 and api.json()["detail"].startswith("sign in as")
