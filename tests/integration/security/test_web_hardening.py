"""What one client, or a few, can make the running hub spend: memory for bodies, file
descriptors for connections, lines in the journal, the dealer's sign-in — over real HTTP,
WebSocket and raw TCP connections to a hub started with ``start_hub`` (and, for the
file-descriptor limit, a real ``feltwire hub`` process)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hub.bootstrap import HubRuntime
from hub.cli import web_user as web_users
from hub.web.auth import Role
from tests.support.clocks import MovableClock
from tests.support.commands import run
from tests.support.hub_configs import embedded_hub_toml
from tests.support.ports import free_port
from tests.support.web_hub import PASSWORD, app_of, guard_of, running_hub, sign_in, user_name

MIB = 1024 * 1024
HUGE = 64 * MIB
"""The body of the review's attack."""
GROWTH_ALLOWED = 4 * MIB
"""How much more Python memory the hub may hold while refusing a huge body."""
PIECE = b"x" * (256 * 1024)
"""One piece of a huge body (the same object each time: the client holds no copies)."""


def host_port(hub: HubRuntime) -> tuple[str, int]:
    host, port = hub.web_url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


async def open_raw(
    hub: HubRuntime, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A plain TCP connection to the hub's web port from ``source``."""
    host, port = host_port(hub)
    return await asyncio.open_connection(host, port, local_addr=(source, 0))


async def closed_by_hub(reader: asyncio.StreamReader, within: float = 15.0) -> bool:
    """True when the hub ends the connection (EOF or reset) within ``within`` seconds —
    a bound for "never", not a timing claim."""
    try:
        async with asyncio.timeout(within):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


async def post_huge(hub: HubRuntime, *, chunked: bool, path: str = "/api/console/action") -> bytes:
    """POST a 64 MiB body without a credential — declared in ``Content-Length`` or sent
    chunked without one — sending until the hub answers or hangs up; the answer's head."""
    reader, writer = await open_raw(hub)
    host, port = host_port(hub)
    framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % HUGE
    writer.write(
        b"POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n%s\r\n\r\n"
        % (path.encode(), host.encode(), port, framing)
    )
    answer = asyncio.create_task(reader.read(4096))
    sent = 0
    with contextlib.suppress(ConnectionError):
        while sent < HUGE and not answer.done():
            if chunked:
                writer.write(b"%x\r\n" % len(PIECE))
            writer.write(PIECE)
            if chunked:
                writer.write(b"\r\n")
            await writer.drain()
            sent += len(PIECE)
        if chunked and not answer.done():
            writer.write(b"0\r\n\r\n")
            await writer.drain()
    try:
        head = await asyncio.wait_for(answer, 60)
    except ConnectionError:
        head = b""
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()
    return head


@contextlib.contextmanager
def python_memory_growth() -> Iterator[list[int]]:
    """Measures the peak of the process's Python allocations above where it starts (the
    hub runs in this process): the one element of the yielded list, after the block."""
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        growth = [0]
        yield growth
        _, peak = tracemalloc.get_traced_memory()
        growth[0] = peak - start
    finally:
        tracemalloc.stop()


def status_of(head: bytes) -> int:
    assert head.startswith(b"HTTP/1.1 "), head[:200]
    return int(head.split(b" ", 2)[1])


# ---------------------------------------------------------------- item 6: bodies


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("path", ["/api/console/action", "/api/session"])
async def test_a_huge_unauthenticated_body_is_refused_before_it_is_read(
    chunked: bool, path: str
) -> None:
    async with running_hub() as hub:
        with python_memory_growth() as growth:
            head = await post_huge(hub, chunked=chunked, path=path)
        assert growth[0] < GROWTH_ALLOWED, f"the hub held {growth[0] / MIB:.1f} MiB more"
        assert status_of(head) == 413, head[:300]
        assert b"connection: close" in head.lower()
        assert b"larger than 65536 bytes" in head
        assert app_of(hub).state.web_refusals["body_too_large"] == 1
        # a body within the cap still reaches the access rule (401: no credential)
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            small = await http.post("/api/console/action", json={"seat": 1, "act": "fold"})
            assert small.status_code == 401


async def test_eight_huge_bodies_at_once_while_healthz_keeps_answering() -> None:
    async with running_hub() as hub, httpx.AsyncClient(base_url=hub.web_url, timeout=30) as http:
        with python_memory_growth() as growth:
            posts = [asyncio.create_task(post_huge(hub, chunked=n % 2 == 1)) for n in range(8)]
            health = []
            while not all(p.done() for p in posts):
                health.append((await http.get("/healthz")).status_code)
                await asyncio.sleep(0.05)
            heads = [await p for p in posts]
        assert growth[0] < GROWTH_ALLOWED, f"the hub held {growth[0] / MIB:.1f} MiB more"
        assert [status_of(h) for h in heads] == [413] * 8
        assert health and set(health) == {200}


async def test_a_websocket_message_over_the_cap_closes_the_socket() -> None:
    async with running_hub(max_body_bytes=8192) as hub:
        url = hub.web_url.replace("http", "ws", 1) + "/ws/public"
        async with connect(url) as ws:
            await ws.recv()
            await ws.send("x" * 10_000)
            with pytest.raises(ConnectionClosed):
                async with asyncio.timeout(15):  # not closed at all: TimeoutError, a failure
                    while True:
                        await ws.recv()
            assert ws.close_code == 1009


# ---------------------------------------------------------------- item 7: connections


async def test_idle_and_slow_connections_are_closed_after_the_header_timeout() -> None:
    async with running_hub(header_timeout_seconds=0.5) as hub:
        idle_reader, idle = await open_raw(hub)  # sends nothing at all
        slow_reader, slow = await open_raw(hub)
        slow.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finishes its headers

        async def trickle() -> None:
            with contextlib.suppress(ConnectionError):
                while not slow.is_closing():
                    slow.write(b"X-Pad: 1\r\n")  # a byte now and then restarts keep-alive
                    await slow.drain()
                    await asyncio.sleep(0.1)

        trickling = asyncio.create_task(trickle())
        after_reader, after = await open_raw(hub)  # one answered request, then idle
        after.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status_of(await after_reader.readuntil(b"\r\n\r\n")) == 200
        after.write(b"GET /healthz HTTP/1.1\r\n")  # the next request: started, never ended

        assert await closed_by_hub(idle_reader)
        assert await closed_by_hub(slow_reader)
        assert await closed_by_hub(after_reader)
        trickling.cancel()
        assert app_of(hub).state.web_refusals["request_deadline_missed"] >= 3
        assert guard_of(hub).open == 0
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            assert (await http.get("/healthz")).status_code == 200
        for w in (idle, slow, after):
            w.close()


async def test_a_slow_answer_is_not_cut_by_the_header_timeout() -> None:
    """The deadline covers the request, not the handler: a WebSocket held open for longer
    than the timeout, and keep-alive requests spread over it, keep working."""
    async with running_hub(header_timeout_seconds=0.5) as hub:
        url = hub.web_url.replace("http", "ws", 1) + "/ws/public"
        async with connect(url) as ws, httpx.AsyncClient(base_url=hub.web_url) as http:
            await ws.recv()
            for _ in range(4):
                await asyncio.sleep(0.3)
                assert (await http.get("/healthz")).status_code == 200
            await ws.ping()
            assert ws.state.name == "OPEN"


async def connections_closed_at_once(
    pairs: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]],
) -> list[bool]:
    """For each connection, whether the hub closed it without waiting for a request."""
    return list(await asyncio.gather(*(closed_by_hub(r, within=3.0) for r, _ in pairs)))


async def test_connections_past_the_per_address_limit_are_closed_at_once_and_counted() -> None:
    async with running_hub(
        max_connections_per_address=4, max_connections=6, header_timeout_seconds=60
    ) as hub:
        mine = [await open_raw(hub) for _ in range(4)]
        extra = [await open_raw(hub) for _ in range(6)]
        assert all(await connections_closed_at_once(extra))
        counts = app_of(hub).state.web_refusals
        assert counts["connections_over_address_limit"] == 6
        assert guard_of(hub).open_by_address["127.0.0.1"] == 4
        # the same address gets nothing more; another address does
        async with httpx.AsyncClient(base_url=hub.web_url) as here:
            with pytest.raises(httpx.TransportError):
                await here.get("/healthz")
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=hub.web_url, transport=other) as there:
            assert (await there.get("/healthz")).status_code == 200
        # the total: 4 + 2 open, a seventh from a third address is refused
        two = [await open_raw(hub, "127.0.0.2") for _ in range(2)]
        third = [await open_raw(hub, "127.0.0.3")]
        assert all(await connections_closed_at_once(third))
        assert counts["connections_over_total_limit"] == 1
        # the held ones go: the address is served again
        for _, writer in mine + two:
            writer.close()
        for _ in range(100):
            if guard_of(hub).open == 0:
                break
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(base_url=hub.web_url) as here:
            assert (await here.get("/healthz")).status_code == 200


async def test_a_websocket_holds_its_place_until_it_closes() -> None:
    async with running_hub(max_connections_per_address=2, header_timeout_seconds=60) as hub:
        url = hub.web_url.replace("http", "ws", 1) + "/ws/public"
        async with connect(url) as ws:
            await ws.recv()
            other = await open_raw(hub)
            refused = await open_raw(hub)
            assert await closed_by_hub(refused[0], within=2.0)
            assert guard_of(hub).open_by_address["127.0.0.1"] == 2
            other[1].close()
        for _ in range(100):
            if guard_of(hub).open == 0:
                break
            await asyncio.sleep(0.05)
        assert guard_of(hub).open == 0
        async with httpx.AsyncClient(base_url=hub.web_url) as http:
            assert (await http.get("/healthz")).status_code == 200


async def test_a_flood_of_refused_connections_logs_a_bounded_number_of_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with running_hub(max_connections_per_address=2, header_timeout_seconds=60) as hub:
        pairs = [await open_raw(hub) for _ in range(2)]
        flood = [await open_raw(hub) for _ in range(300)]
        try:
            assert all(await connections_closed_at_once(flood))
            assert app_of(hub).state.web_refusals["connections_over_address_limit"] == 300
        finally:
            for _, writer in pairs + flood:
                writer.close()
    lines = [r for r in caplog.records if r.name.startswith(("hub.web", "uvicorn", "asyncio"))]
    assert 1 <= len(lines) <= 6, [r.getMessage() for r in lines]
    assert "only counted" in lines[-1].getMessage()


WEB = """max_connections = 5000
max_connections_per_address = 5000
header_timeout_seconds = 60
"""
"""The hub's web limits raised, so the flood meets the descriptor limit first."""


def test_out_of_file_descriptors_the_hub_logs_a_bounded_number_of_lines(tmp_path: Path) -> None:
    """A ``feltwire hub`` whose open-file limit is 256 is held by 400 idle connections:
    accept() fails for want of descriptors, which asyncio reports up to its backlog times a
    second. The journal gets a few lines, and the hub serves again once they are gone."""
    port = free_port()
    config = tmp_path / "hub.toml"
    config.write_text(embedded_hub_toml(tmp_path / "state", port, web=WEB))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    stderr = tmp_path / "stderr.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwire", "hub", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=stderr.open("wb"),  # a file, not a pipe: a flood must not block the hub
        env=env,
        preexec_fn=low_limit,
    )
    held: list[socket.socket] = []
    try:
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the hub did not start")
        for _ in range(400):
            held.append(socket.create_connection(("127.0.0.1", port), 5))
        time.sleep(3)  # asyncio retries accept() once a second
        for s in held:
            s.close()
        held.clear()
        ok = False
        for _ in range(100):
            try:
                ok = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
            except httpx.TransportError:
                time.sleep(0.1)
                continue
            break
        assert ok, "the hub did not serve again once the connections were gone"
    finally:
        for s in held:
            s.close()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    lines = stderr.read_text(errors="replace").splitlines()
    accept = [ln for ln in lines if "accept" in ln]
    assert accept, "the hub never said it could not accept connections"
    assert len(lines) <= 30, f"{len(lines)} lines on stderr:\n" + "\n".join(lines[:40])


# ---------------------------------------------------------------- item 9: sign-in


async def attempt(http: httpx.AsyncClient, name: str, password: str = "wrong", **kw: object) -> int:
    r = await http.post("/api/session", json={"name": name, "password": password}, **kw)  # type: ignore[arg-type]
    http.cookies.clear()
    return r.status_code


async def test_wrong_passwords_from_one_address_do_not_lock_the_dealer_out_elsewhere() -> None:
    async with running_hub() as hub:
        a = httpx.AsyncClient(
            base_url=hub.web_url, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.1")
        )
        b = httpx.AsyncClient(
            base_url=hub.web_url, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        )
        async with a, b:
            for _ in range(5):
                assert await attempt(a, "dealer-user") == 401
            assert await attempt(a, "dealer-user", PASSWORD) == 429  # A is locked for the dealer
            assert await attempt(b, "dealer-user", PASSWORD) == 200  # B is not
            assert await attempt(a, "producer-user", PASSWORD) == 200


async def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy() -> None:
    async with running_hub() as hub, httpx.AsyncClient(base_url=hub.web_url) as http:
        # rotating a forged address does not buy more guesses
        for n in range(5):
            forged = {"X-Forwarded-For": f"10.6.6.{n}"}
            assert await attempt(http, "dealer-user", headers=forged) == 401
        assert (
            await attempt(http, "dealer-user", PASSWORD, headers={"X-Forwarded-For": "10.6.6.99"})
            == 429
        )
        # the audit trail names the real peer
        r = await http.get("/overlay", headers={"X-Forwarded-For": "10.6.6.6"})
        assert r.status_code == 401
        entry = hub.auth.audit.read(limit=1)[0]
        assert entry.outcome == "refused" and entry.address == "127.0.0.1"


async def test_a_trusted_proxy_names_the_client() -> None:
    async with (
        running_hub(trusted_proxies=["127.0.0.0/8"]) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        one, two = {"X-Forwarded-For": "10.0.0.1"}, {"X-Forwarded-For": "10.0.0.2"}
        for _ in range(5):
            assert await attempt(http, "dealer-user", headers=one) == 401
        assert await attempt(http, "dealer-user", PASSWORD, headers=one) == 429
        assert await attempt(http, "dealer-user", PASSWORD, headers=two) == 200
        r = await http.get("/overlay", headers=two)
        assert r.status_code == 401
        assert hub.auth.audit.read(limit=1)[0].address == "10.0.0.2"


async def test_refusals_are_audited_throttled_in_all_not_only_per_address() -> None:
    async with (
        running_hub(trusted_proxies=["127.0.0.1"]) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        for n in range(200):  # 200 clients behind the proxy, one refusal each
            r = await http.get(
                "/overlay", params={"token": "forged"}, headers={"X-Forwarded-For": f"10.1.{n}.1"}
            )
            assert r.status_code == 401
        audit = hub.auth.audit
        assert len(audit) == 120 and audit.suppressed == 80
        # opens are never throttled
        assert (await http.get("/overlay", params={"token": hub.producer_token})).status_code == 200
        assert audit.read(limit=1)[0].outcome == "open"


async def test_web_user_add_writes_an_argon2id_hash_that_signs_in(tmp_path: Path) -> None:
    users = tmp_path / "web-users.toml"
    code, out, _ = run(
        web_users.main,
        ["add", "--role", "dealer", "zoe", "--file", str(users)],
        "zoe's long password\n",
    )
    assert code == 0, out
    text = users.read_text()
    assert '"$argon2id$v=19$m=19456,t=2,p=1$' in text and "zoe's long password" not in text
    async with (
        running_hub(users_file=users) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        assert await attempt(http, "zoe", "zoe's long password") == 200
        assert await attempt(http, "zoe", "not it") == 401


async def test_an_old_pbkdf2_web_user_still_signs_in_and_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from hub.security.passwords import hash_password
    from hub.security.users import WebUser, write_users_file

    users = tmp_path / "web-users.toml"
    write_users_file(
        users, [WebUser(name="old", role="dealer", password_hash=hash_password("pw1"))]
    )
    caplog.set_level(logging.WARNING)
    async with (
        running_hub(users_file=users) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        assert await attempt(http, "old", "pw1") == 200
        assert await attempt(http, "old", "pw2") == 401
    warned = [r.getMessage() for r in caplog.records if r.name == "hub.security.users"]
    assert len(warned) == 1
    assert f"feltwire web-user add --role dealer old --file {users}" in warned[0]


# ---------------------------------------------------------------- item 1: clocks


async def test_a_wall_clock_jump_neither_ends_nor_extends_a_session() -> None:
    wall, mono = MovableClock(), MovableClock(time.monotonic())
    async with (
        running_hub(clock=wall, monotonic=mono, session_hours=3, session_idle_minutes=60) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        dealer = await sign_in(http, "dealer")
        http.cookies.clear()
        cookie = dealer.headers(csrf=False)

        async def state() -> int:
            return (await http.get("/api/console/state", headers=cookie)).status_code

        wall.now += 5 * 3600  # forward past both limits: the session goes on
        assert await state() == 200
        me = (await http.get("/api/session", headers=cookie)).json()
        assert me["signed_in"] and me["expires_at"] > wall.now  # shown in (jumped) wall time
        wall.now -= 30 * 24 * 3600  # back a month: it does not live longer for that
        mono.now += 61 * 60
        assert await state() == 401


async def test_a_wall_clock_jump_neither_lifts_nor_extends_a_sign_in_lockout() -> None:
    wall, mono = MovableClock(), MovableClock(time.monotonic())
    async with (
        running_hub(clock=wall, monotonic=mono) as hub,
        httpx.AsyncClient(base_url=hub.web_url) as http,
    ):
        for _ in range(5):
            assert await attempt(http, user_name("dealer")) == 401
        wall.now += 3600  # forward an hour: still locked
        assert await attempt(http, user_name("dealer"), PASSWORD) == 429
        wall.now -= 7 * 24 * 3600  # back a week: lifted on time all the same
        mono.now += 301
        assert await attempt(http, user_name("dealer"), PASSWORD) == 200


async def test_a_token_expiry_stays_wall_time() -> None:
    """A token outlives the hub that issued it: its expiry is wall time (documented)."""
    wall = MovableClock()
    async with running_hub(clock=wall) as hub, httpx.AsyncClient(base_url=hub.web_url) as http:
        token = hub.token(Role.DEALER, seconds=60)
        auth = {"Authorization": f"Bearer {token}"}
        assert (await http.get("/api/console/state", headers=auth)).status_code == 200
        wall.now += 61
        assert (await http.get("/api/console/state", headers=auth)).status_code == 401
