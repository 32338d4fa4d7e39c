"""The alerts about a node's stream of reads: reads lost on the way, a node that floods,
a sequence that does not follow (never a card)."""

from __future__ import annotations

from typing import Any

from feltwire.text import Param, Text
from hub.app.ingest import NodeNotice, NoticeKind
from hub.views.alerts import alert_frame
from hub.views.frames import Event

NODE_ALERT_EVERY_S = 60.0
"""An alert about one node's stream (lost reads, a flood …) is repeated at most this often."""

_NODE_PARAMS: dict[NoticeKind, tuple[tuple[str, ...], tuple[str, ...]]] = {
    NoticeKind.LOST: (("node", "lost", "seqs"), ()),
    NoticeKind.FLOOD: (("node", "limited", "seqs"), ()),
    NoticeKind.SEQUENCE: (("node", "first"), ("node",)),
}
"""Which values each kind's message and remedy (``alert.<kind>.message`` / ``.remedy``)
name."""


def node_alert(notice: NodeNotice, stats: dict[str, Any] | None, now: float) -> Event:
    """The alert frame for what the ingest noticed about a node's stream (never a card)."""
    stats = stats or {}
    ranges = stats.get("lost_seqs" if notice.kind is NoticeKind.LOST else "rate_limited_seqs", [])
    seqs = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[-3:]) or "?"
    values: dict[str, Param] = {
        "node": notice.node,
        "lost": int(stats.get("lost", 0)),
        "limited": int(stats.get("rate_limited", 0)),
        "seqs": seqs,
        "first": str(notice.first),
    }
    said, told = _NODE_PARAMS[notice.kind]
    code = notice.kind.value
    return alert_frame(
        code,
        "system",
        Text(f"alert.{code}.message", {k: values[k] for k in said}),
        Text(f"alert.{code}.remedy", {k: values[k] for k in told}),
        now,
        node=notice.node,
        readers=[notice.reader] if notice.reader else [],
    )
