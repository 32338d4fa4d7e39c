"""SQLite's write-ahead log read frame by frame, as SQLite's recovery reads it, so a
test can tear exactly the last commit of a real event log (a write cut short mid-record).

A WAL is a 32-byte header (magic, format, page size, checkpoint number, two salts, a
checksum) and frames of a 24-byte header (page number, the database size in pages *after
the commit* — nonzero only on a transaction's last frame —, the salts, a cumulative
checksum) and one page. Recovery reads frames while their salts match the header's and
the checksum chain holds; a transaction counts only if its commit frame is read
(https://www.sqlite.org/fileformat2.html#walformat). Frames after that — left from before
a checkpoint restarted the WAL — are ignored.

>>> _checksum(b"\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x02", ">", (0, 0))
(1, 3)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

HEADER = 32
FRAME_HEADER = 24


def _checksum(data: bytes, order: str, start: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) continuing ``start``."""
    s0, s1 = start
    for x0, x1 in struct.iter_unpack(order + "II", data):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


@dataclass(frozen=True)
class Commit:
    """One transaction in the WAL: its frames span bytes ``start``..``end`` of the file."""

    start: int
    end: int
    frames: int


def commits(wal: Path) -> tuple[int, list[Commit]]:
    """The WAL's page size and its committed transactions, in order, as recovery finds
    them (frames of an uncommitted tail or of an earlier WAL generation left out)."""
    data = wal.read_bytes()
    if len(data) < HEADER:
        raise ValueError(f"{wal}: no WAL header")
    magic, _version, page_size, _ckpt, salt1, salt2 = struct.unpack(">IIIIII", data[:24])
    if magic not in (0x377F0682, 0x377F0683):
        raise ValueError(f"{wal}: not a WAL")
    order = ">" if magic & 1 else "<"
    check = _checksum(data[:24], order, (0, 0))
    if check != struct.unpack(">II", data[24:32]):
        raise ValueError(f"{wal}: the WAL header's checksum fails")
    out: list[Commit] = []
    pos = start = HEADER
    frames = 0
    size = FRAME_HEADER + page_size
    while pos + size <= len(data):
        head = data[pos : pos + FRAME_HEADER]
        _page, after, f_salt1, f_salt2, c0, c1 = struct.unpack(">IIIIII", head)
        if (f_salt1, f_salt2) != (salt1, salt2):
            break
        check = _checksum(head[:8] + data[pos + FRAME_HEADER : pos + size], order, check)
        if check != (c0, c1):
            break
        pos += size
        frames += 1
        if after:
            out.append(Commit(start, pos, frames))
            start, frames = pos, 0
    return page_size, out


def tear_last_commit(wal: Path) -> Commit:
    """Cut the WAL in the middle of its last commit's first frame — the page half
    written, as a write cut short leaves it — and return that commit."""
    page_size, found = commits(wal)
    if not found:
        raise ValueError(f"{wal}: no committed transaction to tear")
    last = found[-1]
    with wal.open("r+b") as f:
        f.truncate(last.start + FRAME_HEADER + page_size // 2)
    return last
