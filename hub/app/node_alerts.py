"""The alerts about a node's stream of reads: reads lost on the way, a node that floods,
a sequence that does not follow (never a card)."""

from __future__ import annotations

from typing import Any

from hub.app.ingest import NodeNotice, NoticeKind
from hub.views.frames import Event

NODE_ALERT_EVERY_S = 60.0
"""An alert about one node's stream (lost reads, a flood …) is repeated at most this often."""

_NODE_TEXT = {
    NoticeKind.LOST: (
        "node {node}: {lost} reads never reached the hub (lately seq {seqs}); each antenna's"
        " next read brings it up to date",
        "check the node's network and the broker (its queue for the hub); tell the floor"
        " if it goes on",
    ),
    NoticeKind.FLOOD: (
        "node {node} sends more messages than the hub takes from one node: {limited}"
        " refused (lately seq {seqs})",
        "a node that floods is faulty or forged: check it, and its credential",
    ),
    NoticeKind.SEQUENCE: (
        "node {node}'s message count (seq {first}) does not follow what the hub took from"
        " it: its reads are refused",
        "if the node's state was reset or restored, an admin resets its sequence"
        " (POST /api/admin/nodes/{node}/reset); otherwise check its credential",
    ),
}


def node_alert(notice: NodeNotice, stats: dict[str, Any] | None, now: float) -> Event:
    """The alert frame for what the ingest noticed about a node's stream (never a card)."""
    stats = stats or {}
    ranges = stats.get("lost_seqs" if notice.kind is NoticeKind.LOST else "rate_limited_seqs", [])
    seqs = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[-3:]) or "?"
    values = {
        "node": notice.node,
        "lost": stats.get("lost", 0),
        "limited": stats.get("rate_limited", 0),
        "seqs": seqs,
        "first": notice.first,
    }
    message, remedy = _NODE_TEXT[notice.kind]
    return {
        "type": "alert",
        "t": now,
        "code": notice.kind.value,
        "severity": "warning",
        "seat": None,
        "rule": "system",
        "node": notice.node,
        "message": message.format(**values),
        "remedy": remedy.format(**values),
        "readers": [notice.reader] if notice.reader else [],
    }
