"""The web side's security parts on their own: the sign-in rate limit, the session store,
the audit trail, the users and the ``feltwire web-user`` / ``web-token`` commands."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tomllib
from pathlib import Path

import pytest

from hub.security.audit import REFUSALS_PER_MINUTE_TOTAL, AuditLog
from hub.security.errors import AuditError
from hub.security.limits import SignInLimiter, SlidingWindow
from hub.security.passwords import hash_password
from hub.security.sessions import SessionStore
from hub.security.users import (
    UserDirectory,
    WebUser,
    check_password,
    hash_web_password,
    read_users_file,
)
from hub.web.auth import AuthError, Role, TokenSigner
from hub.web.server import ConnectionGuard
from tests.support.clocks import FakeClock
from tests.support.commands import run
from tests.support.web_hub import SECRET


def test_sign_in_limiter_counts_per_name_and_address_and_per_address() -> None:
    limiter = SignInLimiter(per_name_and_address=5, per_address=20, window=300)
    for n in range(5):
        assert limiter.retry_after("ann", "10.0.0.1", now=n) == 0
        limiter.failed("ann", "10.0.0.1", now=n)
    # the name is locked from that address until its oldest failure leaves the window
    assert limiter.retry_after("ann", "10.0.0.1", now=10) == 290
    assert limiter.retry_after("ANN", "10.0.0.1", now=10) == 290  # names fold case
    assert limiter.retry_after("ann", "10.9.9.9", now=10) == 0  # not from elsewhere
    assert limiter.retry_after("bo", "10.0.0.1", now=10) == 0
    assert limiter.retry_after("ann", "10.0.0.1", now=300) == 0
    # the address: 20 failures over any names lock it for every name
    for n in range(20):
        limiter.failed(f"user{n}", "10.0.0.2", now=400)
    assert limiter.retry_after("someone", "10.0.0.2", now=401) == 299
    # a success clears only that name's failures from that address, never an address's
    limiter.succeeded("user3", "10.0.0.2")
    assert limiter.retry_after("user3", "10.0.0.2", now=401) == 299
    assert limiter.retry_after("user3", "10.0.0.3", now=401) == 0


def test_sliding_window_forgets_the_oldest_keys_beyond_its_bound() -> None:
    w = SlidingWindow(limit=1, window=60, max_keys=3)
    for key in "abcd":
        w.add(key, now=0)
    assert len(w) == 3 and w.count("a", now=1) == 0 and w.count("d", now=1) == 1
    assert not w.hit("d", now=59) and w.hit("d", now=60)
    with pytest.raises(ValueError):
        SlidingWindow(limit=0, window=1)


def test_session_store_idle_absolute_revoke_and_hashed_keys() -> None:
    clock = FakeClock()
    store = SessionStore(monotonic=clock, absolute=3600, idle=600, max_sessions=2)
    sid, session = store.create("ann", "dealer", source="10.0.0.4")
    assert len(sid) >= 43 and sid not in repr(store.__dict__)  # only its hash is kept
    assert session.csrf and session.csrf != sid
    clock.now += 599
    assert store.get(sid) is session  # used: the idle timer restarts
    clock.now += 599
    assert store.get(sid) is session
    clock.now += 600
    assert store.get(sid) is None and store.get(sid) is None  # idle: gone for good
    sid2, _ = store.create("bo", "producer")
    for _ in range(7):  # used every 500 s: never idle, 3500 s old
        clock.now += 500
        assert store.get(sid2) is not None
    clock.now += 500
    assert store.get(sid2) is None  # the absolute hour is over, however busy
    a, _ = store.create("a", "dealer")
    clock.now += 1
    b, _ = store.create("b", "dealer")
    clock.now += 1
    c, _ = store.create("c", "dealer")  # the store is full: the least recently used goes
    assert store.get(a) is None and store.get(b) is not None and store.get(c) is not None
    assert store.revoke(b) and not store.revoke(b) and store.get(b) is None
    assert store.get("") is None and store.get("x" * 500) is None
    assert store.revoke_user("c") == 1 and store.get(c) is None


def test_audit_trail_is_append_only_and_tamper_evident(tmp_path: Path) -> None:
    path = tmp_path / "state" / "audit.sqlite"
    trail = AuditLog(path, clock=FakeClock())
    fields = {
        "feed": "overlay",
        "route": "/overlay",
        "table": "t1",
        "role": "producer",
        "via": "token",
        "user_agent": "OBS",
    }
    for name in ("obs", "bo", "cy"):
        trail.record(outcome="open", name=name, address="10.0.0.7", **fields)
    assert [e.name for e in trail.read()] == ["cy", "bo", "obs"]
    assert [e.name for e in trail.read(limit=1, before=3)] == ["bo"]
    assert trail.verify() == 3
    trail.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    # someone with the file drops the triggers and rewrites a row: the chain notices
    with contextlib.closing(sqlite3.connect(path)) as db:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE audit SET name = 'x' WHERE id = 2")
        db.execute("DROP TRIGGER audit_append_only_update")
        db.execute("UPDATE audit SET address = '10.0.0.99' WHERE id = 2")
        db.commit()
    with pytest.raises(AuditError, match="row 2 was changed"):
        AuditLog(path).verify()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TRIGGER audit_append_only_delete")
        db.execute("DELETE FROM audit WHERE id = 2")
        db.commit()
    with pytest.raises(AuditError, match="missing"):
        AuditLog(path).verify()


def test_audit_trail_throttles_refusals_per_address() -> None:
    clock = FakeClock()
    trail = AuditLog.memory(monotonic=clock)
    fields = {
        "feed": "overlay",
        "route": "/ws/overlay",
        "table": "t1",
        "name": "?",
        "role": "?",
        "via": "token",
        "user_agent": "x" * 5000,
        "detail": "token expired",
    }
    written = [trail.record(outcome="refused", address="10.6.6.6", **fields) for _ in range(100)]
    assert sum(e is not None for e in written) == 30 and trail.suppressed == 70
    assert trail.record(outcome="refused", address="10.0.0.1", **fields) is not None
    clock.now += 60
    assert trail.record(outcome="refused", address="10.6.6.6", **fields) is not None
    assert all(len(e.user_agent) <= 300 for e in trail.read(limit=500))
    assert trail.verify() == len(trail) == 32


def test_audit_trail_throttles_refusals_in_all_on_the_monotonic_clock() -> None:
    wall, mono = FakeClock(), FakeClock()
    trail = AuditLog.memory(clock=wall, monotonic=mono)
    fields = {"feed": "overlay", "route": "/overlay", "table": "t1", "name": "?", "role": "?"}
    for n in range(200):  # one refusal each from 200 addresses
        trail.record(
            outcome="refused", via="token", address=f"10.2.{n}.1", user_agent="x", **fields
        )
    assert len(trail) == REFUSALS_PER_MINUTE_TOTAL and trail.suppressed == 200 - len(trail)
    wall.now += 3600  # the wall clock jumps: the throttle's minute is not over
    assert (
        trail.record(outcome="refused", via="token", address="10.3.0.1", user_agent="", **fields)
        is None
    )
    assert trail.record(outcome="open", via="token", address="10.3.0.1", user_agent="", **fields)
    mono.now += 60
    entry = trail.record(
        outcome="refused", via="token", address="10.3.0.1", user_agent="", **fields
    )
    assert entry is not None and entry.t == wall.now  # entries carry wall time


def test_connection_guard_counts_per_address_and_in_all() -> None:
    guard = ConnectionGuard(
        max_per_address=2, max_total=5, header_timeout=1, trusted_proxies=["10.9.0.0/16"]
    )
    assert [guard.admit("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert [guard.admit("10.9.1.1") for _ in range(3)] == [True, True, True]  # a proxy
    assert not guard.admit("10.0.0.2")  # 5 open: the total
    assert guard.counts == {"connections_over_address_limit": 1, "connections_over_total_limit": 1}
    guard.release("10.0.0.1")
    assert guard.admit("10.0.0.2") and guard.open == 5
    assert guard.is_trusted("::ffff:10.9.3.4") and not guard.is_trusted("10.8.0.1")


def test_web_user_hashes_are_validated() -> None:
    good = hash_web_password("pw")
    assert good.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert WebUser(name="a", role="dealer", password_hash=good).password_hash == good
    costly = good.replace("m=19456", "m=4194304")
    for bad, why in (
        ("$argon2id$nonsense", "garbled"),
        (good.replace("$argon2id$", "$argon2i$"), "not an argon2id"),
        (costly, "cost too high"),
        ("plain", "not an argon2id"),
    ):
        with pytest.raises(ValueError, match=why):
            WebUser(name="a", role="dealer", password_hash=bad)
    legacy = WebUser(name="a", role="dealer", password_hash=hash_password("pw", iterations=5))
    assert check_password(legacy, "pw") and not check_password(legacy, "px")
    assert not check_password(None, "pw")


def test_tokens_forged_expired_garbled_are_refused() -> None:
    clock = FakeClock()
    signer = TokenSigner(SECRET.encode(), clock=clock)
    token = signer.issue(Role.PRODUCER, "obs", seconds=60)
    assert signer.check(token)[:2] == (Role.PRODUCER, "obs")
    claims = token.split(".")[1]
    forged = TokenSigner(b"0123456789abcdef-other").issue(Role.ADMIN, "x", seconds=60)
    for bad in (forged, f"fwt1.{claims}.AAAA", "fwt1..", "garbage", token + "x"):
        with pytest.raises(AuthError):
            signer.check(bad)
    clock.now += 60
    with pytest.raises(AuthError, match="expired"):
        signer.check(token)


def test_web_user_command_writes_hashes_only(tmp_path: Path) -> None:
    from hub.cli import web_user as web_users

    users = tmp_path / "web-users.toml"
    code, out, _ = run(web_users.main, ["add", "--role", "dealer", "ann"], "a long password\n")
    assert code == 0 and "a long password" not in out
    entry = out.splitlines()[-1]  # pasted into [web] users = [ … ] it is a valid user
    pasted = WebUser.model_validate(tomllib.loads(f"users = [{entry}]")["users"][0])
    assert pasted.password_hash.startswith("$argon2id$")
    assert check_password(pasted, "a long password") and not check_password(pasted, "guess")
    for name, role in (("ann", "dealer"), ("bo", "producer"), ("ann", "admin")):
        argv = ["add", "--role", role, name, "--file", str(users)]
        code, out, _ = run(web_users.main, argv, "another long password\n")
        assert code == 0, out
    assert stat.S_IMODE(os.stat(users).st_mode) == 0o600
    text = users.read_text()
    assert "another long password" not in text
    read = {u.name: u for u in read_users_file(users)}
    assert {n: u.role for n, u in read.items()} == {"bo": "producer", "ann": "admin"}
    assert read["ann"].password_hash.startswith("$argon2id$")
    assert check_password(read["ann"], "another long password")
    directory = UserDirectory([], users)
    assert directory.verify("ann", "another long password") == read["ann"]
    assert directory.verify("ann", "wrong") is None and directory.verify("zed", "x") is None
    code, _, err = run(web_users.main, ["add", "--role", "admin", "cy"], "short\n")
    assert code == 1 and "at least" in err
    assert run(web_users.main, ["remove", "bo", "--file", str(users)])[0] == 0
    assert [u.name for u in read_users_file(users)] == ["ann"]
    assert run(web_users.main, ["remove", "bo", "--file", str(users)])[0] == 1
    users.write_text('[[users]]\nname = "x"\nrole = "public"\npassword_hash = "nope"\n')
    with pytest.raises(ValueError, match=r"user #1: role"):
        read_users_file(users)


def test_web_user_config_is_validated(tmp_path: Path) -> None:
    from feltwire.config import parse_config
    from feltwire.errors import ConfigError
    from hub.config import HubConfig

    entry = {"name": "ann", "role": "dealer", "password_hash": "plain text"}
    with pytest.raises(ConfigError, match="password_hash"):
        parse_config(HubConfig, {"web": {"users": [entry]}}, source="t")
    good = WebUser(name="ann", role="dealer", password_hash="$7$1$YWJj$ZGVm").model_dump()
    with pytest.raises(ConfigError, match="twice"):
        parse_config(HubConfig, {"web": {"users": [good, good]}}, source="t")
    with pytest.raises(ConfigError, match="no such users file"):
        parse_config(HubConfig, {"web": {"users_file": str(tmp_path / "x")}}, source="t")
    assert "password_hash" not in repr(WebUser.model_validate(good))


def test_web_token_command_mints_a_token_the_hub_accepts(tmp_path: Path) -> None:
    from hub.cli import web_token as web_tokens

    config = tmp_path / "hub.toml"
    config.write_text(f'[web]\ntoken_secret = "{SECRET}"\n')
    argv = ["--role", "producer", "--hours", "2", "--config", str(config), "--name", "obs"]
    code, out, _ = run(web_tokens.main, argv)
    assert code == 0
    role, name, _ = TokenSigner(SECRET.encode()).check(out.strip())
    assert (role, name) == (Role.PRODUCER, "obs")
    config.write_text("[web]\n")
    code, _, err = run(web_tokens.main, ["--role", "admin", "--config", str(config)])
    assert code == 1 and "token_secret" in err
    code, _, err = run(web_tokens.main, ["--role", "admin", "--hours", "0", "--config", "x"])
    assert code == 2


def test_failed_accept_retries_are_counted_and_throttled(caplog: pytest.LogCaptureFixture) -> None:
    """After EMFILE asyncio retries accept() once per failed accept; a retry for a
    listener closed meanwhile reports a traceback each. The hub counts them and lets a
    few lines through (seen once in CI: 2,648 lines from one exhausted hub)."""
    import asyncio
    from collections import Counter

    from hub.web.server import ACCEPT_RETRIES_FAILED, AcceptErrorThrottle

    loop = asyncio.new_event_loop()
    try:
        counts: Counter[str] = Counter()
        handler = AcceptErrorThrottle(loop, counts)
        retry = asyncio.TimerHandle(0.0, loop._start_serving, (), loop)  # type: ignore[attr-defined]
        with caplog.at_level("ERROR"):
            for _ in range(100):
                handler(loop, {"message": "Exception in callback", "handle": retry,
                               "exception": ValueError("Invalid file descriptor: -1")})  # fmt: skip
        assert counts[ACCEPT_RETRIES_FAILED] == 100
        assert len([r for r in caplog.records if "retried accept" in r.getMessage()]) == 3
    finally:
        loop.close()


def test_a_full_window_is_the_window_to_the_last_bit() -> None:
    """At a monotonic time like 8174.326…, ``(t + 300) - t`` is 300.00000000000006 and the
    sign-in's ``Retry-After`` (rounded up) said 301 for a 300-s lock."""
    t = 8174.326235239371
    window = SlidingWindow(limit=1, window=300)
    window.add("ann", t)
    assert window.retry_after("ann", t) == 300.0
