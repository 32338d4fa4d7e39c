"""The hash chain that links the log's rows (and the audit trail's): pure, no I/O."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from json.encoder import encode_basestring as _string

GENESIS = "0" * 64
"""The chain value before the first row (of the event log, of the audit trail)."""

_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""What ``json.dumps(…, separators=(",", ":"), ensure_ascii=False)`` builds at every call,
built once: the same text, in half the time (a start verifies every row of a night)."""


def chain_digest(previous: str, values: Sequence[object]) -> str:
    """The hash chain's next value: SHA-256 (hex) of the previous value and one row's
    fields, as compact JSON. The event log's rows and the audit trail's are chained so.

    >>> chain_digest(GENESIS, ("t1", 1, 2.5)) == chain_digest(GENESIS, ["t1", 1, 2.5])
    True
    """
    text = _COMPACT.encode([previous, *values])
    return hashlib.sha256(text.encode()).hexdigest()


def row_chain(
    previous: str, table: str, seq: int, t: float, kind: str, payload: str, wall: float | None
) -> str:
    """The chain of one event-log row, from the chain of the row before: what
    :func:`chain_digest` makes of ``(table, seq, t, kind, payload, wall)``, its JSON text
    put together directly (a start verifies every row of a night).

    >>> args = ("t1", 7, 12.5, "console", '{"n":"Zoë \\u2665 \\"x\\""}', None)
    >>> row_chain(GENESIS, *args) == chain_digest(GENESIS, args)
    True
    >>> row_chain(GENESIS, "t1", 8, 1.7e9, "tick", "{}", 1.75e9 + 0.123) == chain_digest(
    ...     GENESIS, ("t1", 8, 1.7e9, "tick", "{}", 1.75e9 + 0.123))
    True
    """
    if type(seq) is not int or type(t) is not float or not (wall is None or type(wall) is float):
        return chain_digest(previous, (table, seq, t, kind, payload, wall))
    if not (math.isfinite(t) and (wall is None or math.isfinite(wall))):
        return chain_digest(previous, (table, seq, t, kind, payload, wall))
    text = (
        f"[{_string(previous)},{_string(table)},{seq},{t!r},{_string(kind)},"
        f"{_string(payload)},{'null' if wall is None else repr(wall)}]"
    )
    return hashlib.sha256(text.encode()).hexdigest()
