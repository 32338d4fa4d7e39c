"""The hands store's tests run on both databases: ``store_url`` is a fresh SQLite file,
then a fresh database on a PostgreSQL server the tests start themselves
(:mod:`tests.support.postgres`, the ``postgres`` fixture of ``tests/conftest.py``: one
server for the session; skipped, with the reason,
only when PostgreSQL's binaries are not installed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.adapters.hands.store import sqlite_url
from tests.support.postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty hands store's URL: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "store" / "hands.sqlite")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
