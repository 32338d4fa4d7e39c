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

_NODE_TEXTS: dict[NoticeKind, tuple[str, tuple[str, ...], str, tuple[str, ...]]] = {
    NoticeKind.LOST: (
        "alert.reads_lost.message", ("node", "lost", "seqs"), "alert.reads_lost.remedy", ()
    ),
    NoticeKind.FLOOD: (
        "alert.node_flooding.message", ("node", "limited", "seqs"),
        "alert.node_flooding.remedy", (),
    ),
    NoticeKind.SEQUENCE: (
        "alert.node_sequence.message", ("node", "first"),
        "alert.node_sequence.remedy", ("node",),
    ),
}  # fmt: skip
"""Each kind's message and remedy keys, and the values each names."""


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
    message, said, remedy, told = _NODE_TEXTS[notice.kind]
    return alert_frame(
        notice.kind.value,
        "system",
        Text(message, {k: values[k] for k in said}),
        Text(remedy, {k: values[k] for k in told}),
        now,
        node=notice.node,
        readers=[notice.reader] if notice.reader else [],
    )
