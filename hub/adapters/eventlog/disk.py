"""Whether an event log's disk can take a write now — asked without writing one.

``/readyz`` says the event log is writable; a failed append says it too late (an input
was refused). :class:`LogDisk` looks ahead, cheaply and without touching the log: the
log's folder is on a read-write filesystem and writable, the log file and its SQLite
companions (``-wal``, ``-shm``) are writable, and the folder's filesystem has more than
``min_free_bytes`` free. It looks at most every ``every_s`` seconds of a monotonic
clock (``/readyz`` may be polled often) and says what it found.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> LogDisk(folder / "events.sqlite", min_free_bytes=0, every_s=5).problem() is None
True
>>> LogDisk(folder / "events.sqlite", min_free_bytes=1 << 50, every_s=5).problem()[-35:]
'free, below the 1073741824 MiB kept'
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["LogDisk"]

MIB = 1 << 20


class LogDisk:
    """The disk under one event log, as :meth:`problem` sees it (see the module)."""

    def __init__(
        self,
        path: Path,
        *,
        min_free_bytes: int,
        every_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``path`` is the log file; ``min_free_bytes`` the free space below which the log
        counts as not writable; ``every_s`` how long an answer is kept (0: none), on
        ``clock`` (monotonic seconds)."""
        self.path = path
        self.min_free_bytes = min_free_bytes
        self.every_s = every_s
        self._clock = clock
        self._looked_at: float | None = None
        self._problem: str | None = None
        self.looks = 0
        """How many times the disk was looked at (not answered from the last look)."""

    def problem(self) -> str | None:
        """None when the log can take a write, as of the last look (at most ``every_s``
        old); otherwise what stands in the way, for the operator."""
        now = self._clock()
        if self._looked_at is None or now - self._looked_at >= self.every_s:
            self._looked_at = now
            self._problem = self._look()
            self.looks += 1
        return self._problem

    def _look(self) -> str | None:
        folder = self.path.parent
        try:
            fs = os.statvfs(folder)
        except OSError as exc:
            return f"{folder}: {exc.strerror or exc}"
        if fs.f_flag & os.ST_RDONLY:
            return f"{folder} is on a read-only filesystem"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"{folder} is not writable"
        for file in (self.path, *(Path(f"{self.path}{s}") for s in ("-wal", "-shm"))):
            if file.exists() and not os.access(file, os.W_OK):
                return f"{file} is not writable"
        free = fs.f_bavail * fs.f_frsize
        if free < self.min_free_bytes:
            return (
                f"{folder}: {free // MIB} MiB free, below the {self.min_free_bytes // MIB} MiB kept"
            )
        return None
