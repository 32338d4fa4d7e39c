"""The seal beside a log: its last commit and the one before, in two checksummed slots
written in turn, so a torn write leaves the other readable."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from hub.adapters.eventlog.errors import SealDamaged
from hub.adapters.eventlog.files import datasync, fsync_dir

log = logging.getLogger("hub.adapters.eventlog")


@dataclass(frozen=True, slots=True)
class Seal:
    """What the seal says: the last commit (its last sequence number and chain, and the
    time of that input) and the commit before (``prev_…``; None when not known)."""

    seq: int
    chain: str
    t: float | None = None
    wall: float | None = None
    prev_seq: int | None = None
    prev_chain: str | None = None


SEAL_SYNC_S = 1.0
"""The seal is made durable at most this often (seconds, monotonic) and on close."""
SEAL_SLOT = 512
"""Bytes per slot of the seal file (two slots, written in turn)."""

_SEAL_MAGIC = b"feltwire event-log seal 1\n"


def _encode_slot(seal: Seal, n: int) -> bytes:
    body = json.dumps(
        {
            "n": n,
            "seq": seal.seq,
            "chain": seal.chain,
            "t": seal.t,
            "wall": seal.wall,
            "prev_seq": seal.prev_seq,
            "prev_chain": seal.prev_chain,
        },
        separators=(",", ":"),
    ).encode()
    text = _SEAL_MAGIC + body + b"\n"
    text += hashlib.sha256(text).hexdigest().encode() + b"\n"
    assert len(text) <= SEAL_SLOT
    return text.ljust(SEAL_SLOT, b"\0")


def _decode_slot(raw: bytes) -> tuple[int, Seal] | None:
    """A slot's generation and seal; None when it does not verify (torn, damaged)."""
    if not raw.startswith(_SEAL_MAGIC):
        return None
    parts = raw.rstrip(b"\0").split(b"\n")
    if len(parts) != 4 or parts[3] != b"":
        return None
    text = parts[0] + b"\n" + parts[1] + b"\n"
    if hashlib.sha256(text).hexdigest().encode() != parts[2]:
        return None
    try:
        data = json.loads(parts[1])
        seal = Seal(
            seq=int(data["seq"]),
            chain=str(data["chain"]),
            t=None if data["t"] is None else float(data["t"]),
            wall=None if data["wall"] is None else float(data["wall"]),
            prev_seq=None if data["prev_seq"] is None else int(data["prev_seq"]),
            prev_chain=None if data["prev_chain"] is None else str(data["prev_chain"]),
        )
        return int(data["n"]), seal
    except (ValueError, KeyError, TypeError):
        return None


def read_seal(path: Path) -> Seal | None:
    """The seal in the file at ``path`` (the newer of its two slots that verify); None
    when there is no such file; :class:`SealDamaged` when no slot verifies."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    slots = [_decode_slot(raw[i : i + SEAL_SLOT]) for i in (0, SEAL_SLOT)]
    valid = [s for s in slots if s is not None]
    if not valid:
        raise SealDamaged(f"{path}: neither slot of the seal verifies ({len(raw)} bytes)")
    return max(valid, key=lambda s: s[0])[1]


def create_seal(path: Path, seal: Seal) -> None:
    """Write a new seal file whole (temp file, fsync, rename, directory fsync): a seal
    file is never seen half-created."""
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, _encode_slot(seal, 1) + _encode_slot(seal, 0))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


class SealWriter:
    """The open seal file of a log: each write goes to the slot the last one did not use."""

    def __init__(self, path: Path, seal: Seal, *, durable: bool, create: bool) -> None:
        self.path = path
        self.durable = durable
        if create:
            create_seal(path, seal)
        self._fd = os.open(path, os.O_RDWR)
        if os.fstat(self._fd).st_mode & 0o077:
            os.fchmod(self._fd, 0o600)
        raw = os.pread(self._fd, 2 * SEAL_SLOT, 0)
        slots = [_decode_slot(raw[i : i + SEAL_SLOT]) for i in (0, SEAL_SLOT)]
        self._n = max((s[0] for s in slots if s is not None), default=0)
        self.failures = 0
        """Seal writes that failed (the log itself was committed; see :meth:`write`)."""
        self._synced: float | None = None
        self._unsynced = False

    def write(self, seal: Seal) -> None:
        """Write ``seal`` into the older slot (fdatasync when durable, at most every
        :data:`SEAL_SYNC_S`). A failure is logged, not raised: the commit it follows is in
        the log, and the next write tries again (until then the log is ahead of its seal,
        which a restart accepts)."""
        n = self._n + 1
        try:
            os.pwrite(self._fd, _encode_slot(seal, n), (n % 2) * SEAL_SLOT)
            self._unsynced = True
            now = time.monotonic()
            if self.durable and (self._synced is None or now - self._synced >= SEAL_SYNC_S):
                datasync(self._fd)
                self._synced, self._unsynced = now, False
        except OSError as exc:
            self.failures += 1
            if self.failures == 1:
                log.error("event log seal %s could not be written: %s (retrying)", self.path, exc)
            return
        if self.failures:
            log.info("event log seal %s written again after %d failures", self.path, self.failures)
            self.failures = 0
        self._n = n

    def close(self) -> None:
        """Close the seal file, made durable first when the last writes were not."""
        with contextlib.suppress(OSError):
            if self.durable and self._unsynced:
                datasync(self._fd)
            os.close(self._fd)
