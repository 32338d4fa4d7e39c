"""The alerts about the nodes: a node's stream of reads (reads lost on the way, a node
that floods, a sequence that does not follow), a node offline or a reader silent and
their clearing, the broker's connection lost and back, the event log that cannot be
written or lost inputs the operator accepted (never a card).

A clearing alert (``node_online``, ``reader_back``, ``broker_back``) carries ``clears``:
the code of the alert it ends, for the same node or antennas.

>>> from hub.app.health import HealthChange, HealthKind
>>> frame = health_alert(HealthChange(HealthKind.NODE_OFFLINE, "pi-north", ("seat1",)), 3.0)
>>> frame["code"], frame["node"], frame["readers"], frame["message"][:25]
('node_offline', 'pi-north', ['seat1'], 'node pi-north is offline:')
>>> health_alert(HealthChange(HealthKind.NODE_ONLINE, "pi-north", ()), 4.0)["clears"]
'node_offline'
"""

from __future__ import annotations

from typing import Any

from feltwire.protocol import seat_of
from feltwire.text import Param, Text
from hub.app.health import CLEARS, HealthChange, HealthKind
from hub.app.ingest import NodeNotice, NoticeKind
from hub.messages import antenna
from hub.views.alerts import alert_frame
from hub.views.frames import Event

BROKER_LOST = "broker_lost"
"""The alert's code: the hub's connection to the broker is gone (no reads arrive)."""
BROKER_BACK = "broker_back"
"""The alert's code: the hub is connected again (it ends ``broker_lost``)."""

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


_HEALTH_TEXTS: dict[HealthKind, tuple[str, str, str]] = {
    HealthKind.NODE_OFFLINE: (
        "alert.node_offline.message", "alert.node_offline.remedy", "warning"
    ),
    HealthKind.NODE_ONLINE: ("alert.node_online.message", "alert.node_online.remedy", "info"),
    HealthKind.READER_SILENT: (
        "alert.reader_silent.message", "alert.reader_silent.remedy", "warning"
    ),
    HealthKind.READER_BACK: ("alert.reader_back.message", "alert.reader_back.remedy", "info"),
}  # fmt: skip
"""Each change's message and remedy keys, and its severity."""


def health_alert(change: HealthChange, now: float) -> Event:
    """The alert frame of a node gone offline or back, a reader silent or back."""
    code = change.kind.value
    values: dict[str, Param] = {"node": change.node}
    if change.kind in (HealthKind.READER_SILENT, HealthKind.READER_BACK):
        values["reader"] = antenna(change.readers[0])
    seats = [s for s in map(seat_of, change.readers) if s is not None]
    message, remedy, severity = _HEALTH_TEXTS[change.kind]
    out = alert_frame(
        code,
        "system",
        Text(message, values),
        Text(remedy, {} if change.kind is HealthKind.READER_BACK else {"node": change.node}),
        now,
        seat=seats[0] if len(change.readers) == 1 and seats else None,
        severity=severity,
        node=change.node,
        readers=list(change.readers),
    )
    cleared = CLEARS.get(change.kind)
    return out if cleared is None else out | {"clears": cleared.value}


def broker_alert(lost: bool, now: float, error: str = "") -> Event:
    """The alert frame of the broker's connection lost (``error``: why) or back."""
    if lost:
        return alert_frame(
            BROKER_LOST,
            "system",
            Text("alert.broker_lost.message", {"error": error or "?"}),
            Text("alert.broker_lost.remedy"),
            now,
        )
    frame = alert_frame(
        BROKER_BACK,
        "system",
        Text("alert.broker_back.message"),
        Text("alert.broker_back.remedy"),
        now,
        severity="info",
    )
    return frame | {"clears": BROKER_LOST}


LOG_FAILED_ALERT = "event_log_failed"
"""The system alert's code: the event log cannot be written (a full disk, a file gone)."""
LOSS_ACCEPTED_ALERT = "event_log_loss_accepted"
"""The alert at start when the operator accepted a loss of the event log
(``feltwire event-log accept-loss``): the table was rebuilt without some inputs."""


def log_failed_alert(reason: str, now: float) -> Event:
    """The alert frame of the event log that cannot be written (``reason``: why)."""
    return alert_frame(
        LOG_FAILED_ALERT,
        "system",
        Text("alert.event_log_failed.message", {"error": reason}),
        Text("alert.event_log_failed.remedy"),
        now,
    )


def loss_accepted_alert(loss: str, now: float) -> Event:
    """The alert frame of a loss of the event log the operator accepted (``loss``: what)."""
    return alert_frame(
        LOSS_ACCEPTED_ALERT,
        "system",
        Text("alert.event_log_loss_accepted.message", {"loss": loss}),
        Text("alert.event_log_loss_accepted.remedy"),
        now,
    )
