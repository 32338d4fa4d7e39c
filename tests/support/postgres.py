"""A PostgreSQL server started by the tests themselves: Debian's ``postgresql`` binaries
(``/usr/lib/postgresql/*/bin``, which ``scripts/test`` installs when missing), a cluster
made with ``initdb`` in a temporary directory, its own config, on a free loopback port,
started and stopped with ``pg_ctl`` — never the machine's running server. The tests'
server trades durability for speed (``fsync = off``); ``durable=True`` keeps PostgreSQL's
own defaults (``bench/hands_store.py`` measures writes on it). No pytest here: the bench
imports :class:`PostgresServer` too; :func:`postgres_server` turns
:class:`PostgresUnavailable` into a skip.

PostgreSQL refuses to run as root: as root the cluster belongs to the ``postgres`` user
(which Debian's package creates) and its commands run through ``runuser``. Tests that
need the server are skipped, with the reason, only when the binaries are not there.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from tests.support.ports import free_port, wait_port

NOT_INSTALLED = (
    "PostgreSQL's server binaries (Debian's postgresql package: /usr/lib/postgresql/*/bin) "
    "are not installed; ./scripts/test installs them"
)


def postgres_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with initdb and pg_ctl (None: none)."""
    found = [
        d
        for d in Path("/usr/lib/postgresql").glob("*/bin")
        if (d / "initdb").exists() and (d / "pg_ctl").exists()
    ]
    found.sort(key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0)
    return found[-1] if found else None


class PostgresUnavailable(RuntimeError):
    """This machine cannot run a PostgreSQL of our own (the reason)."""


class PostgresServer:
    """One PostgreSQL cluster of the tests' own (see the module)."""

    def __init__(self, bindir: Path, *, durable: bool = False, max_connections: int = 40) -> None:
        self.bindir = bindir
        self.durable = durable
        self.max_connections = max_connections
        """The server's ``max_connections`` (a hub holds one for each table's log)."""
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable(
                    "running as root and there is no postgres user to run PostgreSQL"
                ) from None
            self.user = "postgres"
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="feltwire-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        if self.user is not None:
            shutil.chown(self.root, "postgres", "postgres")
        self.root.chmod(0o700)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}")
        return done

    def start(self) -> None:
        """initdb (trust on loopback, superuser ``postgres``), then ``pg_ctl start``."""
        self._run(
            *("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8"),
            *("--no-sync", "--no-instructions"),
        )
        fast = "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
        (self.data / "postgresql.auto.conf").write_text(
            f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
            f"unix_socket_directories = '{self.root}'\n"
            f"{'' if self.durable else fast}max_connections = {self.max_connections}\n"
        )
        if self.user is not None:
            shutil.chown(self.data / "postgresql.auto.conf", "postgres", "postgres")
        try:
            self._run(
                "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"
            )
            wait_port(self.port, timeout=30)
        except (RuntimeError, TimeoutError) as exc:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {exc}\n{log}") from exc

    def halt(self) -> None:
        """``pg_ctl stop`` (fast: every session is ended), keeping the cluster:
        :meth:`resume` starts it again on the same port, its databases as they were."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the cluster :meth:`halt` stopped."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")
        wait_port(self.port, timeout=30)

    def stop(self) -> None:
        """``pg_ctl stop`` (fast), then the cluster's directory goes."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server, as ``[hands] url`` takes it."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def postgres_server(*, max_connections: int = 40) -> Iterator[PostgresServer]:
    """A started server of the tests' own (skips the test when PostgreSQL is not
    installed); ``max_connections`` as :class:`PostgresServer` takes it."""
    import pytest

    bindir = postgres_bin()
    if bindir is None:
        pytest.skip(NOT_INSTALLED)
    try:
        server = PostgresServer(bindir, max_connections=max_connections)
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        server.start()
        yield server
    finally:
        server.stop()
