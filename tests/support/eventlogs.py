"""One table's event log on either backend, for the event-log tests that hold for both:
:class:`LogPlace` opens the log where it lies — a SQLite file, or a database of the tests'
own PostgreSQL server (:mod:`tests.support.postgres`) — and changes its rows behind the
hub's back, as someone with the ``sqlite3`` shell or the database's rights would.

The ``log_place`` fixture (``tests/unit/hub/conftest.py``) gives one of each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.adapters.eventlog.backend import TableLog
from hub.adapters.eventlog.pg import PgEventLog
from hub.adapters.eventlog.store import EventLog


class LogPlace:
    """Where a test's event log lies: ``kind`` is ``sqlite`` (``path``) or ``postgresql``
    (``url``); the log of every table is opened at the same place."""

    def __init__(self, kind: str, *, path: Path | None = None, url: str | None = None) -> None:
        self.kind = kind
        self.path = path
        self.url = url

    @property
    def inputs(self) -> str:
        """The table of the inputs."""
        return "events" if self.kind == "sqlite" else "event_inputs"

    @property
    def snapshots(self) -> str:
        """The table of the snapshots."""
        return "snapshots" if self.kind == "sqlite" else "event_snapshots"

    @property
    def where(self) -> str:
        """How the log's messages name it."""
        return str(self.path) if self.kind == "sqlite" else str(self.url)

    def open(self, table: str = "t1", **options: Any) -> TableLog:
        """The log of ``table`` (a new one the first time), as the hub opens it."""
        if self.kind == "sqlite":
            assert self.path is not None
            return EventLog(self.path, table, **options)
        assert self.url is not None
        return PgEventLog(self.url, table, **options)

    def edit(self, sql: str, *args: object) -> None:
        """Run ``sql`` (``{inputs}``, ``{snapshots}``: the tables; ``?``: the arguments)
        on the closed log, append-only triggers out of the way: damage done from outside."""
        sql = sql.format(inputs=self.inputs, snapshots=self.snapshots)
        if self.kind == "sqlite":
            import sqlite3

            db = sqlite3.connect(str(self.path))
            try:
                db.execute("DROP TRIGGER IF EXISTS events_append_only_update")
                db.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
                db.execute(sql, args)
                db.commit()
            finally:
                db.close()
            return
        import psycopg

        assert self.url is not None
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("SET session_replication_role = replica")  # no triggers (superuser)
            conn.execute(sql.replace("?", "%s").encode(), args)

    def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """What ``sql`` (as :meth:`edit` writes it) reads from the log."""
        sql = sql.format(inputs=self.inputs, snapshots=self.snapshots)
        if self.kind == "sqlite":
            import sqlite3

            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                return [tuple(r) for r in db.execute(sql, args).fetchall()]
            finally:
                db.close()
        import psycopg

        assert self.url is not None
        with psycopg.connect(self.url, autocommit=True) as conn:
            return [tuple(r) for r in conn.execute(sql.replace("?", "%s").encode(), args)]
