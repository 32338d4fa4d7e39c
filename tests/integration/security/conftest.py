"""Fixtures of the security tests: brokers guarded like a real table
(:mod:`tests.support.guarded_brokers`), on the session's secrets or on credentials of
their own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.guarded_brokers import Guarded, TableSecrets, add_credential, start_guarded


@pytest.fixture(params=["mosquitto", "embedded"])
def guarded(
    request: pytest.FixtureRequest, table_secrets: TableSecrets, tmp_path: Path
) -> Iterator[Guarded]:
    """A broker requiring TLS, passwords and the ACL (server certificate only)."""
    broker = start_guarded(request.param, table_secrets, tmp_path, mutual=False)
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(params=["mosquitto", "embedded"])
def guarded_mutual(
    request: pytest.FixtureRequest, table_secrets: TableSecrets, tmp_path: Path
) -> Iterator[Guarded]:
    """The same, with a client certificate required (mutual TLS)."""
    broker = start_guarded(request.param, table_secrets, tmp_path, mutual=True)
    try:
        yield broker
    finally:
        broker.stop()


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
    b = start_guarded(request.param, secrets, tmp_path, mutual=False)
    try:
        yield b
    finally:
        b.stop()
