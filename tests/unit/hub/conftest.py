"""``log_place``: the event-log tests that hold for both backends run on a SQLite file,
then on a fresh database of the tests' own PostgreSQL server (``postgres``, in
``tests/conftest.py``; skipped, with the reason, only when PostgreSQL's binaries are not
installed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.eventlogs import LogPlace
from tests.support.postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def log_place(request: pytest.FixtureRequest, tmp_path: Path) -> LogPlace:
    """Where a test's event log lies: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return LogPlace("sqlite", path=tmp_path / "state" / "events.sqlite")
    server: PostgresServer = request.getfixturevalue("postgres")
    return LogPlace("postgresql", url=server.new_database())
