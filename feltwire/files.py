"""Files that hold secrets (what the readers read, hole cards, tokens): the owner's only.

A node's outbox and sequence file, the hub's event log and its seal, the audit trail,
deck files and the producer token all name cards or grant access, so each lives in a
directory only its owner may enter (0700) and is readable by its owner only (0600); a
looser one found on disk is tightened.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp()) / "state"
>>> private_file(d / "events.sqlite")
>>> oct(d.stat().st_mode & 0o777), oct((d / "events.sqlite").stat().st_mode & 0o777)
('0o700', '0o600')
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

__all__ = ["private_dir", "private_file"]


def private_dir(path: Path) -> None:
    """Create the directory ``path`` (and its parents) for its owner only (0700); an
    existing one that others may enter is tightened. One the process does not own
    cannot be: that is logged, and the files inside stay private all the same."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    current = stat.S_IMODE(path.stat().st_mode)
    if current & 0o077:
        try:
            path.chmod(current & 0o700)
        except PermissionError:
            log.warning(
                "state dir %s is mode %o and not ours to tighten: make it 0700", path, current
            )


def private_file(path: Path) -> None:
    """Create ``path`` (empty) when missing, for its owner only (0600), in a private
    directory (:func:`private_dir`); an existing file that others may read or write is
    tightened."""
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
