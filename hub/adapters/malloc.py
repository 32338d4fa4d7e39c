"""The C allocator of a hub's process: large blocks given back to the system when freed.

glibc's ``malloc`` maps a block of 128 KiB or more on its own and unmaps it when it is
freed — but the first time such a block is freed it raises that threshold to the block's
size (up to 32 MiB), so from then on blocks that large come from the heap and stay
resident after they are freed. Live equity makes and drops numpy arrays of megabytes
for every figure; with the threshold raised, a one-table hub kept ~8 MB of freed
temporaries resident for good (issue 16: 144 → 137 MB). Setting the threshold pins it
(``mallopt`` turns the adjustment off), as ``MALLOC_MMAP_THRESHOLD_`` in the environment
would, for a hub however it is started. The standard library has no ``mallopt``:
:mod:`ctypes` calls glibc's; elsewhere (musl, macOS) nothing is done.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter number (``malloc.h``)."""

MMAP_THRESHOLD = 128 * 1024
"""glibc's default threshold, held: blocks this large or larger are mapped on their own."""


def pin_mmap_threshold(threshold: int = MMAP_THRESHOLD) -> bool:
    """Hold glibc's mmap threshold at ``threshold`` bytes for this process; whether it was
    set (False: not glibc, or glibc refused)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own symbols: its C library's
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_MMAP_THRESHOLD, threshold))
    if not done:
        log.debug("mallopt(M_MMAP_THRESHOLD, %d) refused", threshold)
    return done
