"""The log's files on disk: names beside it (seal, WAL), private creation, durable
renames, a read-only look that leaves a damaged log as it was found, the WAL's state."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path

from feltwire.files import private_file
from hub.adapters.eventlog.errors import EventLogError

EVENT_LOG_FILE = "events.sqlite"
"""The log's file name inside the hub's state directory."""

SEAL_SUFFIX = ".seal"
"""The seal's name is the log's with this added (``events.sqlite.seal``)."""

create_private = private_file
"""Create ``path`` (and its directory) for its owner only; tighten a looser one
(:func:`feltwire.files.private_file`)."""


def seal_path(path: Path) -> Path:
    """Where the seal of the log at ``path`` lies (``events.sqlite.seal``)."""
    return path.with_name(path.name + SEAL_SUFFIX)


def sidecar(path: Path, suffix: str) -> Path:
    """The file SQLite keeps beside the log at ``path`` (``-wal``, ``-shm``) or any name
    made by adding ``suffix``."""
    return path.with_name(path.name + suffix)


def fsync_dir(directory: Path) -> None:
    """Make the renames and creations in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


datasync = getattr(os, "fdatasync", os.fsync)
"""``fdatasync`` where the OS has it (the seal's data, not its metadata), else ``fsync``."""


def wal_state(path: Path) -> str:
    """What the WAL beside the log looks like, for a damage message."""
    wal = sidecar(path, "-wal")
    try:
        with wal.open("rb") as f:
            head = f.read(32)
    except FileNotFoundError:
        return f"{wal.name} is missing"
    if not head:
        return f"{wal.name} is empty"
    if len(head) < 32:
        return f"the header of {wal.name} is damaged (it is {len(head)} bytes long)"
    magic = struct.unpack(">I", head[:4])[0]
    if magic not in (0x377F0682, 0x377F0683):
        return f"the header of {wal.name} is damaged"
    order = ">" if magic & 1 else "<"
    s0 = s1 = 0
    for x0, x1 in struct.iter_unpack(order + "II", head[:24]):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    if (s0, s1) != struct.unpack(">II", head[24:32]):
        return f"the header of {wal.name} is damaged (its checksum does not match)"
    return (
        f"{wal.name} has a sound header; SQLite stops reading a WAL at the first frame whose "
        "checksum fails (damaged bytes, a torn write) and drops every frame after it"
    )


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection: it never writes the database, never checkpoints or
    deletes the WAL (a damaged log stays as it was found, for forensics). The ``-wal``
    (empty) and ``-shm`` files SQLite creates for it are removed afterwards."""
    made = [p for p in (sidecar(path, "-wal"), sidecar(path, "-shm")) if not p.exists()]
    db = sqlite3.connect(
        path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=2.0
    )
    try:
        yield db
    finally:
        db.close()
        for p in made:
            with contextlib.suppress(OSError):
                if p.name.endswith("-shm") or p.stat().st_size == 0:
                    p.unlink()


def is_locked(exc: sqlite3.Error) -> bool:
    """Whether SQLite failed because another connection (a running hub) holds the log."""
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_BUSY", "SQLITE_LOCKED")


def locked_error(path: Path | str) -> EventLogError:
    """What a command that reads or copies the log at ``path`` says when it is locked
    (:func:`is_locked`)."""
    return EventLogError(
        f"event log {path} is locked: a running hub (or another feltwire command) uses it; "
        "stop it first"
    )
