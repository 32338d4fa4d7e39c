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

A primary with a streaming standby (a casino's PostgreSQL, docs/scaling.md):
:meth:`PostgresServer.add_standby` makes another cluster of its own (port, directory)
by ``pg_basebackup -R`` from a started server and starts it streaming from it —
**synchronous** by default: the primary names it in ``synchronous_standby_names`` with
``synchronous_commit = on``, so no commit returns to a client before the standby has
its WAL on disk, and a standby promoted after the primary died holds every commit a
hub was told of. :meth:`PostgresServer.kill` is the primary's death (SIGKILL of the
postmaster and every process of its cluster), :meth:`PostgresServer.promote` a standby
made primary (``pg_ctl promote``); :func:`replicated_postgres` gives both, started, and
stops both. The standby's own ``synchronous_standby_names`` is empty: promoted, it has
no standby to wait for (naming one would hold every commit until one came).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
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
        self.standbys: list[PostgresServer] = []
        """The standbys :meth:`add_standby` made of this server."""
        self.name = "primary"
        """This server's name: a standby's is its ``application_name`` at the primary."""

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

    def add_standby(self, name: str = "standby1", *, synchronous: bool = True) -> PostgresServer:
        """A standby of this started server, streaming from it: a cluster of its own
        (port, directory; this server's settings) made by ``pg_basebackup -R`` and
        started. ``synchronous``: this server names it in ``synchronous_standby_names``
        (``synchronous_commit = on``) and waits for each commit to be on its disk;
        returns once the standby streams (``sync`` in ``pg_stat_replication`` when
        asked). Stopped with this server (:meth:`stop`)."""
        standby = PostgresServer(
            self.bindir, durable=self.durable, max_connections=self.max_connections
        )
        standby.name = name
        self.standbys.append(standby)
        try:
            standby._clone(self)
        except BaseException:
            standby.stop()
            raise
        self._replicate(name, synchronous=synchronous)
        return standby

    def _clone(self, primary: PostgresServer) -> None:
        """Become a standby of ``primary``: its base backup, this server's own port and
        socket directory, streaming under :attr:`name`; started."""
        self._run(
            *("pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
            *("-D", str(self.data), "-R", "-X", "stream", "-c", "fast"),
            *(() if self.durable else ("--no-sync",)),
        )
        # -R wrote standby.signal and primary_conninfo into the copied postgresql.auto.conf
        # (the primary's own settings above it); the later lines here win
        with (self.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nunix_socket_directories = '{self.root}'\n"
                f"primary_conninfo = 'host=127.0.0.1 port={primary.port} user=postgres "
                f"application_name={self.name}'\nsynchronous_standby_names = ''\n"
            )
        try:
            self.resume()
        except (RuntimeError, TimeoutError) as exc:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"the standby did not start: {exc}\n{log}") from exc

    def _replicate(self, name: str, *, synchronous: bool, wait_s: float = 60.0) -> None:
        """Wait until standby ``name`` streams from this server; ``synchronous``: make
        it the synchronous standby first (every commit then waits for it)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            if synchronous:
                conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '\"{name}\"'")
                conn.execute("ALTER SYSTEM SET synchronous_commit = on")
                conn.execute("SELECT pg_reload_conf()")
            want = "sync" if synchronous else "async"
            deadline = time.monotonic() + wait_s
            while True:
                row = conn.execute(
                    "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = %s",
                    (name,),
                ).fetchone()
                if row == ("streaming", want):
                    return
                if time.monotonic() >= deadline:
                    raise RuntimeError(f"standby {name} is not streaming ({want}): {row}")
                time.sleep(0.1)

    def promote(self) -> None:
        """Make this standby a primary (``pg_ctl promote``, returning once it takes
        writes)."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "promote")

    def in_recovery(self) -> bool:
        """Whether this server is a standby (``pg_is_in_recovery()``)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
        return row is not None and bool(row[0])

    def kill(self) -> None:
        """The server dies at once, as with its machine: SIGKILL of the postmaster and
        of every process of its cluster (no shutdown, nothing flushed or said to a
        client; the kernel closes their sockets)."""
        pids = self._processes()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in pids):
            if time.monotonic() >= deadline:
                raise RuntimeError(f"PostgreSQL's processes {pids} outlived SIGKILL")
            time.sleep(0.02)

    def _postmaster(self) -> int | None:
        """The postmaster's pid (None: not running)."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None
        return pid if _running(pid) else None

    def _processes(self) -> list[int]:
        """The postmaster and its children (the backends, the WAL sender, …)."""
        top = self._postmaster()
        if top is None:
            return []
        found = [top]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                # pid (comm) state ppid …: comm may hold spaces, so split after its ')'
                if int(stat.read_text().rpartition(")")[2].split()[1]) == top:
                    found.append(int(stat.parent.name))
        return found

    def _remove_shared_memory(self) -> None:
        """The SysV segment a killed postmaster leaves (``postmaster.pid``'s 7th line:
        its key and id); a clean stop removes it itself."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            lines = (self.data / "postmaster.pid").read_text().split("\n")
            shmid = int(lines[6].split()[1])
            subprocess.run(["ipcrm", "-m", str(shmid)], capture_output=True, timeout=10)

    def halt(self) -> None:
        """``pg_ctl stop`` (fast: every session is ended), keeping the cluster:
        :meth:`resume` starts it again on the same port, its databases as they were."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the cluster :meth:`halt` stopped."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")
        wait_port(self.port, timeout=30)

    def stop(self) -> None:
        """``pg_ctl stop`` (fast) of this server and its standbys, then the clusters'
        directories go (a killed server's shared memory too)."""
        for standby in self.standbys:
            standby.stop()
        if self._postmaster() is not None:
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        if self._postmaster() is not None:  # it would not stop: it goes anyway
            with contextlib.suppress(RuntimeError):
                self.kill()
        if self._postmaster() is None and (self.data / "postmaster.pid").exists():
            self._remove_shared_memory()  # killed: nothing removed its segment
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

    def hosts_url(self, database: str, *others: PostgresServer) -> str:
        """One URL of ``database`` on this server and ``others`` (its standbys), as a hub
        of a casino is given it: every host, tried in order, and only a server that takes
        writes accepted (``target_session_attrs=read-write``) — whichever is primary now."""
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in (self, *others))
        return f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped by whoever
    adopted it, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _bindir() -> Path:
    """The server's binaries (skips the test when they are not installed)."""
    import pytest

    bindir = postgres_bin()
    if bindir is None:
        pytest.skip(NOT_INSTALLED)
    return bindir


@contextlib.contextmanager
def replicated_postgres(
    *, max_connections: int = 40, synchronous: bool = True
) -> Iterator[tuple[PostgresServer, PostgresServer]]:
    """A primary and its streaming standby (``synchronous`` by default), both durable
    (``fsync`` on: the tests of them are about what survives), started; stopped, their
    directories removed, whatever happened (a killed primary included)."""
    import pytest

    try:
        primary = PostgresServer(_bindir(), durable=True, max_connections=max_connections)
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        primary.start()
        standby = primary.add_standby(synchronous=synchronous)
        yield primary, standby
    finally:
        primary.stop()


@contextlib.contextmanager
def postgres_server(*, max_connections: int = 40) -> Iterator[PostgresServer]:
    """A started server of the tests' own (skips the test when PostgreSQL is not
    installed); ``max_connections`` as :class:`PostgresServer` takes it."""
    import pytest

    try:
        server = PostgresServer(_bindir(), max_connections=max_connections)
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        server.start()
        yield server
    finally:
        server.stop()
