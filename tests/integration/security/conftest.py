"""Fixtures of the security tests: brokers guarded like a real table
(:mod:`tests.support.guarded_brokers`), on the session's secrets or on credentials of
their own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.guarded_brokers import Guarded, TableSecrets, add_credential, start_guarded


def _serve(kind: str, secrets: TableSecrets, workdir: Path, *, mutual: bool) -> Iterator[Guarded]:
    """A guarded broker of ``kind`` for a fixture to yield; stopped when the test is done."""
    broker = start_guarded(kind, secrets, workdir, mutual=mutual)
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(params=["mosquitto", "embedded"])
def guarded(
    request: pytest.FixtureRequest, table_secrets: TableSecrets, tmp_path: Path
) -> Iterator[Guarded]:
    """A broker requiring TLS, passwords and the ACL (server certificate only)."""
    yield from _serve(request.param, table_secrets, tmp_path, mutual=False)


@pytest.fixture(params=["mosquitto", "embedded"])
def guarded_mutual(
    request: pytest.FixtureRequest, table_secrets: TableSecrets, tmp_path: Path
) -> Iterator[Guarded]:
    """The same, with a client certificate required (mutual TLS)."""
    yield from _serve(request.param, table_secrets, tmp_path, mutual=True)


@pytest.fixture(scope="module")
def secrets(table_secrets: TableSecrets, tmp_path_factory: pytest.TempPathFactory) -> TableSecrets:
    """The session's CA and certificates with credentials of their own: table1's hub and
    its nodes pi-north and pi-south (the node-identity and forged-sequence tests)."""
    d = tmp_path_factory.mktemp("identity")
    s = dataclasses.replace(
        table_secrets, dir=d, passwords=d / "passwords", acl=d / "acl", users={}
    )
    add_credential(s, "hub", "--table", "table1", "--role", "hub")
    add_credential(s, "north", "--table", "table1", "--node", "pi-north")
    add_credential(s, "south", "--table", "table1", "--node", "pi-south")
    return s


@pytest.fixture(params=["mosquitto", "embedded"])
def broker(
    request: pytest.FixtureRequest, secrets: TableSecrets, tmp_path: Path
) -> Iterator[Guarded]:
    """A guarded broker (TLS, passwords, the ACL) on :func:`secrets`' credentials."""
    yield from _serve(request.param, secrets, tmp_path, mutual=False)
