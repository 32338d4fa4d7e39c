"""The hash chain that links the log's rows (and the audit trail's): pure, no I/O."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

GENESIS = "0" * 64
"""The chain value before the first row (of the event log, of the audit trail)."""


def chain_digest(previous: str, values: Sequence[object]) -> str:
    """The hash chain's next value: SHA-256 (hex) of the previous value and one row's
    fields, as compact JSON. The event log's rows and the audit trail's are chained so.

    >>> chain_digest(GENESIS, ("t1", 1, 2.5)) == chain_digest(GENESIS, ["t1", 1, 2.5])
    True
    """
    text = json.dumps([previous, *values], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def row_chain(
    previous: str, table: str, seq: int, t: float, kind: str, payload: str, wall: float | None
) -> str:
    """The chain of one event-log row, from the chain of the row before."""
    return chain_digest(previous, (table, seq, t, kind, payload, wall))
